// Command unitd converts measurements between units: an HTTP service
// (serve) with its account page, a command-line converter (convert),
// catalog tools for review and CI (validate, diff, fmt, docs), and the
// operator's tools for the store of accounts, users and API keys
// (accounts, users, keys).
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

const usage = `usage: unitd <command> [arguments]

commands:
  serve      run the HTTP API
  convert    convert a value: unitd convert 12.5 ft m
  validate   check a catalog directory: unitd validate catalog/data
  diff       compare two catalogs (directories or git revisions): unitd diff main HEAD
  fmt        lay catalog files out canonically: unitd fmt -l catalog/data
  docs       print the Markdown reference of a catalog: unitd docs --out docs/units.md
  keys       manage API keys
  accounts   manage accounts (API consumers)
  users      manage the people who sign in on the account page
  units      manage an account's units of its own: list, put, delete, export
  version    print the version

Run 'unitd <command> -h' for the flags of a command.
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run runs the command line args and returns the exit code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	cmd, args := args[0], args[1:]
	switch cmd {
	case "serve":
		return runServe(args, stdout, stderr)
	case "convert":
		return runConvert(args, stdin, stdout, stderr)
	case "validate":
		return runValidate(args, stdout, stderr)
	case "diff":
		return runDiff(args, stdout, stderr)
	case "fmt":
		return runFmt(args, stdout, stderr)
	case "docs":
		return runDocs(args, stdout, stderr)
	case "keys":
		return runKeys(args, stdout, stderr)
	case "accounts":
		return runAccounts(args, stdout, stderr)
	case "users":
		return runUsers(args, stdout, stderr)
	case "units":
		return runUnits(args, stdout, stderr)
	case passwordWorkerCommand: // not in the usage: unitd serve runs it
		return runPasswordWorker(args, stdin, stdout, stderr)
	case "version", "--version", "-version":
		fmt.Fprintln(stdout, "unitd", version)
		return 0
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "unitd: unknown command %q\n\n%s", cmd, usage)
	return 2
}

// parseInterspersed parses flags that may stand before, between or after
// positional arguments. A negative number ("-40") and a lone "-" are
// positional, not flags; "--" ends the flags.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for len(args) > 0 {
		a := args[0]
		if a == "--" {
			return append(pos, args[1:]...), nil
		}
		if !isFlag(a) {
			pos = append(pos, a)
			args = args[1:]
			continue
		}
		// The run of flags (and their values) up to the next positional.
		n := 0
		for n < len(args) && isFlag(args[n]) && args[n] != "--" {
			name, _, hasValue := strings.Cut(strings.TrimLeft(args[n], "-"), "=")
			n++
			if f := fs.Lookup(name); f != nil && !hasValue && !isBoolFlag(f) && n < len(args) {
				n++ // the flag's value, whatever it looks like
			}
		}
		if err := fs.Parse(args[:n]); err != nil {
			return nil, err
		}
		if rest := fs.Args(); len(rest) > 0 {
			return nil, errors.New("unexpected argument " + rest[0])
		}
		args = args[n:]
	}
	return pos, nil
}

func isFlag(s string) bool {
	return strings.HasPrefix(s, "-") && s != "-" && !isNumber(s)
}

func isBoolFlag(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// isNumber reports whether s starts like a negative decimal number.
func isNumber(s string) bool {
	return len(s) > 1 && s[0] == '-' && (s[1] >= '0' && s[1] <= '9' || s[1] == '.')
}

// envDefault returns the environment variable's value, or def.
func envDefault(name, def string) string {
	if v, ok := os.LookupEnv(name); ok && v != "" {
		return v
	}
	return def
}

// printFlags is flag.PrintDefaults with flags written --name, as the
// README and the usage lines write them.
func printFlags(fs *flag.FlagSet) {
	fs.VisitAll(func(f *flag.Flag) {
		name, usage := flag.UnquoteUsage(f)
		line := "  --" + f.Name
		if name != "" {
			line += " " + name
		}
		line += "\n    \t" + strings.ReplaceAll(usage, "\n", "\n    \t")
		if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" {
			line += " (default " + strconv.Quote(f.DefValue) + ")"
		}
		fmt.Fprintln(fs.Output(), line)
	})
}
