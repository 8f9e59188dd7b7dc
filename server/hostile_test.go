package server

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/unitd/unitd/apikey"
)

// rawRequest writes head and then body on a fresh connection to addr and
// returns the response, without ever sending more than it was given. The
// read deadline only guards against a hung test.
func rawRequest(t *testing.T, addr, head string, body []byte) *http.Response {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	conn.SetDeadline(time.Now().Add(30 * time.Second))
	if _, err := io.WriteString(conn, head); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Write(body); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("reading response: %v", err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// TestHugeBodyNotRead sends the head of a 10 MB request and only 1 KB of
// it: the answer must come without the server waiting for the rest.
func TestHugeBodyNotRead(t *testing.T) {
	f := newFixture(t, nil)
	addr := strings.TrimPrefix(f.ts.URL, "http://")
	for _, tc := range []struct {
		name, head string
		body       []byte
		status     int
	}{
		{"declared length", "POST /v1/batch HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + f.keys["good"] +
			"\r\nContent-Type: application/json\r\nContent-Length: 10485760\r\n\r\n", []byte(strings.Repeat(" ", 1024)), 413},
		{"chunked", "POST /v1/batch HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + f.keys["good"] +
			"\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n", []byte(fmt.Sprintf("%x\r\n%s\r\n", 100<<10, strings.Repeat(" ", 100<<10))), 413},
		{"unauthenticated", "POST /v1/batch HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 10485760\r\n\r\n", []byte("{"), 401},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := rawRequest(t, addr, tc.head, tc.body)
			if resp.StatusCode != tc.status {
				t.Errorf("status = %d, want %d", resp.StatusCode, tc.status)
			}
		})
	}
}

// startServe runs Serve on a fresh listener until the test ends.
func startServe(t *testing.T, edit func(*Config)) (addr string, cancel context.CancelFunc, wait func() error) {
	t.Helper()
	f := newFixture(t, edit)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var serveErr error
	finished := make(chan struct{})
	go func() {
		serveErr = f.srv.Serve(ctx, ln)
		close(finished)
	}()
	wait = func() error {
		<-finished
		return serveErr
	}
	t.Cleanup(func() {
		cancel()
		wait()
	})
	return ln.Addr().String(), cancel, wait
}

// TestSlowBody: a client that stops sending its body gets a 4xx once
// ReadTimeout passes, not a 5xx and not a hung connection.
func TestSlowBody(t *testing.T) {
	var key string
	addr, _, _ := startServe(t, func(c *Config) {
		c.ReadTimeout = 200 * time.Millisecond
		set, ks := testKeys(t)
		c.Keys = fakeKeys{set}
		key = ks["good"]
	})
	resp := rawRequest(t, addr, "POST /v1/convert HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "+key+
		"\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n", []byte(`{"value":`))
	if resp.StatusCode < 400 || resp.StatusCode >= 500 {
		t.Errorf("status = %d, want 4xx", resp.StatusCode)
	}
}

// TestServeShutdown: cancelling the context lets a request in flight
// finish, then Serve returns nil.
func TestServeShutdown(t *testing.T) {
	var key string
	inHandler := make(chan struct{})
	addr, cancel, wait := startServe(t, func(c *Config) {
		set, ks := testKeys(t)
		c.Keys = &signalKeys{set: set, called: inHandler}
		key = ks["good"]
	})
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(30 * time.Second))
	body := `{"value":"1","from":"ft","to":"in"}`
	fmt.Fprintf(conn, "POST /v1/convert HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", key, len(body), body[:10])
	<-inHandler // the request is in flight, its body half sent
	cancel()
	io.WriteString(conn, body[10:])
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("in-flight request: %v", err)
	}
	if resp.StatusCode != 200 {
		t.Errorf("in-flight request: status %d", resp.StatusCode)
	}
	if err := wait(); err != nil {
		t.Errorf("Serve = %v, want nil", err)
	}
}

// signalKeys closes called the first time the server asks for keys.
type signalKeys struct {
	set    *apikey.Set
	once   sync.Once
	called chan struct{}
}

func (k *signalKeys) Current() *apikey.Set {
	k.once.Do(func() { close(k.called) })
	return k.set
}
