package engine

import "testing"

// TestConvertAllocations: with the accelerators on, a single conversion
// of a cached pair runs in machine words and allocates nothing of its own:
// AppendConvert into a reused buffer and Result allocates nothing, and
// Convert only the text of its answer. A change that moves a buffer of the
// kernel to the heap (a call cycle the compiler's escape analysis cannot
// see through, say) fails here. With the accelerators off the plain path
// computes in math/big, which allocates by design, and there is no bound
// to check: the run with them on is the one that checks.
func TestConvertAllocations(t *testing.T) {
	g := testGraph(t)
	for _, tt := range []struct {
		name string
		req  Request
	}{
		{"linear", Request{Value: "12.5", From: "ft", To: "m"}},
		{"affine", Request{Value: "98.6", From: "degF", To: "degC"}},
		{"rational formula", Request{Value: "107.11", From: "L/100km", To: "mpg"}},
		{"pi", Request{Value: "12.5", From: "deg", To: "rad"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := g.Convert(tt.req); err != nil {
				t.Fatal(err)
			}
			if !accelerated() {
				return
			}
			buf := make([]byte, 0, 64)
			var res Result
			req := tt.req
			if n := testing.AllocsPerRun(100, func() {
				buf, _ = g.AppendConvert(buf[:0], &req, &res)
			}); n != 0 {
				t.Errorf("AppendConvert %s %s → %s: %v allocations, want 0", req.Value, req.From, req.To, n)
			}
			if n := testing.AllocsPerRun(100, func() { g.Convert(tt.req) }); n != 1 {
				t.Errorf("Convert %s %s → %s: %v allocations, want 1 (the answer's text)", req.Value, req.From, req.To, n)
			}
		})
	}
}
