// Command unitd converts measurements between units: an HTTP service
// (serve) with its account page, a command-line converter (convert),
// catalog tools for review and CI (validate, diff, fmt, docs), and the
// operator's tools for the store of accounts, users and API keys
// (accounts, users, keys).
package main

import (
	"fmt"
	"io"
	"os"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

// unitd is the root of the command line: the table of its commands, in
// the order its usage lists them.
var unitd = &command{
	name:     "unitd",
	synopsis: "<command> [arguments]",
	commands: []*command{
		serveCommand,
		convertCommand,
		validateCommand,
		diffCommand,
		fmtCommand,
		docsCommand,
		keysCommand,
		accountsCommand,
		usersCommand,
		unitsCommand,
		versionCommand,
		passwordWorkerCommand,
	},
}

var versionCommand = &command{
	name:    "version",
	aliases: []string{"--version", "-version"},
	summary: "print the version",
	run: func(c *call) error {
		fmt.Fprintln(c.stdout, "unitd", version)
		return nil
	},
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run runs the command line args and returns the exit code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return unitd.dispatch("unitd", args, stdin, stdout, stderr)
}
