package claim

import (
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/unitd/unitd/engine/codes"
	"github.com/unitd/unitd/engine/fault"
	"github.com/unitd/unitd/engine/internal/graph"
)

// TestIndexClaims: Build's index answers what was written into it: the
// claimant of a code, its claim (with whether its map has an offset),
// and the reasons of unclaimed codes; without tables, no source.
func TestIndexClaims(t *testing.T) {
	x := NewIndex(nil)
	m, degC := unit("m", "L", "1", "0", nil), unit("°C", "Θ", "1", "273.15", nil)
	m.Exact, degC.Exact = true, true
	x.Claimed()[codes.SystemUCUM]["m"] = m
	x.Claimed()[codes.SystemUCUM]["Cel"] = degC
	x.Unclaimed()[codes.SystemQUDT]["FT_US"] = "the survey foot is not the catalog's"
	if u := x.Claimant(codes.SystemUCUM, "m"); u != m {
		t.Errorf("ucum:m claimed by %v", u)
	}
	if u := x.Claimant(codes.SystemUCUM, "km"); u != nil {
		t.Errorf("ucum:km claimed by %v without tables", u)
	}
	if c, ok := x.Claim(codes.SystemUCUM, "m"); !ok || c.Symbol != "m" || c.Offset {
		t.Errorf("ucum:m claim %+v %v", c, ok)
	}
	if c, ok := x.Claim(codes.SystemUCUM, "Cel"); !ok || !c.Offset {
		t.Errorf("ucum:Cel claim %+v %v, want an offset", c, ok)
	}
	if _, ok := x.Claim(codes.SystemCLDR, "meter"); ok {
		t.Error("an unclaimed code has a claim")
	}
	if r := x.Unclaimed()[codes.SystemQUDT]["FT_US"]; r == "" {
		t.Error("the reason of an unclaimed code is lost")
	}
	if x.Tables() != nil || x.Source(codes.SystemUCUM) != "" {
		t.Error("an index without tables has a source")
	}
}

// TestIndexUnknown: an unknown unece code is suggested among the codes
// the catalog claims; without tables, another system's has none.
func TestIndexUnknown(t *testing.T) {
	x := NewIndex(nil)
	x.Claimed()[codes.SystemUNECE]["MTR"] = unit("m", "L", "1", "0", nil)
	e := x.Unknown(codes.SystemUNECE, "MTQ")
	if e.Code != fault.UnknownUnit || len(e.Suggestions) != 1 || e.Suggestions[0] != "unece:MTR" || !strings.HasSuffix(e.Message, "did you mean unece:MTR?") {
		t.Errorf("unece:MTQ: %+v", e)
	}
	if e := x.Unknown(codes.SystemUCUM, "mq"); e.Code != fault.UnknownUnit || len(e.Suggestions) != 0 || e.Message != `unknown ucum code "mq"` {
		t.Errorf("ucum:mq: %+v", e)
	}
}

// TestRestoredIndexDecodesOnce: a restored index decodes its claims on
// their first use, once however many use them at once, and compiles its
// tables the same way.
func TestRestoredIndexDecodesOnce(t *testing.T) {
	var decodes, compiles atomic.Int32
	m := unit("m", "L", "1", "0", nil)
	x := Restored(func() (map[string]map[string]*graph.Unit, map[string]map[string]string) {
		decodes.Add(1)
		return map[string]map[string]*graph.Unit{codes.SystemUCUM: {"m": m}}, map[string]map[string]string{}
	}, func() *codes.Set {
		compiles.Add(1)
		return nil
	})
	if x.Decoded() {
		t.Fatal("decoded before its first use")
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			if x.Claimant(codes.SystemUCUM, "m") != m {
				t.Error("ucum:m is not claimed")
			}
		})
	}
	wg.Wait()
	if !x.Decoded() || decodes.Load() != 1 || compiles.Load() != 0 {
		t.Errorf("decoded %v, %d decodings, %d compilations; want one decoding and no compilation", x.Decoded(), decodes.Load(), compiles.Load())
	}
	x.Tables()
	x.Source(codes.SystemUCUM)
	if compiles.Load() != 1 {
		t.Errorf("%d compilations of the tables, want 1", compiles.Load())
	}
}
