package main

import (
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/unitd/unitd/internal/testlog"
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

// TestMakeRunTwice starts make run's recipe twice in one directory, the
// second with another ADDR alone, as a newcomer would for a second
// instance: both serve, each with its own admin listener and store, and
// the first one's key still works.
func TestMakeRunTwice(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	makefile, err := os.ReadFile(filepath.Join(root, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "Makefile"), makefile, 0o644); err != nil {
		t.Fatal(err)
	}
	// This test binary stands in for bin/unitd (TestMain).
	if err := os.Mkdir(filepath.Join(dir, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(os.Args[0], filepath.Join(dir, "bin", "unitd")); err != nil {
		t.Fatal(err)
	}
	keyLine := regexp.MustCompile(`(?m)^\s*(uc_test_[A-Za-z0-9_-]{43})$`)
	var keys, addrs []string
	for range 2 {
		port := portWithAdmin(t)
		addr := "127.0.0.1:" + strconv.Itoa(port)
		recipe := makeRecipe(t, dir, "run", "ADDR="+addr)
		for _, line := range recipe[:len(recipe)-1] {
			sh := exec.Command("sh", "-c", line)
			sh.Dir = dir
			if out, err := sh.CombinedOutput(); err != nil {
				t.Fatalf("%s: %v\n%s", line, err, out)
			}
		}
		var out, logs testlog.Buffer
		server := exec.Command("sh", "-c", "exec "+recipe[len(recipe)-1])
		server.Dir = dir
		server.Env = append(cleanEnv(), "UNITD_TEST_MAIN=1")
		server.Stdout, server.Stderr = &out, &logs
		if err := server.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan struct{})
		go func() { server.Wait(); close(exited) }()
		t.Cleanup(func() {
			server.Process.Signal(syscall.SIGTERM)
			<-exited
		})
		admin := "http://127.0.0.1:" + strconv.Itoa(port+1532) + "/readyz"
		var key string
		waitFor(t, "make run ADDR="+addr+" to serve", func() bool {
			select {
			case <-exited:
				t.Fatalf("make run ADDR=%s exited:\n%s", addr, logs.String())
			default:
			}
			if m := keyLine.FindStringSubmatch(out.String()); m != nil {
				key = m[1]
			}
			resp, err := http.Get(admin)
			if err != nil {
				return false
			}
			resp.Body.Close()
			return key != "" && resp.StatusCode == http.StatusOK
		})
		keys, addrs = append(keys, key), append(addrs, addr)
	}
	for i, addr := range addrs {
		req, _ := http.NewRequest(http.MethodGet, "http://"+addr+"/v1/convert?value=1&from=in&to=cm", nil)
		req.Header.Set("Authorization", "Bearer "+keys[i])
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("instance %d (%s): its key answers %d", i+1, addr, resp.StatusCode)
		}
	}
	for _, store := range []string{".run/unitd-" + strings.TrimPrefix(addrs[0], "127.0.0.1:") + ".db", ".run/unitd-" + strings.TrimPrefix(addrs[1], "127.0.0.1:") + ".db"} {
		if _, err := os.Stat(filepath.Join(dir, store)); err != nil {
			t.Errorf("no store of its own: %v", err)
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
