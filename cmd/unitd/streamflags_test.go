package main

import (
	"io"
	"log/slog"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/unitd/unitd/server"
)

// TestStreamLimitFlags: --max-stream-body and --max-stream-lines (or their
// variables) set the limits of NDJSON batches, 1 GiB and 10,000,000 lines
// by default, and reach the server (its OpenAPI document states them).
func TestStreamLimitFlags(t *testing.T) {
	t.Setenv("UNITD_STORE", filepath.Join(t.TempDir(), "unitd.db"))
	cfg, err := parseServeFlags(nil, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.MaxStreamBody != 1<<30 || cfg.MaxStreamLines != server.DefaultMaxStreamLines || server.DefaultMaxStreamLines != 10_000_000 {
		t.Errorf("defaults: %d bytes, %d lines", cfg.MaxStreamBody, cfg.MaxStreamLines)
	}
	t.Setenv("UNITD_MAX_STREAM_LINES", "5000")
	if cfg, err = parseServeFlags([]string{"--max-stream-body", "2GiB"}, io.Discard); err != nil {
		t.Fatal(err)
	}
	if cfg.MaxStreamBody != 2<<30 || cfg.MaxStreamLines != 5000 {
		t.Errorf("from a flag and the environment: %d bytes, %d lines", cfg.MaxStreamBody, cfg.MaxStreamLines)
	}
	for _, args := range [][]string{{"--max-stream-lines", "0"}, {"--max-stream-lines", "1e6"}, {"--max-stream-body", "lots"}, {"--max-stream-body", "2TiB"}} {
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
	if want := "at most 5000 lines and 2147483648 bytes"; !strings.Contains(rec.Body.String(), want) {
		t.Errorf("the OpenAPI document does not say %q", want)
	}
}
