package server

import (
	"container/list"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"
)

// Connection limits
//
// Every open connection holds a file descriptor and some memory, idle or
// not: 19,900 idle keep-alive connections from one address took 400 MB, and
// at the file limit accept failed and every other client waited. connGuard
// wraps the API's listener: it refuses a connection from an address that
// already holds MaxConnsPerAddr (trusted proxies excepted, since they carry
// everyone's), and when the open connections pass three quarters of
// MaxConns it closes idle keep-alive connections, the longest idle first,
// down to half, so that a new connection always finds room; at MaxConns,
// with nothing idle to close, a new connection is refused at once.

// connGuard is a listener that bounds connections per address and in all.
type connGuard struct {
	net.Listener
	perAddr  int // 0: no bound per address
	max      int // 0: no bound in all
	trusted  func(host string) bool
	logger   *slog.Logger
	onRefuse func(reason string)

	mu      sync.Mutex
	total   int
	byAddr  map[string]int
	idle    *list.List // of *guardedConn, longest idle first
	refused map[string]int
	lastLog time.Time
}

// guardedConn is an accepted connection, counted until it is closed.
type guardedConn struct {
	net.Conn
	g    *connGuard
	host string

	once sync.Once
	// idleAt is its element in g.idle while it is idle; guarded by g.mu.
	idleAt *list.Element
}

func (c *guardedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() { c.g.closed(c) })
	return err
}

// CloseWrite half-closes the connection, as net/http does before it
// closes one whose request body it did not read to its end (an NDJSON
// batch that ended early): the client gets the end of the answer rather
// than a reset. Without it, the wrappers above (earlyConn) found nothing
// to half-close.
func (c *guardedConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

func newConnGuard(ln net.Listener, perAddr, max int, trusted func(string) bool, logger *slog.Logger) *connGuard {
	return &connGuard{Listener: ln, perAddr: perAddr, max: max, trusted: trusted, logger: logger,
		byAddr: map[string]int{}, idle: list.New(), refused: map[string]int{}}
}

// Accept returns the next connection within the bounds, closing those
// beyond them.
func (g *connGuard) Accept() (net.Conn, error) {
	for {
		c, err := g.Listener.Accept()
		if err != nil {
			return nil, err
		}
		host, _, err := net.SplitHostPort(c.RemoteAddr().String())
		if err != nil {
			host = c.RemoteAddr().String()
		}
		if gc := g.admit(c, host); gc != nil {
			return gc, nil
		}
		c.Close()
	}
}

// admit counts c, or says why it is refused (nil).
func (g *connGuard) admit(c net.Conn, host string) *guardedConn {
	g.mu.Lock()
	var shed []*guardedConn
	reason := ""
	switch {
	case g.perAddr > 0 && g.byAddr[host] >= g.perAddr && (g.trusted == nil || !g.trusted(host)):
		reason = "per_address"
	case g.max > 0 && g.total >= g.max && g.idle.Len() == 0:
		reason = "total"
	}
	if reason != "" {
		g.refuse(reason)
		g.mu.Unlock()
		return nil
	}
	if g.max > 0 && g.total+1 > g.max*3/4 {
		// Under pressure: shed idle connections down to half the bound.
		for g.idle.Len() > 0 && g.total-len(shed)+1 > g.max/2 {
			e := g.idle.Front()
			ic := e.Value.(*guardedConn)
			g.idle.Remove(e)
			ic.idleAt = nil
			shed = append(shed, ic)
		}
	}
	gc := &guardedConn{Conn: c, g: g, host: host}
	g.total++
	g.byAddr[host]++
	g.mu.Unlock()
	for _, ic := range shed {
		ic.Close() // its count drops in closed
	}
	return gc
}

// refuse records a refused connection and logs the refusals at most every
// ten seconds. The caller holds mu.
func (g *connGuard) refuse(reason string) {
	g.refused[reason]++
	if g.onRefuse != nil {
		g.onRefuse(reason)
	}
	if now := time.Now(); now.Sub(g.lastLog) >= 10*time.Second && g.logger != nil {
		g.lastLog = now
		g.logger.Warn("connections refused", "per_address", g.refused["per_address"], "total", g.refused["total"],
			"open", g.total, "max", g.max, "max_per_address", g.perAddr)
		clear(g.refused)
	}
}

// closed forgets a connection.
func (g *connGuard) closed(c *guardedConn) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if c.idleAt != nil {
		g.idle.Remove(c.idleAt)
		c.idleAt = nil
	}
	g.total--
	if g.byAddr[c.host]--; g.byAddr[c.host] <= 0 {
		delete(g.byAddr, c.host)
	}
}

// connState is the http.Server's ConnState hook: it keeps the idle
// connections in the order they fell idle.
func (g *connGuard) connState(c net.Conn, st http.ConnState) {
	gc := guardedOf(c)
	if gc == nil || gc.g != g {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if gc.idleAt != nil {
		g.idle.Remove(gc.idleAt)
		gc.idleAt = nil
	}
	if st == http.StateIdle {
		gc.idleAt = g.idle.PushBack(gc)
	}
}

// open returns the connections open and idle now.
func (g *connGuard) open() (total, idle int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.total, g.idle.Len()
}

// Connections returns the connections the API's listener holds open now,
// and how many of them are idle keep-alive connections (0, 0 before Serve).
func (s *Server) Connections() (open, idle int) {
	if g := s.conns.Load(); g != nil {
		return g.open()
	}
	return 0, 0
}

// guardedOf finds the guardedConn under c: the server sees it as it is,
// or inside the connection wrappers of TLS and of early refusals.
func guardedOf(c net.Conn) *guardedConn {
	for range 4 {
		switch v := c.(type) {
		case *guardedConn:
			return v
		case interface{ NetConn() net.Conn }: // *tls.Conn
			c = v.NetConn()
		case *earlyConn:
			c = v.Conn
		default:
			return nil
		}
	}
	return nil
}
