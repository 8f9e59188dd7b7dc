package spec

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/unitd/unitd/engine/dimension"
	"github.com/unitd/unitd/engine/fault"
	"github.com/unitd/unitd/engine/internal/graph"
)

// Units of an account
//
// An account's units and categories are written in a catalog's schema
// and meet the catalog's rules, which the engine checks as it compiles
// them (Overlay). They meet a few more, which need nothing but the
// spec and are here: spellings that nothing else reads, bounded
// lengths, no codes, and categories that are plain kinds of quantity.

// Problem is a rule of an account's units that a spec breaks, and where.
type Problem struct {
	Origin  Origin
	Message string
}

// Limits of what one account may define (the engine's OverlayLimits
// holds the two that an operator may change).
const (
	// DefaultMaxAccountUnits bounds the units of an account, prefixed
	// ones included.
	DefaultMaxAccountUnits = 1000
	// DefaultMaxAccountCategories bounds the categories of an account.
	DefaultMaxAccountCategories = 50
	// MaxAccountSymbol is the longest symbol or category id, in bytes.
	MaxAccountSymbol = 32
	// MaxAccountWord is the longest name, plural or alias, in bytes.
	MaxAccountWord = 100
	// MaxAccountSpellings bounds a unit's aliases and symbols together.
	MaxAccountSpellings = 16
	// MaxAccountExamples bounds a unit's examples.
	MaxAccountExamples = 10
	// MaxAccountText bounds a description or a source, in bytes.
	MaxAccountText = 1000
	// MaxAccountNumber bounds a factor, an offset, a minimum or an
	// si_factor as written, in bytes.
	MaxAccountNumber = 100
	// MaxAccountFormula bounds a formula (to or from), in bytes.
	MaxAccountFormula = 200
)

// checkSpelling says why s cannot be a symbol (word false) or a name,
// plural or alias (word true) of an account's unit, or "". A spelling
// starts with a letter and holds letters, digits, marks and . _ - '
// (and, in a word, single inner spaces): nothing that reads as an
// operator of an expression, a code system's colon, a mixed unit or a
// number.
func checkSpelling(s string, word bool) string {
	limit := MaxAccountSymbol
	if word {
		limit = MaxAccountWord
	}
	switch {
	case s == "":
		return "empty"
	case len(s) > limit:
		return fmt.Sprintf("longer than %d bytes", limit)
	case !utf8.ValidString(s):
		return "not valid UTF-8"
	case strings.Contains(s, "-and-"):
		return `holds "-and-", which reads as a mixed unit`
	}
	first, _ := utf8.DecodeRuneInString(s)
	if !unicode.IsLetter(first) && !strings.ContainsRune("°µΩ", first) {
		return "must start with a letter"
	}
	prevSpace := false
	for _, r := range s {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) && r < 0x80 || unicode.IsMark(r) || strings.ContainsRune("._-'°µΩ", r):
		case r == ' ' && word && !prevSpace:
		default:
			return fmt.Sprintf("%q is not allowed (letters, digits and . _ - ' only%s)", r, map[bool]string{true: ", with single spaces inside", false: ""}[word])
		}
		prevSpace = r == ' '
	}
	if prevSpace {
		return "ends with a space"
	}
	return ""
}

// CheckCategoryID says why id cannot be the id of an account's category,
// or "": lower-case letters, digits and underscores, starting with a
// letter, as the catalog's ids are.
func CheckCategoryID(id string) string {
	if id == "" {
		return "missing id"
	}
	if len(id) > MaxAccountSymbol {
		return fmt.Sprintf("id is longer than %d bytes", MaxAccountSymbol)
	}
	for i := 0; i < len(id); i++ {
		ch := id[i]
		if !(ch >= 'a' && ch <= 'z' || i > 0 && (ch >= '0' && ch <= '9' || ch == '_')) {
			return "an id is lower-case letters, digits and underscores, starting with a letter"
		}
	}
	return ""
}

