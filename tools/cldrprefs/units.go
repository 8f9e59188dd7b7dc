package main

import (
	"encoding/json"
	"fmt"
	"math/big"
	"sort"
	"strconv"
	"strings"
)

// cldrUnits evaluates CLDR unit identifiers with units.json: constants,
// conversions to base units, prefixes, powers and "-per-".
type cldrUnits struct {
	constants map[string]*big.Rat
	convert   map[string]struct{ base, factor, offset string }
	prefixes  map[string]*big.Rat
}

// cldrUnit is a CLDR unit's exact map onto its base unit, base = x·factor
// + offset, the base as exponents of CLDR's simple base units, and the
// substance of a unit such as milligram-ofglucose-per-deciliter (whose
// -ofglucose factor, a molar mass, is left to the catalog's substances).
type cldrUnit struct {
	factor, offset *big.Rat
	base           map[string]int
	substance      string
}

func readUnits(src []byte) (*cldrUnits, error) {
	var u struct {
		Supplemental struct {
			UnitPrefixes map[string]struct {
				Power10 string `json:"_power10"`
				Power2  string `json:"_power2"`
			} `json:"unitPrefixes"`
			UnitConstants json.RawMessage `json:"unitConstants"`
			ConvertUnits  map[string]struct {
				Base   string `json:"_baseUnit"`
				Factor string `json:"_factor"`
				Offset string `json:"_offset"`
			} `json:"convertUnits"`
		} `json:"supplemental"`
	}
	if err := json.Unmarshal(src, &u); err != nil {
		return nil, fmt.Errorf("units.json: %w", err)
	}
	c := &cldrUnits{constants: map[string]*big.Rat{}, convert: map[string]struct{ base, factor, offset string }{}, prefixes: map[string]*big.Rat{}}
	for k, v := range u.Supplemental.UnitPrefixes {
		r := big.NewRat(1, 1)
		switch {
		case v.Power10 != "":
			n, _ := strconv.Atoi(v.Power10)
			r = pow(big.NewRat(10, 1), n)
		case v.Power2 != "":
			n, _ := strconv.Atoi(v.Power2)
			r = pow(big.NewRat(2, 1), n)
		}
		c.prefixes[k] = r
	}
	// Constants refer to others, in any order: read them until all are.
	consts, err := readOrdered(u.Supplemental.UnitConstants)
	if err != nil {
		return nil, fmt.Errorf("units.json constants: %w", err)
	}
	for left := len(consts.keys); left > 0; {
		var lastErr error
		for _, k := range consts.keys {
			if _, done := c.constants[k]; done {
				continue
			}
			v := consts.vals[k].(orderedMap).vals["_value"].(string)
			r, err := c.eval(v)
			if err != nil {
				lastErr = fmt.Errorf("constant %s: %w", k, err)
				continue
			}
			c.constants[k] = r
		}
		if len(c.constants) == len(consts.keys) {
			break
		}
		if n := len(consts.keys) - len(c.constants); n == left {
			return nil, lastErr
		} else {
			left = n
		}
	}
	for k, v := range u.Supplemental.ConvertUnits {
		c.convert[k] = struct{ base, factor, offset string }{v.Base, v.Factor, v.Offset}
	}
	return c, nil
}

// eval evaluates a CLDR factor: numbers and constants joined by * and /,
// where * binds more tightly than / (a*b/c*d is (a*b)/(c*d)).
func (c *cldrUnits) eval(s string) (*big.Rat, error) {
	quo := strings.Split(s, "/")
	out := (*big.Rat)(nil)
	for i, q := range quo {
		prod := big.NewRat(1, 1)
		for _, f := range strings.Split(q, "*") {
			f = strings.TrimSpace(f)
			var r *big.Rat
			if v, ok := c.constants[f]; ok {
				r = v
			} else if v, ok := new(big.Rat).SetString(f); ok {
				r = v
			} else {
				return nil, fmt.Errorf("cannot read %q in %q", f, s)
			}
			prod.Mul(prod, r)
		}
		if i == 0 {
			out = prod
		} else {
			out.Quo(out, prod)
		}
	}
	return out, nil
}

// isSimple reports whether id is a unit of units.json itself, not one
// made of others.
func (c *cldrUnits) isSimple(id string) bool {
	_, ok := c.convert[id]
	return ok
}

