package plan

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

// Compiled is what a pair of conversions compiles into: one exact map
// from source to target, or, through a transcendental formula, the exact
// map between the two formulas' sides (Link) and the inverse of the
// target's map before its formula (PreInv). It is immutable and shared.
type Compiled struct {
	M            *exact.Map
	Link, PreInv *exact.Map
	// Positive, when set, requires the source's reference value to be
	// Positive: a reciprocal unit (L/100km) is on one side.
	Positive *exact.Signer
	// Err is a pair that cannot be compiled (π inside an offset).
	Err error
}

// Compiler composes the maps of pairs of conversions once per pair, and
// keeps them against the process's cache budget. It is safe for
// concurrent use.
type Compiler struct {
	m *cache.Map[[2]*graph.Conversion, *Compiled]
	// inverses, while a build checks the worked examples, keeps the
	// inverse of each map a pair converts to (most examples convert to a
	// few units), as an accelerator; nil the rest of the time.
	inverses *inverses
}

// NewCompiler returns a compiler that has composed nothing yet.
func NewCompiler() *Compiler {
	return &Compiler{m: cache.New[[2]*graph.Conversion, *Compiled](nil)}
}

// Compile returns the compiled maps of the pair from → to: composed once
// per pair of conversions, the compiled form of a conversion, which the
// engine's caches of names and of expressions then share. words is
// Size's.
func (c *Compiler) Compile(from, to *graph.Conversion, words bool) *Compiled {
	key := [2]*graph.Conversion{from, to}
	if cp, ok := c.m.Get(key); ok {
		return cp
	}
	cp := compileWith(from, to, c.inverses)
	c.m.Put(key, cp, cp.Size(words))
	return cp
}

// ShareInverses makes the compiler keep the inverse of each map a pair
// converts to, until done is called: for a build's check of many worked
// examples, which convert to a few units each. It is an accelerator (the
// maps are the same) and must not be called while Compile runs.
func (c *Compiler) ShareInverses() (done func()) {
	c.inverses = new(inverses)
	return func() { c.inverses = nil }
}

// Len counts the pairs the compiler keeps.
func (c *Compiler) Len() int { return c.m.Len() }

// inverses remembers the inverses of maps, each computed once: safe for
// concurrent use.
type inverses struct{ m sync.Map }
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

// Compile composes the maps of a pair, without keeping them.
func Compile(A, B *graph.Conversion) *Compiled { return compileWith(A, B, nil) }

// compileWith is Compile with the inverses of inv, when it is not nil.
func compileWith(A, B *graph.Conversion, inv *inverses) *Compiled {
	c := &Compiled{}
	var err error
	switch {
	case A.Map != nil && B.Map != nil:
		c.M, err = inv.pair(A.Map, B.Map)
	default:
		from, to := A.Map, B.Map
		if from == nil {
			from = A.Post
		}
		if to == nil {
			to = B.Post
		}
		c.Link, err = inv.pair(from, to)
		if err == nil && B.Pre != nil {
			c.PreInv, err = B.Pre.Inverse()
		}
	}
	if err != nil {
		c.Err = errors.New("the units' maps cannot be composed: " + err.Error())
		return c
	}
	if A.Map != nil && (A.Map.HasPole() && !A.AnySign || B.Map != nil && B.Map.HasPole() && !B.AnySign) {
		c.Positive = exact.NewSigner(A.Map)
	}
	return c
}

// Size estimates the bytes a compiled pair holds; words reads a linear
// map's factor in words rather than from copies of its coefficients (an
// accelerator: the same figure).
func (c *Compiled) Size(words bool) int64 {
	n := int64(128)
	for _, m := range [3]*exact.Map{c.M, c.Link, c.PreInv} {
		if m == nil {
			continue
		}
		if num, den, ok := m.LinearWords(); ok && words {
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

// WithFactor returns the plan with an exact factor r·π^k between source
// and target: the target's reference value is r·π^k times the source's (a
// substance's molar mass, density or gas conditions turn a mass into an
// amount or a volume). The map is composed afresh, not cached, and the
// plan's results are not exact: such a factor is a measured value. r must
// not be zero.
func (pl Plan) WithFactor(r *big.Rat, k int) (Plan, error) {
	A, B := pl.From, pl.To
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
	c := &Compiled{}
	m, err := exact.Pair(scaled, to)
	if err != nil {
		return pl, err
	}
	if A.Map != nil && B.Map != nil {
		c.M = m
	} else {
		c.Link = m
		if B.Pre != nil {
			if c.PreInv, err = B.Pre.Inverse(); err != nil {
				return pl, err
			}
		}
	}
	if pl.Compiled != nil {
		c.Positive = pl.Positive
	}
	pl.Compiled, pl.Exact = c, false
	return pl, nil
}

// ErrNotExactMap is ValueAt of a pair through a logarithm or an
// exponential, which has no exact value.
var ErrNotExactMap = errors.New("the conversion goes through a formula with logarithms or exponentials: it has no exact value")

// ValueAt returns the pair's map at x exactly, without rounding: a
// rational when the Value's K is 0, r·π^k otherwise. It checks x against
// the source's domain as a conversion does.
func (pl *Plan) ValueAt(x *apd.Decimal) (exact.Value, error) {
	if pl.Err != nil {
		return exact.Value{}, pl.Err
	}
	if pl.M == nil {
		return exact.Value{}, ErrNotExactMap
	}
	if b := pl.From.Bound; b != nil {
		if err := checkMinimum(x, b, pl.FromUnit); err != nil {
			return exact.Value{}, err
		}
	}
	if pl.Positive != nil {
		if err := pl.CheckPositive(x); err != nil {
			return exact.Value{}, err
		}
	}
	v, err := pl.M.At(x)
	if err != nil {
		return exact.Value{}, pl.ConvertError(x, err)
	}
	return v, nil
}

// ValueAtRat is ValueAt for a rational: the pair's map at r exactly, after
// the checks of the source's domain.
func (pl *Plan) ValueAtRat(r *big.Rat) (exact.Value, error) {
	if pl.Err != nil {
		return exact.Value{}, pl.Err
	}
	if pl.M == nil {
		return exact.Value{}, ErrNotExactMap
	}
	x := approximate(r) // for messages only
	if b := pl.From.Bound; b != nil {
		t := new(big.Rat).Mul(exact.DecimalRat(&b.A), r)
		t.Add(t, exact.DecimalRat(&b.B))
		if t.Cmp(exact.DecimalRat(&b.Min)) < 0 {
			u := pl.FromUnit
			return exact.Value{}, outOfRange(&x, u, "below the minimum of "+u.Category.Name+" ("+u.Category.Minimum+" "+u.Category.Base.Symbol+")")
		}
	}
	if pl.Positive != nil && pl.Positive.SignRat(r) <= 0 {
		return exact.Value{}, pl.CheckPositive(&x)
	}
	v, err := pl.M.AtRat(r)
	if err != nil {
		return exact.Value{}, pl.ConvertError(&x, err)
	}
	return v, nil
}

// approximate is r to 20 significant digits, for messages.
func approximate(r *big.Rat) apd.Decimal { return exact.TruncateRat(r, 20) }

// Affine returns the factor and offset of a plan without a formula,
// y = x·f + o (f with its power of π), or ok=false.
func (pl *Plan) Affine() (f exact.Factor, o *big.Rat, ok bool) {
	if pl.M == nil {
		return exact.Factor{}, nil, false
	}
	r, off, ok := pl.M.Affine()
	if !ok {
		return exact.Factor{}, nil, false
	}
	return exact.Factor{R: r, K: pl.M.K()}, off, true
}
