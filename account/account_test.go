package account

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/unitd/unitd/apikey"
)

// testParams keep tests fast; the format and the checks are the same.
var testParams = Params{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}

func TestPasswordHash(t *testing.T) {
	h, err := HashPassword("correct horse battery", testParams)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(h, "$argon2id$v=19$m=64,t=1,p=1$") {
		t.Errorf("hash %q does not carry its parameters", h)
	}
	h2, _ := HashPassword("correct horse battery", testParams)
	if h == h2 {
		t.Error("two hashes of one password are equal: no salt")
	}
	p, err := ParamsOf(h)
	if err != nil || p != testParams {
		t.Errorf("ParamsOf = %+v, %v; want %+v", p, err, testParams)
	}
	for _, tt := range []struct {
		pw   string
		want bool
	}{{"correct horse battery", true}, {"correct horse batterz", false}, {"", false}} {
		ok, err := VerifyPassword(h, tt.pw)
		if err != nil || ok != tt.want {
			t.Errorf("VerifyPassword(%q) = %v, %v; want %v", tt.pw, ok, err, tt.want)
		}
	}
	for _, bad := range []string{"", "plain", "$argon2i$v=19$m=64,t=1,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA",
		"$argon2id$v=19$m=0,t=1,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA", "$argon2id$v=19$m=64,t=1,p=1$!!$aGFzaGhhc2hoYXNoaGFzaA"} {
		if _, err := VerifyPassword(bad, "x"); err == nil {
			t.Errorf("VerifyPassword accepted hash %q", bad)
		}
	}
	if DefaultParams.Memory < 19*1024 || DefaultParams.Time < 2 {
		t.Errorf("DefaultParams %+v are below OWASP's Argon2id minimum (19 MiB, t=2)", DefaultParams)
	}
}

// TestDecoyHash: a decoy carries the parameters it was made with, is
// checked with exactly those (so it costs what a real hash does), matches
// no password and is new each time; parameters too small for a hash are
// refused.
func TestDecoyHash(t *testing.T) {
	d, err := DecoyHash(testParams)
	if err != nil {
		t.Fatal(err)
	}
	if p, err := ParamsOf(d); err != nil || p != testParams {
		t.Errorf("ParamsOf(decoy) = %+v, %v; want %+v", p, err, testParams)
	}
	if d2, _ := DecoyHash(testParams); d2 == d {
		t.Error("two decoys are equal: no randomness")
	}
	for _, pw := range []string{"", "correct horse battery", "not a password: makes unknown users take as long"} {
		var asked []Params
		key := func(ctx context.Context, pw, salt []byte, p Params) ([]byte, error) {
			asked = append(asked, p)
			return InProcess(ctx, pw, salt, p)
		}
		ok, err := verifyPassword(context.Background(), d, pw, key)
		if err != nil || ok {
			t.Errorf("checking %q against the decoy = %v, %v; want false, nil", pw, ok, err)
		}
		if len(asked) != 1 || asked[0] != testParams {
			t.Errorf("checking %q against the decoy computed %+v; want one key of %+v", pw, asked, testParams)
		}
	}
	for _, p := range []Params{{Memory: 64, Time: 1, Threads: 1, SaltLen: 4, KeyLen: 32}, {Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 8}} {
		if d, err := DecoyHash(p); err == nil {
			t.Errorf("DecoyHash(%+v) = %q, want an error", p, d)
		}
	}
}

func TestCheckPassword(t *testing.T) {
	for _, tt := range []struct {
		pw string
		ok bool
	}{{"short", false}, {"twelve chars", true}, {strings.Repeat("x", 257), false}, {"\xff\xfe invalid utf8", false}} {
		if err := CheckPassword(tt.pw); (err == nil) != tt.ok {
			t.Errorf("CheckPassword(%q) = %v", tt.pw, err)
		}
	}
}

