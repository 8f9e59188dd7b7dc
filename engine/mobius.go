package engine

import (
	"fmt"
	"math/big"

	"github.com/cockroachdb/apd/v3"
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/parser"
)

// The Möbius accelerator
//
// The rational formulas of the catalog are small: fuel consumption and
// economy are 100 / x, a reversed temperature scale is 100 - x * 2 / 3.
// Running such a formula in expr's virtual machine on exact fractions
// costs more than the rest of the conversion. Each of them is a Möbius
// map, x ↦ (a·x + b)/(c·x + d), so at build time mobiusOf reads the
// formula's syntax tree into its four coefficients, and a conversion
// applies them with four exact products instead of running the program.
//
// mobiusOf accepts only formulas whose every division is either by a
// constant or of a constant by an expression of the first degree in x;
// then the only input at which the program divides by zero is the zero of
// the final denominator c·x + d, and mobius.apply refuses that input as
// the program does. Anything else (x * x, x / x, 1 / (1 / x), let) is
// left to the program.

// mobius is the map x ↦ (a·x + b)/(c·x + d), with integer coefficients.
type mobius struct {
	a, b, c, d apd.Decimal
}

// mob is a Möbius map with rational coefficients, while reading a formula.
type mob struct{ a, b, c, d *big.Rat }

func (m mob) isConstant() bool { return m.a.Sign() == 0 && m.c.Sign() == 0 }

// isAffine reports whether m is of the first degree in x or constant:
// (a·x + b)/d.
func (m mob) isAffine() bool { return m.c.Sign() == 0 }

func ratOf(v int64) *big.Rat { return new(big.Rat).SetInt64(v) }

// mobiusOf returns the Möbius map a rational formula computes, or ok=false
// when it is not one of the shapes described above.
func mobiusOf(src string) (*mobius, bool) {
	tree, err := parser.Parse(src)
	if err != nil {
		return nil, false
	}
	m, ok := readMobius(tree.Node)
	if !ok || m.c.Sign() == 0 && m.d.Sign() == 0 {
		return nil, false
	}
	// Scale the four coefficients to integers by their denominators'
	// product: the map is unchanged.
	scale := new(big.Int).Set(m.a.Denom())
	for _, r := range []*big.Rat{m.b, m.c, m.d} {
		scale.Mul(scale, r.Denom())
	}
	out := &mobius{}
	for _, p := range []struct {
		d *apd.Decimal
		r *big.Rat
	}{{&out.a, m.a}, {&out.b, m.b}, {&out.c, m.c}, {&out.d, m.d}} {
		n := new(big.Int).Mul(p.r.Num(), scale)
		n.Quo(n, p.r.Denom())
		p.d.Coeff.SetMathBigInt(new(big.Int).Abs(n))
		p.d.Negative = n.Sign() < 0
	}
	return out, true
}

// readMobius reads one node of a formula's syntax tree.
func readMobius(n ast.Node) (mob, bool) {
	switch n := n.(type) {
	case *ast.IdentifierNode:
		if n.Value != "x" {
			return mob{}, false
		}
		return mob{ratOf(1), ratOf(0), ratOf(0), ratOf(1)}, true
	case *ast.IntegerNode:
		return mob{ratOf(0), ratOf(int64(n.Value)), ratOf(0), ratOf(1)}, true
	case *ast.FloatNode:
		r, ok := new(big.Rat).SetString(floatLiteral(n).String())
		if !ok {
			return mob{}, false
		}
		return mob{ratOf(0), r, ratOf(0), ratOf(1)}, true
	case *ast.UnaryNode:
		m, ok := readMobius(n.Node)
		switch {
		case !ok:
			return mob{}, false
		case n.Operator == "+":
			return m, true
		case n.Operator == "-":
			return mob{new(big.Rat).Neg(m.a), new(big.Rat).Neg(m.b), m.c, m.d}, true
		}
	case *ast.BinaryNode:
		l, ok1 := readMobius(n.Left)
		r, ok2 := readMobius(n.Right)
		if !ok1 || !ok2 {
			return mob{}, false
		}
		return combineMobius(n.Operator, l, r)
	}
	return mob{}, false
}

// combineMobius applies a binary operator when the result is again one of
// the accepted shapes.
func combineMobius(op string, l, r mob) (mob, bool) {
	mul := func(x, y *big.Rat) *big.Rat { return new(big.Rat).Mul(x, y) }
	add := func(x, y *big.Rat) *big.Rat { return new(big.Rat).Add(x, y) }
	// k is the value of a constant map (b/d).
	k := func(m mob) *big.Rat { return new(big.Rat).Quo(m.b, m.d) }
	switch op {
	case "+", "-":
		if op == "-" {
			r = mob{new(big.Rat).Neg(r.a), new(big.Rat).Neg(r.b), r.c, r.d}
		}
		switch {
		case r.isConstant(): // (a·x + b)/(c·x + d) + k
			v := k(r)
			return mob{add(l.a, mul(v, l.c)), add(l.b, mul(v, l.d)), l.c, l.d}, true
		case l.isConstant():
			v := k(l)
			return mob{add(r.a, mul(v, r.c)), add(r.b, mul(v, r.d)), r.c, r.d}, true
		case l.isAffine() && r.isAffine(): // (a1·x + b1)/d1 + (a2·x + b2)/d2
			return mob{add(mul(l.a, r.d), mul(r.a, l.d)), add(mul(l.b, r.d), mul(r.b, l.d)), ratOf(0), mul(l.d, r.d)}, true
		}
	case "*":
		switch {
		case r.isConstant():
			v := k(r)
			return mob{mul(l.a, v), mul(l.b, v), l.c, l.d}, true
		case l.isConstant():
			v := k(l)
			return mob{mul(r.a, v), mul(r.b, v), r.c, r.d}, true
		}
	case "/":
		switch {
		case r.isConstant():
			v := k(r)
			if v.Sign() == 0 {
				return mob{}, false
			}
			return mob{l.a, l.b, mul(l.c, v), mul(l.d, v)}, true
		case l.isConstant() && r.isAffine():
			// k / ((a·x + b)/d) = k·d / (a·x + b): the divisor's zero is the
			// zero of the new denominator.
			v := k(l)
			return mob{ratOf(0), mul(v, r.d), r.a, r.b}, true
		}
	}
	return mob{}, false
}

// errDivisionByZero is the error of a rational formula's program at the
// zero of a divisor.
var errDivisionByZero = fmt.Errorf("division by zero: %w", errDomain)

// apply returns the map at u exactly, or errDomain at the zero of its
// denominator, where the formula's program divides by zero.
func (m *mobius) apply(u frac) (frac, error) {
	var r frac
	var t apd.Decimal
	// (a·n/q + b)/(c·n/q + d) = (a·n + b·q)/(c·n + d·q) for u = n/q.
	mulExact(&r.n, &m.a, &u.n)
	mulExact(&t, &m.b, &u.d)
	addExact(&r.n, &r.n, &t)
	mulExact(&r.d, &m.c, &u.n)
	mulExact(&t, &m.d, &u.d)
	addExact(&r.d, &r.d, &t)
	if r.d.IsZero() {
		return frac{}, errDivisionByZero
	}
	if r.d.Negative {
		r.d.Negative = false
		r.n.Negative = !r.n.Negative && !r.n.IsZero()
	}
	return r, checkFracSize(&r)
}
