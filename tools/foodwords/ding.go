package main

import (
	"bufio"
	"bytes"
	"regexp"
	"slices"
	"strings"
)

// Ding's file has one entry a line: "German part | part … :: English
// part | part …", the parts parallel (a word, its plural, phrases with
// it); within a part, synonyms are separated by "; ". Each word carries
// its markup: {m} {f} {n} {pl} (a noun's gender, a plural), {adj} {vt} …
// (other parts of speech), [ugs.] [coll.] [cook.] [Dt.] (register, field,
// region), (…) (a note), <…> (another spelling), /…/ (an abbreviation).
//
// A line gives a German word for a food when:
//
//   - the line is about a noun: its first German word is marked {m},
//     {f}, {n} or {pl};
//   - in the word's part, the first English word (the translation; the
//     later ones are looser senses and variants) names a food of the
//     catalog, and is marked neither as colloquial, slang, figurative,
//     pejorative, humorous, vulgar, dated, archaic, obsolete, rare or
//     poetic use, nor with a note naming a taxon ("onions (botanical
//     genus)");
//   - neither that English word, nor the German words of the part, nor
//     the line's first German word are labelled with a field other than
//     the kitchen's (cook., bot., agr., zool., biol.) unless with one of
//     those too: "Beinschuss" [sport] is no nutmeg, "Salz" [chem.]
//     [cook.] is salt;
//   - the German word is marked as a noun or not marked with a part of
//     speech, carries none of the labels of use above in German (ugs.,
//     übtr., pej., humor., vulg., slang, veraltet, veraltend, selten,
//     poet.) and elides nothing ("…").

// englishLabels mark an English word as no plain name of the thing.
var englishLabels = []string{"coll.", "slang", "fig.", "pej.", "humor.", "vulg.", "dated", "archaic", "obs.", "rare", "poet."}

// germanLabels mark a German word as no plain name of the thing.
var germanLabels = []string{"ugs.", "übtr.", "pej.", "humor.", "vulg.", "slang", "veraltet", "veraltend", "selten", "poet."}

// taxonNote marks an English word as the name of a biological taxon.
var taxonNote = regexp.MustCompile(`\((botanical|zoological) [^)]*\)`)

// kitchenFields are the labels of the fields a food's word belongs to.
var kitchenFields = []string{"cook.", "bot.", "agr.", "zool.", "biol."}

// otherFields are the labels of Ding's other fields (every one that
// labels more than a few hundred lines).
var otherFields = []string{
	"adm.", "anat.", "arch.", "art", "astron.", "auto", "aviat.", "biochem.", "chem.", "comp.", "constr.",
	"econ.", "electr.", "envir.", "fin.", "geogr.", "geol.", "hist.", "jur.", "ling.", "lit.", "mach.",
	"math.", "med.", "meteo.", "mil.", "min.", "mus.", "naut.", "ornith.", "pharm.", "phil.", "photo.",
	"phys.", "pol.", "print", "psych.", "relig.", "school", "soc.", "sport", "statist.", "stud.", "techn.",
	"telco.", "textil.", "transp.",
}
var (
	braces   = regexp.MustCompile(`\{[^}]*\}`)
	brackets = regexp.MustCompile(`\[[^\]]*\]`)
	notes    = regexp.MustCompile(`\([^)]*\)|<[^>]*>|(^|\s)/[^/\s][^/]*/`)
)

// pair is a word of a language and the English name it stands for.
type pair struct{ lang, word, english string }

// dingLine is a line split into its parallel parts.
type dingLine struct {
	german, english []string
}

func splitDing(line string) (dingLine, bool) {
	if strings.HasPrefix(line, "#") {
		return dingLine{}, false
	}
	de, en, ok := strings.Cut(line, " :: ")
	if !ok {
		return dingLine{}, false
	}
	d := dingLine{strings.Split(de, " | "), strings.Split(en, " | ")}
	return d, len(d.german) == len(d.english)
}

// dingExcerpt keeps the lines of src that have an English word known
// names (the ones dingWords may use), and the comments at its head.
func dingExcerpt(src []byte, known func(string) bool) []byte {
	var b bytes.Buffer
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(nil, 1<<20)
	head := true
	for sc.Scan() {
		line := sc.Text()
		if head && strings.HasPrefix(line, "#") {
			b.WriteString(line + "\n")
			continue
		}
		head = false
		d, ok := splitDing(line)
		if !ok {
			continue
		}
		if slices.ContainsFunc(d.english, func(part string) bool {
			return slices.ContainsFunc(strings.Split(part, "; "), func(w string) bool { return known(plain(w)) })
		}) {
			b.WriteString(line + "\n")
		}
	}
	return b.Bytes()
}

// dingWords returns the German words for foods in the lines of src.
func dingWords(src []byte, known func(string) bool) []pair {
	var out []pair
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		d, ok := splitDing(sc.Text())
		if !ok || !isNoun(strings.Split(d.german[0], "; ")[0]) {
			continue
		}
		head := strings.Split(d.german[0], "; ")[0]
		for i, part := range d.english {
			en, _, _ := strings.Cut(part, "; ")
			english := plain(en)
			if !known(english) || hasLabel(en, englishLabels) || taxonNote.MatchString(en) {
				continue
			}
			if !kitchenField(head) || !kitchenField(en) || !kitchenField(d.german[i]) {
				continue
			}
			for _, de := range strings.Split(d.german[i], "; ") {
				word := plain(de)
				if word == "" || strings.Contains(word, "…") || hasLabel(de, germanLabels) || !nounOrUnmarked(de) {
					continue
				}
				out = append(out, pair{"de", word, english})
			}
		}
	}
	return out
}

// plain is a word without its markup, its white space single spaces.
func plain(w string) string {
	w = braces.ReplaceAllString(w, " ")
	w = brackets.ReplaceAllString(w, " ")
	w = notes.ReplaceAllString(w, " ")
	return strings.Join(strings.Fields(w), " ")
}

// hasLabel reports whether w carries one of the labels in brackets.
func hasLabel(w string, labels []string) bool {
	for _, m := range brackets.FindAllString(w, -1) {
		if slices.Contains(labels, strings.Trim(m, "[]")) {
			return true
		}
	}
	return false
}

// kitchenField reports whether w is labelled with no field, or with a
// kitchen's field among others.
func kitchenField(w string) bool {
	return !hasLabel(w, otherFields) || hasLabel(w, kitchenFields)
}

// isNoun reports whether w is marked as a noun: {m}, {f}, {n}, {pl} or
// a list of them.
func isNoun(w string) bool {
	marks := braces.FindAllString(w, -1)
	return len(marks) > 0 && nounOrUnmarked(w)
}

// nounOrUnmarked reports whether every mark of w in braces is a noun's.
func nounOrUnmarked(w string) bool {
	for _, m := range braces.FindAllString(w, -1) {
		for _, g := range strings.Split(strings.Trim(m, "{}"), ",") {
			switch strings.TrimSpace(g) {
			case "m", "f", "n", "pl":
			default:
				return false
			}
		}
	}
	return true
}
