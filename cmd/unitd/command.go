package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
)

// A command is one command of unitd: a top-level one (unitd serve) or one
// of a group's (unitd keys create). The root, unitd itself, is a group:
// its commands are the one table that dispatch runs and that its usage
// lists. Every command that is not a group is run the same way: with a
// fresh flag set named after it, whose usage is the command's usage line,
// its help and its flags; run defines its flags on that set, parses them
// (call.parse) and returns an error that says the exit code (call.exit).
type command struct {
	name    string
	aliases []string // other names it answers to (version: --version)
	// synopsis is its usage line after its name: the arguments and
	// flags it takes; further lines each start with "       unitd …".
	synopsis string
	// summary is what it does, in its group's list of commands; a
	// command without one is run but not listed (password-worker).
	summary string
	// help is what the usage says after the usage line: before the flags
	// of a command, before the list of a group's commands.
	help string
	// store says whether it uses the store, and how: such a command has
	// the --store and --keys flags, and call.withStore opens the store.
	store storeUse
	// run runs a command that is not a group.
	run func(c *call) error
	// commands are a group's commands: unitd GROUP NAME runs the one
	// named NAME.
	commands []*command
}

// storeUse is how a command uses the store.
type storeUse int

const (
	noStore     storeUse = iota
	openStore            // the store must be there (with a JSON key file to fill it, if any)
	createStore          // the store is made if it is not there
)

// defaultStore is the SQLite file used when neither --store nor --keys
// names one.
const defaultStore = "unitd.db"

// storeFlags are the --store and --keys flags that every command touching
// the store shares (command.store).
type storeFlags struct {
	store, keys string
}

func (f *storeFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.store, "store", os.Getenv("UNITD_STORE"), "the store of accounts and keys: a SQLite `FILE` or a postgres://… URL; default "+defaultStore+" (env UNITD_STORE)")
	fs.StringVar(&f.keys, "keys", os.Getenv("UNITD_KEYS"), "a JSON key `FILE` (*.json) of earlier versions, imported into the store once; any other name is the store (env UNITD_KEYS)")
}

// dispatch runs the group g, called path on the command line ("unitd",
// "unitd keys"), with args: the command args[0] names, or the group's
// usage for help. It returns the exit code: 0 on success, 1 on failure, 2
// on a usage error.
func (g *command) dispatch(path string, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, g.usage(path))
		return 2
	}
	name, args := args[0], args[1:]
	switch name {
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, g.usage(path))
		return 0
	}
	cmd := g.lookup(name)
	if cmd == nil {
		fmt.Fprintf(stderr, "%s: unknown command %q\n\n%s", path, name, g.usage(path))
		return 2
	}
	path += " " + cmd.name
	if cmd.commands != nil {
		return cmd.dispatch(path, args, stdin, stdout, stderr)
	}
	c := newCall(cmd, path, args, stdin, stdout, stderr)
	return c.exit(cmd.run(c))
}

// lookup returns g's command called name, or nil.
func (g *command) lookup(name string) *command {
	for _, cmd := range g.commands {
		if cmd.name == name || slices.Contains(cmd.aliases, name) {
			return cmd
		}
	}
	return nil
}

// usage is the usage of g, a group called path: its usage line, its help
// and the list of its commands, made from the table dispatch runs.
func (g *command) usage(path string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "usage: %s %s\n\n", path, g.synopsis)
	if g.help != "" {
		b.WriteString(strings.TrimRight(g.help, "\n") + "\n\n")
	}
	b.WriteString("commands:\n")
	for _, cmd := range g.commands {
		if cmd.summary == "" {
			continue
		}
		lines := strings.Split(cmd.summary, "\n")
		fmt.Fprintf(&b, "  %-10s %s\n", cmd.name, lines[0])
		for _, l := range lines[1:] {
			fmt.Fprintf(&b, "%13s%s\n", "", l)
		}
	}
	fmt.Fprintf(&b, "\nRun '%s <command> -h' for the flags of a command.\n", path)
	return b.String()
}

// call is one run of a command: its flag set, arguments and files.
type call struct {
	cmd            *command
	path           string // how messages name it: "unitd keys create"
	flags          *flag.FlagSet
	args           []string
	store          storeFlags // with cmd.store
	stdin          io.Reader
	stdout, stderr io.Writer
}

