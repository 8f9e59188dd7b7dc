// Package suggest finds the names spelled closest to an unknown one, by
// edit distance, where an abbreviation ("mtr" of "metre") or a stray
// letter ("feett") counts one edit less for a name of three runes or
// more.
//
// An unknown name is what a client controls, so a suggestion must cost
// about what a lookup costs, not a scan of every spelling. An Index keeps
// each spelling, lower-cased, in a bucket by length, with a 64-bit signature of the characters it contains. Two cheap lower
// bounds of the edit distance then rule out almost every spelling before
// any distance is computed: the difference in length, and the number of
// distinct characters one string has that the other lacks. Both are true
// lower bounds, so the answers are those of a full scan. Names longer than
// MaxName bytes get no suggestions at all.
package suggest

import (
	"math/bits"
	"sort"
	"strings"
	"unicode/utf8"
)

// MaxName is the longest name, in bytes, for which suggestions are
// computed.
const MaxName = 64

// Index holds spellings for suggestions. Build it with Add, then share it:
// Suggest only reads it.
type Index struct {
	byLen [][]entry // by rune count of the lower-cased spelling
}

type entry struct {
	runes  []rune // lower-cased spelling
	sig    uint64 // charSig of runes
	symbol string // what the spelling names
}

// Add indexes a spelling of what symbol names (a unit's symbol, a
// substance's ID, a code).
func (x *Index) Add(text, symbol string) {
	r := []rune(strings.ToLower(text))
	for len(x.byLen) <= len(r) {
		x.byLen = append(x.byLen, nil)
	}
	x.byLen[len(r)] = append(x.byLen[len(r)], entry{r, charSig(r), symbol})
}

// charSig has a bit for each character class present in r: one per
// letter and digit, and the rest hashed onto the remaining bits. A
// character whose bit is missing from another string's signature is
// missing from that string.
func charSig(r []rune) uint64 {
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

// Suggest returns the symbols of up to n entries whose spellings are
// closest to name, closest first, then by symbol.
func (x *Index) Suggest(name string, n int) []string {
	out, _ := x.search(name, n)
	return out
}

// SuggestIn is Suggest over the spellings of several indexes at once (a
// catalog's and an account's): the n closest of them all. Nil indexes
// are skipped.
func SuggestIn(name string, n int, xs ...*Index) []string {
	out, _ := searchAll(xs, name, n)
	return out
}

// Limit is the largest edit distance accepted for a name of n runes: a
// name of three runes or fewer is a typo of a name of its length only
// when one edit away, so a name such as "x" does not suggest every short
// symbol of the catalog; a longer name allows two edits, and three from
// seven runes.
func Limit(n int) int {
	switch {
	case n <= 3:
		return 1
	case n <= 6:
		return 2
	}
	return 3
}

// search is Suggest that also counts the spellings whose edit distance it
// had to compute.
func (x *Index) search(name string, n int) (out []string, computed int) {
	return searchAll([]*Index{x}, name, n)
}

// searchAll is search over the spellings of every index of xs.
func searchAll(xs []*Index, name string, n int) (out []string, computed int) {
	out = []string{}
	if name == "" || len(name) > MaxName || !utf8.ValidString(name) {
		return out, 0
	}
	q := []rune(strings.ToLower(name))
	limit := Limit(len(q))
	// The abbreviation bonus lowers a distance by one at most, so nothing
	// farther than limit+1 can be accepted.
	far := limit + 1
	if len(q) < 3 {
		far = limit // no bonus below three runes
	}
	qsig := charSig(q)
	type scored struct {
		symbol string
		score  int
	}
	var best []scored
	at := map[string]int{} // index in best of each symbol
	pat := newPattern(q)
	for _, x := range xs {
		if x == nil {
			continue
		}
		for l := max(0, len(q)-far); l <= len(q)+far && l < len(x.byLen); l++ {
			for i := range x.byLen[l] {
				e := &x.byLen[l][i]
				if bits.OnesCount64(qsig&^e.sig) > far || bits.OnesCount64(e.sig&^qsig) > far {
					continue
				}
				computed++
				d := pat.distance(e.runes)
				if len(q) > 2 && len(e.runes) > 1 && (isSubsequence(q, e.runes) || isSubsequence(e.runes, q)) {
					d--
				}
				if d > limit {
					continue
				}
				if j, ok := at[e.symbol]; ok {
					best[j].score = min(best[j].score, d)
					continue
				}
				at[e.symbol] = len(best)
				best = append(best, scored{e.symbol, d})
			}
		}
	}
	sort.Slice(best, func(i, j int) bool {
		if best[i].score != best[j].score {
			return best[i].score < best[j].score
		}
		return best[i].symbol < best[j].symbol
	})
	for i := 0; i < len(best) && i < n; i++ {
		out = append(out, best[i].symbol)
	}
	return out, computed
}

// pattern holds a name for computing its edit distance to many strings
// with Myers' bit-parallel algorithm (in Hyyrö's form for the distance
// between whole strings): one pass of a few word operations per rune of
// the other string, for names of at most 64 runes.
type pattern struct {
	n      int
	ascii  [128]uint64 // positions of each ASCII rune in the name, as bits
	others []runeMask  // the same for the few other runes
}

type runeMask struct {
	r    rune
	mask uint64
}

func newPattern(q []rune) pattern {
	p := pattern{n: len(q)}
	for i, r := range q {
		if r >= 0 && r < 128 {
			p.ascii[r] |= 1 << i
			continue
		}
		found := false
		for k := range p.others {
			if p.others[k].r == r {
				p.others[k].mask |= 1 << i
				found = true
			}
		}
		if !found {
			p.others = append(p.others, runeMask{r, 1 << i})
		}
	}
	return p
}

func (p *pattern) eq(r rune) uint64 {
	if r >= 0 && r < 128 {
		return p.ascii[r]
	}
	for _, o := range p.others {
		if o.r == r {
			return o.mask
		}
	}
	return 0
}

// distance is the Levenshtein distance between the name and b.
func (p *pattern) distance(b []rune) int {
	if p.n == 0 {
		return len(b)
	}
	last := uint64(1) << (p.n - 1)
	pv, mv := ^uint64(0), uint64(0)
	score := p.n
	for _, r := range b {
		eq := p.eq(r)
		xv := eq | mv
		xh := (((eq & pv) + pv) ^ pv) | eq
		ph := mv | ^(xh | pv)
		mh := pv & xh
		if ph&last != 0 {
			score++
		}
		if mh&last != 0 {
			score--
		}
		ph = ph<<1 | 1
		mh <<= 1
		pv = mh | ^(xv | ph)
		mv = ph & xv
	}
	return score
}

// isSubsequence reports whether a's runes appear in b in order.
func isSubsequence(a, b []rune) bool {
	i := 0
	for _, r := range a {
		for i < len(b) && b[i] != r {
			i++
		}
		if i == len(b) {
			return false
		}
		i++
	}
	return true
}

// Distance is the Levenshtein distance between two strings, by rune.
func Distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	if len(ra) > 64 {
		ra, rb = rb, ra
	}
	if len(ra) > 64 {
		return levenshtein(ra, rb)
	}
	p := newPattern(ra)
	return p.distance(rb)
}

// levenshtein is the Levenshtein distance by the textbook recurrence, for
// names longer than a word of bits.
func levenshtein(a, b []rune) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := 1
			if a[i-1] == b[j-1] {
				c = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+c)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
