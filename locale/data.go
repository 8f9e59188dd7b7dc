package locale

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
)

//go:embed data/cldr.jsonl.gz
var compressed []byte

// License is CLDR's licence (Unicode License v3), shipped with the data.
//
//go:embed data/LICENSE
var License string

// header is the first line of the data file (see tools/cldrlocale).
type header struct {
	CLDRVersion string                       `json:"cldr_version"`
	Packages    map[string]string            `json:"packages"`
	License     string                       `json:"license"`
	Units       []string                     `json:"units"`
	Prefixes    map[string]string            `json:"prefixes"`
	Digits      map[string]string            `json:"digits"`
	Plurals     map[string]map[string]string `json:"plurals"`
	Locales     []string                     `json:"locales"`
}

// line is one locale's own data, inheriting the rest from Parent.
type line struct {
	Tag     string            `json:"tag"`
	Parent  string            `json:"parent"`
	Numbers map[string]string `json:"numbers"`
	Units   map[string]string `json:"units"`
}

// store is the decoded data, loaded once on first use.
type store struct {
	header
	lines   map[string][]byte   // tag → its undecoded line
	keyOf   map[string]string   // CLDR id → units key ("foot" → "length-foot")
	digits  map[string][10]rune // numbering system → digits
	plurals map[string]*plurals // language or locale ("pt", "pt-PT") → rules

	mu       sync.Mutex
	resolved map[string]*resolvedLine // guarded by mu
}

// resolvedLine is a locale's data with its parents' merged in.
type resolvedLine struct {
	numbers map[string]string
	units   map[string]string
}

var (
	loadOnce sync.Once
	data     *store
	loadErr  error
)

// load decodes the embedded data once.
func load() (*store, error) {
	loadOnce.Do(func() { data, loadErr = decode(compressed) })
	return data, loadErr
}

func decode(gz []byte) (*store, error) {
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, err
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		return nil, err
	}
	s := &store{lines: map[string][]byte{}, keyOf: map[string]string{},
		digits: map[string][10]rune{}, plurals: map[string]*plurals{}, resolved: map[string]*resolvedLine{}}
	first := true
	// Lines are views of raw, which the store keeps.
	for len(raw) > 0 {
		b := raw
		if i := bytes.IndexByte(raw, '\n'); i >= 0 {
			b, raw = raw[:i], raw[i+1:]
		} else {
			raw = nil
		}
		if len(b) == 0 {
			continue
		}
		if first {
			first = false
			if err := json.Unmarshal(b, &s.header); err != nil {
				return nil, fmt.Errorf("locale data header: %w", err)
			}
			continue
		}
		// The tag is the first member (the tool writes it so); decoding
		// the whole line waits until the locale is used.
		rest, ok := bytes.CutPrefix(b, []byte(`{"tag":"`))
		end := bytes.IndexByte(rest, '"')
		if !ok || end < 0 {
			return nil, fmt.Errorf("locale data line without a tag first: %.40s", b)
		}
		s.lines[string(rest[:end])] = b
	}
	for _, key := range s.Units {
		// Unit entries are "category-id"; prefixes (10p3) and compound
		// patterns (per, times, power2) have no identifier of their own.
		if _, id, ok := strings.Cut(key, "-"); ok && !strings.HasPrefix(key, "10p") && !strings.HasPrefix(key, "1024p") {
			s.keyOf[id] = key
		}
	}
	for ns, d := range s.Digits {
		r := []rune(d)
		if len(r) != 10 {
			return nil, fmt.Errorf("numbering system %s has %d digits", ns, len(r))
		}
		s.digits[ns] = [10]rune(r)
	}
	for lang, rules := range s.Plurals {
		p, err := compilePlurals(lang, rules)
		if err != nil {
			return nil, fmt.Errorf("plural rules of %s: %w", lang, err)
		}
		s.plurals[lang] = p
	}
	return s, nil
}

// resolve returns the data of tag merged with its parents'.
func (s *store) resolve(tag string) (*resolvedLine, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.resolveLocked(tag, 0)
}

func (s *store) resolveLocked(tag string, depth int) (*resolvedLine, error) {
	if r, ok := s.resolved[tag]; ok {
		return r, nil
	}
	raw, ok := s.lines[tag]
	if !ok || depth > 8 {
		return nil, fmt.Errorf("no locale data for %q", tag)
	}
	var l line
	if err := json.Unmarshal(raw, &l); err != nil {
		return nil, fmt.Errorf("locale data of %s: %w", tag, err)
	}
	r := &resolvedLine{numbers: map[string]string{}, units: map[string]string{}}
	if l.Parent != "" {
		p, err := s.resolveLocked(l.Parent, depth+1)
		if err != nil {
			return nil, err
		}
		for k, v := range p.numbers {
			r.numbers[k] = v
		}
		for k, v := range p.units {
			r.units[k] = v
		}
	}
	for k, v := range l.Numbers {
		r.numbers[k] = v
	}
	for k, v := range l.Units {
		if v == "" {
			delete(r.units, k)
			continue
		}
		r.units[k] = v
	}
	s.resolved[tag] = r
	return r, nil
}

// Version says which CLDR release and packages the data comes from.
func Version() string {
	s, err := load()
	if err != nil {
		return "unavailable: " + err.Error()
	}
	return "CLDR " + s.CLDRVersion + " (cldr-core " + s.Packages["cldr-core"] + ", cldr-units-full " +
		s.Packages["cldr-units-full"] + ", cldr-numbers-full " + s.Packages["cldr-numbers-full"] + "; " + s.License + ")"
}

// Tags lists the shipped locales: every locale CLDR rates modern, and
// und (the root locale).
func Tags() []string {
	s, err := load()
	if err != nil {
		return nil
	}
	return append([]string(nil), s.Locales...)
}

// Warm decodes the embedded data and resolves English, so that the first
// request for a locale does not wait for it.
func Warm() {
	if _, err := load(); err == nil {
		Match("en")
	}
}
