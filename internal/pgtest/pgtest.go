// Package pgtest starts a throwaway PostgreSQL server for tests: Debian's
// binaries (/usr/lib/postgresql/*/bin, or $UNITD_PG_BIN), a data directory
// in a temporary directory, fsync off, and no TCP listener at all: clients
// connect through a Unix socket in that directory, so parallel test
// binaries never compete for a port.
//
// PostgreSQL refuses to run as root. When the tests run as root (as in CI
// containers), the server runs as the "postgres" user that Debian's
// package creates, by setting the child process's credentials; the
// temporary directory is handed to that user.
//
// A test that needs PostgreSQL calls [NewDatabase], which starts one server
// per test binary on first use and gives each caller a fresh database. If
// the server cannot start, the test fails: it never skips. A package using
// it stops the server at the end with
//
//	func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }
package pgtest

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver
)

// Server is a running PostgreSQL server owned by a test binary.
type Server struct {
	dir  string // temporary directory: data/ and the socket
	cmd  *exec.Cmd
	log  *bytes.Buffer
	done chan struct{} // closed when the server process exits

	mu sync.Mutex
	n  int // databases created
}

var shared struct {
	once sync.Once
	srv  *Server
	err  error
}

// NewDatabase returns the postgres:// URL of a new, empty database on
// the test binary's server, starting the server on first use. It fails the
// test if the server cannot start.
func NewDatabase(t testing.TB) string {
	t.Helper()
	shared.once.Do(func() { shared.srv, shared.err = Start() })
	if shared.err != nil {
		t.Fatalf("PostgreSQL for the tests: %v", shared.err)
	}
	u, err := shared.srv.CreateDatabase()
	if err != nil {
		t.Fatalf("PostgreSQL for the tests: %v", err)
	}
	return u
}

// Main runs the tests and then stops the shared server, if one started.
func Main(m *testing.M) int {
	code := m.Run()
	if shared.srv != nil {
		if err := shared.srv.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, "pgtest:", err)
		}
	}
	return code
}

// binDir finds the directory of initdb and postgres.
func binDir() (string, error) {
	if d := os.Getenv("UNITD_PG_BIN"); d != "" {
		return d, nil
	}
	found, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	if len(found) == 0 {
		return "", errors.New("no /usr/lib/postgresql/*/bin/initdb: install Debian's postgresql package (tools/test-deps.sh) or set UNITD_PG_BIN")
	}
	slices.SortFunc(found, func(a, b string) int { return version(a) - version(b) })
	return filepath.Dir(found[len(found)-1]), nil
}

func version(initdb string) int {
	v, _ := strconv.Atoi(filepath.Base(filepath.Dir(filepath.Dir(initdb))))
	return v
}

// Start initialises a data directory in a new temporary directory and starts
// a server on a Unix socket there. It returns once the server accepts
// connections (or fails after 60 s).
func Start() (*Server, error) {
	bin, err := binDir()
	if err != nil {
		return nil, err
	}
	cred, err := credential()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "unitd-pgtest-")
	if err != nil {
		return nil, err
	}
	s := &Server{dir: dir, log: new(bytes.Buffer), done: make(chan struct{})}
	fail := func(err error) (*Server, error) {
		os.RemoveAll(dir)
		return nil, err
	}
	if cred != nil {
		if err := os.Chown(dir, int(cred.Uid), int(cred.Gid)); err != nil {
			return fail(fmt.Errorf("hand %s to the postgres user: %w", dir, err))
		}
	}
	data := filepath.Join(dir, "data")
	initdb := exec.Command(filepath.Join(bin, "initdb"), "-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync", "--no-instructions")
	initdb.SysProcAttr = sysProcAttr(cred)
	initdb.Env = append(os.Environ(), "LC_ALL=C")
	if out, err := initdb.CombinedOutput(); err != nil {
		return fail(fmt.Errorf("initdb: %v\n%s", err, out))
	}
	s.cmd = exec.Command(filepath.Join(bin, "postgres"), "-D", data, "-k", dir, "-p", "5432",
		"-c", "listen_addresses=", "-c", "fsync=off", "-c", "synchronous_commit=off",
		"-c", "full_page_writes=off", "-c", "max_connections=200")
	s.cmd.SysProcAttr = sysProcAttr(cred)
	s.cmd.Env = append(os.Environ(), "LC_ALL=C")
	s.cmd.Stdout, s.cmd.Stderr = s.log, s.log
	if err := s.cmd.Start(); err != nil {
		return fail(fmt.Errorf("start postgres: %w", err))
	}
	go func() { s.cmd.Wait(); close(s.done) }()

	db, err := sql.Open("pgx", s.url("postgres"))
	if err != nil {
		s.Stop()
		return nil, err
	}
	defer db.Close()
	deadline := time.Now().Add(60 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		err = db.PingContext(ctx)
		cancel()
		if err == nil {
			return s, nil
		}
		select {
		case <-s.done:
			os.RemoveAll(dir)
			return nil, fmt.Errorf("postgres exited: %s", s.log.String())
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			s.Stop()
			return nil, fmt.Errorf("postgres did not accept connections within 60 s: %v\n%s", err, s.log.String())
		}
	}
}

// credential returns the postgres user's credentials when running as root,
// since PostgreSQL refuses to run as root; nil otherwise.
func credential() (*syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return nil, fmt.Errorf("running as root, and PostgreSQL refuses to run as root: need the postgres user that Debian's postgresql package creates: %w", err)
	}
	uid, err1 := strconv.ParseUint(u.Uid, 10, 32)
	gid, err2 := strconv.ParseUint(u.Gid, 10, 32)
	if err1 != nil || err2 != nil {
		return nil, fmt.Errorf("postgres user has ids %q/%q", u.Uid, u.Gid)
	}
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
}

// url returns the postgres:// URL of database name over the socket.
func (s *Server) url(name string) string {
	return "postgres://postgres@/" + name + "?host=" + url.QueryEscape(s.dir) + "&port=5432&sslmode=disable"
}

// CreateDatabase creates a new empty database and returns its connection
// string.
func (s *Server) CreateDatabase() (string, error) {
	s.mu.Lock()
	s.n++
	name := fmt.Sprintf("test_%d", s.n)
	s.mu.Unlock()
	db, err := sql.Open("pgx", s.url("postgres"))
	if err != nil {
		return "", err
	}
	defer db.Close()
	if _, err := db.Exec("CREATE DATABASE " + name); err != nil {
		return "", fmt.Errorf("create database: %w", err)
	}
	return s.url(name), nil
}

// Stop shuts the server down (fast shutdown, then a kill after 30 s) and
// removes its directory.
func (s *Server) Stop() error {
	defer os.RemoveAll(s.dir)
	s.cmd.Process.Signal(syscall.SIGINT)
	select {
	case <-s.done:
		return nil
	case <-time.After(30 * time.Second):
		s.cmd.Process.Kill()
		<-s.done
		return errors.New("postgres did not stop within 30 s; killed")
	}
}
