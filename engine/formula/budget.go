package formula

import "errors"

// Budget bounds the expensive work one request may cause. Almost every
// conversion is a few integer or decimal operations; the exception is the
// plain path of the correctly rounded logarithms and exponentials of
// formula units (dBm, dBu, …), which evaluates with apd at widened
// precision when the fixed-point accelerator cannot decide the rounding. A
// Budget counts those evaluations, each widening of each one a unit, across
// all the conversions of one request (a batch shares one). When it is
// spent, further conversions that need such an evaluation fail with
// WORK_BUDGET_EXCEEDED before doing it, while every other conversion goes
// on.
//
// One evaluation is at most maxWidenings units, so a request never does
// more than its budget's worth of slow work. A nil *Budget is unlimited
// (the command line, build-time checks). A Budget is used by one goroutine
// at a time, as a request's conversions run one after another.
type Budget struct {
	left int
}

// DefaultBudget is the budget the HTTP server gives each request: 32
// widened evaluations, a few tens of milliseconds of CPU at precision 50
// in the worst case.
const DefaultBudget = 32

// NewBudget returns a Budget of n units.
func NewBudget(n int) *Budget { return &Budget{left: n} }

// Left reports the units not spent yet.
func (b *Budget) Left() int { return b.left }

// take spends one unit, reporting false when none is left.
func (b *Budget) take() bool {
	if b == nil {
		return true
	}
	if b.left <= 0 {
		return false
	}
	b.left--
	return true
}

// ErrBudget is returned when a conversion needs work its request's budget
// no longer covers.
var ErrBudget = errors.New("work budget exceeded")
