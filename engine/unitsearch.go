package engine

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/unitd/unitd/engine/internal/fold"
)

// Unit search: how well a text someone typed names each unit of the
// catalog, the one ranking that GET /v1/units?q=, the catalog page and
// the converter's unit field share.
//
// A unit is spelled by its symbol and other symbols (°C), its name,
// plural and word aliases, the declared ambiguous names it is a
// candidate of ("gallon" for gal and gal_imp) and, for a reader of
// another language, that language's names of it ("Zoll" for in). A text
// matches a unit when one of its spellings contains the text, case aside;
// the reader's names compare as the reader's language folds them. The
// matches are ranked, best first, by UnitRank, and within a rank the
// unit with the shorter name comes first, then the one whose symbol
// sorts first: a rule of the units themselves, not of the catalog's
// order.

// UnitRank says how well a text names a unit, best first.
type UnitRank int

const (
	// UnitSymbol: the text is the unit's symbol or another of its
	// symbols, as written (m, °C).
	UnitSymbol UnitRank = iota
	// UnitSymbolCase: the text is a symbol in another case (k for K).
	UnitSymbolCase
	// UnitWord: the text is a name, plural, alias, ambiguous name or
	// the reader's word for the unit, case aside (foot, Zoll).
	UnitWord
	// UnitPrefix: a spelling starts with the text.
	UnitPrefix
	// UnitContains: a spelling contains the text.
	UnitContains
	unitNoMatch
)

// UnitMatch is a unit a search found, and how.
type UnitMatch struct {
	Unit *Unit
	Rank UnitRank
	// Matched is the spelling that matched as the catalog (or the
	// reader's language) writes it.
	Matched string
}

// UnitWords are a reader's own names of the units, for SearchUnits; a
// *locale.Locale is one.
type UnitWords interface {
	// Names lists the names of the unit with the symbol in the reader's
	// language.
	Names(symbol string) []string
	// Fold is how those names and the text compare: case, white space
	// and Unicode normal form aside.
	Fold(s string) string
}

// unitIndex holds each unit's spellings for search, in graph order.
type unitIndex struct {
	entries []unitEntry
}

type unitEntry struct {
	u         *Unit
	spellings []unitSpelling // the symbol first
	all       string         // every lower-case spelling, NUL between
	nameLen   int            // runes of the name
}

type unitSpelling struct {
	text, lower string
	symbol      bool // the symbol or another symbol
}

func newUnitIndex(units []*Unit) *unitIndex {
	x := &unitIndex{entries: make([]unitEntry, len(units))}
	for i, u := range units {
		e := &x.entries[i]
		e.u, e.nameLen = u, utf8.RuneCountInString(u.Name)
		add := func(s string, symbol bool) {
			if s != "" {
				e.spellings = append(e.spellings, unitSpelling{s, strings.ToLower(s), symbol})
			}
		}
		add(u.Symbol, true)
		for _, s := range u.Symbols {
			add(s, true)
		}
		add(u.Name, false)
		add(u.Plural, false)
		for _, a := range u.Aliases {
			add(a, false)
		}
		lowers := make([]string, len(e.spellings))
		for k, s := range e.spellings {
			lowers[k] = s.lower
		}
		e.all = strings.Join(lowers, "\x00")
	}
	return x
}

// unitSearchIndex returns the graph's index of unit spellings, building
// it on the first search.
func (g *Graph) unitSearchIndex() *unitIndex {
	g.unitIndexOnce.Do(func() { g.unitIndex = newUnitIndex(g.units) })
	return g.unitIndex
}

// SearchUnits returns the units q names, best first (see UnitRank): each
// unit once, by its best match. words, when not nil, adds the reader's
// names of the units. An empty q, or one holding NUL, matches nothing;
// q is compared as given, white space and all.
func (g *Graph) SearchUnits(q string, words UnitWords) []UnitMatch {
	if q == "" || strings.ContainsRune(q, 0) {
		return nil
	}
	lq := strings.ToLower(q)
	fq := ""
	if words != nil {
		fq = words.Fold(q)
	}
	// A declared ambiguous name is a word of each of its candidates.
	var ambiguous *Ambiguity
	if a, ok := g.ambiguous[fold.Key(q)]; ok {
		ambiguous = a
	}
	x := g.unitSearchIndex()
	type hit struct {
		m       UnitMatch
		nameLen int
	}
	var hits []hit
	for i := range x.entries {
		e := &x.entries[i]
		best := UnitMatch{Unit: e.u, Rank: unitNoMatch}
		consider := func(r UnitRank, s string) {
			if r < best.Rank {
				best.Rank, best.Matched = r, s
			}
		}
		if strings.Contains(e.all, lq) { // rules most units out at once
			for _, s := range e.spellings {
				switch {
				case s.symbol && s.text == q:
					consider(UnitSymbol, s.text)
				case s.lower == lq && s.symbol:
					consider(UnitSymbolCase, s.text)
				case s.lower == lq:
					consider(UnitWord, s.text)
				case strings.HasPrefix(s.lower, lq):
					consider(UnitPrefix, s.text)
				case strings.Contains(s.lower, lq):
					consider(UnitContains, s.text)
				}
			}
		}
		if ambiguous != nil && slices.Contains(ambiguous.Candidates, e.u) {
			consider(UnitWord, ambiguous.Name)
		}
		if fq != "" && best.Rank > UnitWord {
			for _, n := range words.Names(e.u.Symbol) {
				switch f := words.Fold(n); {
				case f == fq:
					consider(UnitWord, n)
				case strings.HasPrefix(f, fq):
					consider(UnitPrefix, n)
				case strings.Contains(f, fq):
					consider(UnitContains, n)
				}
			}
		}
		if best.Rank != unitNoMatch {
			hits = append(hits, hit{best, e.nameLen})
		}
	}
	slices.SortFunc(hits, func(a, b hit) int {
		if a.m.Rank != b.m.Rank {
			return int(a.m.Rank - b.m.Rank)
		}
		if a.nameLen != b.nameLen {
			return a.nameLen - b.nameLen
		}
		return strings.Compare(a.m.Unit.Symbol, b.m.Unit.Symbol)
	})
	out := make([]UnitMatch, len(hits))
	for i, h := range hits {
		out[i] = h.m
	}
	return out
}
