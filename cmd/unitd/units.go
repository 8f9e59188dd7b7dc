//go:build !unitd_lite

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/unitd/unitd/account"
	"github.com/unitd/unitd/accountunits"
	"github.com/unitd/unitd/catalog"
	"github.com/unitd/unitd/catalog/format"
	"github.com/unitd/unitd/engine"
	"github.com/unitd/unitd/store"
)

var unitsCommand = &command{
	name:     "units",
	synopsis: "<command> [flags]",
	summary:  "manage an account's units of its own",
	help: `Manage the units an account defines for itself (units of your own), in
the store that running servers read: every server serves a change within
seconds. A unit is one document in the catalog's schema, YAML or JSON,
with its category (see catalog/README.md); it is checked by the catalog's
loader and rules against the catalog (the embedded one, or --catalog DIR:
give the one your servers serve), as the API checks it.

Every command takes --store FILE|URL (default unitd.db, $UNITD_STORE).`,
	commands: []*command{
		{name: "list", synopsis: "[--store FILE|URL] --account NAME [--format text|json]",
			summary: "list the account's units: symbol, revision, last change", store: openStore, run: unitsList},
		{name: "put", synopsis: "[--store FILE|URL] --account NAME [--catalog DIR] FILE",
			summary: "define or change the unit FILE holds (- reads stdin)", store: openStore, run: unitsPut},
		{name: "delete", synopsis: "[--store FILE|URL] --account NAME [--catalog DIR] SYMBOL",
			summary: "delete a unit, unless another of the account's units needs it", store: openStore, run: unitsDelete},
		{name: "export", synopsis: "[--store FILE|URL] --account NAME [--catalog DIR] --out DIR",
			summary: "write the catalog with the account's units in it as a catalog\n" +
				"directory, which unitd validate, diff and fmt read", store: openStore, run: unitsExport},
	},
}

// unitsFlags registers the flags the units commands share.
func unitsFlags(c *call, withCatalog bool) (acct, dir *string) {
	acct = c.flags.String("account", "", "`NAME` of the account (required)")
	if withCatalog {
		dir = c.flags.String("catalog", "", "catalog `DIR` to check against (default: the embedded catalog)")
	}
	return acct, dir
}

// withAccount opens the store and runs f with the account named name.
func withAccount(c *call, name string, f func(ctx context.Context, db *store.DB, acct account.Account) error) error {
	if name == "" {
		return usagef("--account is required")
	}
	return c.withStore(func(ctx context.Context, db *store.DB) error {
		acct, err := db.AccountByName(ctx, name)
		if err != nil {
			return fmt.Errorf("account %q: %w", name, err)
		}
		return f(ctx, db, acct)
	})
}

// unitsList is `unitd units list`.
func unitsList(c *call) error {
	acctName, _ := unitsFlags(c, false)
	format := formatFlag(c.flags, "output `format`: text or json", "text", "json")
	if _, err := c.parseN(0, ""); err != nil {
		return err
	}
	return withAccount(c, *acctName, func(ctx context.Context, db *store.DB, acct account.Account) error {
		docs, err := db.Units(ctx, acct.ID)
		if err != nil {
			return err
		}
		if *format == "json" {
			type item struct {
				Symbol    string    `json:"symbol"`
				Format    string    `json:"format"`
				Document  string    `json:"document"`
				Revision  int64     `json:"revision"`
				UpdatedAt time.Time `json:"updated_at"`
			}
			items := []item{}
			for _, d := range docs {
				items = append(items, item{d.Symbol, d.Format, d.Document, d.Revision, d.UpdatedAt.UTC()})
			}
			enc := json.NewEncoder(c.stdout)
			enc.SetIndent("", "  ")
			return enc.Encode(items)
		}
		if len(docs) == 0 {
			fmt.Fprintf(c.stderr, "The account %q has no units of its own.\n", acct.Name)
			return nil
		}
		tw := tabwriter.NewWriter(c.stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "SYMBOL\tNAME\tREVISION\tFORMAT\tUPDATED")
		for _, d := range docs {
			fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\n", d.Symbol, engine.AccountPrefix+d.Symbol, d.Revision, d.Format, d.UpdatedAt.UTC().Format(time.RFC3339))
		}
		return tw.Flush()
	})
}