func TestNormalizeEmail(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"Ada@Example.COM", "ada@example.com"}, {" ada@example.com ", "ada@example.com"},
		{"Ada <ada@example.com>", ""}, {"no-at-sign", ""}, {"", ""},
	} {
		got, err := NormalizeEmail(tt.in)
		if got != tt.want || (err == nil) != (tt.want != "") {
			t.Errorf("NormalizeEmail(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

// fakeKeys is a KeyLoader whose content tests change.
type fakeKeys struct {
	mu      sync.Mutex
	version int64
	recs    []apikey.Record
	err     error
}

func (f *fakeKeys) KeyVersion(context.Context) (int64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.version, f.err
}

func (f *fakeKeys) AuthRecords(context.Context) ([]apikey.Record, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]apikey.Record(nil), f.recs...), f.err
}

func (f *fakeKeys) add(rec apikey.Record) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.recs = append(f.recs, rec)
	f.version++
}

func TestKeySourceFollowsTheStore(t *testing.T) {
	store := &fakeKeys{}
	src, err := NewKeySource(context.Background(), store, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	tick := make(chan time.Time) // unbuffered: a send returns once the loop took it
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { src.run(ctx, tick); close(done) }()
	defer func() { cancel(); <-done }()
	// The second of two sends is taken only after the first refresh is over.
	refresh := func() { tick <- time.Now(); tick <- time.Now() }

	key, rec, err := apikey.NewRecord("ci", apikey.EnvTest, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := src.Current().Authenticate(key, apikey.EnvTest, time.Now()); err == nil {
		t.Fatal("key accepted before it exists")
	}
	store.add(rec)
	refresh()
	if _, err := src.Current().Authenticate(key, apikey.EnvTest, time.Now()); err != nil {
		t.Fatalf("key created in the store is refused after a refresh: %v", err)
	}

	// A store that fails leaves the last good keys in place.
	store.mu.Lock()
	store.err = errors.New("connection refused")
	store.mu.Unlock()
	refresh()
	if _, err := src.Current().Authenticate(key, apikey.EnvTest, time.Now()); err != nil {
		t.Errorf("store failure dropped the keys: %v", err)
	}
	if st := src.Status(); st.Err == nil || st.Keys != 1 {
		t.Errorf("Status = %+v, want the error and 1 key", st)
	}

	// An unchanged version does not reload.
	store.mu.Lock()
	store.err = nil
	store.recs = nil // changed without a version bump: must not be seen
	store.mu.Unlock()
	refresh()
	if src.Current().Len() != 1 {
		t.Errorf("reloaded although the version did not change")
	}
	if st := src.Status(); st.Err != nil {
		t.Errorf("Status after recovery = %+v", st)
	}
}

func TestNewKeySourceFailsWithoutKeys(t *testing.T) {
	if _, err := NewKeySource(context.Background(), &fakeKeys{err: errors.New("down")}, "", nil); err == nil {
		t.Error("NewKeySource succeeded with an unreadable store")
	}
}

// fakeUsage is a UsageWriter that records what it is given.
type fakeUsage struct {
	mu     sync.Mutex
	counts map[string]int64
	last   map[string]time.Time
	fail   bool
}

func (f *fakeUsage) AddUsage(_ context.Context, cs []UsageCount) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fail {
		return errors.New("disk full")
	}
	for _, c := range cs {
		f.counts[c.KeyID+" "+c.Minute.Format("15:04")] += c.Count
		if c.Last.After(f.last[c.KeyID]) {
			f.last[c.KeyID] = c.Last
		}
	}
	return nil
}

func TestUsageCounter(t *testing.T) {
	w := &fakeUsage{counts: map[string]int64{}, last: map[string]time.Time{}}
	u := NewUsageCounter(w, nil)
	t0 := time.Date(2026, 3, 1, 12, 0, 10, 0, time.UTC)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 1000 {
				u.Count("key_a", t0.Add(time.Duration(g*1000+i)*time.Millisecond))
			}
		}()
	}
	wg.Wait()
	u.Count("key_b", t0.Add(time.Minute))

	w.fail = true
	if err := u.Flush(context.Background()); err == nil {
		t.Fatal("Flush hid a write error")
	}
	w.fail = false
	u.Count("key_a", t0)
	if err := u.Close(); err != nil {
		t.Fatal(err)
	}
	want := map[string]int64{"key_a 12:00": 8001, "key_b 12:01": 1}
	for k, n := range want {
		if w.counts[k] != n {
			t.Errorf("count %s = %d, want %d (all: %v)", k, w.counts[k], n, w.counts)
		}
	}
	if len(w.counts) != len(want) {
		t.Errorf("counts = %v, want %v", w.counts, want)
	}
	if got := w.last["key_a"]; !got.Equal(t0.Add(7999 * time.Millisecond)) {
		t.Errorf("last use of key_a = %v", got)
	}
	// Nothing is written twice.
	if err := u.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	if w.counts["key_a 12:00"] != 8001 {
		t.Errorf("a second flush wrote again: %v", w.counts)
	}
}

