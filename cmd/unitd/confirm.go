//go:build !unitd_lite

package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/unitd/unitd/account"
	"github.com/unitd/unitd/store"
)

// defaultWait is how long `unitd keys` waits, after a change, for the
// running servers to take it up.
const defaultWait = 10 * time.Second

// recentReaders is how far back a server's last report counts as running:
// three report intervals.
const recentReaders = 3 * account.ReportInterval

// confirmTakenUp checks that the servers reading the store have loaded a
// change of keys just stored: each running server reports the key version
// it serves (account.KeySource.Announce). It returns as soon as every
// server that reported in the last recentReaders has the change, and an
// error naming those that have not after wait: such a server keeps its
// old keys, a revoked one included, which is usually a store it can no
// longer read. wait 0 skips the check.
func confirmTakenUp(ctx context.Context, db *store.DB, w io.Writer, wait time.Duration) error {
	if wait <= 0 {
		return nil
	}
	v, err := db.KeyVersion(ctx)
	if err != nil {
		return fmt.Errorf("the change is stored; checking that servers took it up failed: %w", err)
	}
	start := time.Now()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		readers, err := db.KeyReaders(ctx, time.Now().Add(-recentReaders))
		if err != nil {
			return fmt.Errorf("the change is stored; checking that servers took it up failed: %w", err)
		}
		var behind []account.KeyReader
		for _, r := range readers {
			if r.Version < v {
				behind = append(behind, r)
			}
		}
		switch {
		case len(readers) == 0:
			fmt.Fprintf(w, "No server has read this store in the last %s; a server loads the change when it starts.\n"+
				"If one is running, it is not reading this store: check its --store and that it can read the file.\n", recentReaders)
			return nil
		case len(behind) == 0:
			fmt.Fprintf(w, "In effect on %s.\n", servers(len(readers)))
			return nil
		case time.Since(start) >= wait:
			var b strings.Builder
			for _, r := range behind {
				fmt.Fprintf(&b, "Not in effect on %s: it serves key version %d, this change is %d (last report %s).\n",
					r.Description, r.Version, v, r.SeenAt.Local().Format(time.TimeOnly))
			}
			fmt.Fprint(w, b.String())
			return fmt.Errorf("the change is stored, but %d of %s did not take it up within %s: a server that cannot read the store keeps its old keys (check its permissions and logs)",
				len(behind), servers(len(readers)), wait)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
	}
}

func servers(n int) string {
	if n == 1 {
		return "1 running server"
	}
	return fmt.Sprintf("%d running servers", n)
}
