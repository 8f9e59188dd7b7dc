package main

import (
	"math/big"
	"regexp"
	"strings"
)

// How a household measure of WEIGHT is read. Its description starts with
// a unit ("cup", "tbsp", "oz", "stick", "large") and may go on with the
// state the food was in when measured ("cup, sifted", "cup packed",
// "cup, chopped") and notes in parentheses.

// volumeUnits are the volume measures a density comes from, each with
// the catalog unit it is, in the order they are preferred: the largest
// first, whose gram weights have the most digits.
var volumeUnits = []struct{ word, unit string }{
	{"cup", "cup"},
	{"fl oz", "floz"},
	{"tablespoon", "tbsp"},
	{"tbsp", "tbsp"},
	{"teaspoon", "tsp"},
	{"tsp", "tsp"},
	{"ml", "mL"},
}

// unitRank orders the catalog units of volumeUnits.
var unitRank = map[string]int{"cup": 0, "floz": 1, "tbsp": 2, "tsp": 3, "mL": 4}

// otherUnits are measures that are neither a density's nor a count of the
// food: masses and the volumes no density is taken from.
var otherUnits = []string{"oz", "lb", "g", "kg", "quart", "pint", "gallon", "liter", "cubic inch", "jigger"}

// restated is a parenthesis that only says the volume again ("(8 fl
// oz)", "(1/8 cup)"); it must agree with the measure.
var restated = regexp.MustCompile(`^(\d+(?:\.\d+)?|\d+/\d+) (fl oz|cups?|tbsp|tsp)$`)

// parenthesis is a note in parentheses.
var parenthesis = regexp.MustCompile(`\([^)]*\)`)

// volumeInFlOz is each unit of a restatement in US fluid ounces.
var volumeInFlOz = map[string]*big.Rat{
	"fl oz": big.NewRat(1, 1), "cup": big.NewRat(8, 1), "cups": big.NewRat(8, 1),
	"tbsp": big.NewRat(1, 2), "tsp": big.NewRat(1, 6),
}

// Volume is a volume measure read: the catalog unit, the state the food
// was measured in ("" for none) and the grams per one unit, exact.
type Volume struct {
	Unit, State string
	PerUnit     *big.Rat
}

// startsWithWord reports whether desc starts with word followed by its
// end, a space, a comma or a parenthesis, and returns the rest.
func startsWithWord(desc, word string) (string, bool) {
	if !strings.HasPrefix(desc, word) {
		return "", false
	}
	rest := desc[len(word):]
	if rest != "" && !strings.ContainsAny(rest[:1], " ,(") {
		return "", false
	}
	return rest, true
}

// ReadVolume reads a measure as a volume a density can come from. It
// reports why not otherwise: not a volume (""), or a reason the volume is
// left out (a note that contradicts it, an amount the grams do not divide
// by exactly, a description that names two measures).
func ReadVolume(m Measure) (v Volume, why string) {
	desc := strings.ToLower(strings.TrimSpace(m.Desc))
	var unit, word, rest string
	for _, u := range volumeUnits {
		if r, ok := startsWithWord(desc, u.word); ok {
			unit, word, rest = u.unit, u.word, r
			break
		}
	}
	if unit == "" {
		return Volume{}, ""
	}
	amount, okA := decimal(m.Amount)
	grams, okG := decimal(m.Grams)
	if !okA || !okG || amount.Sign() <= 0 || grams.Sign() <= 0 {
		return Volume{}, "no positive amount and weight"
	}
	per := new(big.Rat).Quo(grams, amount)
	if !terminates(per) {
		return Volume{}, "the grams per " + word + " are no terminating decimal"
	}
	state, why := readState(rest, word, amount)
	if why != "" {
		return Volume{}, why
	}
	return Volume{Unit: unit, State: state, PerUnit: per}, ""
}

