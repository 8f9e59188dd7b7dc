package server

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/unitd/unitd/account"
	"github.com/unitd/unitd/engine"
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

// TestErrorHint: a conversion error carries the catalog's hint as
// error.hint, alone and inside a batch, and an error without one has no
// hint field.
func TestErrorHint(t *testing.T) {
	spec := testSpecOf(t)
	spec.Hints = []engine.HintSpec{{Code: engine.CodeIncompatibleUnits, From: engine.HintSide{Unit: "ft"}, To: engine.HintSide{Unit: "K"},
		Hint: `a "length" is not a temperature: {from} → {to}`, Source: "test"}}
	g, errs := engine.Build(spec)
	if errs != nil {
		t.Fatal(errs)
	}
	f := newFixture(t, nil)
	f.srv.ApplyGraph(g)
	const want = `"hint":"a \"length\" is not a temperature: ft → K"`
	resp, body := f.do(t, f.request(t, "GET", "/v1/convert?value=1&from=ft&to=K", f.keys["good"], "", ""))
	if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(string(body), want) {
		t.Errorf("convert: %d %s; want 422 with %s", resp.StatusCode, body, want)
	}
	_, body = f.do(t, f.request(t, "POST", "/v1/batch", f.keys["good"], "application/json",
		`{"conversions":[{"value":"1","from":"ft","to":"K"},{"value":"1","from":"m","to":"K"}]}`))
	if strings.Count(string(body), want) != 1 || strings.Count(string(body), `"hint"`) != 1 {
		t.Errorf("batch: %s; want one item with %s", body, want)
	}
}
