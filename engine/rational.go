package engine

import (
	"fmt"
	"math/big"
	"strings"
)

// parseExact reads an exact factor or offset written as a product or
// quotient of decimal literals, with optional integer powers and
// parentheses: "0.3048", "1/3", "101325/760", "9.80665*0.45359237",
// "0.0254^3", "-459.67*5/9", and pi. The value is kept as an exact rational
// (pi as a 120-digit approximation).
func parseExact(s string) (*big.Rat, error) {
	p := &ratParser{src: s}
	p.skipSpace()
	if p.done() {
		return nil, fmt.Errorf("empty number")
	}
	r, err := p.expr()
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if !p.done() {
		return nil, fmt.Errorf("%q is not an exact number: unexpected %q (write decimals, ratios a/b, products a*b, powers a^n, pi)", s, p.src[p.pos:])
	}
	return r, nil
}

type ratParser struct {
	src   string
	pos   int
	depth int
}

func (p *ratParser) done() bool { return p.pos >= len(p.src) }

func (p *ratParser) skipSpace() {
	for !p.done() && (p.src[p.pos] == ' ' || p.src[p.pos] == '\t') {
		p.pos++
	}
}

// expr := unary (('*' | '/') unary)*
func (p *ratParser) expr() (*big.Rat, error) {
	left, err := p.unary()
	if err != nil {
		return nil, err
	}
	for {
		p.skipSpace()
		if p.done() || (p.src[p.pos] != '*' && p.src[p.pos] != '/') {
			return left, nil
		}
		op := p.src[p.pos]
		p.pos++
		right, err := p.unary()
		if err != nil {
			return nil, err
		}
		if op == '*' {
			left.Mul(left, right)
			continue
		}
		if right.Sign() == 0 {
			return nil, fmt.Errorf("division by zero in %q", p.src)
		}
		left.Quo(left, right)
	}
}

// unary := '-'? power
func (p *ratParser) unary() (*big.Rat, error) {
	p.skipSpace()
	if !p.done() && p.src[p.pos] == '-' {
		p.pos++
		r, err := p.power()
		if err != nil {
			return nil, err
		}
		return r.Neg(r), nil
	}
	return p.power()
}

// power := atom ('^' '-'? digits)?
func (p *ratParser) power() (*big.Rat, error) {
	base, err := p.atom()
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.done() || p.src[p.pos] != '^' {
		return base, nil
	}
	p.pos++
	p.skipSpace()
	neg := false
	if !p.done() && p.src[p.pos] == '-' {
		neg = true
		p.pos++
	}
	n := countDigits(p.src[p.pos:])
	if n == 0 || n > 2 {
		return nil, fmt.Errorf("exponent after ^ must be a whole number below 100 in %q", p.src)
	}
	k := mustAtoi(p.src[p.pos : p.pos+n])
	p.pos += n
	result := new(big.Rat).SetInt64(1)
	for range k {
		result.Mul(result, base)
	}
	if neg {
		if result.Sign() == 0 {
			return nil, fmt.Errorf("division by zero in %q", p.src)
		}
		result.Inv(result)
	}
	return result, nil
}

// piDigits is π to 120 decimal places. Factors that involve π (the degree
// is π/180 rad) use it; a result through such a factor is never exact, and
// its first 50 digits are correctly rounded but for values within 1e-120 of
// a rounding boundary.
const piDigits = "3.141592653589793238462643383279502884197169399375105820974944592307816406286208998628034825342117067982148086513282306647"

// atom := decimal | 'pi' | '(' expr ')'
func (p *ratParser) atom() (*big.Rat, error) {
	p.skipSpace()
	if p.done() {
		return nil, fmt.Errorf("missing number at end of %q", p.src)
	}
	if strings.HasPrefix(p.src[p.pos:], "pi") {
		p.pos += 2
		r, _ := new(big.Rat).SetString(piDigits)
		return r, nil
	}
	if p.src[p.pos] == '(' {
		if p.depth++; p.depth > 20 {
			return nil, fmt.Errorf("too deeply nested: %q", p.src)
		}
		p.pos++
		r, err := p.expr()
		if err != nil {
			return nil, err
		}
		p.skipSpace()
		if p.done() || p.src[p.pos] != ')' {
			return nil, fmt.Errorf("missing ) in %q", p.src)
		}
		p.pos++
		p.depth--
		return r, nil
	}
	start := p.pos
	end := start + countDigitsAndPoints(p.src[start:])
	if end < len(p.src) && (p.src[end] == 'e' || p.src[end] == 'E') {
		k := end + 1
		if k < len(p.src) && (p.src[k] == '+' || p.src[k] == '-') {
			k++
		}
		if n := countDigits(p.src[k:]); n > 0 {
			end = k + n
		}
	}
	lit := p.src[start:end]
	if lit == "" {
		return nil, fmt.Errorf("expected a number at %q in %q", p.src[start:], p.src)
	}
	if err := checkValueSyntax(lit); err != nil {
		return nil, fmt.Errorf("%q is not a decimal number", lit)
	}
	r, ok := new(big.Rat).SetString(lit)
	if !ok {
		return nil, fmt.Errorf("%q is not a decimal number", lit)
	}
	p.pos = start + len(lit)
	return r, nil
}

func countDigitsAndPoints(s string) int {
	n := 0
	for n < len(s) && (s[n] >= '0' && s[n] <= '9' || s[n] == '.') {
		n++
	}
	return n
}
