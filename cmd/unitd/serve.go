package main

import (
	"fmt"
	"io"
)

func runServe(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "unitd serve: not built yet")
	return 1
}
