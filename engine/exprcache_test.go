package engine

import (
	"testing"
	"unsafe"
)

// TestExpressionCacheCopiesNames: a unit name may be a view of a buffer
// that its owner reuses once the request is done (the server's pooled
// request bodies). The cache must keep its own copy: otherwise rewriting
// the buffer rewrites the cached key, and a later, different expression of
// the same length can be answered with the old one.
func TestExpressionCacheCopiesNames(t *testing.T) {
	g := testGraph(t)
	buf := []byte("yd/min")
	name := unsafe.String(&buf[0], len(buf))
	if _, err := g.Convert(Request{Value: "60", From: name, To: "km/h"}); err != nil {
		t.Fatal(err)
	}
	copy(buf, "kg*m/s") // the buffer's next request
	if _, ok := g.exprs.get("yd/min"); !ok {
		t.Fatal(`"yd/min" is no longer in the cache after its buffer was reused: the cache kept a view, not a copy`)
	}
	if e, ok := g.exprs.get("kg*m/s"); ok {
		t.Fatalf(`the cache answers "kg*m/s" with %q`, e.Symbol)
	}
}
