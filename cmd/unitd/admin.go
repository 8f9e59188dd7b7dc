//go:build !unitd_lite

package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strconv"
	"syscall"
	"time"

	"github.com/unitd/unitd/apikey"
	"github.com/unitd/unitd/internal/promtext"
	"github.com/unitd/unitd/server"
	"github.com/unitd/unitd/server/ratelimit"
	"github.com/unitd/unitd/server/ratelimit/redislimit"
)

// newRegistry returns the registry the admin listener serves: the Go
// runtime's and the process's metrics, the server's, and gauges read at
// scrape time from the key store and the rate limiter.
func newRegistry(keyStatus func() apikey.Status, redis *redislimit.Limiter) (*promtext.Registry, *server.Metrics) {
	reg := promtext.NewRegistry()
	reg.Register(promtext.Go())
	reg.Register(promtext.Process())
	m := server.NewMetrics(reg)
	if keyStatus != nil {
		reg.GaugeFunc("unitd_key_store_up",
			"1 if the last refresh of the key store succeeded, 0 if the last good keys are in use after a failure.",
			func() float64 { return boolGauge(keyStatus().Err == nil) })
		reg.GaugeFunc("unitd_key_store_last_refresh_timestamp_seconds",
			"Unix time of the last check of the key store.",
			func() float64 { return unixSeconds(keyStatus().CheckedAt) })
		reg.GaugeFunc("unitd_key_store_keys",
			"API keys loaded from the key store.",
			func() float64 { return float64(keyStatus().Keys) })
	}
	if redis != nil {
		reg.GaugeFunc("unitd_redis_up",
			"1 while per-key rate limits are shared through Redis, 0 while this replica falls back to its local limiter.",
			func() float64 { return boolGauge(redis.Status().Up) })
	}
	return reg, m
}

// registerConnGauges adds the API listener's open and idle connections to
// reg, read at scrape time.
func registerConnGauges(reg *promtext.Registry, conns func() (open, idle int)) {
	reg.GaugeFunc("unitd_connections_open",
		"Connections the public listener holds open.",
		func() float64 { n, _ := conns(); return float64(n) })
	reg.GaugeFunc("unitd_connections_idle",
		"Of the open connections, idle keep-alive ones: closed first when connections run short.",
		func() float64 { _, n := conns(); return float64(n) })
}

func boolGauge(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func unixSeconds(t time.Time) float64 {
	if t.IsZero() {
		return 0
	}
	return float64(t.UnixNano()) / 1e9
}

// newLimiter returns the per-key limiter: shared through Redis when
// redisURL is set, in this process otherwise, with the health view of it.
func newLimiter(rate ratelimit.Rate, redisURL string, timeout time.Duration, logger *slog.Logger) (ratelimit.Limiter, *redislimit.Limiter, func() server.LimitsStatus, error) {
	if redisURL == "" {
		status := func() server.LimitsStatus { return server.LimitsStatus{Backend: "memory"} }
		return ratelimit.NewMemory(rate), nil, status, nil
	}
	rl, err := redislimit.New(redisURL, rate, redislimit.Options{Logger: logger, Timeout: timeout})
	if err != nil {
		return nil, nil, nil, fmt.Errorf("--redis: %w", err)
	}
	if err := rl.Ping(); err != nil {
		logger.Warn("Redis does not answer at start-up; limiting locally until it does", "error", err.Error())
		rl.Take("unitd:start-up-probe") // switches to the local limiter and starts the recovery probe
	}
	status := func() server.LimitsStatus {
		st := rl.Status()
		return server.LimitsStatus{Backend: st.Backend, Shared: st.Up, Since: st.Since, Error: st.Error}
	}
	return rl, rl, status, nil
}

// durationDefault reads a positive duration from the environment variable
// name, or returns def when it is unset or not a duration.
func durationDefault(name string, def time.Duration) time.Duration {
	if v := os.Getenv(name); v != "" {
		if d, err := time.ParseDuration(v); err == nil && d > 0 {
			return d
		}
	}
	return def
}

// serveAdmin serves the admin endpoints on ln until ctx is done.
func serveAdmin(ctx context.Context, ln net.Listener, h http.Handler, logger *slog.Logger) error {
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       60 * time.Second,
		MaxHeaderBytes:    16 << 10,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := srv.Shutdown(sctx)
	if serr := <-errc; serr != nil && !errors.Is(serr, http.ErrServerClosed) && err == nil {
		err = serr
	}
	return err
}

// defaultAdminAddr is where the admin listener listens unless told: port
// 9612, marked free in Prometheus' published default port allocations
// (github.com/prometheus/prometheus/wiki/Default-port-allocations), where
// 9090, the port of the Prometheus server itself, and the ports of the
// well-known exporters are taken.
const defaultAdminAddr = "127.0.0.1:9612"

// listen listens on addr, and says which flag named it when it cannot: a
// port in use is most often another unitd or a Prometheus on the host.
func listen(flagName, addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		hint := ""
		if errors.Is(err, syscall.EADDRINUSE) {
			hint = " (another program, or another unitd, listens there)"
		}
		return nil, fmt.Errorf("%s %s: %w%s; give another address with %s", flagName, addr, err, hint, flagName)
	}
	return ln, nil
}

// checkAdminAddr refuses an admin address that is the public one: metrics
// and readiness are for operators, never for API consumers.
func checkAdminAddr(admin, public string) error {
	if admin == "" || admin == "off" {
		return nil
	}
	ah, ap, err := net.SplitHostPort(admin)
	if err != nil {
		return fmt.Errorf("--admin-addr %q: %w", admin, err)
	}
	ph, pp, err := net.SplitHostPort(public)
	if err != nil {
		return nil // --addr is checked when it is listened on
	}
	if ap == pp && ap != "0" && (ah == ph || ah == "" || ph == "" || ah == "0.0.0.0" || ph == "0.0.0.0" || ah == "::" || ph == "::") {
		return fmt.Errorf("--admin-addr %s would share the public listener %s; give the admin endpoints a port of their own", admin, public)
	}
	return nil
}

// Connection bounds of unitd serve.
const (
	// fileReserve is kept out of the connection bound: the store's
	// connections, catalog files, the password worker's pipes, the admin
	// listener's connections.
	fileReserve = 1024
	// maxConnsCeiling bounds connections whatever the file limit: an idle
	// connection holds about 20 KB, so 50,000 hold about 1 GB.
	maxConnsCeiling = 50_000
)

// connBound is the bound on open connections for a file limit: the limit
// less a reserve for everything else (a quarter of it for small limits),
// and at most maxConnsCeiling. Zero when the limit is unknown.
func connBound(fileLimit uint64) int {
	if fileLimit == 0 {
		return maxConnsCeiling
	}
	n := max(fileLimit*3/4, fileLimit-min(fileLimit, fileReserve))
	return int(min(n, maxConnsCeiling))
}

// intDefault reads a whole number from the environment variable name, or
// returns def when it is unset or not a number.
func intDefault(name string, def int) int {
	if v := os.Getenv(name); v != "" {
		if n, err := strconv.Atoi(v); err == nil {
			return n
		}
	}
	return def
}
