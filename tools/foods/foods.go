package main

import (
	"bufio"
	_ "embed"
	"fmt"
	"io"
	"math/big"
	"sort"
	"strings"
)

// ingredientsTSV lists the kitchen ingredients: a food's NDB number, the
// name cooks use for it and their other names, "; " between them.
//
//go:embed ingredients.tsv
var ingredientsTSV string

// Ingredient is one line of ingredients.tsv.
type Ingredient struct {
	NDB     string
	Name    string
	Aliases []string
	Line    int
}

// ParseIngredients reads ingredients.tsv: NDB, name and aliases,
// tab-separated; # starts a comment line.
func ParseIngredients(r io.Reader) ([]Ingredient, error) {
	var out []Ingredient
	sc := bufio.NewScanner(r)
	line := 0
	for sc.Scan() {
		line++
		text := sc.Text()
		if strings.TrimSpace(text) == "" || strings.HasPrefix(text, "#") {
			continue
		}
		f := strings.Split(text, "\t")
		if len(f) < 2 || len(f) > 3 || !isNDB(f[0]) || strings.TrimSpace(f[1]) != f[1] || f[1] == "" {
			return nil, fmt.Errorf("line %d: want NDB, name and aliases, tab-separated: %q", line, text)
		}
		in := Ingredient{NDB: f[0], Name: f[1], Line: line}
		if len(f) == 3 && f[2] != "" {
			for _, a := range strings.Split(f[2], ";") {
				if a = strings.TrimSpace(a); a == "" {
					return nil, fmt.Errorf("line %d: an empty alias", line)
				}
				in.Aliases = append(in.Aliases, a)
			}
		}
		out = append(out, in)
	}
	return out, sc.Err()
}

// Entry is one substance of the table: a food in one state.
type Entry struct {
	ID, Name string
	Aliases  []string
	// Food is the food's name without the state; State is the state it
	// was measured in, or "".
	Food, State string
	// Density is the grams per volume unit ("220 g/cup"), exact as
	// the source gives it; Source cites the measure.
	Density, Source string
	Portions        []Portion
}

// Portion is a count of the food the source weighs: its short name
// ("stick"), the source's measure ("1 stick") and the mass ("113 g").
type Portion struct {
	Name, Measure, Mass string
}

// Table is the generated table.
type Table struct {
	Entries  []Entry
	Foods    int // ingredients
	Portions int // portions, counted once per food
}

// maxAliases is the catalog's bound on one substance's aliases.
const maxAliases = 32

// Build makes the table: for each ingredient, one entry per state its
// volume measures name, the first with the food's portions.
func Build(list []Ingredient, foods map[string]Food, weights map[string][]Measure) (*Table, error) {
	t := &Table{}
	claimed := map[string]string{} // folded name → id
	claim := func(id, name string) error {
		k := strings.Join(strings.Fields(strings.ToLower(name)), " ")
		if other, dup := claimed[k]; dup && other != id {
			return fmt.Errorf("name %q of %s is already %s", name, id, other)
		}
		claimed[k] = id
		return nil
	}
	seenNDB, ids := map[string]bool{}, map[string]bool{}
	for _, in := range list {
		fail := func(format string, args ...any) error {
			return fmt.Errorf("ingredients.tsv:%d: NDB %s (%s): %s", in.Line, in.NDB, in.Name, fmt.Sprintf(format, args...))
		}
		food, ok := foods[in.NDB]
		if !ok {
			return nil, fail("no such food in the SR")
		}
		if seenNDB[in.NDB] {
			return nil, fail("listed twice")
		}
		seenNDB[in.NDB] = true
		entries, portions, err := buildFood(in, food, weights[in.NDB])
		if err != nil {
			return nil, fail("%v", err)
		}
		for _, e := range entries {
			if ids[e.ID] {
				return nil, fail("id %q twice", e.ID)
			}
			ids[e.ID] = true
			if err := claim(e.ID, e.ID); err != nil {
				return nil, fail("%v", err)
			}
			for _, n := range append([]string{e.Name}, e.Aliases...) {
				if err := claim(e.ID, n); err != nil {
					return nil, fail("%v", err)
				}
			}
		}
		t.Entries = append(t.Entries, entries...)
		t.Foods++
		t.Portions += portions
	}
	return t, nil
}

