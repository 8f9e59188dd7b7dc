package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/unitd/unitd/cmd/unitd/internal/handoff"
)

// TestLiteLinksNoServer: the command line's own build (lite.go) links
// none of the server, the store, their drivers or an HTTP server, whose
// initialisation every command of a binary pays for.
func TestLiteLinksNoServer(t *testing.T) {
	deps := runFields(t, ".", "go", "list", "-tags", "unitd_lite", "-deps", ".")
	if len(deps) < 50 {
		t.Fatalf("only %d packages listed", len(deps))
	}
	for _, d := range deps {
		for _, server := range []string{"github.com/unitd/unitd/server", "github.com/unitd/unitd/store", "github.com/unitd/unitd/account",
			"modernc.org/sqlite", "github.com/jackc/pgx/v5", "github.com/gomodule/redigo", "net/http"} {
			if d == server || strings.HasPrefix(d, server+"/") {
				t.Errorf("the unitd_lite build links %s", d)
			}
		}
	}
}

// TestHandoffCommands: package handoff hands off the commands whose
// files the command line's own build leaves out (!unitd_lite), in the
// order of unitd's table.
func TestHandoffCommands(t *testing.T) {
	var server []string
	for _, c := range []*command{serveCommand, keysCommand, accountsCommand, usersCommand, unitsCommand, passwordWorkerCommand} {
		server = append(server, c.name)
	}
	if !slices.Equal(server, handoff.Commands) {
		t.Errorf("handoff.Commands %q, the commands of the server's files %q", handoff.Commands, server)
	}
}

// TestLiteBinary: bin/unitd as make build builds it (the unitd_lite tag)
// answers every command line as unitd-full beside it does, on its own or
// by running unitd-full (serve, keys, …), with the same output and exit
// code; without unitd-full it says what it misses.
func TestLiteBinary(t *testing.T) {
	dir := t.TempDir()
	lite, full := filepath.Join(dir, "unitd"), filepath.Join(dir, handoff.Full)
	for _, b := range [][]string{{"-tags", "unitd_lite", "-o", lite}, {"-o", full}} {
		build := exec.Command("go", append(append([]string{"build"}, b...), ".")...)
		build.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("go build %v: %v\n%s", b, err, out)
		}
	}
	run := func(bin string, args ...string) (string, int) {
		cmd := exec.Command(bin, args...)
		cmd.Dir = dir
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		var exit *exec.ExitError
		switch {
		case errors.As(err, &exit):
			return out.String(), exit.ExitCode()
		case err != nil:
			t.Fatalf("%s %v: %v", bin, args, err)
		}
		return out.String(), 0
	}
	catalog, err := filepath.Abs(filepath.Join("..", "..", "catalog", "data"))
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"help"}, {"version"}, {"nonsense"},
		{"convert", "12.5", "ft", "m"}, {"convert", "5 ft 3 in to cm"}, {"convert", "1", "m", "parsec-ish"}, {"convert", "-h"},
		{"validate", catalog},
		{"serve", "--no-such-flag"}, {"keys", "-h"}, {"keys", "list", "--store", filepath.Join(dir, "none.db")},
		{"accounts", "nonsense"}, {"users", "-h"}, {"units", "-h"},
	} {
		gotOut, gotCode := run(lite, args...)
		wantOut, wantCode := run(full, args...)
		if gotOut != wantOut || gotCode != wantCode {
			t.Errorf("unitd %s: the lite build says (exit %d)\n%s\nunitd-full says (exit %d)\n%s", strings.Join(args, " "), gotCode, gotOut, wantCode, wantOut)
		}
	}
	if err := os.Remove(full); err != nil {
		t.Fatal(err)
	}
	if out, code := run(lite, "serve"); code != 1 || !strings.Contains(out, handoff.Full) || !strings.Contains(out, "make build") {
		t.Errorf("serve without %s: exit %d, %q", handoff.Full, code, out)
	}
	if out, code := run(lite, "convert", "1", "m", "ft"); code != 0 || !strings.HasPrefix(out, "3.2808") {
		t.Errorf("convert without %s: exit %d, %q", handoff.Full, code, out)
	}
}
