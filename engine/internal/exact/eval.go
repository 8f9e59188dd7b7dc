package exact

import "github.com/cockroachdb/apd/v3"

// EvalAt evaluates m at x for a formula: exactly when the value is a
// decimal, else rounded at the working precision work or x's own length
// and two digits, whichever is more (an input of 100 digits reaches the
// formula as it was written). It reports whether it rounded. words asks
// for the word-sized fast paths (ExactWords, RoundWords); the result is
// the same.
func (m *Map) EvalAt(x *apd.Decimal, work int, words bool) (apd.Decimal, bool, error) {
	var y apd.Decimal
	if m.IsIdentity() {
		y.Set(x)
		return y, false, nil
	}
	if words && m.ExactWords(x, &y) {
		return y, false, nil
	}
	v, err := m.At(x)
	if err != nil {
		return y, false, err
	}
	if d, ok := v.Exact(); ok {
		d.Apd(&y)
		return y, false, nil
	}
	p := max(work, int(x.NumDigits())+2)
	r, inexact := RoundWith(&v, p, words)
	r.Apd(&y)
	return y, inexact, nil
}
