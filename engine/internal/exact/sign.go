package exact

import (
	"math/big"

	"github.com/cockroachdb/apd/v3"
)

// Signer finds the sign of a map's value (a·x + b)/(c·x + d) at x
// exactly: the product of the signs of the numerator and the denominator,
// each the sign of its leading coefficient times that of x minus its
// root, or the sign of its constant when it does not depend on x.
type Signer struct {
	num, den linearSign
	// zeroRoots marks a map whose factors that depend on x all have
	// their root at zero (100/x, the catalog's reciprocal units): its
	// sign then depends on x's sign alone, and bySign holds it for x
	// negative, zero and positive.
	zeroRoots bool
	bySign    [3]int8
}

// linearSign is the sign of a·x + b: of b when a is zero, else of a times
// that of x - root, root = -b/a. When root is not a terminating decimal,
// a and b are kept to compute a·x + b.
type linearSign struct {
	constant int // sign of b when a = 0
	lead     int // sign of a
	root     *apd.Decimal
	a, b     *apd.Decimal // when root is nil and lead is not 0
}

// NewSigner returns the signer of m's value.
func NewSigner(m *Map) *Signer {
	a, b, c, d := m.Coefficients()
	s := &Signer{num: newLinearSign(a, b), den: newLinearSign(c, d), zeroRoots: true}
	// The sign is scale·sign(x)^power: power counts the factors with
	// their root at zero, scale multiplies their leads and the signs of
	// the constant ones.
	scale, power := 1, 0
	for _, f := range [2]*linearSign{&s.num, &s.den} {
		switch {
		case f.lead == 0:
			scale *= f.constant
		case f.root != nil && f.root.IsZero():
			scale *= f.lead
			power++
		default:
			s.zeroRoots = false
		}
	}
	for sx := -1; sx <= 1; sx++ {
		v := scale
		for range power {
			v *= sx
		}
		s.bySign[sx+1] = int8(v)
	}
	return s
}

func newLinearSign(a, b *big.Int) linearSign {
	if a.Sign() == 0 {
		return linearSign{constant: b.Sign()}
	}
	s := linearSign{lead: a.Sign()}
	if r, ok := ToDecimal(new(big.Rat).SetFrac(new(big.Int).Neg(b), a)); ok {
		s.root = &r
		return s
	}
	s.a, s.b = new(apd.Decimal), new(apd.Decimal)
	SetInt(s.a, a)
	SetInt(s.b, b)
	return s
}

func (s *linearSign) at(x *apd.Decimal) int {
	switch {
	case s.lead == 0:
		return s.constant
	case s.root == nil:
		var t apd.Decimal
		LinearAt(&t, x, s.a, s.b)
		return t.Sign()
	case s.root.IsZero():
		return s.lead * x.Sign()
	}
	return s.lead * x.Cmp(s.root)
}

// Sign returns the sign of the map's value at x, 0 at its pole.
func (s *Signer) Sign(x *apd.Decimal) int {
	if s.zeroRoots {
		return int(s.bySign[x.Sign()+1])
	}
	return s.num.at(x) * s.den.at(x)
}

// addCtx adds without rounding: it is shared and never modified.
var addCtx = func() *apd.Context {
	c := apd.BaseContext
	c.Rounding = apd.RoundHalfEven
	return &c
}()

// LinearAt sets d = a·x + b exactly (finite operands).
func LinearAt(d, x, a, b *apd.Decimal) {
	mulExact(d, x, a)
	addCtx.Add(d, d, b) //nolint:errcheck // finite operands of bounded size
}

// mulExact sets d = x·y exactly, without apd's rounding machinery, which
// an exact product of finite values never needs.
func mulExact(d, x, y *apd.Decimal) {
	neg := x.Negative != y.Negative
	d.Exponent = x.Exponent + y.Exponent
	d.Coeff.Mul(&x.Coeff, &y.Coeff)
	d.Negative = neg && d.Coeff.Sign() != 0
	d.Form = apd.Finite
}

// SignRat is Sign for a rational.
func (s *Signer) SignRat(r *big.Rat) int { return s.num.atRat(r) * s.den.atRat(r) }

func (s *linearSign) atRat(r *big.Rat) int {
	switch {
	case s.lead == 0:
		return s.constant
	case s.root == nil:
		t := new(big.Rat).Mul(DecimalRat(s.a), r)
		return t.Add(t, DecimalRat(s.b)).Sign()
	}
	return s.lead * r.Cmp(DecimalRat(s.root))
}
