package engine

import (
	"fmt"
	"strconv"
	"strings"
)

// baseDimensions are the base dimensions a category's dimension may name,
// in the order they are printed (mass first, as in "M L^2 T^-3"): mass,
// length, time, electric current, thermodynamic temperature, amount of
// substance, luminous intensity, angle, information and charge number. The
// last three are no SI base quantities: a radian, a bit and an equivalent
// are kinds of their own that must not meet a plain number (rad ↔ 1) or
// another amount (mEq ↔ mmol, which needs the charge number z).
var baseDimensions = [...]string{"M", "L", "T", "I", "Θ", "N", "J", "A", "D", "Z"}

// baseDimensionNames name each base dimension as a quantity, for messages
// ("multiply by a time").
var baseDimensionNames = [...]string{"a mass", "a length", "a time", "an electric current", "a temperature", "an amount of substance", "a luminous intensity", "an angle", "an amount of information", "a charge number"}

// BaseDimensions returns the symbols of the base dimensions in the order
// they are printed: M L T I Θ N J A D Z.
func BaseDimensions() []string { return append([]string(nil), baseDimensions[:]...) }

// dimension is a vector of exponents of the base dimensions.
type dimension [len(baseDimensions)]int

func dimensionOf(m map[string]int) dimension {
	var d dimension
	for i, name := range baseDimensions {
		d[i] = m[name]
	}
	return d
}

func (d dimension) add(e dimension, times int) dimension {
	for i := range d {
		d[i] += e[i] * times
	}
	return d
}

// String prints the dimension as "L T^-1", or "1" when dimensionless.
func (d dimension) String() string {
	var parts []string
	for i, name := range baseDimensions {
		switch e := d[i]; e {
		case 0:
		case 1:
			parts = append(parts, name)
		default:
			parts = append(parts, name+"^"+strconv.Itoa(e))
		}
	}
	if len(parts) == 0 {
		return "1"
	}
	return strings.Join(parts, " ")
}

// missing says what turns dimension from into to when one base dimension
// separates them ("multiply by a time"), or "".
func missing(from, to dimension) string {
	diff := to.add(from, -1)
	idx := -1
	for i, e := range diff {
		if e != 0 {
			if idx >= 0 {
				return ""
			}
			idx = i
		}
	}
	if idx < 0 {
		return ""
	}
	verb, e := "multiply", diff[idx]
	if e < 0 {
		verb, e = "divide", -e
	}
	what := baseDimensionNames[idx]
	if e != 1 {
		what = fmt.Sprintf("(%s)^%d", what, e)
	}
	return verb + " by " + what
}

// ParseDimension reads a dimension written as category records print it
// ("L T^-1", "M L^2 T^-3", "1"), in any order, and returns it in the
// canonical order. It is how discovery filters units by dimension.
func ParseDimension(s string) (string, error) {
	var d dimension
	fields := strings.Fields(s)
	if len(fields) == 0 {
		return "", fmt.Errorf("empty dimension (write it as category records do, e.g. \"L T^-1\", or 1)")
	}
	if len(fields) == 1 && fields[0] == "1" {
		return "1", nil
	}
	for _, f := range fields {
		name, exp, hasExp := strings.Cut(f, "^")
		i := indexOf(name)
		if i < 0 {
			return "", fmt.Errorf("unknown base dimension %q (known: M L T I Θ N J A D Z)", name)
		}
		e := 1
		if hasExp {
			n, err := strconv.Atoi(exp)
			if err != nil || n == 0 || n < -99 || n > 99 {
				return "", fmt.Errorf("exponent of %s: expected a non-zero whole number, found %q", name, exp)
			}
			e = n
		}
		if d[i] != 0 {
			return "", fmt.Errorf("base dimension %s is named twice", name)
		}
		d[i] = e
	}
	return d.String(), nil
}

func indexOf(name string) int {
	for i, n := range baseDimensions {
		if n == name {
			return i
		}
	}
	return -1
}
