//go:build unitd_lite

package main

// The command line's own build
//
// Every command of a Go binary pays at start-up for the package
// initialisation of all the binary links. The server's (SQLite, the
// PostgreSQL and Redis clients, the HTTP server, the account page) took
// about a fifth of `unitd convert 1 m ft`, which needs none of them. So
// make build builds this package twice:
//
//   - bin/unitd, with the unitd_lite tag: conversions and the catalog's
//     tools (convert, validate, diff, fmt, docs, version), and the
//     commands below, which it hands to unitd-full;
//   - bin/unitd-full, without: every command, the one binary that
//     `go build ./cmd/unitd` and the container image build.
//
// The files of the commands that use the store or the server carry the
// constraint !unitd_lite; TestLiteBinary builds both and checks that they
// answer alike, and TestLiteLinksNoServer that this build links none of
// the server.

import (
	"os"

	"github.com/unitd/unitd/cmd/unitd/internal/handoff"
)

// The commands run by unitd-full, with their summaries in the list of
// commands (TestLiteBinary compares the two builds' lists). Package
// handoff runs unitd-full for them before this binary has initialised
// the rest of itself; their run here says why it could not.
var (
	serveCommand          = delegated("serve", "run the HTTP API")
	keysCommand           = delegated("keys", "manage API keys")
	accountsCommand       = delegated("accounts", "manage accounts (API consumers)")
	usersCommand          = delegated("users", "manage the people who sign in on the account page")
	unitsCommand          = delegated("units", "manage an account's units of its own")
	passwordWorkerCommand = delegated("password-worker", "")
)

// delegated is a command that unitd-full runs, with all its arguments.
func delegated(name, summary string) *command {
	return &command{name: name, summary: summary, synopsis: "[arguments]", run: runFull}
}

// runFull runs the command line in unitd-full, in place of this process
// where the system can: the same process, standard streams and signals.
func runFull(c *call) error {
	full, err := handoff.Path()
	if err != nil {
		return err
	}
	return handoff.RunInstead(full, append([]string{os.Args[0], c.cmd.name}, c.args...))
}
