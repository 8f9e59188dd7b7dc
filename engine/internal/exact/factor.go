package exact

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/cockroachdb/apd/v3"
	"github.com/unitd/unitd/engine/fault"
	"github.com/unitd/unitd/engine/internal/pi"
)

// ParseFactor reads an exact factor or offset written as a product or
// quotient of decimal literals, with optional integer powers and
// parentheses: "0.3048", "1/3", "101325/760", "9.80665*0.45359237",
// "0.0254^3", "-459.67*5/9", and pi ("pi/180", "2*pi"). The value is kept
// exactly, as a rational times an integer power of π.
func ParseFactor(s string) (Factor, error) {
	p := &ratParser{src: s}
	p.skipSpace()
	if p.done() {
		return Factor{}, fmt.Errorf("empty number")
	}
	r, err := p.expr()
	if err != nil {
		return Factor{}, err
	}
	p.skipSpace()
	if !p.done() {
		return Factor{}, fmt.Errorf("%q is not an exact number: unexpected %q (write decimals, ratios a/b, products a*b, powers a^n, pi)", s, p.src[p.pos:])
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
func (p *ratParser) expr() (Factor, error) {
	left, err := p.unary()
	if err != nil {
		return Factor{}, err
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
			return Factor{}, err
		}
		if right.R.Sign() == 0 && op == '/' {
			return Factor{}, fmt.Errorf("division by zero in %q", p.src)
		}
		if op == '*' {
			left = left.Mul(right)
		} else {
			left = left.Quo(right)
		}
		if err := CheckSize(left.R); err != nil {
			return Factor{}, fmt.Errorf("%q: %w", fault.Truncate(p.src, 40), err)
		}
	}
}

// unary := '-'? power
func (p *ratParser) unary() (Factor, error) {
	p.skipSpace()
	if !p.done() && p.src[p.pos] == '-' {
		p.pos++
		r, err := p.power()
		if err != nil {
			return Factor{}, err
		}
		return Factor{R: new(big.Rat).Neg(r.R), K: r.K}, nil
	}
	return p.power()
}

// power := atom ('^' '-'? digits)?
func (p *ratParser) power() (Factor, error) {
	base, err := p.atom()
	if err != nil {
		return Factor{}, err
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
		return Factor{}, fmt.Errorf("exponent after ^ must be a whole number below 100 in %q", p.src)
	}
	k := mustAtoi(p.src[p.pos : p.pos+n])
	p.pos += n
	if neg {
		k = -k
	}
	if k < 0 && base.R.Sign() == 0 {
		return Factor{}, fmt.Errorf("division by zero in %q", p.src)
	}
	if err := checkPowSize(base.R, k); err != nil {
		return Factor{}, fmt.Errorf("%q: %w", fault.Truncate(p.src, 40), err)
	}
	return base.Pow(k), nil
}

// atom := decimal | 'pi' | '(' expr ')'
func (p *ratParser) atom() (Factor, error) {
	p.skipSpace()
	if p.done() {
		return Factor{}, fmt.Errorf("missing number at end of %q", p.src)
	}
	if strings.HasPrefix(p.src[p.pos:], "pi") {
		p.pos += 2
		return Factor{R: big.NewRat(1, 1), K: 1}, nil
	}
	if p.src[p.pos] == '(' {
		if p.depth++; p.depth > 20 {
			return Factor{}, fmt.Errorf("too deeply nested: %q", p.src)
		}
		p.pos++
		r, err := p.expr()
		if err != nil {
			return Factor{}, err
		}
		p.skipSpace()
		if p.done() || p.src[p.pos] != ')' {
			return Factor{}, fmt.Errorf("missing ) in %q", p.src)
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
		return Factor{}, fmt.Errorf("expected a number at %q in %q", p.src[start:], p.src)
	}
	if err := CheckSyntax(lit); err != nil {
		return Factor{}, fmt.Errorf("%q is not a decimal number", lit)
	}
	r, ok := new(big.Rat).SetString(lit)
	if !ok {
		return Factor{}, fmt.Errorf("%q is not a decimal number", lit)
	}
	p.pos = start + len(lit)
	return Factor{R: r}, nil
}

func countDigitsAndPoints(s string) int {
	n := 0
	for n < len(s) && (s[n] >= '0' && s[n] <= '9' || s[n] == '.') {
		n++
	}
	return n
}

// Factor is an exact number R·π^K: a rational times an integer power of π.
// Factors carry π this way so that it cancels exactly: a degree is
// π/180 rad and a revolution 2π rad, so revolutions to degrees is exactly
// 360.
type Factor struct {
	R *big.Rat
	K int
}

func One() Factor { return Factor{R: big.NewRat(1, 1)} }

func (a Factor) Mul(b Factor) Factor {
	return Factor{R: new(big.Rat).Mul(a.R, b.R), K: a.K + b.K}
}

// Quo returns a/b; b must not be zero.
func (a Factor) Quo(b Factor) Factor {
	return Factor{R: new(big.Rat).Quo(a.R, b.R), K: a.K - b.K}
}

// Pow returns a^n; a must not be zero when n < 0.
func (a Factor) Pow(n int) Factor {
	r := big.NewRat(1, 1)
	b := a.R
	if n < 0 {
		b = new(big.Rat).Inv(a.R)
	}
	for range max(n, -n) {
		r.Mul(r, b)
	}
	return Factor{R: r, K: a.K * n}
}

func (a Factor) IsOne() bool { return a.K == 0 && a.R.Cmp(ratOne) == 0 }

var ratOne = big.NewRat(1, 1)

// ToDecimal returns r as an exact decimal when its denominator has no
// prime factors but 2 and 5.
func ToDecimal(r *big.Rat) (apd.Decimal, bool) {
	var d apd.Decimal
	den := new(big.Int).Set(r.Denom())
	twos := int(den.TrailingZeroBits())
	den.Rsh(den, uint(twos))
	fives := 0
	var q, m big.Int
	five := big.NewInt(5)
	for den.Cmp(bigOne) > 0 {
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

// Bounds on the exact numbers the compiler builds. Catalog factors have
// tens of digits; a factor such as (((9^99)^99)^99)^99 would have ninety
// million and take forever to compute, so every exact number a factor or
// offset expression builds must fit in maxExactDigits decimal digits,
// numerator and denominator each.
const maxExactDigits = 1000

// maxExactBits is maxExactDigits in bits, rounded up.
const maxExactBits = maxExactDigits*3322/1000 + 1

// ErrFactorTooLarge is a factor whose exact numbers would be too long.
var ErrFactorTooLarge = fmt.Errorf("exact number with more than %d digits", maxExactDigits)

// CheckSize refuses a rational whose numerator or denominator is
// longer than maxExactDigits.
func CheckSize(r *big.Rat) error {
	if r.Num().BitLen() > maxExactBits || r.Denom().BitLen() > maxExactBits {
		return ErrFactorTooLarge
	}
	return nil
}

// checkPowSize refuses base^n when the result would be too long, before
// computing it: its length is about |n| times the base's.
func checkPowSize(base *big.Rat, n int) error {
	bits := max(base.Num().BitLen(), base.Denom().BitLen())
	if bits > 1 && int64(bits-1)*int64(max(n, -n)) > maxExactBits {
		return ErrFactorTooLarge
	}
	return nil
}

// Agree reports whether a and b are equal, or a lies within half a unit
// in the last of digits significant digits of b: |a − b| ≤ 5·10^−digits·|b|.
// It decides exactly: a power of π left in a/b is bracketed between two
// decimals, and the factors agree only when the whole bracket does. It is
// how a table that rounds a factor is checked against an exact
// definition.
func Agree(a, b Factor, digits int) bool {
	if a.K == b.K && a.R.Cmp(b.R) == 0 {
		return true
	}
	if b.R.Sign() == 0 || a.R.Sign() != b.R.Sign() || digits <= 0 {
		return false
	}
	// tol = 5·10^-digits; a/b = q·π^k must lie in [1-tol, 1+tol].
	tol := new(big.Rat).SetFrac(big.NewInt(5), pow10Big(digits))
	lo, hi := new(big.Rat).Sub(ratOne, tol), new(big.Rat).Add(ratOne, tol)
	q := new(big.Rat).Quo(a.R, b.R)
	k := a.K - b.K
	if k == 0 {
		return q.Cmp(lo) >= 0 && q.Cmp(hi) <= 0
	}
	pl, pw, scale := pi.Bracket(k, digits+10)
	den := pow10Big(scale)
	low := new(big.Rat).Mul(q, new(big.Rat).SetFrac(pl, den))
	high := new(big.Rat).Mul(q, new(big.Rat).SetFrac(new(big.Int).Add(pl, pw), den))
	return low.Cmp(lo) >= 0 && high.Cmp(hi) <= 0
}