// unit evaluates a CLDR unit identifier.
func (c *cldrUnits) unit(id string) (cldrUnit, error) {
	if cv, ok := c.convert[id]; ok {
		return c.simple(id, cv.base, cv.factor, cv.offset)
	}
	num, den, _ := strings.Cut(id, "-per-")
	out := cldrUnit{factor: big.NewRat(1, 1), offset: new(big.Rat), base: map[string]int{}}
	for side, text := range []string{num, den} {
		if text == "" {
			continue
		}
		sign := 1
		if side == 1 {
			sign = -1
		}
		tokens := strings.Split(strings.ReplaceAll(text, "-per-", "-"), "-")
		for i := 0; i < len(tokens); {
			power := 1
			switch t := tokens[i]; {
			case t == "square":
				power, i = 2, i+1
			case t == "cubic":
				power, i = 3, i+1
			case strings.HasPrefix(t, "pow") && len(t) == 4 && t[3] >= '2' && t[3] <= '9':
				power, i = int(t[3]-'0'), i+1
			}
			if i >= len(tokens) {
				return cldrUnit{}, fmt.Errorf("%q ends with a power", id)
			}
			if n, ok := new(big.Rat).SetString(tokens[i]); ok && tokens[i][0] >= '0' && tokens[i][0] <= '9' {
				out.factor.Mul(out.factor, pow(n, sign*power))
				i++
				continue
			}
			// The longest run of tokens that is a unit.
			j := len(tokens)
			var u cldrUnit
			var err error
			for ; j > i; j-- {
				if u, err = c.prefixed(strings.Join(tokens[i:j], "-")); err == nil {
					break
				}
			}
			if j == i {
				return cldrUnit{}, fmt.Errorf("no CLDR unit at %q in %q", tokens[i], id)
			}
			if u.substance != "" {
				out.substance = u.substance
				i = j
				continue
			}
			out.factor.Mul(out.factor, pow(u.factor, sign*power))
			for b, e := range u.base {
				out.base[b] += sign * power * e
			}
			i = j
		}
	}
	for b, e := range out.base {
		if e == 0 {
			delete(out.base, b)
		}
	}
	return out, nil
}

// prefixed evaluates a simple unit, with an SI or binary prefix.
func (c *cldrUnits) prefixed(name string) (cldrUnit, error) {
	if cv, ok := c.convert[name]; ok {
		return c.simple(name, cv.base, cv.factor, cv.offset)
	}
	for p, f := range c.prefixes {
		if rest, ok := strings.CutPrefix(name, p); ok {
			if cv, ok := c.convert[rest]; ok {
				u, err := c.simple(rest, cv.base, cv.factor, cv.offset)
				if err != nil {
					return u, err
				}
				u.factor.Mul(u.factor, f)
				return u, nil
			}
		}
	}
	return cldrUnit{}, fmt.Errorf("%q is not a CLDR unit", name)
}

// simple evaluates a unit of convertUnits. A unit "of" a substance whose
// base is items per kilogram (ofglucose) is a substance, not a factor.
func (c *cldrUnits) simple(name, base, factor, offset string) (cldrUnit, error) {
	if strings.HasPrefix(name, "of") && base == "item-per-kilogram" {
		return cldrUnit{substance: strings.TrimPrefix(name, "of")}, nil
	}
	u := cldrUnit{factor: big.NewRat(1, 1), offset: new(big.Rat), base: map[string]int{}}
	var err error
	if factor != "" {
		if u.factor, err = c.eval(factor); err != nil {
			return u, err
		}
	}
	if offset != "" {
		if u.offset, err = c.eval(offset); err != nil {
			return u, err
		}
	}
	num, den, _ := strings.Cut(base, "-per-")
	for side, text := range []string{num, den} {
		if text == "" {
			continue
		}
		sign := 1
		if side == 1 {
			sign = -1
		}
		tokens := strings.Split(text, "-")
		for i := 0; i < len(tokens); i++ {
			power := 1
			switch t := tokens[i]; {
			case t == "square":
				power, i = 2, i+1
			case t == "cubic":
				power, i = 3, i+1
			case strings.HasPrefix(t, "pow") && len(t) == 4:
				power, i = int(t[3]-'0'), i+1
			}
			u.base[tokens[i]] += sign * power
		}
	}
	return u, nil
}

// expression writes CLDR base units as a catalog unit expression.
func expression(base map[string]int) (string, error) {
	names := make([]string, 0, len(base))
	for b := range base {
		names = append(names, b)
	}
	sort.Strings(names)
	var terms []string
	for _, b := range names {
		sym, ok := bases[b]
		if !ok {
			return "", fmt.Errorf("CLDR base unit %q has no catalog unit", b)
		}
		if e := base[b]; e == 1 {
			terms = append(terms, sym)
		} else {
			terms = append(terms, fmt.Sprintf("%s^%d", sym, e))
		}
	}
	if len(terms) == 0 {
		return "", fmt.Errorf("dimensionless")
	}
	return strings.Join(terms, "*"), nil
}

func pow(r *big.Rat, n int) *big.Rat {
	out := big.NewRat(1, 1)
	b := r
	if n < 0 {
		b = new(big.Rat).Inv(r)
		n = -n
	}
	for range n {
		out.Mul(out, b)
	}
	return out
}
