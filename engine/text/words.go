package text

import (
	"math/big"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Spelled numbers come from tables.go (tools/textwords): the words for
// numbers and fractions of each language's recipe reader in Gourmand
// ("one", "a dozen", "a half", "two thirds"). A phrase is matched whole
// words at a time, the longest first; a whole number may be followed by
// "and" and a fraction ("one and a half", "1 and a half"), and a fraction
// by an article that is the number one ("half a cup").

// spelledNumber is one phrase and its value num/den.
type spelledNumber struct {
	text     string
	num, den int64
}

// numberWords are the phrases of one language, folded, by their first
// word.
type numberWords struct {
	byFirst  map[string][]spelledNumber
	articles map[string]bool // one-word phrases worth one ("a", "an", "un")
	and      []string
}

// wordTables are the spelled numbers of each language, indexed on the
// first use of spelled numbers.
var wordTables = sync.OnceValue(func() map[string]*numberWords {
	tables := map[string]*numberWords{}
	for lang, list := range spelledNumbers {
		w := &numberWords{byFirst: map[string][]spelledNumber{}, articles: map[string]bool{}, and: andWords[lang]}
		for _, n := range list {
			t := strings.ToLower(n.text)
			first, _, _ := strings.Cut(t, " ")
			n.text = t
			w.byFirst[first] = append(w.byFirst[first], n)
			if !strings.Contains(t, " ") && n.num == 1 && n.den == 1 && len(t) <= 3 {
				w.articles[t] = true
			}
		}
		for _, list := range w.byFirst {
			// Longest phrase first.
			for i := 1; i < len(list); i++ {
				for j := i; j > 0 && len(list[j].text) > len(list[j-1].text); j-- {
					list[j], list[j-1] = list[j-1], list[j]
				}
			}
		}
		tables[lang] = w
	}
	return tables
})

// andWords join a whole number and a fraction, by language.
var andWords = map[string][]string{"en": {"and"}, "es": {"y"}, "pt": {"e"}, "sv": {"och"}, "ru": {"и"}, "sk": {"a"}, "nl": {"en"}, "de": {"und"}, "fr": {"et"}}

// wordsOf returns the spelled numbers of a language ("" and unknown ones
// are English).
func wordsOf(lang string) *numberWords {
	if lang == "" {
		lang = "en"
	}
	if i := strings.IndexAny(lang, "-_"); i > 0 {
		lang = lang[:i]
	}
	if w, ok := wordTables()[strings.ToLower(lang)]; ok {
		return w
	}
	return wordTables()["en"]
}

// wordAt returns the word at i (letters, apostrophes) and where it ends.
func (r *reader) wordAt(i int) (string, int) {
	j := i
	for j < r.end {
		c, n := utf8.DecodeRuneInString(r.p.text[j:])
		if !unicode.IsLetter(c) && c != '\'' && c != '’' && c != '-' {
			break
		}
		j += n
	}
	return strings.ToLower(r.p.text[i:j]), j
}

// phraseAt matches a spelled number at i.
func (r *reader) phraseAt(i int) (spelledNumber, int, bool) {
	w := r.p.numbers
	first, j := r.wordAt(i)
	if first == "" {
		return spelledNumber{}, i, false
	}
	rest := strings.ToLower(r.p.text[i:r.end])
	for _, n := range w.byFirst[first] {
		if !strings.HasPrefix(rest, n.text) {
			continue
		}
		end := i + len(n.text)
		if c, _ := r.peek(end); end < r.end && (unicode.IsLetter(c) || isDigit(c)) {
			continue // not a whole word
		}
		r.p.charge(len(n.text))
		return n, end, true
	}
	_ = j
	return spelledNumber{}, i, false
}

// spelled reads a spelled number at i: a phrase, then "and" and a
// fraction after a whole number, or an article after a fraction.
func (r *reader) spelled(i int) (*big.Rat, int, bool) {
	n, j, ok := r.phraseAt(i)
	if !ok {
		return nil, i, false
	}
	v := big.NewRat(n.num, n.den)
	if n.den == 1 {
		if f, k, ok := r.andFraction(j); ok {
			return v.Add(v, f), k, true
		}
		return v, j, true
	}
	// "half a cup": an article after a fraction counts no more.
	k := r.skipSpace(j)
	if word, e := r.wordAt(k); r.p.numbers.articles[word] && k > j {
		if _, _, isNum := r.phraseAt(r.skipSpace(e)); !isNum {
			return v, e, true
		}
	}
	return v, j, true
}

// andFraction reads " and a half" at i.
func (r *reader) andFraction(i int) (*big.Rat, int, bool) {
	k := r.skipSpace(i)
	if k == i {
		return nil, i, false
	}
	word, e := r.wordAt(k)
	if word == "" || !contains(r.p.numbers.and, word) {
		return nil, i, false
	}
	f, end, ok := r.phraseAt(r.skipSpace(e))
	if !ok || f.den == 1 || f.num >= f.den {
		return nil, i, false
	}
	return big.NewRat(f.num, f.den), end, true
}
