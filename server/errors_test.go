package server

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/unitd/unitd/account"
)

// TestStatusOfAccountErrors: the account domain's errors get their status
// from the table the API uses, and the codes they share with the API mean
// the same status.
func TestStatusOfAccountErrors(t *testing.T) {
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
		if got := StatusOf(account.ErrorCode(tt.err)); got != tt.want {
			t.Errorf("%v: status %d, want %d", tt.err, got, tt.want)
		}
	}
	if account.CodeNotFound != codeNotFound || account.CodeInvalid != codeInvalidRequest || account.CodeInternal != codeInternal {
		t.Error("an account code shared with the API is spelled differently")
	}
	if got := StatusOf("NO_SUCH_CODE"); got != http.StatusInternalServerError {
		t.Errorf("unknown code: %d, want 500", got)
	}
}
