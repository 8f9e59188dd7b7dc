//go:build !unitd_lite

package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/unitd/unitd/account"
	"github.com/unitd/unitd/apikey"
	"github.com/unitd/unitd/store"
)

var keysCommand = &command{
	name:     "keys",
	synopsis: "<command> [flags]",
	summary:  "manage API keys",
	help: `Manage API keys in the store. Keys are printed once, on stdout, and stored
only as SHA-256 hashes. Running servers load a change within a second;
create, revoke and rotate wait (--wait, default 10s) until every server
that reads the store reports it has, and fail naming any that has not.

Every command takes --store FILE|URL (default unitd.db, $UNITD_STORE) and
--keys FILE ($UNITD_KEYS): a *.json key file of earlier versions is
imported once into the store (FILE.db beside it unless --store is given);
any other name is the store itself.`,
	commands: []*command{
		{
			name:     "create",
			synopsis: "[--store FILE|URL] [--keys FILE] --name NAME [--env test|live] [--account NAME] [--scope SCOPE] [--wait DURATION]",
			summary: "create a key and print it alone on stdout; a key converts only,\n" +
				"unless given scopes: units:write lets it change its account's units",
			store: createStore,
			run:   keysCreate,
		},
		{
			name:     "list",
			synopsis: "[--store FILE|URL] [--keys FILE] [--account NAME] [--format text|json]",
			summary:  "list keys: id, name, environment, prefix, status and times",
			store:    openStore,
			run:      keysList,
		},
		{
			name:     "revoke",
			synopsis: "[--store FILE|URL] [--keys FILE] [--wait DURATION] ID",
			summary:  "revoke a key at once",
			store:    openStore,
			run:      keysRevoke,
		},
		{
			name:     "rotate",
			synopsis: "[--store FILE|URL] [--keys FILE] [--grace DURATION] [--wait DURATION] ID",
			summary: "create a successor with the same name and environment, print it on\n" +
				"stdout; the old key stays valid for the grace period (--grace, default\n" +
				"24h; 0 revokes it now, at most 168h)",
			store: openStore,
			run:   keysRotate,
		},
	},
}

func keysCreate(c *call) error {
	name := c.flags.String("name", "", "`NAME` of the key, such as the client it is for (required)")
	env := c.flags.String("env", apikey.EnvTest, "environment of the key: test or live")
	acctName := c.flags.String("account", account.OperatorAccountName, "`NAME` of the account the key belongs to (the default account is created when missing)")
	scope := c.flags.String("scope", "", "what the key may do beyond converting: `SCOPES`, comma-separated ("+strings.Join(apikey.Scopes, ", ")+")")
	wait := c.waitFlag()
	if _, err := c.parseN(0, ""); err != nil {
		return err
	}
	if *name == "" {
		return usagef("--name is required")
	}
	scopes, err := apikey.ParseScopes(*scope)
	if err != nil {
		return usagef("--scope: %v", err)
	}
	if !apikey.ValidEnv(*env) {
		return usagef("--env must be test or live, not %q", *env)
	}
	return c.withStore(func(ctx context.Context, db *store.DB) error {
		// Without --account the key goes to the operator's account, which is
		// created the first time: said on stderr, so that no account appears
		// unannounced.
		named := false
		c.flags.Visit(func(f *flag.Flag) { named = named || f.Name == "account" })
		_, lookup := db.AccountByName(ctx, *acctName)
		acct, err := accountByName(ctx, db, *acctName, *acctName == account.OperatorAccountName)
		if err != nil {
			return err
		}
		key, rec, err := db.CreateKey(ctx, acct.ID, *name, *env, scopes, account.Operator)
		if err != nil {
			return err
		}
		fmt.Fprintln(c.stdout, key)
		switch created := errors.Is(lookup, account.ErrNotFound); {
		case !named && created:
			fmt.Fprintf(c.stderr, "No --account given: created the account %q for this key (--account NAME names another; unitd accounts list shows them).\n", acct.Name)
		case !named:
			fmt.Fprintf(c.stderr, "No --account given: the key belongs to the account %q (--account NAME names another).\n", acct.Name)
		case created:
			fmt.Fprintf(c.stderr, "Created the account %q.\n", acct.Name)
		}
		if len(rec.Scopes) > 0 {
			fmt.Fprintf(c.stderr, "The key may also: %s.\n", strings.Join(rec.Scopes, ", "))
		}
		fmt.Fprintf(c.stderr, "Created %s key %s (%q) for account %q in %s.\n"+
			"The key above is shown only this once: store it in your secret manager now.\n",
			rec.Env, rec.ID, rec.Name, acct.Name, c.where())
		return confirmTakenUp(ctx, db, c.stderr, *wait)
	})
}

// waitFlag registers --wait, shared by the commands that change keys.
func (c *call) waitFlag() *time.Duration {
	return c.flags.Duration("wait", defaultWait, "how long to wait for the running servers to take up the change (`DURATION`; 0 does not check)")
}

// listItem is what `keys list` shows of a key: never the hash.
type listItem struct {
	ID         string     `json:"id"`
	Account    string     `json:"account"`
	Name       string     `json:"name"`
	Env        string     `json:"env"`
	Prefix     string     `json:"prefix"`
	Status     string     `json:"status"`
	Scopes     []string   `json:"scopes"`
	CreatedAt  time.Time  `json:"created_at"`
	LastUsedAt *time.Time `json:"last_used_at,omitempty"`
	RevokedAt  *time.Time `json:"revoked_at,omitempty"`
	ExpiresAt  *time.Time `json:"expires_at,omitempty"`
}

