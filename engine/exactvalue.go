package engine

import (
	"errors"
	"fmt"

	"github.com/cockroachdb/apd/v3"
)

// errNotExact is a conversion whose value has no exact form: it goes
// through a formula beyond + - * / (a logarithmic level).
var errNotExact = errors.New("the conversion has no exact value (it goes through a logarithm or a power)")

// exactValue evaluates the plan at x without rounding: the value in the
// target unit is num/den·π^k with den > 0. It is what a threshold or a
// split into parts needs before the one rounding.
func (pl *plan) exactValue(x *apd.Decimal) (num, den apd.Decimal, k int, err error) {
	A, B := pl.from, pl.to
	if (A.formula != nil && !A.formula.rational) || (B.formula != nil && !B.formula.rational) {
		return num, den, 0, errNotExact
	}
	if A.minimum != nil {
		if err := checkMinimum(x, A, pl.fromUnit); err != nil {
			return num, den, 0, err
		}
	}
	v := frac{n: *x, d: fracOne}
	var ref frac
	if f := A.formula; f != nil {
		y, err := runRationalMobius(f.to, f.toMob, A.pre.applyExact(v))
		if err != nil {
			return num, den, 0, err
		}
		ref = A.post.applyExact(y)
	} else {
		ref = A.post.applyExact(v)
	}
	var y frac
	if f := B.formula; f != nil {
		r, err := runRationalMobius(f.from, f.fromMob, B.post.invertExact(ref))
		if err != nil {
			return num, den, 0, err
		}
		y = B.pre.invertExact(r)
	} else {
		y = B.post.invertExact(ref)
	}
	if y.d.IsZero() {
		return num, den, 0, fmt.Errorf("division by zero: %w", errDomain)
	}
	if y.d.Negative {
		y.d.Negative, y.n.Negative = false, !y.n.Negative && !y.n.IsZero()
	}
	return y.n, y.d, A.pi - B.pi, nil
}
