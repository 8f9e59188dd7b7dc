package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/unitd/unitd/server/keys"
)

// defaultGrace is how long `keys rotate` keeps the old key valid unless
// --grace says otherwise: long enough to deploy the new key and check its
// traffic, short enough that a forgotten old key dies on its own.
const defaultGrace = 24 * time.Hour

const keysUsage = `usage: unitd keys <command> [flags]

Manage the API key file. Keys are printed once, on stdout, and stored only
as SHA-256 hashes. A running server sees every change within a second.

commands:
  create --keys FILE --name NAME [--env test|live]
        create a key and print it alone on stdout
  list --keys FILE [--format text|json]
        list keys: id, name, environment, prefix, status and times
  revoke --keys FILE ID
        revoke a key at once
  rotate --keys FILE ID [--grace 24h]
        create a successor with the same name and environment, print it on
        stdout; the old key stays valid for the grace period (0: revoke now)

--keys defaults to $UNITD_KEYS.
`

var keysSynopsis = map[string]string{
	"create": "create --keys FILE --name NAME [--env test|live]",
	"list":   "list --keys FILE [--format text|json]",
	"revoke": "revoke --keys FILE ID",
	"rotate": "rotate --keys FILE ID [--grace DURATION]",
}

// runKeys runs `unitd keys ARGS` and returns the exit code: 0 on success,
// 1 on failure, 2 on a usage error.
func runKeys(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, keysUsage)
		return 2
	}
	cmd, args := args[0], args[1:]
	var run func(*keysCmd) error
	switch cmd {
	case "create":
		run = keysCreate
	case "list":
		run = keysList
	case "revoke":
		run = keysRevoke
	case "rotate":
		run = keysRotate
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, keysUsage)
		return 0
	default:
		fmt.Fprintf(stderr, "unitd keys: unknown command %q\n\n%s", cmd, keysUsage)
		return 2
	}
	c := &keysCmd{name: cmd, stdout: stdout, stderr: stderr}
	c.flags = flag.NewFlagSet("unitd keys "+cmd, flag.ContinueOnError)
	c.flags.SetOutput(stderr)
	c.flags.Usage = func() {
		fmt.Fprintf(stderr, "usage: unitd keys %s\n", keysSynopsis[cmd])
		c.flags.PrintDefaults()
	}
	c.flags.StringVar(&c.path, "keys", os.Getenv("UNITD_KEYS"), "key `FILE`, from $UNITD_KEYS when not given")
	c.args = args
	err := run(c)
	var u usageError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &u):
		if u.msg != "" {
			fmt.Fprintf(stderr, "unitd keys %s: %s\n", cmd, u.msg)
			c.flags.Usage()
		}
		return 2
	default:
		fmt.Fprintf(stderr, "unitd keys %s: %v\n", cmd, err)
		return 1
	}
}

// keysCmd is one `unitd keys` subcommand being run.
type keysCmd struct {
	name           string
	flags          *flag.FlagSet
	args           []string
	path           string
	stdout, stderr io.Writer
}

// usageError is a mistake in the command line (exit code 2). An empty msg
// means the flag package has already printed the problem.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return usageError{fmt.Sprintf(format, a...)} }

// parse parses flags, which may come before or after the positional
// arguments, checks that there are exactly npos of those, and returns them
// along with the store.
func (c *keysCmd) parse(npos int, posName string) ([]string, *keys.Store, error) {
	pos, err := parseInterspersed(c.flags, c.args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, nil, err
		}
		return nil, nil, usageError{} // already reported by flag
	}
	switch {
	case len(pos) < npos:
		return nil, nil, usagef("missing %s", posName)
	case len(pos) > npos:
		return nil, nil, usagef("unexpected argument %q", pos[npos])
	case c.path == "":
		return nil, nil, usagef("no key file: give --keys FILE or set UNITD_KEYS")
	}
	return pos, &keys.Store{Path: c.path}, nil
}

func keysCreate(c *keysCmd) error {
	name := c.flags.String("name", "", "`NAME` of the key, such as the client it is for (required)")
	env := c.flags.String("env", keys.EnvTest, "environment of the key: test or live")
	_, store, err := c.parse(0, "")
	if err != nil {
		return err
	}
	if *name == "" {
		return usagef("--name is required")
	}
	if !keys.ValidEnv(*env) {
		return usagef("--env must be test or live, not %q", *env)
	}
	key, rec, err := store.Create(*name, *env)
	if err != nil {
		return err
	}
	fmt.Fprintln(c.stdout, key)
	fmt.Fprintf(c.stderr, "Created %s key %s (%q) in %s.\n"+
		"The key above is shown only this once: store it in your secret manager now.\n",
		rec.Env, rec.ID, rec.Name, c.path)
	return nil
}

