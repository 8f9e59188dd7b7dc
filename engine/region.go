package engine

import (
	"strings"

	"github.com/unitd/unitd/engine/fault"
)

// region finds the region whose preferences apply (UTS #35 Part 6,
// "Unit Preferences Overrides"): the request's region, else the locale's:
// its -u-ms- measurement system (metric is 001, ussystem US, uksystem
// GB), its -u-rg- region override, its region subtag, else the likely
// region of its language and script; else 001. It also returns how the
// region was found, and the locale's -u-mu- unit, if any.
func (p *preferences) region(region, locale string) (r, how, mu string, err error) {
	if region != "" {
		r, ok := p.knownRegion(region)
		if !ok {
			return "", "", "", p.unknownRegion(region)
		}
		return r, "region", "", nil
	}
	if locale == "" {
		return "001", "default", "", nil
	}
	tag, err := p.locale(locale)
	if err != nil {
		return "", "", "", err
	}
	mu = tag.ext["mu"]
	switch tag.ext["ms"] {
	case "metric":
		return "001", "locale-ms", mu, nil
	case "ussystem":
		return "US", "locale-ms", mu, nil
	case "uksystem":
		return "GB", "locale-ms", mu, nil
	}
	if rg := tag.ext["rg"]; rg != "" {
		n := 2
		if rg[0] >= '0' && rg[0] <= '9' {
			n = 3
		}
		if len(rg) > n {
			if r, ok := p.knownRegion(rg[:n]); ok {
				return r, "locale-rg", mu, nil
			}
		}
	}
	if tag.region != "" {
		r, ok := p.knownRegion(tag.region)
		if !ok {
			return "", "", "", p.unknownRegion(tag.region)
		}
		return r, "locale", mu, nil
	}
	for _, key := range []string{tag.lang + "-" + tag.script, tag.lang, "und-" + tag.script} {
		if strings.HasSuffix(key, "-") || strings.HasPrefix(key, "-") {
			continue
		}
		if r, ok := p.likely[key]; ok {
			if r, ok := p.knownRegion(r); ok {
				return r, "likely", mu, nil
			}
		}
	}
	return "001", "default", mu, nil
}

// locale parses a locale through a bounded cache: a service sees the same
// few locales again and again.
func (p *preferences) locale(s string) (*localeTag, error) {
	if v, ok := p.locales.Load(s); ok {
		return v.(*localeTag), nil
	}
	tag, err := parseLocale(s)
	if err != nil {
		return nil, err
	}
	if p.nLocales.Add(1) > maxCachedLocales {
		p.locales.Clear()
		p.nLocales.Store(1)
	}
	p.locales.Store(strings.Clone(s), &tag)
	return &tag, nil
}

// maxCachedLocales bounds the cache of parsed locales.
const maxCachedLocales = 1024

// knownRegion normalizes a region code and its deprecated aliases (UK is
// GB) and reports whether the containment data knows it.
func (p *preferences) knownRegion(s string) (string, bool) {
	if len(s) < 2 || len(s) > 3 {
		return "", false
	}
	r := s
	for i := 0; i < len(s); i++ {
		if s[i] >= 'a' && s[i] <= 'z' {
			r = strings.ToUpper(s)
			break
		}
	}
	if a, ok := p.aliases[r]; ok {
		r = a
	}
	return r, p.known[r]
}

func (p *preferences) unknownRegion(s string) *Error {
	e := errorf(CodeInvalidRequest, "unknown region %q: a region is an ISO 3166-1 alpha-2 code (US, GB, DE, …) or a UN M.49 area (001 is the world, 150 Europe); details.regions lists them all",
		fault.Truncate(s, 20))
	e.Details = map[string]string{"regions": p.regionList}
	return e
}

// localeTag is what the preferences read of a BCP 47 language tag.
type localeTag struct {
	lang, script, region string
	// ext holds the -u- keys of interest: rg, ms, mu.
	ext map[string]string
}

// parseLocale reads a BCP 47 language tag (Unicode locale identifiers'
// underscores are taken as hyphens): language, optional extended
// language, script, region, variants, extensions and private use. Only
// well-formed tags are accepted.
func parseLocale(s string) (localeTag, error) {
	var t localeTag
	bad := func(why string) error {
		return errorf(CodeInvalidRequest, "locale %q is not a BCP 47 language tag: %s (write en, en-GB, sv-SE, zh-Hant-TW, de-CH-u-ms-uksystem)", fault.Truncate(s, 40), why)
	}
	if s == "" || len(s) > maxPreferenceField {
		return t, bad("it must be 1 to 64 characters")
	}
	subtags := strings.FieldsFunc(s, func(r rune) bool { return r == '-' || r == '_' })
	if strings.Count(s, "-")+strings.Count(s, "_")+1 != len(subtags) {
		return t, bad("empty subtag")
	}
	for _, st := range subtags {
		if !isAlnum(st) || len(st) > 8 {
			return t, bad("subtag " + fault.Truncate(st, 12) + " is not 1 to 8 letters or digits")
		}
	}
	i := 0
	lang := strings.ToLower(subtags[0])
	switch {
	case lang == "root":
		lang = "und"
	case (len(lang) >= 2 && len(lang) <= 3 || len(lang) >= 5) && isAlpha(lang):
	default:
		return t, bad("the language must be 2, 3 or 5 to 8 letters")
	}
	t.lang = lang
	i++
	for n := 0; n < 3 && i < len(subtags) && len(subtags[i]) == 3 && isAlpha(subtags[i]); n++ {
		i++ // extended language subtags
	}
	if i < len(subtags) && len(subtags[i]) == 4 && isAlpha(subtags[i]) {
		sc := strings.ToLower(subtags[i])
		t.script = strings.ToUpper(sc[:1]) + sc[1:]
		i++
	}
	if i < len(subtags) {
		st := subtags[i]
		if (len(st) == 2 && isAlpha(st)) || (len(st) == 3 && isDigits(st)) {
			t.region = strings.ToUpper(st)
			i++
		}
	}
	for i < len(subtags) {
		st := subtags[i]
		if len(st) >= 5 || (len(st) == 4 && st[0] >= '0' && st[0] <= '9') {
			i++ // variant
			continue
		}
		break
	}
	for i < len(subtags) {
		single := strings.ToLower(subtags[i])
		if len(single) != 1 {
			return t, bad("unexpected subtag " + fault.Truncate(subtags[i], 12))
		}
		i++
		if single == "x" {
			return t, nil // private use: the rest is not read
		}
		start := i
		for i < len(subtags) && len(subtags[i]) > 1 {
			i++
		}
		if i == start {
			return t, bad("extension " + single + " is empty")
		}
		if single == "u" {
			t.readU(subtags[start:i])
		}
	}
	return t, nil
}

// readU reads the keys of a -u- extension: a two-character key and its
// type subtags.
func (t *localeTag) readU(subtags []string) {
	key := ""
	for _, st := range subtags {
		st = strings.ToLower(st)
		if len(st) == 2 {
			key = st
			continue
		}
		switch key {
		case "rg", "ms", "mu":
			if t.ext == nil {
				t.ext = map[string]string{}
			}
			if _, ok := t.ext[key]; !ok {
				t.ext[key] = st
			}
		}
	}
}

func isAlnum(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i] | 0x20
		if !(c >= 'a' && c <= 'z') && !(s[i] >= '0' && s[i] <= '9') {
			return false
		}
	}
	return s != ""
}

func isAlpha(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i] | 0x20
		if !(c >= 'a' && c <= 'z') {
			return false
		}
	}
	return s != ""
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}
