package pgtest

import (
	"database/sql"
	"os"
	"strings"
	"testing"
)

func TestMain(m *testing.M) { os.Exit(Main(m)) }

func TestNewDatabase(t *testing.T) {
	a, b := NewDatabase(t), NewDatabase(t)
	if !strings.HasPrefix(a, "postgres://") {
		t.Errorf("NewDatabase = %q, want a postgres:// URL", a)
	}
	if a == b {
		t.Fatalf("two calls gave the same database %q", a)
	}
	db, err := sql.Open("pgx", a)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE TABLE t (x INT); INSERT INTO t VALUES (42)`); err != nil {
		t.Fatal(err)
	}
	var x int
	if err := db.QueryRow(`SELECT x FROM t`).Scan(&x); err != nil || x != 42 {
		t.Fatalf("read back %d, %v; want 42", x, err)
	}
}