// buildFood makes the entries of one food and counts its portions.
func buildFood(in Ingredient, food Food, measures []Measure) ([]Entry, int, error) {
	type chosen struct {
		m Measure
		v Volume
	}
	byState := map[string]chosen{}
	for _, m := range measures {
		v, why := ReadVolume(m)
		if v.Unit == "" || why != "" {
			continue
		}
		c, seen := byState[v.State]
		if !seen || unitRank[v.Unit] < unitRank[c.v.Unit] {
			byState[v.State] = chosen{m, v}
		}
	}
	if len(byState) == 0 {
		return nil, 0, fmt.Errorf("no volume measure to take a density from")
	}
	states := make([]string, 0, len(byState))
	for s := range byState {
		states = append(states, s)
	}
	sort.Slice(states, func(i, j int) bool {
		a, b := states[i], states[j]
		if (a == "") != (b == "") {
			return a == ""
		}
		return byState[a].m.Seq < byState[b].m.Seq
	})
	portions, err := foodPortions(measures)
	if err != nil {
		return nil, 0, err
	}
	base := slug(in.Name)
	var entries []Entry
	for i, s := range states {
		c := byState[s]
		e := Entry{
			ID: base, Name: in.Name, Food: in.Name, State: s,
			Density: perUnitString(c.m, c.v) + " g/" + c.v.Unit,
			Source:  fmt.Sprintf("USDA SR21, NDB %s %s: %s %s = %s g", food.NDB, food.Desc, amountString(c.m.Amount), c.m.Desc, c.m.Grams),
		}
		if i == 0 {
			e.Portions = portions // once per food, on its first entry
		}
		if s == "" {
			e.Aliases = append(e.Aliases, in.Aliases...)
		} else {
			e.ID += "-" + slug(s)
			e.Name = in.Name + ", " + s
			if len(states) == 1 {
				// The only state the source measures the food in:
				// its plain name means it (and the answer says which).
				e.Aliases = append(e.Aliases, in.Name)
				e.Aliases = append(e.Aliases, in.Aliases...)
			}
			// The state goes before or after each name, unless the
			// name says it already ("shredded coconut").
			if adjective(s) && !strings.Contains(in.Name, s) {
				e.Aliases = append(e.Aliases, s+" "+in.Name)
			}
			for _, a := range in.Aliases {
				if strings.Contains(a, s) {
					continue
				}
				e.Aliases = append(e.Aliases, a+", "+s)
				if adjective(s) {
					e.Aliases = append(e.Aliases, s+" "+a)
				}
			}
		}
		if len(e.ID) > 64 || e.ID == "" || e.ID[0] < 'a' || e.ID[0] > 'z' {
			return nil, 0, fmt.Errorf("id %q: not 1–64 characters starting with a letter", e.ID)
		}
		if len(e.Aliases) > maxAliases {
			return nil, 0, fmt.Errorf("%s: %d aliases, more than the catalog's %d", e.ID, len(e.Aliases), maxAliases)
		}
		entries = append(entries, e)
	}
	return entries, len(portions), nil
}

// foodPortions reads a food's portions. Two measures of the same short
// name ("slice", "slice, large (1/4" thick)") are each named by their
// whole description.
func foodPortions(measures []Measure) ([]Portion, error) {
	var ps []Portion
	count := map[string]int{}
	for _, m := range measures {
		if name, ok := ReadPortion(m); ok {
			ps = append(ps, Portion{Name: name, Measure: amountString(m.Amount) + " " + m.Desc, Mass: m.Grams + " g"})
			count[name]++
		}
	}
	seen := map[string]bool{}
	for i := range ps {
		if count[ps[i].Name] > 1 {
			ps[i].Name = strings.ToLower(strings.TrimPrefix(ps[i].Measure, "1 "))
		}
		if seen[ps[i].Name] {
			return nil, fmt.Errorf("two portions named %q", ps[i].Name)
		}
		seen[ps[i].Name] = true
	}
	return ps, nil
}

// adjective reports whether a state reads before the food's name
// ("packed brown sugar", "sifted powdered sugar"): one word, a
// participle, or ground or whole.
func adjective(s string) bool {
	if strings.ContainsAny(s, " ,()\"") {
		return false
	}
	return strings.HasSuffix(s, "ed") || s == "ground" || s == "whole"
}

// perUnitString writes the grams per unit of a volume measure: as the
// source prints them when the measure is one unit ("12.0"), else the
// quotient, exact ("0.25 cup = 4.0 g" is "16").
func perUnitString(m Measure, v Volume) string {
	if a, ok := decimal(m.Amount); ok && a.Cmp(big.NewRat(1, 1)) == 0 {
		return amountString(m.Grams)
	}
	return decimalString(v.PerUnit)
}

// amountString writes an SR amount with its leading zero (".5" → "0.5").
func amountString(s string) string {
	if strings.HasPrefix(s, ".") {
		return "0" + s
	}
	return s
}

// accents spells the accented letters of the names without accents.
var accents = strings.NewReplacer("é", "e", "è", "e", "ñ", "n", "ü", "u")

// slug makes an id of a name: lower-case letters and digits, "-" between
// words.
func slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range accents.Replace(strings.ToLower(s)) {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
		default:
			dash = true
		}
	}
	return b.String()
}
