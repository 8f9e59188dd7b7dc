package client_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/unitd/unitd/account"
	"github.com/unitd/unitd/accountunits"
	"github.com/unitd/unitd/apikey"
	"github.com/unitd/unitd/catalog"
	"github.com/unitd/unitd/engine"
	"github.com/unitd/unitd/server"
	"github.com/unitd/unitd/server/ratelimit"
	"github.com/unitd/unitd/store/sqlite"
)

// The tests and examples call the real server of the shipped catalog,
// in-process on httptest: what they check is what a program sees of unitd.

// shippedGraph loads the shipped catalog once for the whole test binary.
var shippedGraph = sync.OnceValues(func() (*engine.Graph, error) {
	g, errs := catalog.Load(catalog.Embedded())
	if len(errs) > 0 {
		return nil, fmt.Errorf("loading the shipped catalog: %v", errs)
	}
	return g, nil
})

// keys is a fixed key set.
type keys struct{ set *apikey.Set }

func (k keys) Current() *apikey.Set { return k.set }

// limiter decides every request with decide, when it is set.
type limiter struct {
	mu     sync.Mutex
	decide func(key string) ratelimit.Decision
}

func (l *limiter) Take(key string) ratelimit.Decision {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.decide == nil {
		return ratelimit.Decision{Allowed: true, Limit: 600, Remaining: 599, Reset: time.Second}
	}
	return l.decide(key)
}

func (l *limiter) set(decide func(key string) ratelimit.Decision) {
	l.mu.Lock()
	l.decide = decide
	l.mu.Unlock()
}

// testServer is a running unitd with one test key.
type testServer struct {
	URL string
	Key string
	lim *limiter
	ts  *httptest.Server
	// close stops the server and removes its store.
	close func()
}

// newServer starts a server; wrap, when not nil, wraps its handler.
func newServer(wrap func(http.Handler) http.Handler) (*testServer, error) {
	g, err := shippedGraph()
	if err != nil {
		return nil, err
	}
	// An account in a store of its own, whose key may also change the
	// account's units (units:write), so that every operation can answer.
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "unitd-client-test")
	if err != nil {
		return nil, err
	}
	db, err := sqlite.Open(ctx, filepath.Join(dir, "unitd.db"))
	if err != nil {
		return nil, err
	}
	acct, err := db.CreateAccount(ctx, "client-tests")
	if err != nil {
		return nil, err
	}
	key, _, err := db.CreateKey(ctx, acct.ID, "client tests", apikey.EnvTest, []string{apikey.ScopeUnitsWrite}, account.Operator)
	if err != nil {
		return nil, err
	}
	recs, err := db.AuthRecords(ctx)
	if err != nil {
		return nil, err
	}
	watch, err := account.NewUnitWatcher(ctx, db, nil, nil)
	if err != nil {
		return nil, err
	}
	lim := &limiter{}
	srv := server.New(server.Config{Keys: keys{apikey.NewSet(recs)}, Env: apikey.EnvTest, Limiter: lim, Version: "client-test",
		Units: accountunits.New(db, watch, accountunits.Options{}), Define: accountunits.Define})
	srv.ApplyGraph(g)
	var h http.Handler = srv.Handler()
	if wrap != nil {
		h = wrap(h)
	}
	ts := httptest.NewServer(h)
	return &testServer{URL: ts.URL, Key: key, lim: lim, ts: ts, close: func() {
		ts.Close()
		db.Close()
		os.RemoveAll(dir)
	}}, nil
}

// startServer starts a server for one test, closed when it ends.
func startServer(t testing.TB, wrap func(http.Handler) http.Handler) *testServer {
	t.Helper()
	s, err := newServer(wrap)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.close)
	return s
}

// exampleServer is the server of the examples, started once.
var exampleServer = sync.OnceValue(func() *testServer {
	s, err := newServer(nil)
	if err != nil {
		panic(err)
	}
	return s
})
