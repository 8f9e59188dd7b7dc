package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"

	"github.com/unitd/unitd/store"
)

// subcommand is one subcommand of `unitd keys|accounts|users`.
type subcommand struct {
	synopsis string // its usage line after "unitd GROUP "
	run      func(*cliCmd) error
}

// runGroup runs `unitd GROUP ARGS`: the subcommand ARGS[0] of cmds, or the
// group's usage for help. It returns the exit code: 0 on success, 1 on
// failure, 2 on a usage error.
func runGroup(group, usage string, cmds map[string]subcommand, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	name, args := args[0], args[1:]
	switch name {
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	sub, ok := cmds[name]
	if !ok {
		fmt.Fprintf(stderr, "unitd %s: unknown command %q\n\n%s", group, name, usage)
		return 2
	}
	c := newCLICmd(group, name, sub.synopsis, args, stdout, stderr)
	return c.finish(sub.run(c))
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

// cliCmd is one subcommand of `unitd keys|accounts|users` being run: its
// flags (the store flags among them), arguments and output.
type cliCmd struct {
	group, name    string
	flags          *flag.FlagSet
	store          storeFlags
	args           []string
	stdout, stderr io.Writer
}

func newCLICmd(group, name, synopsis string, args []string, stdout, stderr io.Writer) *cliCmd {
	c := &cliCmd{group: group, name: name, args: args, stdout: stdout, stderr: stderr}
	c.flags = flag.NewFlagSet("unitd "+group+" "+name, flag.ContinueOnError)
	c.flags.SetOutput(stderr)
	c.flags.Usage = func() {
		fmt.Fprintf(stderr, "usage: unitd %s %s\n", group, synopsis)
		printFlags(c.flags)
	}
	c.store.register(c.flags)
	return c
}

// finish turns a subcommand's error into its exit code, reporting it.
func (c *cliCmd) finish(err error) int {
	var u usageError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &u):
		if u.msg != "" {
			fmt.Fprintf(c.stderr, "unitd %s %s: %s\n", c.group, c.name, u.msg)
			c.flags.Usage()
		}
		return 2
	default:
		fmt.Fprintf(c.stderr, "unitd %s %s: %v\n", c.group, c.name, err)
		return 1
	}
}

// usageError is a mistake in the command line (exit code 2). An empty msg
// means the flag package has already printed the problem.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return usageError{fmt.Sprintf(format, a...)} }

// parse parses flags, which may come before or after the positional
// arguments, and checks that there are exactly npos of those.
func (c *cliCmd) parse(npos int, posName string) ([]string, error) {
	pos, err := parseInterspersed(c.flags, c.args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, err
		}
		return nil, usageError{} // already reported by flag
	}
	switch {
	case len(pos) < npos:
		return nil, usagef("missing %s", posName)
	case len(pos) > npos:
		return nil, usagef("unexpected argument %q", pos[npos])
	}
	return pos, nil
}

// open opens the existing store the flags name; what it imports is
// logged to stderr.
func (c *cliCmd) open(ctx context.Context) (*store.DB, error) {
	return c.store.open(ctx, c.storeLogger(), false)
}

// openOrCreate is open for commands that create: a missing store is made.
func (c *cliCmd) openOrCreate(ctx context.Context) (*store.DB, error) {
	return c.store.open(ctx, c.storeLogger(), true)
}

func (c *cliCmd) storeLogger() *slog.Logger {
	return slog.New(slog.NewTextHandler(c.stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
}

// where names the store for messages.
func (c *cliCmd) where() string {
	loc, _ := c.store.resolve()
	return describeStore(loc)
}

// storeArgs repeats the store flags given, for a suggested next command.
func (c *cliCmd) storeArgs() string {
	var b strings.Builder
	if c.store.store != "" {
		fmt.Fprintf(&b, "--store %s ", describeStore(c.store.store))
	}
	if c.store.keys != "" {
		fmt.Fprintf(&b, "--keys %s ", c.store.keys)
	}
	return b.String()
}
