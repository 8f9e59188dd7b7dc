package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strings"
)

// A FreeDict dictionary is in dictd's format: an index of lines
// "headword TAB offset TAB length" (numbers in dictd's base 64) into the
// gzipped text of the entries. An entry's first line is the headword, its
// pronunciation and, in some dictionaries, its part of speech (<n, masc>,
// <v>, <s>); each following line that is not indented is a sense ("1. "
// numbered when there are several), its translations separated by ", ";
// indented lines are examples and cross-references.
//
// A word of the language and an English word are a food's word when both
// directions of the dictionary say so: the entry of the word translates
// it to the English word, the entry of the English word translates it
// back (case aside), the English word names a food of the catalog, and
// neither entry is marked as another part of speech than a noun (n; s,
// substantivo).

// entry is a dictionary entry: its headword and its text.
type entry struct {
	Headword string `json:"h"`
	Text     string `json:"t"`
}

// readDictd reads the entries of a dictd dictionary.
func readDictd(index, dictDZ []byte) ([]entry, error) {
	zr, err := gzip.NewReader(bytes.NewReader(dictDZ))
	if err != nil {
		return nil, fmt.Errorf("dict.dz: %w", err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("dict.dz: %w", err)
	}
	var out []entry
	sc := bufio.NewScanner(bytes.NewReader(index))
	for n := 1; sc.Scan(); n++ {
		f := strings.Split(sc.Text(), "\t")
		if len(f) < 3 {
			return nil, fmt.Errorf("index line %d: %d fields, want 3", n, len(f))
		}
		if strings.HasPrefix(f[0], "00-database-") || strings.HasPrefix(f[0], "00database") {
			continue // the dictionary's own description
		}
		off, err1 := base64Number(f[1])
		size, err2 := base64Number(f[2])
		if err1 != nil || err2 != nil || off+size > len(data) {
			return nil, fmt.Errorf("index line %d: bad offset or length %q %q", n, f[1], f[2])
		}
		out = append(out, entry{f[0], string(data[off : off+size])})
	}
	return out, sc.Err()
}

const dictdDigits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

// base64Number reads a number in dictd's base 64.
func base64Number(s string) (int, error) {
	n := 0
	for _, c := range s {
		d := strings.IndexRune(dictdDigits, c)
		if d < 0 || n > 1<<40 {
			return 0, fmt.Errorf("%q is no dictd number", s)
		}
		n = n*64 + d
	}
	return n, nil
}

var partOfSpeech = regexp.MustCompile(`<([^>,]*)[,>]`)

// nounEntry reports whether an entry is a noun's or says nothing of its
// part of speech.
func nounEntry(text string) bool {
	first, _, _ := strings.Cut(text, "\n")
	m := partOfSpeech.FindStringSubmatch(first)
	return m == nil || m[1] == "n" || m[1] == "s"
}

// translations lists an entry's translations, without notes.
func translations(text string) []string {
	lines := strings.Split(text, "\n")
	var out []string
	for _, ln := range lines[1:] {
		if ln == "" || ln[0] == ' ' || ln[0] == '\t' {
			continue
		}
		if i := strings.Index(ln, ". "); i > 0 && i <= 3 && strings.Trim(ln[:i], "0123456789") == "" {
			ln = ln[i+2:]
		}
		for _, t := range strings.Split(ln, ", ") {
			if t = plain(t); t != "" {
				out = append(out, t)
			}
		}
	}
	return out
}

// freeDictExcerpt keeps the entries of a dictionary to English with a
// translation known names, and those of a dictionary from English whose
// headword it names, as JSON lines.
func freeDictExcerpt(entries []entry, toEnglish bool, known func(string) bool) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	for _, e := range entries {
		keep := false
		if toEnglish {
			for _, t := range translations(e.Text) {
				keep = keep || known(t)
			}
		} else {
			keep = known(e.Headword)
		}
		if keep {
			if err := enc.Encode(e); err != nil {
				return nil, err
			}
		}
	}
	return b.Bytes(), nil
}

// readEntries reads an excerpt's JSON lines.
func readEntries(src []byte) ([]entry, error) {
	var out []entry
	dec := json.NewDecoder(bytes.NewReader(src))
	for {
		var e entry
		if err := dec.Decode(&e); err == io.EOF {
			return out, nil
		} else if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
}

// freeDictWords returns the words for foods both directions agree on.
func freeDictWords(lang string, toEnglish, fromEnglish []entry, known func(string) bool) []pair {
	back := map[string]map[string]bool{} // English word → its translations, lower case
	for _, e := range fromEnglish {
		if !nounEntry(e.Text) {
			continue
		}
		k := strings.ToLower(e.Headword)
		if back[k] == nil {
			back[k] = map[string]bool{}
		}
		for _, t := range translations(e.Text) {
			back[k][strings.ToLower(t)] = true
		}
	}
	var out []pair
	for _, e := range toEnglish {
		if !nounEntry(e.Text) {
			continue
		}
		for _, t := range translations(e.Text) {
			if known(t) && back[strings.ToLower(t)][strings.ToLower(e.Headword)] {
				out = append(out, pair{lang, e.Headword, t})
			}
		}
	}
	return out
}
