package errcode

import (
	"fmt"
	"net/http"
	"slices"
	"testing"

	"github.com/unitd/unitd/account"
	"github.com/unitd/unitd/engine"
)

// TestAccountErrors: the account domain's errors get their status from the
// table the API uses, and the codes they share with the API mean the same
// status.
func TestAccountErrors(t *testing.T) {
	for _, tt := range []struct {
		err  error
		want int
	}{
		{fmt.Errorf("key key_x: %w", account.ErrNotFound), http.StatusNotFound},
		{fmt.Errorf("%w: the grace period must be between 0 and 7 days", account.ErrInvalid), http.StatusBadRequest},
		{fmt.Errorf("account %q: %w", "Acme", account.ErrConflict), http.StatusConflict},
		{account.ErrKeyState, http.StatusConflict},
		{fmt.Errorf("database is locked"), http.StatusInternalServerError},
	} {
		if got := Status(account.ErrorCode(tt.err)); got != tt.want {
			t.Errorf("%v: status %d, want %d", tt.err, got, tt.want)
		}
	}
	if account.CodeNotFound != NotFound || account.CodeInvalid != InvalidRequest || account.CodeInternal != Internal {
		t.Error("an account code shared with the API is spelled differently")
	}
	if got := Status("NO_SUCH_CODE"); got != http.StatusInternalServerError {
		t.Errorf("unknown code: %d, want 500", got)
	}
}

// TestCodes: every code has a status of the 4xx or 5xx classes, the
// engine's conversion codes among them, and Codes lists each once, sorted.
func TestCodes(t *testing.T) {
	codes := Codes()
	if !slices.IsSorted(codes) || len(slices.Compact(slices.Clone(codes))) != len(codes) {
		t.Errorf("Codes() = %v, want each code once, sorted", codes)
	}
	for _, c := range codes {
		if s := Status(c); s < 400 || s > 599 {
			t.Errorf("%s: status %d", c, s)
		}
	}
	for _, c := range []engine.Code{engine.CodeInvalidValue, engine.CodeUnknownUnit, engine.CodeIncompatibleUnits, engine.CodeValueOutOfRange} {
		if !slices.Contains(codes, string(c)) {
			t.Errorf("the engine's %s has no status", c)
		}
	}
	if Status(CrossOrigin) != http.StatusForbidden || Status(Unavailable) != http.StatusServiceUnavailable {
		t.Error("the account page's codes lost their statuses")
	}
}
