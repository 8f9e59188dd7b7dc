// Package handoff runs the whole unitd in place of the command line's own
// build for the commands that build does not link (serve, keys,
// accounts, users, units; cmd/unitd/lite.go), early in that build's
// start.
//
// Only the command line's own build imports it. Its initialisation
// depends on nothing of unitd's, so Go runs it before the catalog's, the
// engine's and theirs (apd, expr, YAML): a command it hands off costs
// about 10 ms more than unitd-full run directly, most of it the second
// exec.
package handoff

import (
	"errors"
	"os"
	"strings"
)

// It imports nothing that Go initialises late: with path/filepath, its
// initialisation came after the engine's.

// Full is the file name of the whole unitd, beside the command line's
// own build.
const Full = "unitd-full"

// Commands are the commands unitd-full runs.
var Commands = []string{"serve", "keys", "accounts", "users", "units", "password-worker"}

func init() {
	if len(os.Args) < 2 || !handedOff(os.Args[1]) {
		return
	}
	if path, err := Path(); err == nil {
		// On success this process is unitd-full now; on failure the
		// command's run in lite.go tries again and says why.
		_ = RunInstead(path, os.Args)
	}
}

func handedOff(command string) bool {
	for _, c := range Commands {
		if c == command {
			return true
		}
	}
	return false
}

// Path returns the path of unitd-full beside this binary, or why there
// is none.
func Path() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", errors.New("finding " + Full + ": " + err.Error())
	}
	full := exe[:strings.LastIndexAny(exe, "/"+string(os.PathSeparator))+1] + Full
	switch st, err := os.Stat(full); {
	case err != nil:
		return "", errors.New(Full + ", the whole unitd, is not beside this one (" + full + "): make build builds both")
	case st.IsDir():
		return "", errors.New(full + " is a directory")
	case os.SameFile(st, mustStat(exe)):
		return "", errors.New("this binary is " + Full + " itself: build it without the unitd_lite tag")
	}
	return full, nil
}

// mustStat is the file exe, or nil when it cannot be read.
func mustStat(exe string) os.FileInfo {
	st, _ := os.Stat(exe)
	return st
}
