package substance

import (
	"math/bits"
	"slices"
	"strings"

	"github.com/unitd/unitd/engine/internal/fold"
)

// Substance search: how well a text someone typed names each substance of
// the catalog, the one ranking that the substance discovery
// (GET /v1/substances?q=), the substances page and the converter's
// substance field share.
//
// A substance is spelled by its ID, name, aliases (abbreviations such as
// BUN or LDL among them), CAS number, formula and, for a food, the food
// it is ("brown sugar" for each of its states). A text names a substance
// exactly (a spelling equal to it, case-insensitive, except the formula,
// which is case-sensitive: CO is not Co), by a prefix of a spelling, by a
// part of one, or by every one of its words within one spelling. When no
// substance matches in any of these ways, the few spelled closest to the
// text (by edit distance, a swap of two letters counting one edit) are
// offered as suggestions. Nothing here reads the graph: the index is built
// from a list of substances and kept with it.

// Rank says how well a text names a substance, best first.
type Rank int

const (
	// Exact: a spelling is the text.
	Exact Rank = iota
	// Prefix: a spelling starts with the text.
	Prefix
	// Contains: a spelling contains the text.
	Contains
	// Words: one spelling contains each word of the text.
	Words
	// Fuzzy: a spelling is a few edits from the text. Such
	// matches are suggestions, found only when nothing matches better.
	Fuzzy
)

// MaxSuggestions bounds the fuzzy matches of a search.
const MaxSuggestions = 5

// maxFuzzyQuery is the longest text, in runes, for which suggestions are
// computed, as for units (maxSuggestName).
const maxFuzzyQuery = 64

// Which spelling of a substance matched, in the order that breaks ties
// between equally good matches.
const (
	FieldID      = "id"
	FieldName    = "name"
	FieldFormula = "formula"
	FieldAlias   = "alias"
	FieldFood    = "food"
	FieldCAS     = "cas"
)

// Match is a substance a search found, and how.
type Match struct {
	Substance *Substance
	Rank      Rank
	// Matched is the spelling that matched, as the catalog writes it,
	// and Field what it is (FieldName, FieldAlias, …).
	Matched string
	Field   string
	// Distance is the edit distance of a fuzzy match, else 0.
	Distance int
}

// Index holds the spellings of a list of substances for search.
// It is immutable and safe for concurrent use.
type Index struct {
	subs      []*Substance
	spellings [][]substanceSpelling // by index into subs
	longest   int                   // runes of the longest folded spelling
}

type substanceSpelling struct {
	text   string // as the catalog writes it
	folded string // lower case, inner white space single spaces
	runes  []rune // folded, for the edit distance
	sig    uint64 // runeSig of runes
	field  string
	order  int // of field, for ties
}

// NewIndex indexes subs; a search lists its matches in the order
// of subs where nothing else tells them apart.
func NewIndex(subs []*Substance) *Index {
	x := &Index{subs: slices.Clone(subs), spellings: make([][]substanceSpelling, len(subs))}
	for i, s := range subs {
		add := func(text, field string, order int) {
			if text == "" {
				return
			}
			f := fold.Key(text)
			r := []rune(f)
			x.spellings[i] = append(x.spellings[i], substanceSpelling{text: text, folded: f, runes: r, sig: runeSig(r), field: field, order: order})
			x.longest = max(x.longest, len(r))
		}
		add(s.ID, FieldID, 0)
		add(s.Name, FieldName, 1)
		add(s.Formula, FieldFormula, 2)
		for _, a := range s.Aliases {
			add(a, FieldAlias, 3)
		}
		add(s.Food, FieldFood, 4)
		add(s.CAS, FieldCAS, 5)
	}
	return x
}

