package account

import (
	"context"
	"fmt"
	"log/slog"
	"maps"
	"sync"
	"sync/atomic"
	"time"
)

// Units of an account
//
// An account keeps units of its own: one document per unit, in the
// catalog's schema (YAML or JSON, package catalog reads it), stored with
// every change kept (UnitChange) and each change in the audit log. The
// store checks nothing of what a document says: a caller hands PutUnit and
// DeleteUnit a check of the account's units as they would be, which the
// store runs inside the transaction that holds the account's units, so
// that two changes at once never make a set that neither checked. Every
// change moves the store's unit version, and the account's with it: a
// UnitWatcher in each server follows them.

// UnitDoc is one unit of an account as stored.
type UnitDoc struct {
	AccountID string
	Symbol    string // the unit's symbol as declared, without "my:"
	Document  string // the unit in the catalog's schema
	Format    string // "yaml" or "json"
	// Revision counts the unit's changes, from 1; a unit deleted and
	// defined again goes on counting.
	Revision  int64
	CreatedAt time.Time
	UpdatedAt time.Time
}

// UnitChange is one change of an account's unit, as its history shows it.
type UnitChange struct {
	Symbol   string
	Revision int64
	Action   string // "put" or "delete"
	Document string // what the unit became ("" when deleted)
	Format   string
	Actor    string
	Addr     string
	At       time.Time
	// Version is the store's unit version the change made
	// (UnitChangesSince).
	Version int64
}

// Unit change actions.
const (
	UnitPut    = "put"
	UnitDelete = "delete"
)

// MaxUnitHistory is the most changes UnitHistory returns.
const MaxUnitHistory = 200

// UnitCheck checks an account's units as a change would leave them
// (after), given them as they are (before), so that it can tell what the
// change breaks from what was broken already; an error refuses the
// change.
type UnitCheck func(before, after []UnitDoc) error

// UnitStore is what the API, the account page and the command line do with
// an account's units.
type UnitStore interface {
	// Units lists the account's units, by symbol.
	Units(ctx context.Context, accountID string) ([]UnitDoc, error)
	// Unit returns one of them, or ErrNotFound.
	Unit(ctx context.Context, accountID, symbol string) (UnitDoc, error)
	// PutUnit stores doc (its account, symbol, document and format) if
	// check accepts the account's units with it, and reports whether the
	// unit is new.
	PutUnit(ctx context.Context, doc UnitDoc, actor Actor, check UnitCheck) (UnitDoc, bool, error)
	// DeleteUnit deletes a unit (ErrNotFound if there is none) if check
	// accepts the units left.
	DeleteUnit(ctx context.Context, accountID, symbol string, actor Actor, check UnitCheck) error
	// UnitHistory lists the changes of a unit ("" for every unit of the
	// account), newest first, at most limit (MaxUnitHistory).
	UnitHistory(ctx context.Context, accountID, symbol string, limit int) ([]UnitChange, error)
	// UnitChangesSince lists the changes of the account's units after
	// the store's unit version since, oldest first: what a server applies
	// to the units it compiled at since, instead of reading them all.
	UnitChangesSince(ctx context.Context, accountID string, since int64) ([]UnitChange, error)
}

// UnitLoader is what a UnitWatcher reads of a store.
type UnitLoader interface {
	// UnitVersion returns a number that moves whenever a unit changes.
	UnitVersion(ctx context.Context) (int64, error)
	// UnitSets returns, for every account whose units changed after the
	// version since, the version of its last change and how many units
	// it has now.
	UnitSets(ctx context.Context, since int64) ([]UnitSet, error)
}

// UnitSet is the state of an account's units.
type UnitSet struct {
	AccountID string
	Version   int64 // the store's unit version at its last change
	Units     int
}

// UnitWatcher follows which accounts have units and when they changed,
// for a server's cache of compiled units: every PollInterval it asks the
// store for its unit version, and, when it moved, for the accounts changed
// since. A request never waits on the store: it asks Version, which reads
// memory. If the store cannot be read, the last state stays in use.
type UnitWatcher struct {
	store  UnitLoader
	logger *slog.Logger
	// changed, when set, is told of the accounts whose units changed at
	// each refresh.
	changed func(accounts []string)

	refresh sync.Mutex // serialises refreshes; guards seen
	seen    int64

	// sets is replaced whole at each refresh that found changes, never
	// modified: a request reads it without a lock.
	sets atomic.Pointer[map[string]UnitSet]
}

// NewUnitWatcher loads the state of every account's units. It fails if
// the store cannot be read. changed, if not nil, is called after each
// refresh that found changes, with the accounts concerned.
func NewUnitWatcher(ctx context.Context, store UnitLoader, logger *slog.Logger, changed func(accounts []string)) (*UnitWatcher, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	w := &UnitWatcher{store: store, logger: logger, changed: changed, seen: -1}
	w.sets.Store(&map[string]UnitSet{})
	if err := w.Refresh(ctx); err != nil {
		return nil, err
	}
	return w, nil
}

// Version returns the version of an account's units and whether it has
// any.
func (w *UnitWatcher) Version(accountID string) (int64, bool) {
	s, ok := (*w.sets.Load())[accountID]
	return s.Version, ok && s.Units > 0
}

// Refresh reads the accounts whose units changed since the last refresh.
// The store's version is read first, so a change that lands in between is
// read now or at the next refresh.
func (w *UnitWatcher) Refresh(ctx context.Context) error {
	w.refresh.Lock()
	defer w.refresh.Unlock()
	v, err := w.store.UnitVersion(ctx)
	if err != nil {
		return fmt.Errorf("read the unit version: %w", err)
	}
	if v == w.seen {
		return nil
	}
	sets, err := w.store.UnitSets(ctx, max(w.seen, 0))
	if err != nil {
		return fmt.Errorf("read the accounts' units: %w", err)
	}
	old := *w.sets.Load()
	next := make(map[string]UnitSet, len(old)+len(sets))
	maps.Copy(next, old)
	changed := make([]string, 0, len(sets))
	for _, s := range sets {
		if old, ok := next[s.AccountID]; !ok || old.Version != s.Version {
			changed = append(changed, s.AccountID)
		}
		next[s.AccountID] = s
	}
	w.sets.Store(&next)
	first := w.seen < 0
	w.seen = v
	if len(changed) > 0 && !first && w.changed != nil {
		w.changed(changed)
	}
	return nil
}

// Run refreshes every PollInterval until ctx is done. A failed refresh is
// logged once until one succeeds.
func (w *UnitWatcher) Run(ctx context.Context) {
	t := time.NewTicker(PollInterval)
	defer t.Stop()
	w.run(ctx, t.C)
}

// run refreshes on every tick; tests send the ticks.
func (w *UnitWatcher) run(ctx context.Context, tick <-chan time.Time) {
	failing := false
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick:
			rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
			err := w.Refresh(rctx)
			cancel()
			switch {
			case err != nil && !failing:
				w.logger.Error("keeping the accounts' units as they were", "error", err)
				failing = true
			case err == nil && failing:
				w.logger.Info("the accounts' units are read again")
				failing = false
			}
		}
	}
}
