package exact

import "math/big"

// AgreeWords is Agree, decided in machine words when words is set and
// both factors are ratios of numbers of one word each with the same power
// of π, as almost every catalog factor is: a/b lies within 5·10^−digits
// of 1 exactly when |a·… − b·…|·10^digits ≤ 5·(b·…), numerators and
// denominators multiplied out in at most 256 bits, which needs no
// allocation. Any other pair, or words unset, goes through Agree.
func AgreeWords(a, b Factor, digits int, words bool) bool {
	if !words || a.K != b.K || digits <= 0 {
		return Agree(a, b, digits)
	}
	an, ad, ok1 := ratWords(a.R)
	bn, bd, ok2 := ratWords(b.R)
	if !ok1 || !ok2 {
		return Agree(a, b, digits)
	}
	sa, sb := a.R.Sign(), b.R.Sign()
	switch {
	case sa == sb && an == bn && ad == bd:
		return true // equal (lowest terms): Agree's first test
	case sb == 0 || sa != sb:
		return false
	}
	// q = a/b = (an·bd)/(ad·bn) = n/d, both positive.
	n, d := mul64(an, bd), mul64(ad, bn)
	var diff u256
	if n.cmp(&d) >= 0 {
		diff = n.sub(&d)
	} else {
		diff = d.sub(&n)
	}
	for k := digits; k > 0; k -= 19 {
		var ok bool
		if diff, ok = diff.mulWord(pow10Word(min(k, 19))); !ok {
			return false // |q−1|·10^digits is beyond 2^256 > 5·d: far apart
		}
	}
	bound, _ := d.mulWord(5) // d < 2^128
	return diff.cmp(&bound) <= 0
}

// ratWords returns the magnitudes of r's numerator and denominator when
// each fits one word.
func ratWords(r *big.Rat) (num, den uint64, ok bool) {
	if bitsPerWord != 64 {
		return 0, 0, false
	}
	n := r.Num().Bits()
	if len(n) > 1 {
		return 0, 0, false
	}
	if len(n) == 1 {
		num = uint64(n[0])
	}
	if r.IsInt() {
		return num, 1, true
	}
	d := r.Denom().Bits()
	if len(d) != 1 {
		return 0, 0, false
	}
	return num, uint64(d[0]), true
}

// pow10Word returns 10^n for 0 <= n <= 19.
func pow10Word(n int) uint64 {
	p := uint64(1)
	for range n {
		p *= 10
	}
	return p
}
