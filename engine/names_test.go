package engine

import (
	"sync"
	"testing"
)

// TestRestoreDecodesSpellingsOnFirstUse: a restored graph converts
// without decoding its spellings or its claims on codes, and decodes each
// once, when first needed, into what the built graph has.
func TestRestoreDecodesSpellingsOnFirstUse(t *testing.T) {
	built := testGraph(t)
	g, errs := Restore(string(built.Snapshot()), Deferred{})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if _, err := g.Convert(Request{Value: "1", From: "m", To: "ft"}); err != nil {
		t.Fatal(err)
	}
	if g.t.Spellings != nil || g.t.Codes.Decoded() {
		t.Fatal("a conversion decoded the spellings or the claims")
	}
	_, want := built.Lookup("metre-ish")
	var wg sync.WaitGroup
	for range 4 { // the first uses at once: each part is decoded once
		wg.Go(func() {
			if _, err := g.Lookup("metre-ish"); err == nil || err.Error() != want.Error() {
				t.Errorf("unknown name: %v, the built graph says %v", err, want)
			}
			g.t.Codes.Claimed()
		})
	}
	wg.Wait()
	if len(g.t.Spellings) != len(built.t.Spellings) {
		t.Fatalf("%d spellings decoded, %d built", len(g.t.Spellings), len(built.t.Spellings))
	}
	for i, s := range g.t.Spellings {
		if b := built.t.Spellings[i]; s.Text != b.Text || s.Unit.Symbol != b.Unit.Symbol {
			t.Errorf("spelling %d: %q of %s, built %q of %s", i, s.Text, s.Unit.Symbol, b.Text, b.Unit.Symbol)
		}
	}
	claimed := g.t.Codes.Claimed()
	for system, codes := range built.t.Codes.Claimed() {
		if len(claimed[system]) != len(codes) {
			t.Errorf("%s: %d claims decoded, %d built", system, len(claimed[system]), len(codes))
		}
		for code, u := range codes {
			if claimed[system][code] == nil || claimed[system][code].Symbol != u.Symbol {
				t.Errorf("%s:%s claimed by %v, built %s", system, code, claimed[system][code], u.Symbol)
			}
		}
	}
}