// unitsPut is `unitd units put`.
func unitsPut(c *call) error {
	acctName, dir := unitsFlags(c, true)
	pos, err := c.parseN(1, "FILE (the unit's document; - for stdin)")
	if err != nil {
		return err
	}
	var src []byte
	if pos[0] == "-" {
		src, err = io.ReadAll(io.LimitReader(c.stdin, catalog.MaxAccountDocument+1))
	} else {
		src, err = os.ReadFile(pos[0])
	}
	if err != nil {
		return err
	}
	au, errs := catalog.ParseAccountUnit(filepath.Base(pos[0]), src)
	if len(errs) > 0 {
		return problemsOf(&accountunits.Problems{Errs: errs})
	}
	format := "yaml"
	if t := bytes.TrimSpace(src); len(t) > 0 && t[0] == '{' {
		format = "json"
	}
	g, err := loadCatalog(*dir)
	if err != nil {
		return err
	}
	return withAccount(c, *acctName, func(ctx context.Context, db *store.DB, acct account.Account) error {
		d, created, err := accountunits.New(db, nil, accountunits.Options{}).Put(ctx, g, acct.ID, au.Unit.Symbol, src, format, account.Operator)
		if err != nil {
			return problemsOf(err)
		}
		what := "Changed"
		if created {
			what = "Defined"
		}
		fmt.Fprintf(c.stderr, "%s %s (revision %d) for the account %q in %s; running servers serve it within seconds.\n",
			what, engine.AccountPrefix+d.Symbol, d.Revision, acct.Name, c.where())
		return nil
	})
}

// unitsDelete is `unitd units delete`.
func unitsDelete(c *call) error {
	acctName, dir := unitsFlags(c, true)
	pos, err := c.parseN(1, "SYMBOL")
	if err != nil {
		return err
	}
	g, err := loadCatalog(*dir)
	if err != nil {
		return err
	}
	sym := strings.TrimPrefix(pos[0], engine.AccountPrefix)
	return withAccount(c, *acctName, func(ctx context.Context, db *store.DB, acct account.Account) error {
		if err := accountunits.New(db, nil, accountunits.Options{}).Delete(ctx, g, acct.ID, sym, account.Operator); err != nil {
			return problemsOf(err)
		}
		fmt.Fprintf(c.stderr, "Deleted %s of the account %q in %s.\n", engine.AccountPrefix+sym, acct.Name, c.where())
		return nil
	})
}

// unitsExport is `unitd units export`.
func unitsExport(c *call) error {
	acctName, dir := unitsFlags(c, true)
	out := c.flags.String("out", "", "`DIR` to write the catalog to (created; must be empty if it exists)")
	if _, err := c.parseN(0, ""); err != nil {
		return err
	}
	if *out == "" {
		return usagef("--out is required")
	}
	if entries, err := os.ReadDir(*out); err == nil && len(entries) > 0 {
		return fmt.Errorf("%s is not empty", *out)
	}
	src := catalog.Embedded()
	if *dir != "" {
		src = os.DirFS(*dir)
	}
	return withAccount(c, *acctName, func(ctx context.Context, db *store.DB, acct account.Account) error {
		docs, err := db.Units(ctx, acct.ID)
		if err != nil {
			return err
		}
		in := make([]catalog.AccountDocument, len(docs))
		for i, d := range docs {
			in[i] = catalog.AccountDocument{Symbol: d.Symbol, Document: d.Document}
		}
		files, errs := catalog.ExportAccount(src, in)
		if len(errs) > 0 {
			return problemsOf(&accountunits.Problems{Errs: errs})
		}
		if err := os.MkdirAll(*out, 0o755); err != nil {
			return err
		}
		names := make([]string, 0, len(files))
		for name := range files {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			data, err := format.File(name, files[name])
			if err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			if err := os.WriteFile(filepath.Join(*out, name), data, 0o644); err != nil {
				return err
			}
		}
		fmt.Fprintf(c.stderr, "Wrote the catalog with the %d unit(s) of the account %q to %s (unitd validate %s checks it).\n", len(docs), acct.Name, *out, *out)
		return nil
	})
}

// problemsOf prints the problems of a refused unit one a line, as
// file:line:col: message.
func problemsOf(err error) error {
	var p interface{ Problems() []error }
	if !errors.As(err, &p) {
		return err
	}
	msgs := make([]string, 0, len(p.Problems()))
	for _, e := range p.Problems() {
		msgs = append(msgs, e.Error())
	}
	return fmt.Errorf("refused:\n%s", strings.Join(msgs, "\n"))
}
