package plan

import (
	"errors"
	"fmt"

	"github.com/cockroachdb/apd/v3"
	"github.com/unitd/unitd/engine/fault"
	"github.com/unitd/unitd/engine/formula"
	"github.com/unitd/unitd/engine/internal/exact"
	"github.com/unitd/unitd/engine/internal/graph"
)

// Run converts x along the plan, rounded to p significant digits, and
// reports whether rounding happened: the domain check, then the exact
// evaluation and its one rounding. fast lets it take the accelerators
// (exact's words, a formula's fixed-point ln and exp), which give the
// same digits; budget bounds a formula's slow evaluations.
func (pl *Plan) Run(out *exact.Decimal, x *apd.Decimal, p int, budget *formula.Budget, fast bool) (inexact bool, err error) {
	if pl.Err != nil {
		return false, pl.Err
	}
	if b := pl.From.Bound; b != nil {
		if err := checkMinimum(x, b, pl.FromUnit); err != nil {
			return false, err
		}
	}
	if s := pl.Positive; s != nil && s.Sign(x) <= 0 {
		return false, pl.notPositive(x)
	}
	if pl.M != nil {
		if fast {
			if inexact, ok := pl.M.RoundWordsTo(out, x, p); ok {
				return inexact, nil
			}
		}
		inexact, err = pl.M.RoundTo(out, x, p, false)
	} else {
		inexact, err = pl.stepwise(out, x, p, budget, fast)
	}
	if err != nil {
		return false, pl.ConvertError(x, err)
	}
	return inexact, nil
}

// ConvertError turns an error of the evaluation into the caller's.
func (pl *Plan) ConvertError(x *apd.Decimal, err error) error {
	var e *fault.Error
	switch {
	case errors.As(err, &e):
		return e
	case errors.Is(err, formula.ErrBudget):
		return fault.Errorf(fault.WorkBudgetExceeded, "converting %s %s to %s needs more exact-rounding work than this request has left (%d slow evaluations per request); send it in a request of its own", exact.FormatDecimal(x), pl.FromName, pl.Unit, formula.DefaultBudget)
	case errors.Is(err, formula.ErrDomain), errors.Is(err, exact.ErrPole):
		return fault.Errorf(fault.ValueOutOfRange, "%s %s is out of range: outside the domain of the conversion", exact.FormatDecimal(x), pl.FromName)
	case errors.Is(err, exact.ErrTooLarge):
		return fault.Errorf(fault.ValueOutOfRange, "%s %s cannot be converted to %s: %v", exact.FormatDecimal(x), pl.FromName, pl.Unit, err)
	}
	// Anything else is a fault of the engine or the catalog, not of the
	// value: the caller reports it as an internal error.
	return fmt.Errorf("convert %s %s to %s: %w", exact.FormatDecimal(x), pl.FromName, pl.Unit, err)
}

// checkMinimum refuses x below the category minimum of the source unit
// (absolute zero).
func checkMinimum(x *apd.Decimal, b *graph.Bound, u *graph.Unit) error {
	if b.Min.Sign() <= 0 && !x.Negative && !b.A.Negative && !b.B.Negative {
		return nil // a·x + b >= 0 >= min at a glance
	}
	var t apd.Decimal
	exact.LinearAt(&t, x, &b.A, &b.B)
	if t.Cmp(&b.Min) < 0 {
		return outOfRange(x, u, "below the minimum of "+u.Category.Name+" ("+u.Category.Minimum+" "+u.Category.Base.Symbol+")")
	}
	return nil
}

// CheckPositive refuses x whose reference value is not positive, for a
// pair with a reciprocal unit on either side (L/100km): a negative or zero
// consumption is outside its domain.
func (pl *Plan) CheckPositive(x *apd.Decimal) error {
	if pl.Positive.Sign(x) > 0 {
		return nil
	}
	return pl.notPositive(x)
}

// notPositive is the error of CheckPositive.
func (pl *Plan) notPositive(x *apd.Decimal) error {
	why := "outside the domain of the conversion"
	if u := pl.Reciprocal; u != nil {
		why = "outside the domain of " + u.Symbol + ", which takes only positive values"
	}
	return fault.Errorf(fault.ValueOutOfRange, "%s %s is out of range: %s", exact.FormatDecimal(x), pl.FromName, why)
}

func outOfRange(x *apd.Decimal, u *graph.Unit, why string) *fault.Error {
	return fault.Errorf(fault.ValueOutOfRange, "%s %s is out of range: %s", exact.FormatDecimal(x), u.Symbol, why)
}

// stepwise converts through a transcendental formula: each formula runs
// in decimals at the working precision, and the exact maps on either side
// of the reference unit are joined into one (pl.Link), evaluated at the
// working precision, so a value such as 1.000…001 mW reaches log10 whole.
// The result is then rounded once to p digits.
func (pl *Plan) stepwise(out *exact.Decimal, x *apd.Decimal, p int, budget *formula.Budget, fast bool) (bool, error) {
	work := formula.Work(p)
	env := formula.Env{Budget: budget, Fast: fast}
	A, B := pl.From, pl.To
	var inexact bool
	src := x
	if f := A.Formula; f != nil {
		in, i, err := A.Pre.EvalAt(x, int(work.Precision), fast)
		if err != nil {
			return false, err
		}
		r, i2, err := f.RunTo(&in, work, env)
		if err != nil {
			return false, err
		}
		inexact, src = i || i2, r
	}
	y, i, err := pl.Link.EvalAt(src, int(work.Precision), fast)
	if err != nil {
		return false, err
	}
	inexact = inexact || i
	if f := B.Formula; f != nil {
		r, i, err := f.RunFrom(&y, work, env)
		if err != nil {
			return false, err
		}
		if y, i2, err := pl.PreInv.EvalAt(r, int(work.Precision), fast); err != nil {
			return false, err
		} else {
			inexact = inexact || i || i2
			d, i3 := exact.RoundDecimal(&y, p, fast)
			*out = d
			return inexact || i3, nil
		}
	}
	d, i3 := exact.RoundDecimal(&y, p, fast)
	*out = d
	return inexact || i3, nil
}
