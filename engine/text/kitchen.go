package text

import (
	"math/big"
	"sort"
	"strings"
	"unicode"

	"github.com/unitd/unitd/engine"
	"github.com/unitd/unitd/engine/fault"
)

// The kitchen: "1 1/2 cups flour", "2 EL Zucker", "1 stick butter", "2
// large eggs". After the unit comes what is measured, found among the
// catalog's foods by ID, name, alias or food name, else, in a language
// other than English, by that language's word for the food
// (foodwords.go: "Zucker" is sugar, "farine" flour). A food measured in
// several states, such as brown sugar packed or not, is all of its
// states: refused with them as candidates, never guessed. A count of a
// portion the catalog weighs ("1 stick", "2 large") is that many times
// the portion's mass, said in input.assumed. The caller sets the
// request's substance from Ingredient.

// Ingredient is what a quantity measures, as the text names it.
type Ingredient struct {
	// Text is the name as written ("flour"), at rune position Position.
	Text     string
	Position int
	// ID is the catalog substance it is.
	ID string
	// Portion is the portion counted ("stick"), or "".
	Portion string
}

// Pantry finds the catalog's foods by the names cooks use, in English
// and in the languages of foodwords.go. It is built once per catalog and
// safe for concurrent use.
type Pantry struct {
	by map[string][]*engine.Substance // folded name → substances
	// words are each language's words for the foods: language → folded
	// word → substances.
	words map[string]map[string][]*engine.Substance
}

// NewPantry indexes the foods among subs (kind food) by ID, name, alias
// and food name, each with a plural s, and each language's words for
// them: a word means the foods its English name finds.
func NewPantry(subs []*engine.Substance) *Pantry {
	p := &Pantry{by: map[string][]*engine.Substance{}, words: map[string]map[string][]*engine.Substance{}}
	add := func(m map[string][]*engine.Substance, name string, s *engine.Substance) {
		k := foldName(name)
		if k == "" {
			return
		}
		for _, x := range m[k] {
			if x == s {
				return
			}
		}
		m[k] = append(m[k], s)
	}
	for _, s := range subs {
		if s.Kind != "food" {
			continue
		}
		names := append([]string{s.ID, s.Name}, s.Aliases...)
		for _, n := range names {
			add(p.by, n, s)
		}
		if s.Food != "" && s.Food != s.Name {
			// A food's plain name means every state it was measured in.
			add(p.by, s.Food, s)
		}
	}
	// The English names are found once all the catalog's are indexed.
	for lang, list := range foodWords {
		m := map[string][]*engine.Substance{}
		for _, w := range list {
			// A word whose English name this catalog lacks means nothing.
			for _, s := range p.Find(w.english, "") {
				add(m, w.word, s)
			}
		}
		p.words[lang] = m
	}
	byID := func(m map[string][]*engine.Substance) {
		for _, list := range m {
			sort.Slice(list, func(i, j int) bool { return list[i].ID < list[j].ID })
		}
	}
	byID(p.by)
	for _, m := range p.words {
		byID(m)
	}
	return p
}

// foodWord is a language's word for a food and the English name of the
// food a dictionary gives for it, which the catalog knows (foodwords.go).
type foodWord struct{ word, english string }

// Find returns the foods a name means: by the catalog's names, exactly,
// else by an English plural's singular ("eggs", "tomatoes"); else, when language (a
// base language, "de") is not "", by that language's words for foods
// ("Zucker"). The catalog's names come first: a word they know is not
// looked up again in the language.
func (p *Pantry) Find(name, language string) []*engine.Substance {
	k := foldName(name)
	if list := p.by[k]; len(list) > 0 {
		return list
	}
	if s := singular(k); s != "" {
		if list := p.by[s]; len(list) > 0 {
			return list
		}
	}
	if language != "" {
		return p.words[language][k]
	}
	return nil
}

// singular is the singular of an English plural, or "": without its
// "es" after o, s, x, z, ch or sh (tomatoes, peaches), else without its
// "s" (eggs, olives, plumes → plume).
func singular(k string) string {
	if s, ok := strings.CutSuffix(k, "es"); ok {
		for _, end := range []string{"o", "s", "x", "z", "ch", "sh"} {
			if strings.HasSuffix(s, end) {
				return s
			}
		}
	}
	if s, ok := strings.CutSuffix(k, "s"); ok {
		return s
	}
	return ""
}

func foldName(s string) string {
	return strings.Join(strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return unicode.IsSpace(r) || r == ',' }), " ")
}

// portion is a portion of a food read as the unit.
type portion struct {
	name string
	mass *big.Rat
	unit *engine.Unit
	text string // the catalog's mass ("113 g")
}

// maxKitchenWords bounds the words of a unit before an ingredient.
const maxKitchenWords = 4

