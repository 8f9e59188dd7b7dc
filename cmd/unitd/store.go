//go:build !unitd_lite

package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/unitd/unitd/account"
	"github.com/unitd/unitd/store"
	"github.com/unitd/unitd/store/postgres"
	"github.com/unitd/unitd/store/sqlite"
)

// withStore opens the store that the command's --store and --keys name,
// made if the command creates (createStore) and it is not there, runs f
// with it and closes it. What it imports from a JSON key file is logged to
// stderr.
func (c *call) withStore(f func(ctx context.Context, db *store.DB) error) error {
	ctx, cancel := cliContext()
	defer cancel()
	logger := slog.New(slog.NewTextHandler(c.stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	db, err := c.store.open(ctx, logger, c.cmd.store == createStore)
	if err != nil {
		return err
	}
	defer db.Close()
	return f(ctx, db)
}

// where names the store for messages.
func (c *call) where() string {
	loc, _ := c.store.resolve()
	return describeStore(loc)
}

// storeArgs repeats the store flags given, for a suggested next command.
func (c *call) storeArgs() string {
	var b strings.Builder
	if c.store.store != "" {
		fmt.Fprintf(&b, "--store %s ", describeStore(c.store.store))
	}
	if c.store.keys != "" {
		fmt.Fprintf(&b, "--keys %s ", c.store.keys)
	}
	return b.String()
}

// resolve says where the store is and which JSON key file, if any, to
// import into it:
//
//   - --store wins; --keys names a JSON file to import (if it ends in .json).
//   - --keys FILE.json alone: the store is FILE.db beside it, so the server
//     and `unitd keys` agree from any directory, and FILE.json is imported.
//   - --keys FILE alone (not .json): FILE is the store.
//   - neither: unitd.db.
func (f storeFlags) resolve() (location, importFile string) {
	isJSON := strings.HasSuffix(f.keys, ".json")
	switch {
	case f.store != "" && isJSON:
		return f.store, f.keys
	case f.store != "":
		return f.store, ""
	case isJSON:
		return strings.TrimSuffix(f.keys, ".json") + ".db", f.keys
	case f.keys != "":
		return f.keys, ""
	}
	return defaultStore, ""
}

// describeStore names a store location for messages, without a password.
func describeStore(location string) string {
	if !isPostgres(location) {
		return location
	}
	if i := strings.Index(location, "@"); i >= 0 {
		if j := strings.Index(location, "://"); j >= 0 && j < i {
			return location[:j+3] + "…" + location[i:]
		}
	}
	return "PostgreSQL"
}

func isPostgres(location string) bool {
	return strings.HasPrefix(location, "postgres://") || strings.HasPrefix(location, "postgresql://")
}

// open opens the store, applies its migrations and imports the JSON key
// file, if any, into the operator's account (once: keys already in the
// store are skipped). It logs what it imported.
//
// With create false (commands that only read or change what is stored),
// a SQLite file that does not exist is an error rather than a new empty
// store, unless a JSON key file is there to fill it. With create true (the
// server, and commands that create), the store is made if need be, with a
// warning when the JSON key file named for it is not there either.
func (f storeFlags) open(ctx context.Context, logger *slog.Logger, create bool) (*store.DB, error) {
	location, importFile := f.resolve()
	if importFile != "" && !exists(importFile) {
		importFile = ""
		if !isPostgres(location) && !exists(location) && create {
			logger.Warn("the JSON key file to import does not exist; a new, empty store is made", "file", f.keys, "store", describeStore(location))
		}
	}
	// A store is made by the commands that create; the others read or
	// change what is there, and a store that is not there (with no key
	// file to fill it from) is a wrong path, not an empty store.
	if !isPostgres(location) && !create && importFile == "" && !exists(location) {
		return nil, fmt.Errorf("store %s does not exist: nothing has been stored there yet (unitd keys create makes it), or --store or --keys names the wrong file", location)
	}
	var db *store.DB
	var err error
	if isPostgres(location) {
		db, err = postgres.Open(ctx, location)
	} else {
		db, err = sqlite.Open(ctx, location)
	}
	if err != nil {
		return nil, err
	}
	if importFile != "" {
		if err := importKeys(ctx, db, importFile, logger); err != nil {
			db.Close()
			return nil, err
		}
	}
	return db, nil
}

// exists reports whether a file is there (an unreadable one counts: opening
// it reports why).
func exists(path string) bool {
	_, err := os.Stat(path)
	return !errors.Is(err, fs.ErrNotExist)
}

func importKeys(ctx context.Context, db *store.DB, path string, logger *slog.Logger) error {
	recs, err := store.ReadKeyFile(path)
	if err != nil {
		return err
	}
	if len(recs) == 0 {
		return nil
	}
	acct, err := accountByName(ctx, db, account.OperatorAccountName, true)
	if err != nil {
		return err
	}
	n, err := db.ImportKeys(ctx, acct.ID, recs, account.Operator)
	if err != nil {
		return fmt.Errorf("import %s: %w", path, err)
	}
	if n > 0 {
		logger.Info("imported API keys from the JSON key file into the store; the store is authoritative from now on",
			"file", path, "imported", n, "already_present", len(recs)-n, "account", acct.Name)
	}
	return nil
}

// accountByName finds an account, creating it if create is set.
func accountByName(ctx context.Context, db account.Directory, name string, create bool) (account.Account, error) {
	a, err := db.AccountByName(ctx, name)
	if err == nil || !create || !errors.Is(err, account.ErrNotFound) {
		return a, err
	}
	a, err = db.CreateAccount(ctx, name)
	if errors.Is(err, account.ErrConflict) { // created meanwhile
		return db.AccountByName(ctx, name)
	}
	return a, err
}

// setupLink makes a one-time set-up link for a user and returns it with
// the note that tells the operator what it does: the one message of
// `unitd users create`, `unitd users link` and `unitd serve --dev-key`.
func setupLink(ctx context.Context, db account.Directory, baseURL, email string) (link, note string, err error) {
	token, err := account.NewToken()
	if err != nil {
		return "", "", err
	}
	expires := time.Now().Add(account.SetupTokenTTL).UTC()
	u, err := db.CreateSetupToken(ctx, email, account.HashToken(token), expires)
	if err != nil {
		return "", "", err
	}
	link = strings.TrimSuffix(baseURL, "/") + "/account/setup?token=" + token
	note = fmt.Sprintf("The set-up link lets %s choose a password and sign in on the account page. It works once,\n"+
		"until %s (%d hours); earlier links no longer work, and unitd users link makes a new one.\n",
		u.Email, formatTime(&expires), int(account.SetupTokenTTL.Hours()))
	return link, note, nil
}

// cliContext bounds a command-line command's store work.
func cliContext() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), time.Minute)
}
