package locale

import (
	"fmt"
	"strconv"
	"strings"
)

// Plural categories, as CLDR names them.
const (
	Zero  = "zero"
	One   = "one"
	Two   = "two"
	Few   = "few"
	Many  = "many"
	Other = "other"
)

// categoryOrder is the order in which a language's rules are tried;
// "other" is what none of them matched.
var categoryOrder = []string{Zero, One, Two, Few, Many}

// operands are the plural operands of UTS #35 Part 3 §5.1 of a decimal
// number as written: n (absolute value), i (integer digits), v and w
// (visible fraction digits, with and without trailing zeros), f and t
// (the fraction digits as an integer, with and without trailing zeros),
// e and c (the compact exponent). Values of up to 18 digits are kept
// exactly; the big flags say a longer one has non-zero digits beyond, so
// that no rule constant (all small) can equal it, while remainders
// modulo a power of ten up to 10^18 stay exact.
type operands struct {
	i, f, t          uint64
	iBig, fBig, tBig bool
	v, w             int
	e                int
}

const mod18 = 1_000_000_000_000_000_000

// digitsMod reads the last 18 digits of an ASCII digit string and whether
// any digit before them is non-zero.
func digitsMod(s string) (uint64, bool) {
	big := false
	if len(s) > 18 {
		for _, c := range s[:len(s)-18] {
			if c != '0' {
				big = true
				break
			}
		}
		s = s[len(s)-18:]
	}
	var n uint64
	for i := 0; i < len(s); i++ {
		n = n*10 + uint64(s[i]-'0')
	}
	return n, big
}

// parseOperands reads the operands of a decimal number as written: an
// optional sign, digits, an optional fraction, an optional exponent
// (1.5e3, which shifts the point), or CLDR's compact exponent in samples
// (1.1c6).
func parseOperands(s string) (operands, error) {
	var op operands
	s = strings.TrimLeft(s, "+-")
	mant, exp := s, 0
	compact := false
	if k := strings.IndexAny(s, "eEc"); k >= 0 {
		compact = s[k] == 'c'
		x, err := strconv.Atoi(strings.TrimPrefix(s[k+1:], "+"))
		if err != nil || x > 10000 || x < -10000 {
			return op, fmt.Errorf("bad exponent in %q", s)
		}
		mant, exp = s[:k], x
	}
	ip, fp, _ := strings.Cut(mant, ".")
	if ip == "" && fp == "" {
		return op, fmt.Errorf("no digits in %q", s)
	}
	for _, part := range []string{ip, fp} {
		for i := 0; i < len(part); i++ {
			if part[i] < '0' || part[i] > '9' {
				return op, fmt.Errorf("bad number %q", s)
			}
		}
	}
	// Shift the point by the exponent.
	switch {
	case exp > 0:
		if len(fp) >= exp {
			ip, fp = ip+fp[:exp], fp[exp:]
		} else {
			ip, fp = ip+fp+strings.Repeat("0", exp-len(fp)), ""
		}
	case exp < 0:
		k := -exp
		if len(ip) > k {
			ip, fp = ip[:len(ip)-k], ip[len(ip)-k:]+fp
		} else {
			ip, fp = "0", strings.Repeat("0", k-len(ip))+ip+fp
		}
	}
	if compact {
		op.e = exp
	}
	op.i, op.iBig = digitsMod(ip)
	op.v = len(fp)
	op.f, op.fBig = digitsMod(fp)
	tp := strings.TrimRight(fp, "0")
	op.w = len(tp)
	op.t, op.tBig = digitsMod(tp)
	return op, nil
}

// pluralRule is a compiled condition: or of ands of relations.
type pluralRule [][]relation

type relation struct {
	operand byte   // n i v w f t e c
	mod     uint64 // 0: none
	negate  bool   // !=
	ranges  [][2]uint64
}

