// Package tag reads BCP 47 language tags, and Unicode locale identifiers
// (underscores for hyphens, "root"), with golang.org/x/text/language: the
// one parser of locale tags in unitd. Package locale matches its locales
// through it and the engine's unit preferences find a region through it,
// so both accept the same tags and read them alike.
//
// A tag is well-formed or it is refused (ErrMalformed). A well-formed
// subtag that the IANA registry lacks (the language xx) is left out of the
// tag and named by Dropped; deprecated codes are replaced as x/text
// replaces them (iw is he, en-UK is en-GB). Regions are ISO 3166-1 alpha-2
// codes or UN M.49 areas (001 the world, 150 Europe, 419 Latin America),
// whose containment Contains reads from x/text's data.
package tag

import (
	"errors"

	"golang.org/x/text/language"
)

// MaxLength bounds a tag.
const MaxLength = 256

// ErrMalformed is a text that is not a well-formed BCP 47 language tag.
var ErrMalformed = errors.New("not a BCP 47 language tag")

// Tag is a well-formed language tag.
type Tag struct {
	t       language.Tag
	dropped string
}

// Parse reads a BCP 47 tag. It fails only when s is not well-formed or
// longer than MaxLength.
func Parse(s string) (Tag, error) {
	if s == "" || len(s) > MaxLength {
		return Tag{}, ErrMalformed
	}
	t, err := language.Parse(s)
	if err != nil {
		var unknown language.ValueError
		if !errors.As(err, &unknown) {
			return Tag{}, ErrMalformed
		}
		return Tag{t: t, dropped: unknown.Subtag()}, nil
	}
	return Tag{t: t}, nil
}

// Language returns the tag for x/text's matchers.
func (t Tag) Language() language.Tag { return t.t }

// String is the tag in its canonical form.
func (t Tag) String() string { return t.t.String() }

// Dropped names a well-formed subtag that the registry lacks, which Parse
// left out of the tag, or is "".
func (t Tag) Dropped() string { return t.dropped }

// Base is the language subtag as written (canonical), or "und" when the
// tag names none the registry knows.
func (t Tag) Base() string {
	b, c := t.t.Base()
	if c != language.Exact {
		return "und"
	}
	return b.String()
}

// Script is the script subtag as written ("Hant"), or "".
func (t Tag) Script() string {
	s, c := t.t.Script()
	if c != language.Exact {
		return ""
	}
	return s.String()
}

// Region is the region subtag as written (canonical: "GB", "419"), or "".
func (t Tag) Region() string {
	r, c := t.t.Region()
	if c != language.Exact {
		return ""
	}
	return r.String()
}

// Unicode returns the type of a key of the tag's -u- extension ("ms" in
// de-u-ms-uksystem is "uksystem"), or "".
func (t Tag) Unicode(key string) string { return t.t.TypeForKey(key) }

// ParseRegion reads a region code: two letters (ISO 3166-1 alpha-2) or three
// digits (UN M.49), in either case, in its canonical form (uk is GB, 840
// is US). ok is false for anything else, and for a code that names no
// region (ZZ, 999) or only a private-use one (XX, AA, QM–QZ).
func ParseRegion(s string) (region string, ok bool) {
	if !regionSyntax(s) {
		return "", false
	}
	r, err := language.ParseRegion(s)
	if err != nil {
		return "", false
	}
	r = r.Canonicalize()
	if !r.IsCountry() && !r.IsGroup() {
		return "", false
	}
	return r.String(), true
}

// regionSyntax reports whether s is two letters or three digits.
func regionSyntax(s string) bool {
	switch len(s) {
	case 2:
		return letter(s[0]) && letter(s[1])
	case 3:
		return digit(s[0]) && digit(s[1]) && digit(s[2])
	}
	return false
}

func letter(c byte) bool { c |= 0x20; return c >= 'a' && c <= 'z' }
func digit(c byte) bool  { return c >= '0' && c <= '9' }

// Contains reports whether the region area contains the region r in UN
// M.49 (x/text's containment data, which CLDR's groupings such as 419
// take part in): 019 contains 419 and 419 contains MX. Both are codes
// ParseRegion returned.
func Contains(area, r string) bool {
	a, err1 := language.ParseRegion(area)
	b, err2 := language.ParseRegion(r)
	return err1 == nil && err2 == nil && a != b && a.Contains(b)
}
