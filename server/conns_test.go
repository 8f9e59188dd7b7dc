package server

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"testing"
	"time"
)

// serveGuarded runs Serve with cfg edited and returns its address and the
// Server.
func serveGuarded(t *testing.T, edit func(*Config)) (string, *Server) {
	t.Helper()
	f := newFixture(t, edit)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { f.srv.Serve(ctx, ln); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	return ln.Addr().String(), f.srv
}

// keptConn is a keep-alive connection that has made requests.
type keptConn struct {
	net.Conn
	r *bufio.Reader
}

// dialAndAsk opens a connection and makes one request on it; ok is false
// when the server closed the connection instead of answering.
func dialAndAsk(t *testing.T, addr string) (*keptConn, bool) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	kc := &keptConn{Conn: c, r: bufio.NewReader(c)}
	return kc, kc.ask()
}

// ask makes one more request on the connection.
func (kc *keptConn) ask() bool {
	kc.SetDeadline(time.Now().Add(30 * time.Second))
	if _, err := io.WriteString(kc, "GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
		return false
	}
	resp, err := http.ReadResponse(kc.r, nil)
	if err != nil {
		return false
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode == 200
}

// waitFor polls the server's connection counts until ok holds of them.
func waitFor(t *testing.T, s *Server, what string, ok func(open, idle int) bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		if open, idle := s.Connections(); ok(open, idle) {
			return
		}
		if time.Now().After(deadline) {
			open, idle := s.Connections()
			t.Fatalf("%s: never so (%d open, %d idle)", what, open, idle)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestConnectionsPerAddress: an address may hold MaxConnsPerAddr
// connections; one more is closed unanswered, and once one of its
// connections ends it may open another. A trusted proxy is not bounded.
func TestConnectionsPerAddress(t *testing.T) {
	addr, srv := serveGuarded(t, func(c *Config) { c.MaxConnsPerAddr = 3 })
	var kept []*keptConn
	for i := range 3 {
		kc, ok := dialAndAsk(t, addr)
		if !ok {
			t.Fatalf("connection %d within the bound refused", i+1)
		}
		kept = append(kept, kc)
	}
	if _, ok := dialAndAsk(t, addr); ok {
		t.Fatal("a 4th connection from one address was answered; the bound is 3")
	}
	kept[0].Close()
	waitFor(t, srv, "the closed connection forgotten", func(open, _ int) bool { return open == 2 })
	if _, ok := dialAndAsk(t, addr); !ok {
		t.Error("a connection after one of the three closed was refused")
	}
	for _, kc := range kept[1:] {
		if !kc.ask() {
			t.Error("a connection within the bound stopped answering")
		}
	}

	addr, _ = serveGuarded(t, func(c *Config) { c.MaxConnsPerAddr = 3; c.Proxies = proxies(t, "127.0.0.1") })
	for i := range 6 {
		if _, ok := dialAndAsk(t, addr); !ok {
			t.Fatalf("connection %d from a trusted proxy refused", i+1)
		}
	}
}

// TestIdleConnectionsShedUnderPressure: past three quarters of MaxConns,
// the longest idle connections are closed to make room, so new clients are
// served and the open connections stay within the bound.
func TestIdleConnectionsShedUnderPressure(t *testing.T) {
	addr, srv := serveGuarded(t, func(c *Config) { c.MaxConns = 8 })
	var kept []*keptConn
	for i := range 20 {
		kc, ok := dialAndAsk(t, addr)
		if !ok {
			t.Fatalf("connection %d refused while older ones were idle", i+1)
		}
		kept = append(kept, kc)
		waitFor(t, srv, "the new connection idle", func(open, idle int) bool { return open == idle })
		if open, _ := srv.Connections(); open > 8 {
			t.Fatalf("%d connections open, bound 8", open)
		}
	}
	// The newest are open and answer; the oldest were closed.
	if !kept[19].ask() {
		t.Error("the newest connection was closed")
	}
	if kept[0].ask() {
		t.Error("the oldest idle connection is still open")
	}
}

// TestConnectionsBeyondTheBoundRefused: at MaxConns with no connection
// idle, a new one is closed at once rather than waiting.
func TestConnectionsBeyondTheBoundRefused(t *testing.T) {
	// The two requests never finish their headers: no timeout may end them
	// while the test runs.
	addr, srv := serveGuarded(t, func(c *Config) { c.MaxConns = 2; c.ReadHeaderTimeout = time.Hour })
	for range 2 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		io.WriteString(c, "GET /v1/health HTTP/1.1\r\n") // a request under way: active
	}
	waitFor(t, srv, "two active connections", func(open, idle int) bool { return open == 2 && idle == 0 })
	if _, ok := dialAndAsk(t, addr); ok {
		t.Error("a 3rd connection was answered with 2 active ones at a bound of 2")
	}
}