// listItem is what `keys list` shows of a record: never the hash.
type listItem struct {
	ID        string     `json:"id"`
	Name      string     `json:"name"`
	Env       string     `json:"env"`
	Prefix    string     `json:"prefix"`
	Status    string     `json:"status"`
	CreatedAt time.Time  `json:"created_at"`
	RevokedAt *time.Time `json:"revoked_at,omitempty"`
	ExpiresAt *time.Time `json:"expires_at,omitempty"`
}

func keysList(c *keysCmd) error {
	format := c.flags.String("format", "text", "output `format`: text or json")
	_, store, err := c.parse(0, "")
	if err != nil {
		return err
	}
	if *format != "text" && *format != "json" {
		return usagef("--format must be text or json, not %q", *format)
	}
	recs, err := store.List()
	if err != nil {
		return err
	}
	now := time.Now()
	items := make([]listItem, 0, len(recs))
	for _, r := range recs {
		items = append(items, listItem{
			ID: r.ID, Name: r.Name, Env: r.Env, Prefix: r.Prefix, Status: r.Status(now),
			CreatedAt: r.CreatedAt, RevokedAt: r.RevokedAt, ExpiresAt: r.ExpiresAt,
		})
	}
	if *format == "json" {
		enc := json.NewEncoder(c.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(items)
	}
	if len(items) == 0 {
		fmt.Fprintf(c.stderr, "No keys in %s.\n", c.path)
		return nil
	}
	tw := tabwriter.NewWriter(c.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tENV\tPREFIX\tSTATUS\tCREATED\tREVOKED\tEXPIRES")
	for _, it := range items {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s…\t%s\t%s\t%s\t%s\n", it.ID, it.Name, it.Env, it.Prefix,
			it.Status, formatTime(&it.CreatedAt), formatTime(it.RevokedAt), formatTime(it.ExpiresAt))
	}
	return tw.Flush()
}

func formatTime(t *time.Time) string {
	if t == nil {
		return "-"
	}
	return t.UTC().Format(time.RFC3339)
}

func keysRevoke(c *keysCmd) error {
	pos, store, err := c.parse(1, "key ID (see `unitd keys list`)")
	if err != nil {
		return err
	}
	if err := store.Revoke(pos[0]); err != nil {
		return err
	}
	fmt.Fprintf(c.stderr, "Revoked %s. Requests with it are refused within a second.\n", pos[0])
	return nil
}

func keysRotate(c *keysCmd) error {
	grace := c.flags.Duration("grace", defaultGrace, "how long the old key stays valid (`DURATION`, 0 revokes it now)")
	pos, store, err := c.parse(1, "key ID (see `unitd keys list`)")
	if err != nil {
		return err
	}
	if *grace < 0 {
		return usagef("--grace must not be negative")
	}
	oldID := pos[0]
	key, rec, err := store.Rotate(oldID, *grace)
	if err != nil {
		return err
	}
	fmt.Fprintln(c.stdout, key)
	var b strings.Builder
	fmt.Fprintf(&b, "Created %s key %s (%q) to replace %s; the key above is shown only this once.\n",
		rec.Env, rec.ID, rec.Name, oldID)
	if *grace > 0 {
		until := rec.CreatedAt.Add(*grace)
		if old, err := findRecord(store, oldID); err == nil && old.ExpiresAt != nil {
			until = *old.ExpiresAt // an earlier expiry is kept
		}
		fmt.Fprintf(&b, "The old key %s stays valid until %s.\n", oldID, formatTime(&until))
		fmt.Fprintf(&b, "Next: deploy the new key to its clients, check that their traffic uses it,\n"+
			"then revoke the old one early with: unitd keys revoke --keys %s %s\n", c.path, oldID)
	} else {
		fmt.Fprintf(&b, "The old key %s is revoked now.\n", oldID)
	}
	fmt.Fprint(c.stderr, b.String())
	return nil
}

func findRecord(store *keys.Store, id string) (keys.Record, error) {
	recs, err := store.List()
	if err != nil {
		return keys.Record{}, err
	}
	for _, r := range recs {
		if r.ID == id {
			return r, nil
		}
	}
	return keys.Record{}, keys.ErrNotFound
}
