package main

import (
	"io"
	"log/slog"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/unitd/unitd/server"
)

// TestStreamLimitFlags: --max-stream-body, --max-stream-lines,
// --max-stream-line, --stream-rate-wait, --stream-min-rate,
// --max-streams-per-key and --max-streams (or their variables) set the
// limits of NDJSON batches, by default the server's own defaults (1 GiB,
// 10,000,000 lines, lines of 64 KiB whatever --max-body is, 10 s of
// waiting, 500 bytes a second, 8 streams per key, half of --max-conns),
// and reach the server (its OpenAPI document states them).
func TestStreamLimitFlags(t *testing.T) {
	t.Setenv("UNITD_STORE", filepath.Join(t.TempDir(), "unitd.db"))
	cfg, err := parseServeFlags([]string{"--max-body", "16MiB"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.MaxStreamBody != 1<<30 || cfg.MaxStreamLines != server.DefaultMaxStreamLines || server.DefaultMaxStreamLines != 10_000_000 ||
		cfg.MaxStreamLine != 64<<10 || server.DefaultMaxStreamLine != 64<<10 || cfg.StreamRateWait != 10*time.Second ||
		cfg.StreamMinRate != 500 || cfg.MaxStreamsPerKey != 8 || cfg.MaxStreams != 0 {
		t.Errorf("defaults: %+v", cfg)
	}
	t.Setenv("UNITD_MAX_STREAM_LINES", "5000")
	t.Setenv("UNITD_MAX_STREAM_LINE", "1KiB")
	t.Setenv("UNITD_STREAM_RATE_WAIT", "0")
	t.Setenv("UNITD_MAX_STREAMS_PER_KEY", "3")
	if cfg, err = parseServeFlags([]string{"--max-stream-body", "2GiB", "--stream-min-rate", "0", "--max-streams", "40", "--max-conns", "100"}, io.Discard); err != nil {
		t.Fatal(err)
	}
	if cfg.MaxStreamBody != 2<<30 || cfg.MaxStreamLines != 5000 || cfg.MaxStreamLine != 1024 || cfg.StreamRateWait >= 0 || cfg.StreamMinRate >= 0 ||
		cfg.MaxStreamsPerKey != 3 || cfg.MaxStreams != 40 {
		t.Errorf("from flags and the environment: %+v", cfg)
	}
	for _, args := range [][]string{
		{"--max-stream-lines", "0"}, {"--max-stream-lines", "1e6"}, {"--max-stream-body", "lots"}, {"--max-stream-body", "2TiB"},
		{"--max-stream-line", "0"}, {"--max-stream-line", "2GiB"}, {"--stream-rate-wait", "-1s"}, {"--stream-rate-wait", "soon"},
		{"--stream-min-rate", "fast"}, {"--max-streams-per-key", "0"}, {"--max-streams", "-1"},
	} {
		if _, err := parseServeFlags(args, io.Discard); err == nil || !strings.Contains(err.Error(), args[0]) {
			t.Errorf("%v: %v", args, err)
		}
	}
	d, err := newDaemon(cfg, slog.New(slog.DiscardHandler), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer d.db.Close()
	rec := httptest.NewRecorder()
	d.srv.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/openapi.json", nil))
	for _, want := range []string{
		"at most 5000 lines and 2147483648 bytes, each line at most 1024 bytes. A stream does not wait for the rate limit. Streams open at once: 3 per key, 40 in all.",
	} {
		if !strings.Contains(rec.Body.String(), want) {
			t.Errorf("the OpenAPI document does not say %q", want)
		}
	}

	// The defaults, and half of --max-conns.
	t.Setenv("UNITD_MAX_STREAM_LINES", "")
	t.Setenv("UNITD_MAX_STREAM_LINE", "")
	t.Setenv("UNITD_STREAM_RATE_WAIT", "")
	t.Setenv("UNITD_MAX_STREAMS_PER_KEY", "")
	if cfg, err = parseServeFlags([]string{"--max-conns", "100"}, io.Discard); err != nil {
		t.Fatal(err)
	}
	d.db.Close()
	if d, err = newDaemon(cfg, slog.New(slog.DiscardHandler), io.Discard); err != nil {
		t.Fatal(err)
	}
	defer d.db.Close()
	rec = httptest.NewRecorder()
	d.srv.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/openapi.json", nil))
	if want := "each line at most 65536 bytes. A stream waits for its key's rate limit up to 10s in all. After its first 20s, the body must come at 500 bytes a second or more (time spent waiting for the rate limit excepted). Streams open at once: 8 per key, 50 in all."; !strings.Contains(rec.Body.String(), want) {
		t.Errorf("the OpenAPI document does not say %q", want)
	}
}
