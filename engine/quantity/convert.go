package quantity

import (
	"math/big"
	"strings"

	"github.com/unitd/unitd/engine"
)

// Converter is what Convert needs of an *engine.Graph.
type Converter interface {
	Convert(req engine.Request) (engine.Result, error)
}

// Convert converts q as req asks (req.Value and req.From are set from q),
// rounding the result once even when q's number is a fraction whose
// decimal does not terminate (⅓ cup): it converts the two decimals that
// bracket the fraction (60, then 90 significant digits), and when both
// round alike that is the answer, since every conversion is monotonic.
// When they still differ, the exact result lies on the rounding boundary
// between the two, and the even one is chosen, as rounding half to even
// does. Such an answer is never Exact. Other quantities are converted as
// they are.
func Convert(g Converter, q Quantity, req engine.Request) (engine.Result, error) {
	req.Value, req.From = q.Value, q.Unit
	if !q.Rounded || q.frac == nil {
		res, err := g.Convert(req)
		res.Exact = res.Exact && !q.Rounded
		return res, err
	}
	var lo, hi engine.Result
	for _, digits := range []int{60, 90} {
		a, b := bracket(q.frac, digits)
		var err error
		req.Value = a
		if lo, err = g.Convert(req); err != nil {
			return engine.Result{}, err
		}
		req.Value = b
		if hi, err = g.Convert(req); err != nil {
			return engine.Result{}, err
		}
		if lo.Value == hi.Value {
			lo.Exact = false
			return lo, nil
		}
	}
	p := req.Precision
	if p == 0 {
		p = engine.DefaultPrecision
	}
	if lastDigit(hi.Value, p)%2 == 0 {
		lo = hi
	}
	lo.Exact = false
	return lo, nil
}

// bracket returns two decimals of n significant digits a unit of the
// last digit apart, with x strictly between them.
func bracket(x *big.Rat, n int) (lo, hi string) {
	neg := x.Sign() < 0
	a := new(big.Rat).Abs(x)
	// Scale a into [10^(n-1), 10^n) by a power of ten, take the floor.
	e := 0
	ten := big.NewRat(10, 1)
	low := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n-1)), nil))
	high := new(big.Rat).Mul(low, ten)
	s := new(big.Rat).Set(a)
	for s.Cmp(low) < 0 && e > -2000 {
		s.Mul(s, ten)
		e--
	}
	for s.Cmp(high) >= 0 && e < 2000 {
		s.Quo(s, ten)
		e++
	}
	f := new(big.Int).Quo(s.Num(), s.Denom())
	write := func(m *big.Int) string {
		t := m.String() + "e" + itoa(e)
		if neg {
			return "-" + t
		}
		return t
	}
	lo, hi = write(f), write(new(big.Int).Add(f, big.NewInt(1)))
	if neg {
		lo, hi = hi, lo
	}
	return lo, hi
}

func itoa(n int) string { return big.NewInt(int64(n)).String() }

// lastDigit is the digit at significant place p of a decimal written as
// the engine writes results ("10" at place 2 is 0).
func lastDigit(v string, p int) int {
	mant, _, _ := strings.Cut(strings.TrimLeft(v, "-"), "e")
	digits := strings.TrimLeft(strings.ReplaceAll(mant, ".", ""), "0")
	if p > len(digits) {
		return 0
	}
	return int(digits[p-1] - '0')
}