// readState reads what follows the unit word: the state, with the notes
// that only restate the volume or count the pieces left out.
func readState(rest, word string, amount *big.Rat) (string, string) {
	rest = strings.TrimSpace(rest)
	rest = strings.TrimSpace(strings.TrimPrefix(rest, ","))
	rest = strings.TrimPrefix(rest, "of ") // "cup of miniature"
	if strings.HasPrefix(rest, "or ") {
		return "", "it names two measures"
	}
	if strings.Contains(parenthesis.ReplaceAllString(rest, ""), "yield") {
		return "", "its weight is what the measure yields, not the measure"
	}
	if m := restated.FindStringSubmatch(rest); m != nil {
		if !agrees(m, word, amount) {
			return "", "its note " + rest + " contradicts it"
		}
		return "", ""
	}
	var kept []string
	for rest != "" {
		open := strings.IndexByte(rest, '(')
		if open < 0 {
			kept = append(kept, rest)
			break
		}
		end := strings.IndexByte(rest[open:], ')')
		if end < 0 {
			return "", "an unclosed parenthesis"
		}
		before, note := rest[:open], strings.TrimSpace(rest[open+1:open+end])
		rest = rest[open+end+1:]
		kept = append(kept, before)
		switch {
		case restated.MatchString(note):
			if !agrees(restated.FindStringSubmatch(note), word, amount) {
				return "", "its note (" + note + ") contradicts it"
			}
		case strings.Contains(note, `"`):
			kept = append(kept, note) // a size the food was cut to: (1" pieces)
		case isNote(note):
		default:
			kept = append(kept, note) // (not packed)
		}
	}
	var parts []string
	for _, k := range kept {
		if k = strings.Trim(strings.Join(strings.Fields(k), " "), " ,"); k != "" {
			parts = append(parts, k)
		}
	}
	state := strings.Join(parts, ", ")
	if strings.Contains(state, "fl oz") || strings.Contains(state, "serving") {
		return "", "its description " + state + " names another measure"
	}
	return state, ""
}

// isNote reports whether a parenthesis is a note on the measure rather
// than the state: a count of pieces ("(4.86 large eggs)", "(about 23
// slices)"), what it yields or makes, a labelling serving.
func isNote(note string) bool {
	if note == "" || note[0] >= '0' && note[0] <= '9' || note[0] == '#' {
		return true
	}
	for _, p := range []string{"approx", "about", "makes", "yields", "nlea", "serving"} {
		if strings.HasPrefix(note, p) {
			return true
		}
	}
	return false
}

// agrees reports whether a restated volume (a submatch of restated) is
// the measure's amount of word.
func agrees(m []string, word string, amount *big.Rat) bool {
	n, ok := new(big.Rat).SetString(m[1])
	if !ok {
		return false
	}
	unitWord := map[string]string{"tablespoon": "tbsp", "teaspoon": "tsp"}[word]
	if unitWord == "" {
		unitWord = word
	}
	own, ok := volumeInFlOz[unitWord]
	if !ok {
		return false
	}
	stated := new(big.Rat).Mul(n, volumeInFlOz[m[2]])
	return stated.Cmp(new(big.Rat).Mul(amount, own)) == 0
}

// ReadPortion reads a measure as a count of the food the source weighs
// ("stick", "large", "clove", "medium (2-1/2" dia)"): one of it, neither a
// volume nor a mass, nor a serving or a yield. It returns the short name
// (the description up to a comma or parenthesis) and whether it is one.
func ReadPortion(m Measure) (string, bool) {
	desc := strings.TrimSpace(m.Desc)
	lower := strings.ToLower(desc)
	if v, why := ReadVolume(m); why != "" || v.Unit != "" {
		return "", false
	}
	for _, u := range volumeUnits {
		if _, ok := startsWithWord(lower, u.word); ok {
			return "", false
		}
	}
	for _, w := range otherUnits {
		if _, ok := startsWithWord(lower, w); ok {
			return "", false
		}
	}
	for _, w := range []string{"serving", "nlea", "yield", "recipe"} {
		if strings.Contains(lower, w) {
			return "", false
		}
	}
	if a, ok := decimal(m.Amount); !ok || a.Cmp(big.NewRat(1, 1)) != 0 {
		return "", false
	}
	name := lower
	if i := strings.IndexAny(name, "(,"); i >= 0 {
		name = name[:i]
	}
	name = strings.Join(strings.Fields(name), " ")
	return name, name != ""
}

// decimal reads a decimal as printed in the SR (".5", "14.2", "227").
func decimal(s string) (*big.Rat, bool) {
	if s == "" || strings.ContainsAny(s, "eE/+-") {
		return nil, false
	}
	return new(big.Rat).SetString(s)
}

// terminates reports whether r has a finite decimal expansion.
func terminates(r *big.Rat) bool {
	d := new(big.Int).Set(r.Denom())
	for _, p := range []int64{2, 5} {
		bp := big.NewInt(p)
		m := new(big.Int)
		for {
			q, rem := new(big.Int).QuoRem(d, bp, m)
			if rem.Sign() != 0 {
				break
			}
			d = q
		}
	}
	return d.Cmp(big.NewInt(1)) == 0
}

// decimalString writes a terminating decimal without trailing zeros.
func decimalString(r *big.Rat) string {
	s := r.FloatString(12)
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}