func newCall(cmd *command, path string, args []string, stdin io.Reader, stdout, stderr io.Writer) *call {
	c := &call{cmd: cmd, path: path, args: args, stdin: stdin, stdout: stdout, stderr: stderr}
	c.flags = flag.NewFlagSet(path, flag.ContinueOnError)
	c.flags.SetOutput(stderr)
	c.flags.Usage = c.usage
	if cmd.store != noStore {
		c.store.register(c.flags)
	}
	return c
}

// usage prints the command's usage line, its help and its flags.
func (c *call) usage() {
	fmt.Fprintf(c.stderr, "usage: %s %s\n", c.path, c.cmd.synopsis)
	if c.cmd.help != "" {
		fmt.Fprintf(c.stderr, "\n%s\n\n", strings.TrimRight(c.cmd.help, "\n"))
	}
	printFlags(c.flags)
}

// parse parses the flags, which may stand before, between or after the
// positional arguments, and returns the positional ones. A flag it cannot
// parse is a usage error that the flag package has already reported with
// the usage, and that exit names once more after it.
func (c *call) parse() ([]string, error) {
	pos, err := parseInterspersed(c.flags, c.args)
	if err != nil && !errors.Is(err, flag.ErrHelp) {
		return nil, exitError{2, err}
	}
	return pos, err
}

// parseN is parse for a command that takes exactly n positional
// arguments, called what in the message when one is missing.
func (c *call) parseN(n int, what string) ([]string, error) {
	pos, err := c.parse()
	switch {
	case err != nil:
		return nil, err
	case len(pos) < n:
		return nil, usagef("missing %s", what)
	case len(pos) > n:
		return nil, usagef("unexpected argument %q", pos[n])
	}
	return pos, nil
}

// exit turns what run returned into the exit code, reporting it as
// "unitd CMD: message" on stderr:
//
//   - nil, and flag.ErrHelp (the usage was asked for, and printed): 0;
//   - a usageError: its message and the usage, 2;
//   - an exitError: its message, if any, and its code;
//   - any other error: its message, 1.
func (c *call) exit(err error) int {
	var u usageError
	var e exitError
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &u):
		fmt.Fprintf(c.stderr, "%s: %s\n", c.path, u.msg)
		c.usage()
		return 2
	case errors.As(err, &e):
		if e.err != nil {
			fmt.Fprintf(c.stderr, "%s: %v\n", c.path, e.err)
		}
		return e.code
	default:
		fmt.Fprintf(c.stderr, "%s: %v\n", c.path, err)
		return 1
	}
}

// usageError is a mistake in the command line: exit code 2, with the
// usage.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return usageError{fmt.Sprintf(format, a...)} }

// exitError ends a command with code, saying err if it is not nil: the
// command has reported the rest itself (a validation report, a diff).
type exitError struct {
	code int
	err  error
}

func (e exitError) Error() string {
	if e.err == nil {
		return "exit status " + strconv.Itoa(e.code)
	}
	return e.err.Error()
}

func (e exitError) Unwrap() error { return e.err }

// badArgs makes err, a mistake in the command line that the usage need
// not follow, end the command with code 2.
func badArgs(err error) error {
	var e exitError
	if err == nil || errors.Is(err, flag.ErrHelp) || errors.As(err, &e) {
		return err
	}
	return exitError{2, err}
}

// exitf ends a command with code and the message.
func exitf(code int, format string, a ...any) error {
	return exitError{code, fmt.Errorf(format, a...)}
}

// exitCode ends a command with code and no message of its own; 0 is
// success.
func exitCode(code int) error {
	if code == 0 {
		return nil
	}
	return exitError{code: code}
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

// formatFlag registers --format on fs, restricted to formats (the first is
// the default): any other value is a usage error that lists them.
func formatFlag(fs *flag.FlagSet, usage string, formats ...string) *string {
	v := &choiceValue{value: formats[0], choices: formats}
	fs.Var(v, "format", usage)
	return &v.value
}

// choiceValue is a flag value that must be one of choices.
type choiceValue struct {
	value   string
	choices []string
}

func (v *choiceValue) String() string { return v.value }

func (v *choiceValue) Set(s string) error {
	if !slices.Contains(v.choices, s) {
		return fmt.Errorf("unknown format %q (%s)", s, strings.Join(v.choices, ", "))
	}
	v.value = s
	return nil
}
