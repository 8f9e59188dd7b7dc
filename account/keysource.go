package account

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/unitd/unitd/apikey"
)

// PollInterval is how often a KeySource asks the store whether keys changed.
// Four polls a second keep every replica within the promised second of a
// change, at the cost of one one-row query each.
const PollInterval = 250 * time.Millisecond

// KeyLoader is the part of a Store that a KeySource reads.
type KeyLoader interface {
	KeyVersion(ctx context.Context) (int64, error)
	AuthRecords(ctx context.Context) ([]apikey.Record, error)
}

// ReportInterval is how often a server reports the key version it serves
// when nothing changes; it reports at once when the version changes.
const ReportInterval = 5 * time.Second

// KeyReader is a running server as it last reported the keys it serves:
// what `unitd keys` checks after a change.
type KeyReader struct {
	Instance    string // random per process
	Description string // host, process id and address, for people
	Version     int64  // the key version it has loaded
	SeenAt      time.Time
}

// KeyReporter is the part of a Store a KeySource reports to.
type KeyReporter interface {
	ReportKeyVersion(ctx context.Context, r KeyReader) error
	ForgetKeyReader(ctx context.Context, instance string) error
}

// KeySource serves the current keys from memory, for the server's
// authentication, and reloads them from the store when the store's key
// version changes. A request never waits on the store: it reads the last
// loaded Set. If the store cannot be read, the last good Set stays in use
// and the error shows in Status.
type KeySource struct {
	store  KeyLoader
	env    string // the server's environment, "" to accept any
	logger *slog.Logger
	set    atomic.Pointer[apikey.Set]

	refresh sync.Mutex // serialises refreshes and guards version and loaded
	version int64
	loaded  bool

	mu     sync.Mutex // guards status, so Status never waits on the store
	status apikey.Status

	// reporting, when Announce was called; guarded by refresh.
	reporter             KeyReporter
	self                 KeyReader
	reportedAt           time.Time
	reported, reportFail bool
}

// Announce makes the source report, as instance (random per process) and
// description (for people), the key version it serves to the store, so
// that `unitd keys` can confirm a change was taken up: now, on every
// change and every ReportInterval. A store that cannot take reports (not
// a KeyReporter) makes it a no-op.
func (k *KeySource) Announce(ctx context.Context, instance, description string) {
	r, ok := k.store.(KeyReporter)
	if !ok {
		return
	}
	k.refresh.Lock()
	defer k.refresh.Unlock()
	k.reporter, k.self = r, KeyReader{Instance: instance, Description: description}
	k.report(ctx, time.Now())
}

// Withdraw stops reporting and removes this server from the store's
// readers, for a server that is stopping: `unitd keys` then does not wait
// for it.
func (k *KeySource) Withdraw(ctx context.Context) error {
	k.refresh.Lock()
	defer k.refresh.Unlock()
	if k.reporter == nil {
		return nil
	}
	r := k.reporter
	k.reporter = nil
	return r.ForgetKeyReader(ctx, k.self.Instance)
}

// report tells the store the version served, when it changed or
// ReportInterval has passed. Failures are logged once, not fatal: the keys
// are served all the same. Called with refresh held.
func (k *KeySource) report(ctx context.Context, now time.Time) {
	if k.reporter == nil || (k.reported && k.self.Version == k.version && now.Sub(k.reportedAt) < ReportInterval) {
		return
	}
	r := k.self
	r.Version, r.SeenAt = k.version, now
	if err := k.reporter.ReportKeyVersion(ctx, r); err != nil {
		if !k.reportFail {
			k.logger.Warn("cannot report the key version served to the store; unitd keys will not see this server", "error", err)
		}
		k.reportFail = true
		return
	}
	k.self, k.reportedAt, k.reported, k.reportFail = r, now, true, false
}