func keysList(c *call) error {
	format := formatFlag(c.flags, "output `format`: text or json", "text", "json")
	acctName := c.flags.String("account", "", "list only the keys of account `NAME`")
	if _, err := c.parseN(0, ""); err != nil {
		return err
	}
	return c.withStore(func(ctx context.Context, db *store.DB) error {
		accts, err := db.Accounts(ctx)
		if err != nil {
			return err
		}
		now := time.Now()
		items := []listItem{}
		found := *acctName == ""
		for _, a := range accts {
			if *acctName != "" && a.Name != *acctName {
				continue
			}
			found = true
			ks, err := db.Keys(ctx, a.ID)
			if err != nil {
				return err
			}
			for _, k := range ks {
				items = append(items, listItem{
					ID: k.ID, Account: a.Name, Name: k.Name, Env: k.Env, Prefix: k.Prefix, Status: k.Status(now), Scopes: append([]string{}, k.Scopes...),
					CreatedAt: k.CreatedAt, LastUsedAt: k.LastUsedAt, RevokedAt: k.RevokedAt, ExpiresAt: k.ExpiresAt,
				})
			}
		}
		if !found {
			return fmt.Errorf("account %q: %w", *acctName, account.ErrNotFound)
		}
		slices.SortStableFunc(items, func(a, b listItem) int { return a.CreatedAt.Compare(b.CreatedAt) })
		if *format == "json" {
			enc := json.NewEncoder(c.stdout)
			enc.SetIndent("", "  ")
			return enc.Encode(items)
		}
		if len(items) == 0 {
			fmt.Fprintf(c.stderr, "No keys in %s.\n", c.where())
			return nil
		}
		tw := tabwriter.NewWriter(c.stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tNAME\tENV\tPREFIX\tSTATUS\tCREATED\tLAST USED\tREVOKED\tEXPIRES\tACCOUNT")
		for _, it := range items {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s…\t%s\t%s\t%s\t%s\t%s\t%s\n", it.ID, it.Name, it.Env, it.Prefix,
				it.Status, formatTime(&it.CreatedAt), formatTime(it.LastUsedAt), formatTime(it.RevokedAt), formatTime(it.ExpiresAt), it.Account)
		}
		return tw.Flush()
	})
}

func formatTime(t *time.Time) string {
	if t == nil {
		return "-"
	}
	return t.UTC().Format(time.RFC3339)
}

func keysRevoke(c *call) error {
	wait := c.waitFlag()
	pos, err := c.parseN(1, "key ID (see `unitd keys list`)")
	if err != nil {
		return err
	}
	return c.withStore(func(ctx context.Context, db *store.DB) error {
		acct, err := db.KeyAccount(ctx, pos[0])
		if err != nil {
			return noSuchKey(pos[0], err)
		}
		if err := db.RevokeKey(ctx, acct, pos[0], account.Operator); err != nil {
			return err
		}
		fmt.Fprintf(c.stderr, "Revoked %s.\n", pos[0])
		return confirmTakenUp(ctx, db, c.stderr, *wait)
	})
}

func noSuchKey(id string, err error) error {
	if errors.Is(err, account.ErrNotFound) {
		return fmt.Errorf("no such key %s", id)
	}
	return err
}

func keysRotate(c *call) error {
	grace := c.flags.Duration("grace", account.DefaultGrace, "how long the old key stays valid (`DURATION`, 0 revokes it now, at most 168h)")
	wait := c.waitFlag()
	pos, err := c.parseN(1, "key ID (see `unitd keys list`)")
	if err != nil {
		return err
	}
	if *grace < 0 {
		return usagef("--grace must not be negative")
	}
	if *grace > account.MaxGrace {
		return usagef("--grace must be at most 168h (7 days)")
	}
	return c.withStore(func(ctx context.Context, db *store.DB) error {
		oldID := pos[0]
		acct, err := db.KeyAccount(ctx, oldID)
		if err != nil {
			return noSuchKey(oldID, err)
		}
		key, rec, err := db.RotateKey(ctx, acct, oldID, *grace, account.Operator)
		if err != nil {
			return err
		}
		fmt.Fprintln(c.stdout, key)
		var b strings.Builder
		fmt.Fprintf(&b, "Created %s key %s (%q) to replace %s; the key above is shown only this once.\n",
			rec.Env, rec.ID, rec.Name, oldID)
		if old, err := db.Key(ctx, acct, oldID); err == nil && old.ExpiresAt != nil && old.RevokedAt == nil {
			fmt.Fprintf(&b, "The old key %s stays valid until %s.\n", oldID, formatTime(old.ExpiresAt))
			fmt.Fprintf(&b, "Next: deploy the new key to its clients, check that their traffic uses it\n"+
				"(on the account page, or unitd keys list), then revoke the old one early with:\n  unitd keys revoke %s%s\n", c.storeArgs(), oldID)
		} else {
			fmt.Fprintf(&b, "The old key %s is revoked now.\n", oldID)
		}
		fmt.Fprint(c.stderr, b.String())
		return confirmTakenUp(ctx, db, c.stderr, *wait)
	})
}