// BenchmarkUsageCount is the cost a served request pays for usage counting.
func BenchmarkUsageCount(b *testing.B) {
	u := NewUsageCounter(&fakeUsage{counts: map[string]int64{}, last: map[string]time.Time{}}, nil)
	ids := []string{"key_a", "key_b", "key_c", "key_d"}
	now := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			u.Count(ids[i%len(ids)], now)
			i++
		}
	})
}

// TestKeySourceWarnsWithoutUsableKey: a server whose store holds keys only
// for the other environment (or only revoked ones) says so in its log, at
// start and again when a change leaves it so, and is quiet once a usable
// key exists.
func TestKeySourceWarnsWithoutUsableKey(t *testing.T) {
	_, testRec, err := apikey.NewRecord("ci", apikey.EnvTest, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	store := &fakeKeys{recs: []apikey.Record{testRec}, version: 1}
	var log bytes.Buffer
	src, err := NewKeySource(context.Background(), store, apikey.EnvLive, slog.New(slog.NewTextHandler(&log, nil)))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "no usable API key") || !strings.Contains(log.String(), "usable_in_test=1") {
		t.Errorf("start with only a test key under --env live: log %q, want the warning with usable_in_test=1", log.String())
	}
	log.Reset()
	_, liveRec, _ := apikey.NewRecord("prod", apikey.EnvLive, time.Now())
	store.add(liveRec)
	if err := src.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	if log.Len() != 0 {
		t.Errorf("a usable live key exists, yet the log says %q", log.String())
	}
	revoked := time.Now().Add(-time.Minute)
	liveRec.RevokedAt = &revoked
	store.mu.Lock()
	store.recs = []apikey.Record{testRec, liveRec}
	store.version++
	store.mu.Unlock()
	if err := src.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "no usable API key") {
		t.Errorf("after the only live key was revoked: log %q, want the warning", log.String())
	}
}

// reportingKeys is a key store that also takes reports of the version
// served.
type reportingKeys struct {
	fakeKeys
	reports []KeyReader
	forgot  []string
}

func (r *reportingKeys) ReportKeyVersion(_ context.Context, kr KeyReader) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.reports = append(r.reports, kr)
	return nil
}

func (r *reportingKeys) ForgetKeyReader(_ context.Context, instance string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.forgot = append(r.forgot, instance)
	return nil
}

// TestKeySourceReportsItsVersion: an announced source reports the key
// version it serves at once and whenever the version changes,
// not on every poll, and withdraws itself on request.
func TestKeySourceReportsItsVersion(t *testing.T) {
	store := &reportingKeys{}
	src, err := NewKeySource(context.Background(), store, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	src.Announce(context.Background(), "srv_x", "test host") // reports at once
	refresh := func() {
		if err := src.Refresh(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	refresh() // unchanged, and within ReportInterval: no new report
	_, rec, _ := apikey.NewRecord("ci", apikey.EnvTest, time.Now())
	store.add(rec)
	refresh()
	store.mu.Lock()
	got := append([]KeyReader(nil), store.reports...)
	store.mu.Unlock()
	if len(got) != 2 || got[0].Instance != "srv_x" || got[0].Description != "test host" || got[0].Version != 0 || got[1].Version != 1 {
		t.Fatalf("reports = %+v, want version 0 then 1 from srv_x", got)
	}
	if err := src.Withdraw(context.Background()); err != nil || len(store.forgot) != 1 || store.forgot[0] != "srv_x" {
		t.Errorf("Withdraw: %v, forgot %v", err, store.forgot)
	}
	store.add(rec)
	refresh()
	if len(store.reports) != 2 {
		t.Errorf("a withdrawn source reported again: %+v", store.reports)
	}
}