// NewKeySource loads the keys of store for a server of environment env
// ("live" or "test"). It fails if they cannot be loaded, since there is no
// earlier good set to fall back on. A nil logger discards messages. Call
// Run to follow changes.
//
// Whenever it loads keys and none is usable in env, it warns: such a
// server refuses every request, which is the usual result of keys created
// for the other environment.
func NewKeySource(ctx context.Context, store KeyLoader, env string, logger *slog.Logger) (*KeySource, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	k := &KeySource{store: store, env: env, logger: logger}
	if err := k.Refresh(ctx); err != nil {
		return nil, err
	}
	return k, nil
}

// Current returns the current Set. It never returns nil.
func (k *KeySource) Current() *apikey.Set { return k.set.Load() }

// Status reports the last refresh, for /v1/health.
func (k *KeySource) Status() apikey.Status {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.status
}

// Refresh reloads the keys if the store's key version changed since the
// last load. The version is read before the keys, so a change that lands
// in between is picked up by the next Refresh.
func (k *KeySource) Refresh(ctx context.Context) error {
	k.refresh.Lock()
	defer k.refresh.Unlock()
	now := time.Now()
	v, err := k.store.KeyVersion(ctx)
	if err == nil && k.loaded && v == k.version {
		k.mu.Lock()
		k.status.CheckedAt, k.status.Err = now, nil
		k.mu.Unlock()
		k.report(ctx, now)
		return nil
	}
	var recs []apikey.Record
	if err == nil {
		recs, err = k.store.AuthRecords(ctx)
	}
	if err != nil {
		err = fmt.Errorf("load keys from the store: %w", err)
		k.mu.Lock()
		if k.status.Err == nil || k.status.Err.Error() != err.Error() {
			k.logger.Error("keeping the previous keys", "error", err)
		}
		k.status.CheckedAt, k.status.Err = now, err
		k.mu.Unlock()
		return err
	}
	set := apikey.NewSet(recs)
	k.set.Store(set)
	k.version, k.loaded = v, true
	k.mu.Lock()
	k.status = apikey.Status{LoadedAt: now, CheckedAt: now, Keys: set.Len()}
	k.mu.Unlock()
	k.logger.Debug("keys loaded from the store", "keys", set.Len(), "version", v)
	k.warnIfNoneUsable(set, now)
	k.report(ctx, now)
	return nil
}

// warnIfNoneUsable logs a warning when set holds no key usable in the
// server's environment, saying how many the other environment has.
func (k *KeySource) warnIfNoneUsable(set *apikey.Set, now time.Time) {
	if k.env == "" || set.UsableIn(k.env, now) > 0 {
		return
	}
	other := apikey.EnvLive
	if k.env == apikey.EnvLive {
		other = apikey.EnvTest
	}
	fix := "unitd keys create --name NAME --env " + k.env + " (with the same --store)"
	nOther := set.UsableIn(other, now)
	if nOther > 0 {
		fix += ", or serve --env " + other + " if those keys are the ones meant"
	}
	k.logger.Warn("no usable API key for this server's environment: every conversion request will be refused",
		"env", k.env, "keys", set.Len(), "usable_in_"+other, nOther, "fix", fix)
}

// Run refreshes at once, then every PollInterval until ctx is done. The
// first refresh also reports the version served when the report made by
// Announce has aged (a server that took long to start, loading its
// catalog, say), so that unitd keys counts the server as running as soon
// as it serves.
func (k *KeySource) Run(ctx context.Context) {
	k.refreshWithin(ctx)
	t := time.NewTicker(PollInterval)
	defer t.Stop()
	k.run(ctx, t.C)
}

// refreshWithin refreshes, allowing the store 5 s.
func (k *KeySource) refreshWithin(ctx context.Context) {
	rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	k.Refresh(rctx)
}

// run refreshes on every tick. A tick arrives only when the previous
// refresh is finished, which tests use to know when one is done.
func (k *KeySource) run(ctx context.Context, tick <-chan time.Time) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick:
			k.refreshWithin(ctx)
		}
	}
}
