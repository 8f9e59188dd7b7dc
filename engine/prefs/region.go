package prefs

import (
	"strings"

	"github.com/unitd/unitd/engine/fault"
	"github.com/unitd/unitd/locale/tag"
)

// Request fields of the unit preferences are bounded before they are
// read.
const maxField = 64

// LocaleRegion returns the region a locale stands for, as region finds
// it, and how ("locale", "locale-rg", "locale-ms", "likely", "default").
func (d *Data) LocaleRegion(locale string, fast bool) (r, how string, err error) {
	r, how, _, err = d.region("", locale, fast)
	return r, how, err
}

// region finds the region whose preferences apply (UTS #35 Part 6,
// "Unit Preferences Overrides"): the request's region, else the locale's:
// its -u-ms- measurement system (metric is 001, ussystem US, uksystem
// GB), its -u-rg- region override, its region subtag, else the likely
// region of its language and script; else 001. It also returns how the
// region was found, and the locale's -u-mu- unit, if any. fast lets it
// keep parsed locales.
func (d *Data) region(region, locale string, fast bool) (r, how, mu string, err error) {
	if region != "" {
		r, ok := d.knownRegion(region)
		if !ok {
			return "", "", "", d.unknownRegion(region)
		}
		return r, "region", "", nil
	}
	if locale == "" {
		return "001", "default", "", nil
	}
	t, err := d.locale(locale, fast)
	if err != nil {
		return "", "", "", err
	}
	mu = t.Unicode("mu")
	switch t.Unicode("ms") {
	case "metric":
		return "001", "locale-ms", mu, nil
	case "ussystem":
		return "US", "locale-ms", mu, nil
	case "uksystem":
		return "GB", "locale-ms", mu, nil
	}
	if rg := t.Unicode("rg"); rg != "" {
		// A subdivision: a region and a suffix ("gbzzzz").
		n := 2
		if rg[0] >= '0' && rg[0] <= '9' {
			n = 3
		}
		if len(rg) > n {
			if r, ok := d.knownRegion(rg[:n]); ok {
				return r, "locale-rg", mu, nil
			}
		}
	}
	if reg := t.Region(); reg != "" {
		r, ok := d.knownRegion(reg)
		if !ok {
			return "", "", "", d.unknownRegion(reg)
		}
		return r, "locale", mu, nil
	}
	base, script := t.Base(), t.Script()
	keys := [3]string{base, "", ""}
	if script != "" {
		keys = [3]string{base + "-" + script, base, "und-" + script}
	}
	for _, key := range keys {
		if key == "" {
			continue
		}
		if r, ok := d.likely[key]; ok {
			if r, ok := d.knownRegion(r); ok {
				return r, "likely", mu, nil
			}
		}
	}
	return "001", "default", mu, nil
}

// locale parses a locale tag (package locale/tag, the one parser of them),
// through a bounded cache when fast is set: a service sees the same few
// locales again and again.
func (d *Data) locale(s string, fast bool) (tag.Tag, error) {
	if fast {
		if t, ok := d.locales.Get(s); ok {
			return t, nil
		}
	}
	if len(s) > maxField {
		return tag.Tag{}, badLocale(s, "it is longer than 64 characters")
	}
	t, err := tag.Parse(s)
	if err != nil {
		return tag.Tag{}, badLocale(s, "")
	}
	if fast {
		// The tag may be a view of a request's pooled buffer: the cache
		// keeps a copy of its own.
		k := strings.Clone(s)
		d.locales.Put(k, t, int64(2*len(k))+160)
	}
	return t, nil
}

func badLocale(s, why string) *fault.Error {
	if why != "" {
		why = ": " + why
	}
	return fault.Errorf(fault.InvalidRequest, "locale %q is not a BCP 47 language tag%s (write en, en-GB, sv-SE, zh-Hant-TW, es-419, de-CH-u-ms-uksystem)", fault.Truncate(s, 40), why)
}

// knownRegion reads a region code (either case; a deprecated code is
// replaced, UK by GB) and reports whether the preferences can serve it: a
// region of the data's containment tree, or one UN M.49 or ISO 3166-1
// knows (419, EU), which falls back through the regions of the tree that
// contain it (parentOf).
func (d *Data) knownRegion(s string) (string, bool) {
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
	if a, ok := d.aliases[r]; ok {
		r = a
	}
	if d.known[r] {
		return r, true
	}
	c, ok := tag.ParseRegion(r)
	if !ok {
		return "", false
	}
	if a, ok := d.aliases[c]; ok {
		c = a
	}
	return c, true
}

// parentOf returns the region that contains r: its parent in the data's
// tree, or, for a region outside it, the deepest region of the tree that
// contains it in UN M.49 (019, the Americas, for 419), else 001; "" for
// 001.
func (d *Data) parentOf(r string) string {
	if d.known[r] {
		return d.parent[r]
	}
	best, depth := "001", 0
	for k, n := range d.depth {
		if (n > depth || n == depth && k < best) && tag.Contains(k, r) {
			best, depth = k, n
		}
	}
	return best
}

func (d *Data) unknownRegion(s string) *fault.Error {
	e := fault.Errorf(fault.InvalidRequest, "unknown region %q: a region is an ISO 3166-1 alpha-2 code (US, GB, DE, …) or a UN M.49 area (001 is the world, 150 Europe, 419 Latin America); details.regions lists the regions of CLDR's containment tree",
		fault.Truncate(s, 20))
	e.Details = map[string]string{"regions": d.regionList}
	return e
}

// listFor returns the usage's list for region, falling back through the
// regions that contain it up to 001, and the region whose list it is.
func (d *Data) listFor(u *usage, region string) (*list, string) {
	for r := region; r != ""; r = d.parentOf(r) {
		if l := u.byRegion[r]; l != nil {
			return l, r
		}
		if r == "001" {
			break
		}
	}
	return u.byRegion["001"], "001"
}
