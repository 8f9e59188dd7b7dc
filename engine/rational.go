package engine

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/cockroachdb/apd/v3"
)

// parseExact reads an exact factor or offset written as a product or
// quotient of decimal literals, with optional integer powers and
// parentheses: "0.3048", "1/3", "101325/760", "9.80665*0.45359237",
// "0.0254^3", "-459.67*5/9", and pi ("pi/180", "2*pi"). The value is kept
// exactly, as a rational times an integer power of π.
func parseExact(s string) (piRat, error) {
	p := &ratParser{src: s}
	p.skipSpace()
	if p.done() {
		return piRat{}, fmt.Errorf("empty number")
	}
	r, err := p.expr()
	if err != nil {
		return piRat{}, err
	}
	p.skipSpace()
	if !p.done() {
		return piRat{}, fmt.Errorf("%q is not an exact number: unexpected %q (write decimals, ratios a/b, products a*b, powers a^n, pi)", s, p.src[p.pos:])
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
func (p *ratParser) expr() (piRat, error) {
	left, err := p.unary()
	if err != nil {
		return piRat{}, err
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
			return piRat{}, err
		}
		if right.r.Sign() == 0 && op == '/' {
			return piRat{}, fmt.Errorf("division by zero in %q", p.src)
		}
		if op == '*' {
			left = left.mul(right)
		} else {
			left = left.quo(right)
		}
		if err := checkExactSize(left.r); err != nil {
			return piRat{}, fmt.Errorf("%q: %w", truncateText(p.src, 40), err)
		}
	}
}

// unary := '-'? power
func (p *ratParser) unary() (piRat, error) {
	p.skipSpace()
	if !p.done() && p.src[p.pos] == '-' {
		p.pos++
		r, err := p.power()
		if err != nil {
			return piRat{}, err
		}
		return piRat{r: new(big.Rat).Neg(r.r), k: r.k}, nil
	}
	return p.power()
}

// power := atom ('^' '-'? digits)?
func (p *ratParser) power() (piRat, error) {
	base, err := p.atom()
	if err != nil {
		return piRat{}, err
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
		return piRat{}, fmt.Errorf("exponent after ^ must be a whole number below 100 in %q", p.src)
	}
	k := mustAtoi(p.src[p.pos : p.pos+n])
	p.pos += n
	if neg {
		k = -k
	}
	if k < 0 && base.r.Sign() == 0 {
		return piRat{}, fmt.Errorf("division by zero in %q", p.src)
	}
	if err := checkPowSize(base.r, k); err != nil {
		return piRat{}, fmt.Errorf("%q: %w", truncateText(p.src, 40), err)
	}
	return base.pow(k), nil
}

// atom := decimal | 'pi' | '(' expr ')'
func (p *ratParser) atom() (piRat, error) {
	p.skipSpace()
	if p.done() {
		return piRat{}, fmt.Errorf("missing number at end of %q", p.src)
	}
	if strings.HasPrefix(p.src[p.pos:], "pi") {
		p.pos += 2
		return piRat{r: big.NewRat(1, 1), k: 1}, nil
	}
	if p.src[p.pos] == '(' {
		if p.depth++; p.depth > 20 {
			return piRat{}, fmt.Errorf("too deeply nested: %q", p.src)
		}
		p.pos++
		r, err := p.expr()
		if err != nil {
			return piRat{}, err
		}
		p.skipSpace()
		if p.done() || p.src[p.pos] != ')' {
			return piRat{}, fmt.Errorf("missing ) in %q", p.src)
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
		return piRat{}, fmt.Errorf("expected a number at %q in %q", p.src[start:], p.src)
	}
	if err := checkValueSyntax(lit); err != nil {
		return piRat{}, fmt.Errorf("%q is not a decimal number", lit)
	}
	r, ok := new(big.Rat).SetString(lit)
	if !ok {
		return piRat{}, fmt.Errorf("%q is not a decimal number", lit)
	}
	p.pos = start + len(lit)
	return piRat{r: r}, nil
}

func countDigitsAndPoints(s string) int {
	n := 0
	for n < len(s) && (s[n] >= '0' && s[n] <= '9' || s[n] == '.') {
		n++
	}
	return n
}

// piRat is an exact number r·π^k: a rational times an integer power of π.
// Factors carry π this way so that it cancels exactly: a degree is
// π/180 rad and a revolution 2π rad, so revolutions to degrees is exactly
// 360.
type piRat struct {
	r *big.Rat
	k int
}

func ratOne() piRat { return piRat{r: big.NewRat(1, 1)} }

func (a piRat) mul(b piRat) piRat {
	return piRat{r: new(big.Rat).Mul(a.r, b.r), k: a.k + b.k}
}

// quo returns a/b; b must not be zero.
func (a piRat) quo(b piRat) piRat {
	return piRat{r: new(big.Rat).Quo(a.r, b.r), k: a.k - b.k}
}

// pow returns a^n; a must not be zero when n < 0.
func (a piRat) pow(n int) piRat {
	r := big.NewRat(1, 1)
	b := a.r
	if n < 0 {
		b = new(big.Rat).Inv(a.r)
	}
	for range abs(n) {
		r.Mul(r, b)
	}
	return piRat{r: r, k: a.k * n}
}

func (a piRat) isOne() bool { return a.k == 0 && a.r.Cmp(bigRatOne) == 0 }

var bigRatOne = big.NewRat(1, 1)

// ratToDecimal returns r as an exact decimal when its denominator has no
// prime factors but 2 and 5.
func ratToDecimal(r *big.Rat) (apd.Decimal, bool) {
	var d apd.Decimal
	den := new(big.Int).Set(r.Denom())
	twos := int(den.TrailingZeroBits())
	den.Rsh(den, uint(twos))
	fives := 0
	var q, m big.Int
	five := big.NewInt(5)
	for den.Cmp(bigOneInt) > 0 {
		q.QuoRem(den, five, &m)
		if m.Sign() != 0 {
			return d, false
		}
		den.Set(&q)
		fives++
	}
	// r = num / (2^twos 5^fives) = num * 2^(k-twos) 5^(k-fives) / 10^k.
	k := max(twos, fives)
	num := new(big.Int).Set(r.Num())
	num.Lsh(num, uint(k-twos))
	num.Mul(num, new(big.Int).Exp(five, big.NewInt(int64(k-fives)), nil))
	d.Negative = num.Sign() < 0
	num.Abs(num)
	d.Coeff.SetMathBigInt(num)
	d.Exponent = int32(-k)
	var reduced apd.Decimal
	reduced.Reduce(&d)
	return reduced, true
}

var bigOneInt = big.NewInt(1)