// CheckAccountUnit returns the rules of an account's units that us
// breaks beyond a catalog's, in order: spellings that no expression,
// code or mixed unit reads, bounded lengths, no codes.
func CheckAccountUnit(us *Unit) []Problem {
	var ps []Problem
	bad := func(format string, args ...any) {
		ps = append(ps, Problem{us.Origin, fmt.Sprintf(format, args...)})
	}
	if msg := checkSpelling(us.Symbol, false); msg != "" {
		bad("symbol: %s", msg)
	}
	if len(us.Symbols)+len(us.Aliases) > MaxAccountSpellings {
		bad("has %d symbols and aliases; at most %d", len(us.Symbols)+len(us.Aliases), MaxAccountSpellings)
	}
	for _, s := range us.Symbols {
		if msg := checkSpelling(s, false); msg != "" {
			bad("symbols: %q: %s", fault.Truncate(s, MaxAccountSymbol), msg)
		}
	}
	for _, w := range append([]string{us.Name, us.Plural}, us.Aliases...) {
		if w == "" {
			continue // "missing name" comes from the catalog's rules
		}
		if msg := checkSpelling(w, true); msg != "" {
			bad("name %q: %s", fault.Truncate(w, MaxAccountWord), msg)
		}
	}
	for _, f := range [...]struct{ key, text string }{{"system", us.System}, {"description", us.Description}, {"source", us.Source}} {
		if len(f.text) > MaxAccountText {
			bad("%s is longer than %d bytes", f.key, MaxAccountText)
		}
	}
	d := us.Definition
	for _, f := range [...]struct{ key, text string }{{"factor", d.Factor}, {"offset", d.Offset}} {
		if len(f.text) > MaxAccountNumber {
			bad("definition %s is longer than %d bytes", f.key, MaxAccountNumber)
		}
	}
	for _, f := range [...]struct{ key, text string }{{"to", d.To}, {"from", d.From}} {
		if len(f.text) > MaxAccountFormula {
			bad("definition %s: a formula of an account is at most %d bytes", f.key, MaxAccountFormula)
		}
	}
	if len(d.Unit) > len(graph.AccountPrefix)+MaxAccountWord {
		bad("definition unit is longer than %d bytes", len(graph.AccountPrefix)+MaxAccountWord)
	}
	if len(us.Codes) > 0 {
		bad("codes: an account's unit claims no standard code; codes are the shared catalog's")
	}
	if us.Prefixes != nil && len(us.Prefixes.Codes) > 0 {
		bad("prefixes codes: an account's unit claims no standard code")
	}
	if len(us.Examples) > MaxAccountExamples {
		bad("has %d examples; at most %d", len(us.Examples), MaxAccountExamples)
	}
	for _, ex := range us.Examples {
		if len(ex.Value)+len(ex.From)+len(ex.To)+len(ex.Result) > 4*MaxAccountNumber {
			ps = append(ps, Problem{ex.Origin, fmt.Sprintf("example is longer than %d bytes", 4*MaxAccountNumber)})
		}
	}
	return ps
}

// CheckAccountCategory returns what an account's category cs breaks of
// the rules that need only its spec, in order, beyond its id
// (CheckCategoryID): a name of bounded length, a dimension of known base
// dimensions, and none of what only the catalog's categories may be
// (preferred, logarithmic, with ambiguous names).
func CheckAccountCategory(cs *Category) []string {
	var msgs []string
	switch {
	case strings.TrimSpace(cs.Name) == "":
		msgs = append(msgs, "missing name")
	case len(cs.Name) > MaxAccountWord:
		msgs = append(msgs, fmt.Sprintf("name is longer than %d bytes", MaxAccountWord))
	}
	if len(cs.Description) > MaxAccountText {
		msgs = append(msgs, fmt.Sprintf("description is longer than %d bytes", MaxAccountText))
	}
	if cs.Dimension == nil {
		msgs = append(msgs, "missing dimension (write 1 for a kind without dimension)")
	}
	for d := range cs.Dimension {
		if dimension.Index(d) < 0 {
			msgs = append(msgs, fmt.Sprintf("unknown base dimension %q (known: M L T I Θ N J A D Z)", d))
		}
	}
	if cs.Preferred {
		msgs = append(msgs, "an account's category is never preferred: unit expressions belong to the catalog's categories")
	}
	if cs.Logarithmic {
		msgs = append(msgs, "an account's category cannot be logarithmic: levels need formulas with logarithms, which are the catalog's")
	}
	if len(cs.Ambiguous) > 0 {
		msgs = append(msgs, "an account declares no ambiguous names")
	}
	return msgs
}