// kitchen reads run (the rest of the text after the number) as a unit
// and an ingredient, or a portion and an ingredient; ok reports that it
// did, err that it found the unit but not the ingredient.
func (r *reader) kitchen(c *component, run string) (ok bool, err error) {
	p := r.p
	words := wordSpans(run)
	if len(words) < 2 {
		return false, nil
	}
	var unitErr error
	for w := min(len(words)-1, maxKitchenWords); w >= 1; w-- {
		head := *c
		head.unitText = run[:words[w-1][1]]
		if len(head.unitText) > maxUnitBytes {
			continue
		}
		rest := strings.TrimSpace(run[words[w][0]:])
		restOff := c.unitOff + words[w][0]
		if s, ok := strings.CutPrefix(rest, "of "); ok {
			rest, restOff = strings.TrimSpace(s), restOff+3
		}
		if !p.charge(len(run) + lookupCost) {
			return false, errBudget(p.text, c.unitOff)
		}
		if p.resolveQuiet(&head, false) {
			ing, err := r.ingredient(rest, restOff, "")
			if err != nil {
				return false, err
			}
			*c = head
			c.ingredient = ing
			return true, nil
		}
		if found := p.opt.Pantry.Find(rest, p.opt.Language); len(found) > 0 {
			// A unit the region does not settle before a food: its
			// candidates, not "unknown unit".
			if err := p.resolveLoud(&head); err != nil {
				if len(candidatesOf(err)) > 0 && unitErr == nil {
					unitErr = err
				}
			}
		}
		// A portion: "stick butter", "large eggs".
		if found := p.opt.Pantry.Find(rest, p.opt.Language); len(found) > 0 {
			name := strings.ToLower(head.unitText)
			var hits []*engine.Substance
			var por *portion
			for _, s := range found {
				if q := portionOf(p.g, s, name); q != nil {
					hits, por = append(hits, s), q
				}
			}
			switch {
			case len(hits) == 1:
				ing := &Ingredient{Text: rest, Position: runePos(p.text, restOff), ID: hits[0].ID, Portion: por.name}
				c.value = new(big.Rat).Mul(c.value, por.mass)
				c.unit, c.symbol, c.portion, c.ingredient = por.unit, por.unit.Symbol, por, ing
				c.assumed = "1 " + por.name + " " + hits[0].Food + " = " + por.text + " (catalog portion of " + hits[0].ID + ")"
				return true, nil
			case len(hits) > 1:
				e := fail(p.text, restOff, "“"+rest+"” with a "+name+" means more than one food: "+ids(hits))
				for _, s := range hits {
					e.Candidates = append(e.Candidates, s.ID)
				}
				unitErr = e
			}
		}
	}
	return false, unitErr
}

// ingredient finds the food a name means.
func (r *reader) ingredient(name string, off int, portionName string) (*Ingredient, error) {
	p := r.p
	found := p.opt.Pantry.Find(name, p.opt.Language)
	switch {
	case len(found) == 1:
		return &Ingredient{Text: name, Position: runePos(p.text, off), ID: found[0].ID, Portion: portionName}, nil
	case len(found) > 1:
		e := fail(p.text, off, "“"+name+"” means more than one food (its states differ in density): "+ids(found)+"; name one")
		for _, s := range found {
			e.Candidates = append(e.Candidates, s.ID)
		}
		return nil, e
	}
	return nil, fail(p.text, off, "unknown ingredient “"+short(name)+"”: name a food of the catalog (GET /v1/substances?q=…)")
}

func ids(list []*engine.Substance) string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = s.ID
	}
	return strings.Join(out, ", ")
}

// portionOf returns the portion of s called name ("stick", "sticks"),
// with its mass read from the catalog ("113 g"), or nil.
func portionOf(g Graph, s *engine.Substance, name string) *portion {
	for _, ps := range s.Portions {
		n := strings.ToLower(ps.Name)
		if n != name && n+"s" != name && n+"es" != name {
			continue
		}
		num, unit, ok := strings.Cut(strings.TrimSpace(ps.Mass), " ")
		if !ok {
			return nil
		}
		m, ok := new(big.Rat).SetString(num)
		if !ok {
			return nil
		}
		u, _ := g.Find(unit)
		if u == nil {
			return nil
		}
		return &portion{name: ps.Name, mass: m, unit: u, text: ps.Mass}
	}
	return nil
}

// wordSpans returns the byte ranges of the space-separated words of s.
func wordSpans(s string) [][2]int {
	var out [][2]int
	start := -1
	for i, c := range s {
		if isSpace(c) {
			if start >= 0 {
				out = append(out, [2]int{start, i})
				start = -1
			}
		} else if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		out = append(out, [2]int{start, len(s)})
	}
	return out
}

func runePos(text string, off int) int {
	n := 1
	for i := range text {
		if i >= off {
			break
		}
		n++
	}
	return n
}

func candidatesOf(err error) []string {
	if e, ok := err.(*fault.Error); ok {
		return e.Candidates
	}
	return nil
}
