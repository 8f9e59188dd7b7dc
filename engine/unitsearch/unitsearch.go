// Package unitsearch ranks how well a text someone typed names each unit of the
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
package unitsearch

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/unitd/unitd/engine/internal/graph"
)

// Rank says how well a text names a unit, best first.
type Rank int

const (
	// Symbol: the text is the unit's symbol or another of its
	// symbols, as written (m, °C).
	Symbol Rank = iota
	// SymbolCase: the text is a symbol in another case (k for K).
	SymbolCase
	// Word: the text is a name, plural, alias, ambiguous name or
	// the reader's word for the unit, case aside (foot, Zoll).
	Word
	// Prefix: a spelling starts with the text.
	Prefix
	// Contains: a spelling contains the text.
	Contains
	noMatch
)

// Match is a unit a search found, and how.
type Match struct {
	Unit *graph.Unit
	Rank Rank
	// Matched is the spelling that matched as the catalog (or the
	// reader's language) writes it.
	Matched string
}

// Words are a reader's own names of the units, for Search; a
// *locale.Locale is one.
type Words interface {
	// Names lists the names of the unit with the symbol in the reader's
	// language.
	Names(symbol string) []string
	// Fold is how those names and the text compare: case, white space
	// and Unicode normal form aside.
	Fold(s string) string
}

// Index holds each unit's spellings for search, in graph order.
type Index struct {
	entries []unitEntry
}

type unitEntry struct {
	u         *graph.Unit
	spellings []unitSpelling // the symbol first
	all       string         // every lower-case spelling, NUL between
	nameLen   int            // runes of the name
}

type unitSpelling struct {
	text, lower string
	symbol      bool // the symbol or another symbol
}

// New indexes the units' spellings.
func New(units []*graph.Unit) *Index {
	x := &Index{entries: make([]unitEntry, len(units))}
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

// Search returns the units q names, best first (see Rank): each unit
// once, by its best match. ambiguous, when not nil, is the declared
// ambiguous name q is (a word of each of its candidates); words, when not
// nil, adds the reader's names of the units. An empty q, or one holding
// NUL, matches nothing; q is compared as given, white space and all.
func (x *Index) Search(q string, ambiguous *graph.Ambiguity, words Words) []Match {
	if q == "" || strings.ContainsRune(q, 0) {
		return nil
	}
	lq := strings.ToLower(q)
	fq := ""
	if words != nil {
		fq = words.Fold(q)
	}
	type hit struct {
		m       Match
		nameLen int
	}
	var hits []hit
	for i := range x.entries {
		e := &x.entries[i]
		best := Match{Unit: e.u, Rank: noMatch}
		consider := func(r Rank, s string) {
			if r < best.Rank {
				best.Rank, best.Matched = r, s
			}
		}
		if strings.Contains(e.all, lq) { // rules most units out at once
			for _, s := range e.spellings {
				switch {
				case s.symbol && s.text == q:
					consider(Symbol, s.text)
				case s.lower == lq && s.symbol:
					consider(SymbolCase, s.text)
				case s.lower == lq:
					consider(Word, s.text)
				case strings.HasPrefix(s.lower, lq):
					consider(Prefix, s.text)
				case strings.Contains(s.lower, lq):
					consider(Contains, s.text)
				}
			}
		}
		if ambiguous != nil && slices.Contains(ambiguous.Candidates, e.u) {
			consider(Word, ambiguous.Name)
		}
		if fq != "" && best.Rank > Word {
			for _, n := range words.Names(e.u.Symbol) {
				switch f := words.Fold(n); {
				case f == fq:
					consider(Word, n)
				case strings.HasPrefix(f, fq):
					consider(Prefix, n)
				case strings.Contains(f, fq):
					consider(Contains, n)
				}
			}
		}
		if best.Rank != noMatch {
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
	out := make([]Match, len(hits))
	for i, h := range hits {
		out[i] = h.m
	}
	return out
}
