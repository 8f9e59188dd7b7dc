package server

import (
	"encoding/json"
	"io"
	"strings"
	"testing"
)

// TestEarlyRefusalsAreJSON sends requests net/http refuses before any
// handler runs and checks each gets the contract's JSON error with a
// request id, over a real connection to Serve.
func TestEarlyRefusalsAreJSON(t *testing.T) {
	addr, _, _ := startServe(t, func(c *Config) { c.MaxHeaderBytes = 4096 })
	for _, tt := range []struct {
		name, head string
		status     int
		says       string
	}{
		{"invalid percent escape", "GET /v1/units/% HTTP/1.1\r\nHost: x\r\n\r\n", 400, "write % as %25"},
		{"bad escape mid-path", "GET /v1/units/km%zz HTTP/1.1\r\nHost: x\r\n\r\n", 400, "percent escape"},
		{"no Host", "GET /v1/health HTTP/1.1\r\n\r\n", 400, "Host"},
		{"malformed header", "GET /v1/health HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n", 400, "could not be read"},
		{"headers too large", "GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Big: " + strings.Repeat("a", 8192) + "\r\n\r\n", 431, "headers"},
		{"unknown transfer encoding", "POST /v1/convert HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", 400, "Transfer-Encoding"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			resp := rawRequest(t, addr, tt.head, nil)
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tt.status || resp.Header.Get("Content-Type") != "application/json" || resp.Header.Get("X-Content-Type-Options") != "nosniff" {
				t.Fatalf("status %d, Content-Type %q, want %d and JSON\n%s", resp.StatusCode, resp.Header.Get("Content-Type"), tt.status, body)
			}
			var e struct {
				Error struct {
					Code, Message string
					RequestID     string `json:"request_id"`
				}
			}
			if err := json.Unmarshal(body, &e); err != nil {
				t.Fatalf("body is not JSON: %v\n%s", err, body)
			}
			if e.Error.Code != "INVALID_REQUEST" || e.Error.RequestID == "" || e.Error.RequestID != resp.Header.Get("X-Request-Id") || !strings.Contains(e.Error.Message, tt.says) {
				t.Errorf("error %+v (X-Request-Id %q), want INVALID_REQUEST with a request id, saying %q", e.Error, resp.Header.Get("X-Request-Id"), tt.says)
			}
		})
	}
	// A handler's own answers pass through untouched.
	resp := rawRequest(t, addr, "GET /v1/units/nonesuch HTTP/1.1\r\nHost: x\r\n\r\n", nil)
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 404 || !strings.Contains(string(body), `"NOT_FOUND"`) {
		t.Errorf("unknown unit: %d %s", resp.StatusCode, body)
	}
}
