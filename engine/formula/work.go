package formula

import (
	"github.com/cockroachdb/apd/v3"
	"github.com/unitd/unitd/engine/internal/exact"
)

// Contexts shared by all formulas; none is ever modified.
var (
	// ExactContext rounds half-even at no precision: it adds without
	// rounding.
	ExactContext = func() *apd.Context {
		c := apd.BaseContext
		c.Rounding = apd.RoundHalfEven
		return &c
	}()
	exactCtx = ExactContext
	// workings[p] is the working context of formulas for precision p:
	// well above it, so that the one final rounding decides the digits.
	workings = func() (cs [exact.MaxPrecision + 1]*apd.Context) {
		for p := 1; p <= exact.MaxPrecision; p++ {
			cs[p] = exactCtx.WithPrecision(uint32(max(p, exact.DefaultPrecision) + 8))
		}
		return cs
	}()
	// defaultWork is the working context at the default precision.
	defaultWork = workings[exact.DefaultPrecision]
)

// Work is the working context of formulas for a result rounded to p
// significant digits (1 to exact.MaxPrecision): well above p, so that
// the one final rounding decides the digits.
func Work(p int) *apd.Context { return workings[p] }
