package locale

import (
	"errors"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/unitd/unitd/locale/tag"
	"golang.org/x/text/language"
)

// Locale is a CLDR locale with a numbering system, ready to format and
// read quantities of a catalog's units. It is immutable and shared.
type Locale struct {
	*resolved
	// claims says which CLDR unit each catalog unit is; nil stands for
	// the embedded catalog's (see In).
	claims Claims
}

// resolved is a locale's data, shared by the Locales of every catalog.
type resolved struct {
	// Tag is the CLDR locale matched ("de", "de-AT", "und"), with
	// "-u-nu-<system>" when a numbering system other than the locale's
	// default was asked for.
	Tag string

	s      *store
	lang   string
	plural *plurals
	units  map[string]string // "width/key/field" → text
	table  map[string]*unitTable
	num    Numbers

	namesOnce sync.Once
	names     map[string][]string // folded name → CLDR unit identifiers
}

// In returns the locale writing and reading the units of the catalog whose
// claims c are (the graph that converts). A Locale not bound to a catalog
// writes no unit names: only numbers and symbols.
func (l *Locale) In(c Claims) *Locale { return &Locale{resolved: l.resolved, claims: c} }

// catalog returns the claims the locale reads.
func (l *Locale) catalog() Claims {
	if l.claims != nil {
		return l.claims
	}
	return noClaims{}
}

// Numbers are the number symbols of a locale in one numbering system.
type Numbers struct {
	System   string // numbering system ("latn", "arab", "deva")
	Digits   [10]rune
	Decimal  string
	Group    string
	Minus    string
	Plus     string
	Exponent string
	// Primary and Secondary are the grouping sizes (3 and 3, or 3 and 2
	// in "#,##,##0.###"); MinGrouping is CLDR's minimumGroupingDigits.
	Primary, Secondary, MinGrouping int
	// Percent is CLDR's percent format ("#,##0 %"), PercentSign and
	// PerMille the signs it writes.
	Percent, PercentSign, PerMille string
}

// ErrTag is a locale that is not a well-formed BCP 47 tag.
var ErrTag = errors.New("not a BCP 47 language tag")

var (
	matcherOnce sync.Once
	matcher     language.Matcher
	matchTags   []string // CLDR tags, in the matcher's order

	cache sync.Map // Tag → *Locale
)

// initMatcher builds the matcher over the shipped locales, English
// first: it is what a request for a language CLDR lacks gets.
func initMatcher(s *store) {
	matcherOnce.Do(func() {
		var tags []language.Tag
		add := func(t string) {
			parsed, err := tag.Parse(t)
			if err != nil || parsed.Dropped() != "" {
				return
			}
			tags = append(tags, parsed.Language())
			matchTags = append(matchTags, t)
		}
		add("en")
		for _, t := range s.Locales {
			if t != "en" && t != "und" {
				add(t)
			}
		}
		matcher = language.NewMatcher(tags)
	})
}

// maxTagLength bounds a locale tag or an Accept-Language header.
const maxTagLength = tag.MaxLength

// Match finds the shipped locale that best serves the BCP 47 tag (a
// request's locale field): its own data when CLDR has it, else the
// closest language (de-CH-1996 → de-CH, es-MX → es-MX, pt-BR → pt), else
// English. The rule is one for every well-formed tag (RFC 5646's
// syntax): a language CLDR has no locale for (tlh), or one the language
// subtag registry does not know (xx, zz-ZZ), is written in English; an
// unknown variant or extension is dropped (de-abcdefgh is de). It fails
// only when tag is not well-formed (en--GB, 12, "").
func Match(s string) (*Locale, error) {
	parsed, err := tag.Parse(s)
	if err != nil {
		return nil, ErrTag
	}
	t := parsed.Language()
	if parsed.Dropped() != "" && parsed.Base() == "und" {
		// Well-formed, with a language the registry lacks: English.
		t = language.English
	}
	return match([]language.Tag{t})
}

// MatchAcceptLanguage finds the shipped locale that best serves an
// Accept-Language header, and false when the header names no language
// (empty, "*" or malformed).
func MatchAcceptLanguage(header string) (*Locale, bool) {
	if header == "" || len(header) > maxTagLength*4 {
		return nil, false
	}
	tags := parseAcceptLanguage(header)
	if len(tags) == 0 {
		return nil, false
	}
	l, err := match(tags)
	return l, err == nil
}

// parseAcceptLanguage reads the language ranges of an Accept-Language
// header (RFC 9110 §12.5.4) in order of preference, skipping "*", ranges
// with q=0 and malformed ones, so that one bad range does not cost the
// others; at most 32 are read.
func parseAcceptLanguage(h string) []language.Tag {
	type ranged struct {
		tag language.Tag
		q   float64
	}
	var list []ranged
	for _, item := range strings.Split(h, ",") {
		if len(list) == 32 {
			break
		}
		r, params, _ := strings.Cut(strings.TrimSpace(item), ";")
		r = strings.TrimSpace(r)
		if r == "" || r == "*" {
			continue
		}
		q := 1.0
		if p := strings.TrimSpace(params); p != "" {
			v, ok := strings.CutPrefix(p, "q=")
			f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if !ok || err != nil || f < 0 || f > 1 {
				continue
			}
			q = f
		}
		t, err := tag.Parse(r)
		if err != nil || t.Dropped() != "" || q == 0 {
			continue
		}
		list = append(list, ranged{t.Language(), q})
	}
	sort.SliceStable(list, func(i, j int) bool { return list[i].q > list[j].q })
	tags := make([]language.Tag, len(list))
	for i, r := range list {
		tags[i] = r.tag
	}
	return tags
}

