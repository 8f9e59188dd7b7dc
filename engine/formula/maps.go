package formula

import (
	"fmt"
	"math/big"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/parser"
	"github.com/unitd/unitd/engine/internal/exact"
)

// Formulas that are Möbius maps
//
// The rational formulas of a catalog are small: fuel consumption and
// economy are 100 / x, a reversed temperature scale is 100 - x * 2 / 3.
// Each is a Möbius map, x ↦ (a·x + b)/(c·x + d), so mapOf reads the
// formula's syntax tree into its four coefficients and the unit compiles
// into one exact map like any linear unit.
//
// mapOf accepts x, number literals, let names, unary + and -, and + - * /
// where the result stays of that shape: a sum of a constant and a map, or
// of two maps of the first degree; a product with a constant; a division
// by a constant, or of a constant by a map of the first degree. Then the
// only input at which the formula divides by zero is the zero of the final
// denominator. Anything else (x * x, x / x, 1 / (1 / x), functions) is
// not a Möbius map and runs as a program on decimals.
//
// Every coefficient is kept in lowest terms after each operation and
// bounded by exact.MaxBits, sums as well as products: a chain of lets that
// doubles or multiplies its value at each step is refused once its
// coefficients pass the bound instead of growing without end.

// mob is a Möbius map with rational coefficients, while reading a formula.
type mob struct{ a, b, c, d *big.Rat }

func (m mob) isConstant() bool { return m.a.Sign() == 0 && m.c.Sign() == 0 }

// isAffine reports whether m is of the first degree in x or constant.
func (m mob) isAffine() bool { return m.c.Sign() == 0 }

func ratOf(v int64) *big.Rat { return new(big.Rat).SetInt64(v) }

// errNotMobius marks a formula that is not a Möbius map.
var errNotMobius = fmt.Errorf("not a Möbius map")

// mapOf returns the exact map a formula computes; nil and no error when
// it is not a Möbius map; an error wrapping exact.ErrTooLarge when its
// coefficients grow beyond the bound.
func mapOf(src string) (*exact.Map, error) {
	tree, err := parser.Parse(src)
	if err != nil {
		return nil, nil // compiling it reports the error, with its position
	}
	r := mobReader{lets: map[string]mob{}}
	m, err := r.read(tree.Node)
	if err == errNotMobius || err == nil && m.c.Sign() == 0 && m.d.Sign() == 0 {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	em, err := exact.New(m.a, m.b, m.c, m.d, 0)
	if err == exact.ErrConstant {
		return nil, nil // a constant formula: the program reports it
	}
	if err != nil {
		return nil, fmt.Errorf("the formula's exact coefficients: %w", err)
	}
	return em, nil
}

// mobReader reads a formula's syntax tree, with the values of its lets.
type mobReader struct {
	lets map[string]mob
}

func (r *mobReader) read(n ast.Node) (mob, error) {
	switch n := n.(type) {
	case *ast.IdentifierNode:
		if m, ok := r.lets[n.Value]; ok {
			return m, nil
		}
		if n.Value != "x" {
			return mob{}, errNotMobius
		}
		return mob{ratOf(1), ratOf(0), ratOf(0), ratOf(1)}, nil
	case *ast.IntegerNode:
		return mob{ratOf(0), ratOf(int64(n.Value)), ratOf(0), ratOf(1)}, nil
	case *ast.FloatNode:
		v, ok := new(big.Rat).SetString(floatLiteral(n).String())
		if !ok {
			return mob{}, errNotMobius
		}
		return mob{ratOf(0), v, ratOf(0), ratOf(1)}, nil
	case *ast.VariableDeclaratorNode:
		v, err := r.read(n.Value)
		if err != nil {
			return mob{}, err
		}
		old, had := r.lets[n.Name]
		r.lets[n.Name] = v
		out, err := r.read(n.Expr)
		if had {
			r.lets[n.Name] = old
		} else {
			delete(r.lets, n.Name)
		}
		return out, err
	case *ast.UnaryNode:
		m, err := r.read(n.Node)
		switch {
		case err != nil:
			return mob{}, err
		case n.Operator == "+":
			return m, nil
		case n.Operator == "-":
			return mob{neg(m.a), neg(m.b), m.c, m.d}, nil
		}
	case *ast.BinaryNode:
		l, err := r.read(n.Left)
		if err != nil {
			return mob{}, err
		}
		rt, err := r.read(n.Right)
		if err != nil {
			return mob{}, err
		}
		m, ok := combine(n.Operator, l, rt)
		if !ok {
			return mob{}, errNotMobius
		}
		return normalize(m)
	}
	return mob{}, errNotMobius
}

func neg(x *big.Rat) *big.Rat { return new(big.Rat).Neg(x) }

// normalize divides the coefficients by the leading one of the
// denominator (c, else d), so that equal maps have equal coefficients and
// a chain of operations cannot grow them without cause, and bounds them.
func normalize(m mob) (mob, error) {
	lead := m.c
	if lead.Sign() == 0 {
		lead = m.d
	}
	if lead.Sign() == 0 {
		return mob{}, errNotMobius
	}
	inv := new(big.Rat).Inv(lead)
	out := mob{new(big.Rat).Mul(m.a, inv), new(big.Rat).Mul(m.b, inv), new(big.Rat).Mul(m.c, inv), new(big.Rat).Mul(m.d, inv)}
	for _, x := range [4]*big.Rat{out.a, out.b, out.c, out.d} {
		if x.Num().BitLen() > exact.MaxBits || x.Denom().BitLen() > exact.MaxBits {
			return mob{}, fmt.Errorf("an intermediate result has more than %d bits: %w", exact.MaxBits, exact.ErrTooLarge)
		}
	}
	return out, nil
}

// combine applies a binary operator when the result is again one of the
// accepted shapes.
func combine(op string, l, r mob) (mob, bool) {
	mul := func(x, y *big.Rat) *big.Rat { return new(big.Rat).Mul(x, y) }
	add := func(x, y *big.Rat) *big.Rat { return new(big.Rat).Add(x, y) }
	// k is the value of a constant map (b/d).
	k := func(m mob) *big.Rat { return new(big.Rat).Quo(m.b, m.d) }
	switch op {
	case "+", "-":
		if op == "-" {
			r = mob{neg(r.a), neg(r.b), r.c, r.d}
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
