package formula

import (
	"errors"
	"fmt"
	"strings"

	"github.com/cockroachdb/apd/v3"
	"github.com/unitd/unitd/engine/internal/exact"
)

// samplePoints are the values CheckInverse runs a pair of formulas at.
var samplePoints = []string{"0.5", "2", "10", "100"}

// CheckInverse checks that the pair inverts itself: exactly for a pair of
// Möbius maps (from after to is the identity), and for other formulas at
// a few sample points in their domain, to 25 digits (an inverse pair
// agrees to far more, a wrong one disagrees early). Its error says where
// the pair fails; fast lets the formulas take their accelerators.
func (p *Pair) CheckInverse(fast bool) error {
	if p.ToMap != nil {
		return p.checkInverseMaps()
	}
	work := exactCtx.WithPrecision(40)
	tolerance := apd.New(1, -25)
	checked := 0
	for _, s := range samplePoints {
		x, _, _ := apd.NewFromString(s)
		y, _, err := p.RunTo(x, work, Env{Fast: fast})
		if errors.Is(err, ErrDomain) {
			continue
		}
		if err != nil {
			return fmt.Errorf("formula to, at x = %s: %s", s, OneLine(err))
		}
		back, _, err := p.RunFrom(y, work, Env{Fast: fast})
		if errors.Is(err, ErrDomain) {
			continue
		}
		if err != nil {
			return fmt.Errorf("formula from, at x = %s: %s", y, OneLine(err))
		}
		var diff, bound apd.Decimal
		work.Sub(&diff, back, x)
		diff.Abs(&diff)
		work.Mul(&bound, x, tolerance)
		if diff.Cmp(&bound) > 0 {
			return fmt.Errorf("formulas do not invert each other: to(%s) = %s but from(%s) = %s", s, exact.FormatDecimal(y), exact.FormatDecimal(y), exact.FormatDecimal(back))
		}
		checked++
	}
	if checked == 0 {
		return fmt.Errorf("formulas could not be checked: no sample point (%s) is in their domain", strings.Join(samplePoints, ", "))
	}
	return nil
}

// checkInverseMaps is CheckInverse for a pair of Möbius maps: from after
// to must be the identity. When it is not, the error shows it at the
// first sample point where both are defined.
func (p *Pair) checkInverseMaps() error {
	if id, err := p.ToMap.Then(p.FromMap); err == nil && id.IsIdentity() {
		return nil
	}
	for _, s := range samplePoints {
		x, _, _ := apd.NewFromString(s)
		y, _, err1 := p.ToMap.Round(x, 34, false)
		var yd apd.Decimal
		y.Apd(&yd)
		back, _, err2 := p.FromMap.Round(&yd, 34, false)
		if err1 == nil && err2 == nil {
			return fmt.Errorf("formulas do not invert each other: to(%s) = %s but from(%s) = %s", s, y.String(), y.String(), back.String())
		}
	}
	return errors.New("formulas do not invert each other")
}

// OneLine folds an error of expr-lang, which may span lines (message,
// source, caret), into one line.
func OneLine(err error) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(err.Error(), "\n", " ")), " ")
}