func match(tags []language.Tag) (*Locale, error) {
	s, err := load()
	if err != nil {
		return nil, err
	}
	initMatcher(s)
	_, idx, _ := matcher.Match(tags...)
	base := matchTags[idx]
	nu := ""
	for _, t := range tags {
		if v := t.TypeForKey("nu"); v != "" {
			nu = v
			break
		}
	}
	return get(s, base, nu)
}

// Get returns the shipped locale tag ("de-AT") with the numbering system
// nu ("" for the locale's default, "native", or a system's name).
func Get(tag, nu string) (*Locale, error) {
	s, err := load()
	if err != nil {
		return nil, err
	}
	if _, ok := s.lines[tag]; !ok {
		return nil, errors.New("no locale data for " + strconv.Quote(tag))
	}
	return get(s, tag, nu)
}

func get(s *store, tag, nu string) (*Locale, error) {
	// The cache is keyed by what decides the locale: a numbering system
	// the data lacks reads as the default, so that a request's -u-nu-
	// values cannot grow the cache beyond the shipped tags and systems.
	if _, ok := s.digits[nu]; !ok && nu != "latn" && nu != "native" {
		nu = ""
	}
	key := tag + "\x00" + nu
	if l, ok := cache.Load(key); ok {
		return l.(*Locale), nil
	}
	r, err := s.resolve(tag)
	if err != nil {
		return nil, err
	}
	l := &Locale{resolved: &resolved{Tag: tag, s: s, units: r.units, table: buildTable(r.units)}}
	l.lang, _, _ = strings.Cut(tag, "-")
	l.plural = s.pluralsOf(tag)
	system := r.numbers["system"]
	switch {
	case nu == "native" && r.numbers["native"] != "":
		system = r.numbers["native"]
	case nu != "" && nu != "native":
		if _, ok := s.digits[nu]; ok || nu == "latn" {
			system = nu
		}
	}
	if system != r.numbers["system"] {
		l.Tag += "-u-nu-" + system
	}
	l.num = numbers(s, r.numbers, system)
	v, _ := cache.LoadOrStore(key, l)
	return v.(*Locale), nil
}

// numbers reads the symbols of a numbering system, falling back to the
// Latin system's symbols (which every locale has) for a system the locale
// has none for.
func numbers(s *store, m map[string]string, system string) Numbers {
	n := Numbers{System: system, Digits: [10]rune{'0', '1', '2', '3', '4', '5', '6', '7', '8', '9'}}
	if d, ok := s.digits[system]; ok {
		n.Digits = d
	}
	sym := system
	if m[sym+"/decimal"] == "" {
		sym = "latn"
		if m[sym+"/decimal"] == "" {
			sym = m["system"]
		}
	}
	n.Decimal, n.Group, n.Minus, n.Plus, n.Exponent = m[sym+"/decimal"], m[sym+"/group"], m[sym+"/minus"], m[sym+"/plus"], m[sym+"/exponential"]
	n.Percent, n.PercentSign, n.PerMille = m[sym+"/percent"], m[sym+"/percentSign"], m[sym+"/perMille"]
	if n.Decimal == "" {
		n.Decimal = "."
	}
	if n.Minus == "" {
		n.Minus = "-"
	}
	if n.Exponent == "" {
		n.Exponent = "E"
	}
	n.Primary, n.Secondary = grouping(m[sym+"/pattern"])
	n.MinGrouping, _ = strconv.Atoi(m["mgd"])
	if n.MinGrouping < 1 {
		n.MinGrouping = 1
	}
	return n
}

// grouping reads the grouping sizes of a decimal pattern: "#,##0.###" is
// 3 and 3, "#,##,##0.###" is 3 and 2, "0.######" has none (0, 0).
func grouping(pattern string) (primary, secondary int) {
	ip, _, _ := strings.Cut(pattern, ".")
	ip, _, _ = strings.Cut(ip, ";")
	last := strings.LastIndexByte(ip, ',')
	if last < 0 {
		return 0, 0
	}
	primary = len(ip) - last - 1
	secondary = primary
	if prev := strings.LastIndexByte(ip[:last], ','); prev >= 0 {
		secondary = last - prev - 1
	}
	return primary, secondary
}

// Numbers returns the locale's number symbols.
func (l *Locale) Numbers() Numbers { return l.num }

// Language is the locale's language subtag ("de").
func (l *Locale) Language() string { return l.lang }

// Plural returns the CLDR plural category of a decimal number as written
// ("1" → one in English, "1.0" → other, "2" → few in Polish).
func (l *Locale) Plural(number string) string {
	op, err := parseOperands(number)
	if err != nil {
		return Other
	}
	return l.plural.category(&op)
}

// PluralCategories lists the categories of the locale's language, other
// last.
func (l *Locale) PluralCategories() []string {
	return append(append([]string(nil), l.plural.categories...), Other)
}

// PluralRule returns the locale's rule for a category as CLDR writes it,
// with its samples ("i = 1 and v = 0 @integer 1").
func (l *Locale) PluralRule(category string) string {
	return l.s.Plurals[l.plural.key][category]
}

// pluralsOf finds the plural rules of a locale as ICU does: the locale's
// own when CLDR gives it rules of its own (pt-PT), else those of the tag
// truncated (pt-AO → pt: CLDR's parentLocales do not apply to plural
// rules, whose component lists no parents), else the root's.
func (s *store) pluralsOf(tag string) *plurals {
	for t := tag; ; {
		if p := s.plurals[t]; p != nil {
			return p
		}
		i := strings.LastIndexByte(t, '-')
		if i < 0 {
			return s.plurals["und"]
		}
		t = t[:i]
	}
}
