package engine

import (
	"errors"
	"math/big"
	"math/bits"
	"sync"

	"github.com/cockroachdb/apd/v3"
	"github.com/unitd/unitd/engine/internal/cache"
	"github.com/unitd/unitd/engine/internal/exact"
	"github.com/unitd/unitd/engine/internal/graph"
)

// compiled is what a pair of conversions compiles into: one exact map
// from source to target, or, through a transcendental formula, the exact
// map between the two formulas' sides (link) and the inverse of the
// target's map before its formula (preInv). It is immutable and shared.
type compiled struct {
	m            *exact.Map
	link, preInv *exact.Map
	// positive, when set, requires the source's reference value to be
	// positive: a reciprocal unit (L/100km) is on one side.
	positive *exact.Signer
	// err is a pair that cannot be compiled (π inside an offset).
	err error
}

// pairCompiler caches compiled pairs by their two conversions, against
// the process's cache budget.
type pairCompiler struct {
	m *cache.Map[[2]*graph.Conversion, *compiled]
	// inverses, while Build checks the worked examples, keeps the inverse
	// of each map a pair converts to (most examples convert to a few
	// units), as an accelerator; nil the rest of the time.
	inverses *inverses
}

// inverses remembers the inverses of maps, each computed once: safe for
// concurrent use.
type inverses struct{ m sync.Map } // *exact.Map → inverse

type inverse struct {
	m   *exact.Map
	err error
}

// of returns m's inverse, as m.Inverse does.
func (x *inverses) of(m *exact.Map) (*exact.Map, error) {
	if v, ok := x.m.Load(m); ok {
		inv := v.(inverse)
		return inv.m, inv.err
	}
	inv, err := m.Inverse()
	x.m.Store(m, inverse{inv, err})
	return inv, err
}

// pair is exact.Pair, taking to's inverse from x when there is one.
func (x *inverses) pair(from, to *exact.Map) (*exact.Map, error) {
	if x == nil {
		return exact.Pair(from, to)
	}
	inv, err := x.of(to)
	if err != nil {
		return nil, err
	}
	return from.Then(inv) // exact.Pair's own steps
}

func newPairCompiler() *pairCompiler {
	return &pairCompiler{m: cache.New[[2]*graph.Conversion, *compiled](nil)}
}

// compiledPair returns the pair's compiled maps: composed once per pair
// of conversions and graph, the compiled form of a conversion, which the
// caches of names (paircache.go) and of expressions then share.
func (g *Graph) compiledPair(from, to *graph.Conversion) *compiled {
	key := [2]*graph.Conversion{from, to}
	if c, ok := g.compiledPairs.m.Get(key); ok {
		return c
	}
	c := compilePairWith(from, to, g.compiledPairs.inverses)
	g.compiledPairs.m.Put(key, c, c.size())
	return c
}

// compilePair composes the maps of a pair.
func compilePair(A, B *graph.Conversion) *compiled { return compilePairWith(A, B, nil) }

// compilePairWith is compilePair with the inverses of inv, when it is
// not nil.
func compilePairWith(A, B *graph.Conversion, inv *inverses) *compiled {
	c := &compiled{}
	var err error
	switch {
	case A.Map != nil && B.Map != nil:
		c.m, err = inv.pair(A.Map, B.Map)
	default:
		from, to := A.Map, B.Map
		if from == nil {
			from = A.Post
		}
		if to == nil {
			to = B.Post
		}
		c.link, err = inv.pair(from, to)
		if err == nil && B.Pre != nil {
			c.preInv, err = B.Pre.Inverse()
		}
	}
	if err != nil {
		c.err = errors.New("the units' maps cannot be composed: " + err.Error())
		return c
	}
	if A.Map != nil && (A.Map.HasPole() && !A.AnySign || B.Map != nil && B.Map.HasPole() && !B.AnySign) {
		c.positive = exact.NewSigner(A.Map)
	}
	return c
}

// size estimates the bytes a compiled pair holds.
func (c *compiled) size() int64 {
	n := int64(128)
	for _, m := range [3]*exact.Map{c.m, c.link, c.preInv} {
		if m == nil {
			continue
		}
		if num, den, ok := m.LinearWords(); ok && accelerated() {
			// What Coefficients would say of a linear map (B and C are
			// zero), without copying them.
			n += 64 + int64(bits.Len64(num)+bits.Len64(den))/8
			continue
		}
		a, b, cc, d := m.Coefficients()
		n += 64 + int64(a.BitLen()+b.BitLen()+cc.BitLen()+d.BitLen())/8
	}
	return n
}

// withFactor returns the plan with an exact factor r·π^k between source
// and target: the target's reference value is r·π^k times the source's (a
// substance's molar mass, density or gas conditions turn a mass into an
// amount or a volume). The map is composed afresh, not cached, and the
// plan's results are not exact: such a factor is a measured value. r must
// not be zero.
func (pl plan) withFactor(r *big.Rat, k int) (plan, error) {
	A, B := pl.from, pl.to
	from, to := A.Map, B.Map
	if from == nil {
		from = A.Post
	}
	if to == nil {
		to = B.Post
	}
	scaled, err := from.Scale(r, k)
	if err != nil {
		return pl, err
	}
	c := &compiled{}
	m, err := exact.Pair(scaled, to)
	if err != nil {
		return pl, err
	}
	if A.Map != nil && B.Map != nil {
		c.m = m
	} else {
		c.link = m
		if B.Pre != nil {
			if c.preInv, err = B.Pre.Inverse(); err != nil {
				return pl, err
			}
		}
	}
	if pl.compiled != nil {
		c.positive = pl.positive
	}
	pl.compiled, pl.exact = c, false
	return pl, nil
}

// errNotExactMap is valueAt of a pair through a logarithm or an
// exponential, which has no exact value.
var errNotExactMap = errors.New("the conversion goes through a formula with logarithms or exponentials: it has no exact value")

// valueAt returns the pair's map at x exactly, without rounding: a
// rational when the Value's K is 0, r·π^k otherwise. It checks x against
// the source's domain as a conversion does.
func (pl *plan) valueAt(x *apd.Decimal) (exact.Value, error) {
	if pl.err != nil {
		return exact.Value{}, pl.err
	}
	if pl.m == nil {
		return exact.Value{}, errNotExactMap
	}
	if b := pl.from.Bound; b != nil {
		if err := checkMinimum(x, b, pl.fromUnit); err != nil {
			return exact.Value{}, err
		}
	}
	if pl.positive != nil {
		if err := pl.checkPositive(x); err != nil {
			return exact.Value{}, err
		}
	}
	v, err := pl.m.At(x)
	if err != nil {
		return exact.Value{}, pl.convertError(x, err)
	}
	return v, nil
}

// roundValue is the one rounding of the engine: v half-even to p
// significant digits, and whether that changed it. Print the result with
// exact.Decimal.Append, as conversions do.
func roundValue(v *exact.Value, p int) (exact.Decimal, bool) {
	return exact.RoundWith(v, p, accelerated())
}