// compileRule reads a CLDR plural condition ("v = 0 and i % 10 = 2..4").
// Samples after '@' are ignored. An empty condition never matches.
func compileRule(src string) (pluralRule, error) {
	if k := strings.IndexByte(src, '@'); k >= 0 {
		src = src[:k]
	}
	src = strings.TrimSpace(src)
	if src == "" {
		return nil, nil
	}
	var rule pluralRule
	for _, or := range strings.Split(src, " or ") {
		var and []relation
		for _, rel := range strings.Split(or, " and ") {
			r, err := compileRelation(strings.TrimSpace(rel))
			if err != nil {
				return nil, fmt.Errorf("%q: %w", src, err)
			}
			and = append(and, r)
		}
		rule = append(rule, and)
	}
	return rule, nil
}

func compileRelation(s string) (relation, error) {
	var r relation
	op, list, ok := strings.Cut(s, "!=")
	if ok {
		r.negate = true
	} else if op, list, ok = strings.Cut(s, "="); !ok {
		return r, fmt.Errorf("relation %q has no = or !=", s)
	}
	op = strings.TrimSpace(op)
	if name, m, ok := strings.Cut(op, "%"); ok {
		x, err := strconv.ParseUint(strings.TrimSpace(m), 10, 64)
		if err != nil || x == 0 || mod18%x != 0 {
			return r, fmt.Errorf("modulus %q", m)
		}
		r.mod, op = x, strings.TrimSpace(name)
	}
	if len(op) != 1 || !strings.Contains("nivwftec", op) {
		return r, fmt.Errorf("operand %q", op)
	}
	r.operand = op[0]
	for _, item := range strings.Split(list, ",") {
		lo, hi, isRange := strings.Cut(strings.TrimSpace(item), "..")
		a, err := strconv.ParseUint(lo, 10, 64)
		if err != nil {
			return r, fmt.Errorf("value %q", item)
		}
		b := a
		if isRange {
			if b, err = strconv.ParseUint(hi, 10, 64); err != nil || b < a {
				return r, fmt.Errorf("range %q", item)
			}
		}
		r.ranges = append(r.ranges, [2]uint64{a, b})
	}
	return r, nil
}

func (rule pluralRule) match(op *operands) bool {
	for _, and := range rule {
		ok := true
		for i := range and {
			if !and[i].match(op) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

func (r *relation) match(op *operands) bool {
	var x uint64
	var big, integral bool
	integral = true
	switch r.operand {
	case 'n':
		// n is the absolute value: an integer range holds it only when
		// it has no fraction, and n % m keeps the fraction.
		x, big, integral = op.i, op.iBig, op.t == 0 && !op.tBig
	case 'i':
		x, big = op.i, op.iBig
	case 'v':
		x = uint64(op.v)
	case 'w':
		x = uint64(op.w)
	case 'f':
		x, big = op.f, op.fBig
	case 't':
		x, big = op.t, op.tBig
	case 'e', 'c':
		x = uint64(op.e)
	}
	if r.mod != 0 {
		x, big = x%r.mod, false
	}
	in := false
	if integral && !big {
		for _, rg := range r.ranges {
			if x >= rg[0] && x <= rg[1] {
				in = true
				break
			}
		}
	}
	return in != r.negate
}

// plurals are one language's (or locale's) compiled rules, in
// categoryOrder; key is CLDR's key of the rule set ("pt", "pt-PT").
type plurals struct {
	key        string
	categories []string
	rules      []pluralRule
}

func compilePlurals(key string, src map[string]string) (*plurals, error) {
	p := &plurals{key: key}
	for _, c := range categoryOrder {
		text, ok := src[c]
		if !ok {
			continue
		}
		r, err := compileRule(text)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c, err)
		}
		p.categories = append(p.categories, c)
		p.rules = append(p.rules, r)
	}
	return p, nil
}

func (p *plurals) category(op *operands) string {
	for k, r := range p.rules {
		if r.match(op) {
			return p.categories[k]
		}
	}
	return Other
}
