package engine

import (
	"regexp"
	"slices"
	"strings"
)

// HintSpec is one entry of the catalog's table of hints: when a conversion
// fails with Code and its two sides match From and To, the error carries
// Hint, a guess at what was meant ("did you mean degC → degF?"). A hint
// never changes what is converted: the conversion still fails.
type HintSpec struct {
	Origin   Origin
	Code     Code
	From, To HintSide
	// Hint is the text; {from} and {to} stand for the names the request
	// wrote.
	Hint   string
	Source string
}

// HintSide says which side of a conversion a hint is for. At most one
// field is set; none matches anything.
type HintSide struct {
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

// hint is a compiled HintSpec.
type hint struct {
	code     Code
	from, to hintSide
	text     string
}

type hintSide struct {
	unit     *Unit
	category *Category
	pattern  *regexp.Regexp
}

// hintCodes are the codes a hint may be for: the errors of a conversion's
// units.
var hintCodes = []Code{CodeUnknownUnit, CodeIncompatibleUnits, CodeAmbiguousUnit, CodeInvalidUnitExpression}

// maxHintLen bounds a hint's text, in bytes.
const maxHintLen = 500

// hints compiles the hint table into the graph, checking that every unit
// and category it names exists and every pattern compiles.
func (b *builder) hints(specs []HintSpec) {
	for _, hs := range specs {
		const subject = "hint"
		h := hint{code: hs.Code, text: strings.TrimSpace(hs.Hint)}
		ok := true
		if !slices.Contains(hintCodes, hs.Code) {
			b.errorf(hs.Origin, subject, "code %q is not one of %s", hs.Code, joinCodes(hintCodes))
			ok = false
		}
		switch {
		case h.text == "":
			b.errorf(hs.Origin, subject, "missing hint")
			ok = false
		case len(h.text) > maxHintLen:
			b.errorf(hs.Origin, subject, "the hint is longer than %d bytes", maxHintLen)
			ok = false
		}
		if strings.TrimSpace(hs.Source) == "" {
			b.errorf(hs.Origin, subject, "missing source")
			ok = false
		}
		for _, side := range []struct {
			name string
			spec HintSide
			dst  *hintSide
		}{{"from", hs.From, &h.from}, {"to", hs.To, &h.to}} {
			if !b.hintSide(hs.Origin, side.name, side.spec, side.dst) {
				ok = false
			}
		}
		if ok {
			b.x.hints = append(b.x.hints, h)
		}
	}
}

func (b *builder) hintSide(o Origin, name string, s HintSide, dst *hintSide) bool {
	set := 0
	for _, f := range []string{s.Unit, s.Category, s.Pattern} {
		if f != "" {
			set++
		}
	}
	if set > 1 {
		b.errorf(o, "hint", "%s: give one of unit, category and pattern", name)
		return false
	}
	switch {
	case s.Unit != "":
		if dst.unit, _ = b.g.bySymbol.Get(s.Unit); dst.unit == nil || dst.unit.Symbol != s.Unit {
			b.errorf(o, "hint", "%s: %q is not the symbol of a unit", name, s.Unit)
			return false
		}
	case s.Category != "":
		if dst.category = b.g.byID[s.Category]; dst.category == nil {
			b.errorf(o, "hint", "%s: unknown category %q", name, s.Category)
			return false
		}
	case s.Pattern != "":
		if _, err := regexp.Compile(s.Pattern); err != nil {
			b.errorf(o, "hint", "%s: pattern: %v", name, err)
			return false
		}
		dst.pattern = regexp.MustCompile(`\A(?:` + s.Pattern + `)\z`)
	}
	return true
}

func joinCodes(codes []Code) string {
	s := make([]string, len(codes))
	for i, c := range codes {
		s[i] = string(c)
	}
	return strings.Join(s, ", ")
}

// matches reports whether the text a request wrote for one side is what
// s is for.
func (s hintSide) matches(g *Graph, text string) bool {
	switch {
	case s.pattern != nil:
		return s.pattern.MatchString(text)
	case s.unit != nil:
		u, err, found := g.lookupName(text)
		return found && err == nil && u == s.unit
	case s.category != nil:
		side, err := g.resolve(text)
		return err == nil && side.category() == s.category
	}
	return true
}

// withHint returns err with the Hint of the first entry of the hint table
// that fits it and req, or err itself. It runs only when a conversion
// failed, and copies the error rather than changing one that may be
// shared.
func (g *Graph) withHint(err error, req *Request) error {
	e, ok := err.(*Error)
	if !ok || e.Hint != "" {
		return err
	}
	hints := g.extras().hints
	if len(hints) == 0 {
		return err
	}
	for _, h := range hints {
		if h.code == e.Code && h.from.matches(g, req.From) && h.to.matches(g, req.To) {
			c := *e
			c.Hint = strings.NewReplacer("{from}", req.From, "{to}", req.To).Replace(h.text)
			return &c
		}
	}
	return err
}
