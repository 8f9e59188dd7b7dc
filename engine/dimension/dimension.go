// Package dimension is unitd's model of physical dimensions: a vector of
// integer exponents of ten base dimensions, how it is written ("M L^2
// T^-3"), and what separates two of them.
//
// The base dimensions are the seven of the SI — mass, length, time,
// electric current, thermodynamic temperature, amount of substance,
// luminous intensity — and three that the SI counts as numbers but unitd
// keeps apart: angle (a radian is no plain 1), information (a bit) and
// charge number (an equivalent is no mole: mEq ↔ mmol needs the charge).
// Code systems that count the radian as 1 (QUDT, CLDR's steradian) are
// read into this model by package codes, which makes their convention
// explicit.
package dimension

import (
	"fmt"
	"strconv"
	"strings"
)

// symbols are the base dimensions in the order they are printed (mass
// first, as in "M L^2 T^-3").
var symbols = [...]string{"M", "L", "T", "I", "Θ", "N", "J", "A", "D", "Z"}

// names name each base dimension as a quantity, for messages ("multiply
// by a time").
var names = [...]string{"a mass", "a length", "a time", "an electric current", "a temperature", "an amount of substance", "a luminous intensity", "an angle", "an amount of information", "a charge number"}

// siUnits are the coherent SI units of the base dimensions, as unitd
// writes them.
var siUnits = [...]string{"kg", "m", "s", "A", "K", "mol", "cd", "rad", "bit", "z"}

// Indices of the base dimensions that no code system outside the catalog
// counts as dimensions of their own.
var (
	Angle       = Index("A")
	Information = Index("D")
)

// Symbols returns the symbols of the base dimensions in the order they are
// printed: M L T I Θ N J A D Z.
func Symbols() []string { return append([]string(nil), symbols[:]...) }

// Vector is a dimension: the exponent of each base dimension, in the
// order of Symbols. The zero Vector is a pure number.
type Vector [len(symbols)]int

// Of returns the dimension with the exponents m gives by symbol.
func Of(m map[string]int) Vector {
	var d Vector
	for i, name := range symbols {
		d[i] = m[name]
	}
	return d
}

// Index returns the position of a base dimension's symbol in a Vector,
// or -1.
func Index(symbol string) int {
	for i, n := range symbols {
		if n == symbol {
			return i
		}
	}
	return -1
}

// Product returns the symbols separated by spaces as a dimension, each
// to the power 1 ("I T" is a charge); unknown symbols are ignored. It
// reads the fixed tables of the code systems.
func Product(s string) Vector {
	var d Vector
	for _, f := range strings.Fields(s) {
		if i := Index(f); i >= 0 {
			d[i]++
		}
	}
	return d
}

// Add returns d·e^times.
func (d Vector) Add(e Vector, times int) Vector {
	for i := range d {
		d[i] += e[i] * times
	}
	return d
}

// Inverse returns d^-1.
func (d Vector) Inverse() Vector { return Vector{}.Add(d, -1) }

// IsZero reports whether d is a pure number.
func (d Vector) IsZero() bool {
	// A loop, not d == Vector{}: the comparison calls memequal, which
	// cost a tenth of a short conversion that asks this once.
	for i := range len(d) {
		if d[i] != 0 {
			return false
		}
	}
	return true
}

// MaxAbs is the largest magnitude of an exponent of d.
func (d Vector) MaxAbs() int {
	m := 0
	for _, e := range d {
		m = max(m, e, -e)
	}
	return m
}

// String prints the dimension as "L T^-1", or "1" when dimensionless.
func (d Vector) String() string {
	return d.join(symbols[:], " ", "1")
}

// SIText writes the coherent SI unit of the dimension ("kg*m^2*s^-2").
func (d Vector) SIText() string {
	return d.join(siUnits[:], "*", "1")
}

func (d Vector) join(names []string, sep, none string) string {
	var parts []string
	for i, e := range d {
		switch e {
		case 0:
		case 1:
			parts = append(parts, names[i])
		default:
			parts = append(parts, names[i]+"^"+strconv.Itoa(e))
		}
	}
	if len(parts) == 0 {
		return none
	}
	return strings.Join(parts, sep)
}

// Missing says what turns dimension from into to when one base dimension
// separates them ("multiply by a time"), or "".
func Missing(from, to Vector) string {
	diff := to.Add(from, -1)
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
	what := names[idx]
	if e != 1 {
		what = fmt.Sprintf("(%s)^%d", what, e)
	}
	return verb + " by " + what
}

// Parse reads a dimension written as category records print it ("L T^-1",
// "M L^2 T^-3", "1"), in any order.
func Parse(s string) (Vector, error) {
	var d Vector
	fields := strings.Fields(s)
	if len(fields) == 0 {
		return d, fmt.Errorf("empty dimension (write it as category records do, e.g. \"L T^-1\", or 1)")
	}
	if len(fields) == 1 && fields[0] == "1" {
		return d, nil
	}
	for _, f := range fields {
		name, exp, hasExp := strings.Cut(f, "^")
		i := Index(name)
		if i < 0 {
			return d, fmt.Errorf("unknown base dimension %q (known: %s)", name, strings.Join(symbols[:], " "))
		}
		e := 1
		if hasExp {
			n, err := strconv.Atoi(exp)
			if err != nil || n == 0 || n < -99 || n > 99 {
				return d, fmt.Errorf("exponent of %s: expected a non-zero whole number, found %q", name, exp)
			}
			e = n
		}
		if d[i] != 0 {
			return d, fmt.Errorf("base dimension %s is named twice", name)
		}
		d[i] = e
	}
	return d, nil
}
