//go:build !unitd_lite

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/unitd/unitd/account"
	"github.com/unitd/unitd/store"
)

var accountsCommand = &command{
	name:     "accounts",
	synopsis: "<command> [flags]",
	summary:  "manage accounts (API consumers)",
	help: `Manage accounts: the API consumers (teams, companies) that own keys and
whose users sign in on the account page.

Every command takes --store FILE|URL (default unitd.db, $UNITD_STORE).`,
	commands: []*command{
		{name: "create", synopsis: "[--store FILE|URL] NAME", summary: "add an account", store: createStore, run: accountsCreate},
		{name: "list", synopsis: "[--store FILE|URL] [--format text|json]", summary: "list accounts", store: openStore, run: accountsList},
	},
}

func accountsCreate(c *call) error {
	pos, err := c.parseN(1, "account NAME")
	if err != nil {
		return err
	}
	return c.withStore(func(ctx context.Context, db *store.DB) error {
		a, err := db.CreateAccount(ctx, pos[0])
		if err != nil {
			return err
		}
		fmt.Fprintln(c.stdout, a.ID)
		fmt.Fprintf(c.stderr, "Created account %q (%s) in %s.\nNext: unitd users create %s--account %q EMAIL\n", a.Name, a.ID, c.where(), c.storeArgs(), a.Name)
		return nil
	})
}

