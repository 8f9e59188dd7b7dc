// Package redistest starts a real redis-server for tests: on a Unix socket
// in a temporary directory (no TCP port, no persistence), stopped when the
// test ends. A test that cannot start one fails; it never skips.
package redistest

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// Server is a running redis-server.
type Server struct {
	// Socket is the path of its Unix socket; Addr is its TCP address on
	// 127.0.0.1 when started with a port.
	Socket string
	Addr   string
	dir    string
	cmd    *exec.Cmd
	tb     testing.TB
}

// URL returns its redis:// or unix:// URL, as redislimit.New and go-redis
// read it.
func (s *Server) URL() string {
	if s.Addr != "" {
		return "redis://" + s.Addr
	}
	return "unix://" + s.Socket
}

// Start runs redis-server on a Unix socket and registers its shutdown with
// tb.Cleanup.
func Start(tb testing.TB) *Server {
	tb.Helper()
	s := &Server{dir: tb.TempDir(), tb: tb}
	s.Socket = filepath.Join(s.dir, "redis.sock")
	s.start(0)
	return s
}

// StartTCP runs redis-server on a free port of 127.0.0.1, so that other
// processes (unitd replicas) can reach it by URL; the port stays the same
// across Stop and Restart.
func StartTCP(tb testing.TB) *Server {
	tb.Helper()
	s := &Server{dir: tb.TempDir(), tb: tb}
	s.Socket = filepath.Join(s.dir, "redis.sock")
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatalf("redistest: finding a free port: %v", err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	s.Addr = net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	s.start(port)
	return s
}

func (s *Server) start(port int) {
	tb := s.tb
	tb.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		tb.Fatalf("redistest: redis-server not found (install Debian's redis-server; tools/test-deps.sh does): %v", err)
	}
	args := []string{
		"--port", strconv.Itoa(port), "--bind", "127.0.0.1",
		"--unixsocket", s.Socket, "--unixsocketperm", "700",
		"--dir", s.dir, "--save", "", "--appendonly", "no",
		"--daemonize", "no", "--loglevel", "warning",
	}
	s.cmd = exec.Command(bin, args...)
	logf, err := os.Create(filepath.Join(s.dir, "redis.log"))
	if err != nil {
		tb.Fatal(err)
	}
	s.cmd.Stdout, s.cmd.Stderr = logf, logf
	if err := s.cmd.Start(); err != nil {
		tb.Fatalf("redistest: starting redis-server: %v", err)
	}
	tb.Cleanup(s.Stop)
	// Ready when it answers PING on its socket (bounded wait, not a sleep
	// as synchronisation: it polls for the condition).
	deadline := time.Now().Add(10 * time.Second)
	for {
		if s.ping() == nil {
			return
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(filepath.Join(s.dir, "redis.log"))
			tb.Fatalf("redistest: redis-server did not answer within 10s; log:\n%s", log)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (s *Server) ping() error {
	c, err := net.DialTimeout("unix", s.Socket, time.Second)
	if err != nil {
		return err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(time.Second))
	if _, err := c.Write([]byte("PING\r\n")); err != nil {
		return err
	}
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		return err
	}
	if line != "+PONG\r\n" {
		return fmt.Errorf("unexpected reply %q", line)
	}
	return nil
}

// Stop kills the server and waits for it; calling it twice is harmless.
func (s *Server) Stop() {
	if s.cmd == nil || s.cmd.Process == nil {
		return
	}
	s.cmd.Process.Kill()
	s.cmd.Wait()
	s.cmd = nil
	os.Remove(s.Socket)
}

// Restart starts the server again on the same socket and port after Stop.
func (s *Server) Restart() {
	s.tb.Helper()
	port := 0
	if s.Addr != "" {
		_, p, _ := net.SplitHostPort(s.Addr)
		port, _ = strconv.Atoi(p)
	}
	s.start(port)
}
