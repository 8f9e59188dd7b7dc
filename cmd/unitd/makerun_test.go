package main

import (
	"net"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestMakeRunVariables: make run's admin listener follows ADDR, a port
// other than 8080 gets a store of its own, and CATALOG names a catalog
// directory to serve.
func TestMakeRunVariables(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		vars      []string
		want      []string
		catalogue bool
	}{
		{nil, []string{"--addr 127.0.0.1:8080 ", "--admin-addr 127.0.0.1:9612 ", "--store .run/unitd.db "}, false},
		{[]string{"ADDR=127.0.0.1:8090"}, []string{"--addr 127.0.0.1:8090 ", "--admin-addr 127.0.0.1:9622 ", "--store .run/unitd-8090.db "}, false},
		{[]string{"ADDR=0.0.0.0:9000", "ADMIN_ADDR=127.0.0.1:9700"}, []string{"--addr 0.0.0.0:9000 ", "--admin-addr 127.0.0.1:9700 ", "--store .run/unitd-9000.db "}, false},
		{[]string{"CATALOG=catalog/data"}, []string{"--addr 127.0.0.1:8080 ", "--catalog catalog/data "}, true},
	} {
		recipe := makeRecipe(t, root, "run", tt.vars...)
		serve := recipe[len(recipe)-1]
		for _, w := range tt.want {
			if !strings.Contains(serve, w) {
				t.Errorf("make run %s: %q lacks %q", strings.Join(tt.vars, " "), serve, w)
			}
		}
		if got := strings.Contains(serve, "--catalog"); got != tt.catalogue {
			t.Errorf("make run %s: %q: --catalog %v, want %v", strings.Join(tt.vars, " "), serve, got, tt.catalogue)
		}
	}
}

// portWithAdmin returns a free loopback port whose make run admin port
// (+1532) is free too.
func portWithAdmin(t *testing.T) int {
	t.Helper()
	for range 50 {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		port := ln.Addr().(*net.TCPAddr).Port
		admin, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port+1532))
		ln.Close()
		if err == nil {
			admin.Close()
			return port
		}
	}
	t.Fatal("no free pair of loopback ports")
	return 0
}