func accountsList(c *call) error {
	format := formatFlag(c.flags, "output `format`: text or json", "text", "json")
	if _, err := c.parseN(0, ""); err != nil {
		return err
	}
	return c.withStore(func(ctx context.Context, db *store.DB) error {
		accts, err := db.Accounts(ctx)
		if err != nil {
			return err
		}
		type item struct {
			ID        string    `json:"id"`
			Name      string    `json:"name"`
			CreatedAt time.Time `json:"created_at"`
			Users     int       `json:"users"`
			Keys      int       `json:"keys"`
		}
		items := []item{}
		for _, a := range accts {
			us, err := db.Users(ctx, a.ID)
			if err != nil {
				return err
			}
			ks, err := db.Keys(ctx, a.ID)
			if err != nil {
				return err
			}
			items = append(items, item{a.ID, a.Name, a.CreatedAt, len(us), len(ks)})
		}
		if *format == "json" {
			enc := json.NewEncoder(c.stdout)
			enc.SetIndent("", "  ")
			return enc.Encode(items)
		}
		if len(items) == 0 {
			fmt.Fprintf(c.stderr, "No accounts in %s.\n", c.where())
			return nil
		}
		tw := tabwriter.NewWriter(c.stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tNAME\tCREATED\tUSERS\tKEYS")
		for _, it := range items {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\n", it.ID, it.Name, formatTime(&it.CreatedAt), it.Users, it.Keys)
		}
		return tw.Flush()
	})
}

var usersCommand = &command{
	name:     "users",
	synopsis: "<command> [flags]",
	summary:  "manage the people who sign in on the account page",
	help: `Manage the people who sign in on the account page. A new user chooses a
password through a one-time link (valid 72 hours) that create prints once.

Every command takes --store FILE|URL (default unitd.db, $UNITD_STORE).
--public-url (or --url) is the address the server is reached at, as unitd
serve's --public-url (default $UNITD_PUBLIC_URL, else http://127.0.0.1:8080).`,
	commands: []*command{
		{
			name:     "create",
			synopsis: "[--store FILE|URL] --account NAME [--public-url URL] EMAIL",
			summary:  "add a user and print their set-up link",
			store:    createStore,
			run:      usersCreate,
		},
		{
			name:     "link",
			synopsis: "[--store FILE|URL] [--public-url URL] EMAIL",
			summary:  "print a new set-up link (to reset a password); earlier\nlinks stop working",
			store:    openStore,
			run:      usersLink,
		},
		{
			name:     "list",
			synopsis: "[--store FILE|URL] [--account NAME] [--format text|json]",
			summary:  "list users",
			store:    openStore,
			run:      usersList,
		},
		{
			name:     "disable",
			synopsis: "[--store FILE|URL] EMAIL",
			summary:  "stop a user from signing in and end their sessions",
			store:    openStore,
			run:      usersDisable,
		},
	},
}

// baseURLFlag is --public-url (or its older name --url): the address the
// server is reached at, which set-up links start with. Like unitd serve's,
// it defaults to $UNITD_PUBLIC_URL.
func baseURLFlag(c *call) *string {
	base := new(string)
	def := envDefault("UNITD_PUBLIC_URL", "http://127.0.0.1:8080")
	c.flags.StringVar(base, "public-url", def, "`URL` the server is reached at, which the link starts with: the --public-url of unitd serve (env UNITD_PUBLIC_URL)")
	c.flags.StringVar(base, "url", def, "the same as --public-url")
	return base
}

func usersCreate(c *call) error {
	acctName := c.flags.String("account", "", "`NAME` of the user's account (required)")
	base := baseURLFlag(c)
	pos, err := c.parseN(1, "EMAIL address")
	if err != nil {
		return err
	}
	if *acctName == "" {
		return usagef("--account is required")
	}
	baseURL, err := parsePublicURL(*base)
	if err != nil {
		return usagef("--public-url: %v", err)
	}
	return c.withStore(func(ctx context.Context, db *store.DB) error {
		acct, err := accountByName(ctx, db, *acctName, false)
		if err != nil {
			return err
		}
		u, err := db.CreateUser(ctx, acct.ID, pos[0])
		if err != nil {
			return err
		}
		link, note, err := setupLink(ctx, db, baseURL, u.Email)
		if err != nil {
			return err
		}
		fmt.Fprintln(c.stdout, link)
		fmt.Fprintf(c.stderr, "Created user %s for account %q. Send them the link above; it is not shown again.\n%s", u.Email, acct.Name, note)
		return nil
	})
}

func usersLink(c *call) error {
	base := baseURLFlag(c)
	pos, err := c.parseN(1, "EMAIL address")
	if err != nil {
		return err
	}
	baseURL, err := parsePublicURL(*base)
	if err != nil {
		return usagef("--public-url: %v", err)
	}
	return c.withStore(func(ctx context.Context, db *store.DB) error {
		link, note, err := setupLink(ctx, db, baseURL, pos[0])
		if err != nil {
			return err
		}
		fmt.Fprintln(c.stdout, link)
		fmt.Fprint(c.stderr, note)
		return nil
	})
}

func usersList(c *call) error {
	acctName := c.flags.String("account", "", "list only the users of account `NAME`")
	format := formatFlag(c.flags, "output `format`: text or json", "text", "json")
	if _, err := c.parseN(0, ""); err != nil {
		return err
	}
	return c.withStore(func(ctx context.Context, db *store.DB) error {
		accts, err := db.Accounts(ctx)
		if err != nil {
			return err
		}
		names := map[string]string{}
		filter := ""
		for _, a := range accts {
			names[a.ID] = a.Name
			if a.Name == *acctName {
				filter = a.ID
			}
		}
		if *acctName != "" && filter == "" {
			return fmt.Errorf("account %q: %w", *acctName, account.ErrNotFound)
		}
		us, err := db.Users(ctx, filter)
		if err != nil {
			return err
		}
		type item struct {
			Email       string     `json:"email"`
			Account     string     `json:"account"`
			HasPassword bool       `json:"has_password"`
			CreatedAt   time.Time  `json:"created_at"`
			DisabledAt  *time.Time `json:"disabled_at,omitempty"`
		}
		items := []item{}
		for _, u := range us {
			items = append(items, item{u.Email, names[u.AccountID], u.HasPassword, u.CreatedAt, u.DisabledAt})
		}
		if *format == "json" {
			enc := json.NewEncoder(c.stdout)
			enc.SetIndent("", "  ")
			return enc.Encode(items)
		}
		if len(items) == 0 {
			fmt.Fprintf(c.stderr, "No users in %s.\n", c.where())
			return nil
		}
		tw := tabwriter.NewWriter(c.stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "EMAIL\tACCOUNT\tSTATE\tCREATED")
		for _, it := range items {
			state := "active"
			switch {
			case it.DisabledAt != nil:
				state = "disabled"
			case !it.HasPassword:
				state = "awaiting set-up"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", it.Email, it.Account, state, formatTime(&it.CreatedAt))
		}
		return tw.Flush()
	})
}

func usersDisable(c *call) error {
	pos, err := c.parseN(1, "EMAIL address")
	if err != nil {
		return err
	}
	return c.withStore(func(ctx context.Context, db *store.DB) error {
		if err := db.DisableUser(ctx, pos[0]); err != nil {
			return err
		}
		fmt.Fprintf(c.stderr, "Disabled %s: they can no longer sign in, and their sessions have ended.\n", pos[0])
		return nil
	})
}
