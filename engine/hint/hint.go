// Package hint compiles the catalog's table of hints for failed
// conversions and finds the hint that fits a failure. When a conversion
// fails with an entry's code and its two sides match the entry's, the
// error carries the entry's text, a guess at what was meant ("did you
// mean degC → degF?"). A hint never changes what is converted: the
// conversion still fails.
package hint

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/unitd/unitd/engine/fault"
	"github.com/unitd/unitd/engine/internal/graph"
)

// Spec is one entry of the catalog's table of hints: when a conversion
// fails with Code and its two sides match From and To, the error carries
// Hint.
type Spec struct {
	Origin   fault.Origin
	Code     fault.Code
	From, To Side
	// Hint is the text; {from} and {to} stand for the names the request
	// wrote.
	Hint   string
	Source string
}

// Side says which side of a conversion a hint is for. At most one field
// is set; none matches anything.
type Side struct {
	// Unit is a catalog unit, by symbol: the side names it (by any of its
	// spellings).
	Unit string
	// Category is a catalog category: the side is one of its units, or an
	// expression of it.
	Category string
	// Pattern is a regular expression the side's text matches as a whole,
	// for names the catalog does not know (a currency code, say).
	Pattern string
}

// hintCodes are the codes a hint may be for: the errors of a conversion's
// units.
var hintCodes = []fault.Code{fault.UnknownUnit, fault.Incompatible, fault.AmbiguousUnit, fault.InvalidUnitExpression}

// maxLen bounds a hint's text, in bytes.
const maxLen = 500

// Table is a compiled table of hints, in the catalog's order.
type Table []hint

type hint struct {
	code     fault.Code
	from, to side
	text     string
}

type side struct {
	unit     *graph.Unit
	category *graph.Category
	pattern  *regexp.Regexp
}

// Catalog is what a table's units and categories are found in.
type Catalog interface {
	// Unit finds a unit by its symbol, or returns nil.
	Unit(symbol string) *graph.Unit
	// Category finds a category by its ID, or returns nil.
	Category(id string) *graph.Category
}

// Compile compiles the specs against c, checking that every unit and
// category they name exists and every pattern compiles. An entry with a
// problem is left out, and report is called with its origin and a
// message.
func Compile(specs []Spec, c Catalog, report func(o fault.Origin, msg string)) Table {
	var t Table
	for _, hs := range specs {
		h := hint{code: hs.Code, text: strings.TrimSpace(hs.Hint)}
		ok := true
		fail := func(format string, args ...any) {
			report(hs.Origin, fmt.Sprintf(format, args...))
			ok = false
		}
		if !slices.Contains(hintCodes, hs.Code) {
			fail("code %q is not one of %s", hs.Code, joinCodes(hintCodes))
		}
		switch {
		case h.text == "":
			fail("missing hint")
		case len(h.text) > maxLen:
			fail("the hint is longer than %d bytes", maxLen)
		}
		if strings.TrimSpace(hs.Source) == "" {
			fail("missing source")
		}
		h.from = compileSide(c, hs.From, func(format string, args ...any) { fail("from: "+format, args...) })
		h.to = compileSide(c, hs.To, func(format string, args ...any) { fail("to: "+format, args...) })
		if ok {
			t = append(t, h)
		}
	}
	return t
}

func compileSide(c Catalog, s Side, fail func(format string, args ...any)) side {
	set := 0
	for _, f := range []string{s.Unit, s.Category, s.Pattern} {
		if f != "" {
			set++
		}
	}
	var dst side
	switch {
	case set > 1:
		fail("give one of unit, category and pattern")
	case s.Unit != "":
		if dst.unit = c.Unit(s.Unit); dst.unit == nil || dst.unit.Symbol != s.Unit {
			fail("%q is not the symbol of a unit", s.Unit)
		}
	case s.Category != "":
		if dst.category = c.Category(s.Category); dst.category == nil {
			fail("unknown category %q", s.Category)
		}
	case s.Pattern != "":
		if _, err := regexp.Compile(s.Pattern); err != nil {
			fail("pattern: %v", err)
			break
		}
		// A pattern matches the whole text: anchored around a group, which
		// a pattern that compiles alone compiles in too.
		re, err := regexp.Compile(`\A(?:` + s.Pattern + `)\z`)
		if err != nil {
			fail("pattern: %v", err)
			break
		}
		dst.pattern = re
	}
	return dst
}

func joinCodes(codes []fault.Code) string {
	s := make([]string, len(codes))
	for i, c := range codes {
		s[i] = string(c)
	}
	return strings.Join(s, ", ")
}

// Names is what the text a request wrote for a side is read by.
type Names interface {
	// UnitNamed is the catalog unit a name stands for, or nil.
	UnitNamed(name string) *graph.Unit
	// CategoryNamed is the category of what a name stands for (a unit or
	// an expression), or nil.
	CategoryNamed(name string) *graph.Category
}

// Find returns the text of the first hint for a failure with code of a
// conversion from one name to another, with {from} and {to} replaced by
// them, and whether there is one.
func (t Table) Find(code fault.Code, from, to string, n Names) (string, bool) {
	for _, h := range t {
		if h.code == code && h.from.matches(n, from) && h.to.matches(n, to) {
			return strings.NewReplacer("{from}", from, "{to}", to).Replace(h.text), true
		}
	}
	return "", false
}

// matches reports whether the text a request wrote for one side is what
// s is for.
func (s side) matches(n Names, text string) bool {
	switch {
	case s.pattern != nil:
		return s.pattern.MatchString(text)
	case s.unit != nil:
		return n.UnitNamed(text) == s.unit
	case s.category != nil:
		return n.CategoryNamed(text) == s.category
	}
	return true
}