// Search returns the substances that q names, best first: exact matches,
// then prefixes, then parts, then all words; within a rank a match by a
// shorter spelling first (it leaves less of the spelling unsaid), then by
// the ID, name, formula, alias, food and CAS number in that order, then in
// the index's order. Each substance appears once, by its best match. When
// nothing matches, Search returns up to MaxSuggestions fuzzy
// matches, closest first. A q of white space only matches nothing.
func (x *Index) Search(q string) []Match {
	if x == nil {
		return nil
	}
	fq := fold.Key(q)
	if fq == "" {
		return nil
	}
	exact := strings.TrimSpace(q) // the formula is compared as written
	words := strings.Fields(fq)
	type hit struct {
		m                  Match
		length, order, idx int
	}
	better := func(a, b hit) int {
		if a.m.Rank != b.m.Rank {
			return int(a.m.Rank - b.m.Rank)
		}
		if a.m.Distance != b.m.Distance {
			return a.m.Distance - b.m.Distance
		}
		if a.length != b.length {
			return a.length - b.length
		}
		if a.order != b.order {
			return a.order - b.order
		}
		return a.idx - b.idx
	}
	var hits []hit
	for i, sp := range x.spellings {
		best := hit{m: Match{Rank: Fuzzy + 1}}
		for _, s := range sp {
			var r Rank
			switch {
			case s.field == FieldFormula && s.text == exact, s.field != FieldFormula && s.folded == fq:
				r = Exact
			case strings.HasPrefix(s.folded, fq):
				r = Prefix
			case strings.Contains(s.folded, fq):
				r = Contains
			case len(words) > 1 && containsAll(s.folded, words):
				r = Words
			default:
				continue
			}
			h := hit{Match{Substance: x.subs[i], Rank: r, Matched: s.text, Field: s.field}, len(s.runes), s.order, i}
			if better(h, best) < 0 {
				best = h
			}
		}
		if best.m.Substance != nil {
			hits = append(hits, best)
		}
	}
	if len(hits) == 0 {
		qr := []rune(fq)
		limit := fuzzyLimit(len(qr))
		if limit == 0 || len(qr) > maxFuzzyQuery {
			return nil
		}
		d := newDistancer(x.longest)
		qsig := runeSig(qr)
		for i, sp := range x.spellings {
			best := hit{m: Match{Rank: Fuzzy + 1}}
			for _, s := range sp {
				// Each kind of rune one string has and the other lacks
				// costs an edit: most spellings are ruled out by that.
				if bits.OnesCount64(qsig&^s.sig) > limit || bits.OnesCount64(s.sig&^qsig) > limit {
					continue
				}
				dist := d.distance(qr, s.runes, limit)
				if dist > limit {
					continue
				}
				h := hit{Match{Substance: x.subs[i], Rank: Fuzzy, Matched: s.text, Field: s.field, Distance: dist}, len(s.runes), s.order, i}
				if better(h, best) < 0 {
					best = h
				}
			}
			if best.m.Substance != nil {
				hits = append(hits, best)
			}
		}
	}
	slices.SortFunc(hits, better)
	if len(hits) > 0 && hits[0].m.Rank == Fuzzy && len(hits) > MaxSuggestions {
		hits = hits[:MaxSuggestions]
	}
	out := make([]Match, len(hits))
	for i, h := range hits {
		out[i] = h.m
	}
	return out
}

// containsAll reports whether s contains every word.
func containsAll(s string, words []string) bool {
	for _, w := range words {
		if !strings.Contains(s, w) {
			return false
		}
	}
	return true
}

// fuzzyLimit is the largest edit distance a suggestion may have for a text
// of n runes: none for two or fewer (every short spelling would be one),
// one up to four, two up to eight, else three.
func fuzzyLimit(n int) int {
	switch {
	case n <= 2:
		return 0
	case n <= 4:
		return 1
	case n <= 8:
		return 2
	}
	return 3
}

// runeSig has a bit for each kind of rune in r: one per letter and digit,
// the others hashed onto the remaining bits. A rune whose bit is missing
// from another string's signature is missing from that string, so the
// bits one signature has and the other lacks count edits that any
// alignment of the two strings needs (a lower bound of their distance).
func runeSig(r []rune) uint64 {
	var sig uint64
	for _, c := range r {
		switch {
		case c >= 'a' && c <= 'z':
			sig |= 1 << (c - 'a')
		case c >= '0' && c <= '9':
			sig |= 1 << (26 + c - '0')
		default:
			sig |= 1 << (36 + uint(c)%28)
		}
	}
	return sig
}

// distancer computes edit distances in rows it keeps between calls.
type distancer struct{ rows [3][]int }

func newDistancer(longest int) *distancer {
	d := &distancer{}
	for i := range d.rows {
		d.rows[i] = make([]int, longest+1)
	}
	return d
}

// distance is the optimal string alignment distance between a and b
// (insertions, deletions, substitutions and swaps of two neighbouring
// runes, each one edit), or limit+1 when it is larger than limit.
func (d *distancer) distance(a, b []rune, limit int) int {
	if n := len(a) - len(b); n > limit || -n > limit {
		return limit + 1
	}
	prev2, prev, cur := d.rows[0][:len(b)+1], d.rows[1][:len(b)+1], d.rows[2][:len(b)+1]
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = v
			rowMin = min(rowMin, v)
		}
		if rowMin > limit {
			return limit + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return min(prev[len(b)], limit+1)
}
