package server

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/unitd/unitd/engine"
	"github.com/unitd/unitd/internal/jsonscan"
)

// Readable answers: to "auto" with usage, region and locale, and mixed
// units (ft+in), whose result is a list of parts. See the engine's
// documentation of Preference and Part.

// maxParts is the most parts a mixed quantity may be given in.
const maxParts = 6

// maxPreferenceField bounds usage, region and locale.
const maxPreferenceField = 64

// partIn is one part of a mixed quantity as submitted.
type partIn struct{ value, unit string }

// readPreferenceField reads "usage", "region" or "locale": a string.
func readPreferenceField(s *jsonscan.Scanner, c *conversion, key string, depth int) error {
	if s.Peek() != '"' {
		c.setErr(`"` + key + `" must be a string`)
		return s.Skip(depth)
	}
	v, err := s.ReadString()
	if err != nil {
		return err
	}
	if len(v) > maxPreferenceField {
		c.setErr(`"` + key + `" is longer than ` + strconv.Itoa(maxPreferenceField) + " characters")
		return nil
	}
	switch key {
	case "usage":
		c.usage = v
	case "region":
		c.region = v
	default:
		c.locale, c.hasLoc = v, true
	}
	return nil
}

// readParts reads "parts": [{"value": "5", "unit": "ft"}, …], a mixed
// quantity given in place of value and from.
func readParts(s *jsonscan.Scanner, c *conversion, depth int) error {
	const want = `"parts" must be an array of 1 to 6 objects {"value": …, "unit": …}`
	if s.Peek() != '[' {
		c.setErr(want)
		return s.Skip(depth)
	}
	c.parts = make([]partIn, 0, 2)
	return s.Array(depth, func(i int) error {
		if i >= maxParts || s.Peek() != '{' {
			c.setErr(want)
			return s.Skip(depth + 1)
		}
		var p partIn
		var hasValue, hasUnit bool
		err := s.Object(depth+1, func(key string) error {
			switch {
			case key == "value" && !hasValue:
				var pc conversion
				err := readValue(s, &pc, depth+2)
				if pc.err != "" {
					c.setErr(`"parts": ` + pc.err)
				}
				p.value, hasValue = pc.value, true
				return err
			case key == "unit" && !hasUnit && s.Peek() == '"':
				v, err := s.ReadString()
				p.unit, hasUnit = v, true
				return err
			}
			c.setErr(`"parts": each part is {"value": …, "unit": …}, each field once; found ` + strconv.Quote(truncate(key, 40)))
			return s.Skip(depth + 2)
		})
		if !hasValue || !hasUnit {
			c.setErr(`"parts": each part needs "value" and "unit"`)
		}
		c.parts = append(c.parts, p)
		return err
	})
}

// joinParts turns parts into the engine's form of a mixed quantity: from
// "ft+in", value "5 3.5".
func (c *conversion) joinParts() {
	if c.hasValue || c.hasFrom {
		c.setErr(`"parts" stands for "value" and "from": send one or the other`)
		return
	}
	if len(c.parts) == 0 {
		c.setErr(`"parts" is empty`)
		return
	}
	var v, u strings.Builder
	for i, p := range c.parts {
		if strings.IndexByte(p.value, ' ') >= 0 || strings.IndexByte(p.unit, '+') >= 0 {
			c.setErr(`"parts": each part is one number of one unit`)
			return
		}
		if i > 0 {
			v.WriteByte(' ')
			u.WriteByte('+')
		}
		v.WriteString(p.value)
		u.WriteString(p.unit)
	}
	c.value, c.from, c.hasValue, c.hasFrom = v.String(), u.String(), true, true
}

// appendInputParts appends "parts":[…],"unit":"ft+in" for a quantity
// given part by part; its values passed the engine, so they are decimals.
func appendInputParts(b []byte, c *conversion) []byte {
	b = append(b, `"parts":[`...)
	for i, p := range c.parts {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"value":"`...)
		b = append(b, p.value...)
		b = append(b, `","unit":`...)
		b = appendString(b, p.unit)
		b = append(b, '}')
	}
	b = append(b, `],"unit":`...)
	return appendString(b, c.from)
}

// appendResultParts appends "unit":"ft+in","parts":[…] for a mixed result.
func appendResultParts(b []byte, res *engine.Result) []byte {
	b = append(b, `"unit":`...)
	b = appendString(b, res.Unit)
	b = append(b, `,"parts":[`...)
	for i, p := range res.Parts() {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"value":"`...)
		b = append(b, p.Value...)
		b = append(b, `","unit":`...)
		b = appendString(b, p.Unit.Symbol)
		b = append(b, '}')
	}
	return append(b, ']')
}

// preferenceJSON is explain's account of a unit chosen for to "auto".
type preferenceJSON struct {
	Quantity      string               `json:"quantity"`
	Usage         string               `json:"usage"`
	MatchedUsage  string               `json:"matched_usage"`
	Region        string               `json:"region"`
	RegionFrom    string               `json:"region_from"`
	Locale        string               `json:"locale,omitempty"`
	MatchedRegion string               `json:"matched_region"`
	Units         []preferenceUnitJSON `json:"units"`
	Chosen        int                  `json:"chosen"`
	Reached       bool                 `json:"threshold_reached"`
	Override      string               `json:"override,omitempty"`
	Reason        string               `json:"reason"`
	Source        string               `json:"source"`
}

type preferenceUnitJSON struct {
	Unit      string `json:"unit"`
	CLDR      string `json:"cldr"`
	Geq       string `json:"geq,omitempty"`
	GeqUnit   string `json:"geq_unit,omitempty"`
	Substance string `json:"substance,omitempty"`
}

func newPreferenceJSON(p *engine.Preference) *preferenceJSON {
	j := &preferenceJSON{Quantity: p.Quantity, Usage: p.Usage, MatchedUsage: p.MatchedUsage, Region: p.Region,
		RegionFrom: p.RegionFrom, Locale: p.Locale, MatchedRegion: p.MatchedRegion, Chosen: p.Chosen,
		Reached: p.Reached, Override: p.Override, Reason: p.Reason(), Source: p.Source}
	for _, u := range p.Units {
		j.Units = append(j.Units, preferenceUnitJSON(u))
	}
	return j
}

// mixedJSON is explain's account of a mixed result: the factor and steps
// lead to its last part, and each part is a whole number of the last.
type mixedJSON struct {
	Unit     string          `json:"unit"`
	LastPart string          `json:"last_part"`
	Parts    []mixedPartJSON `json:"parts"`
}

type mixedPartJSON struct {
	Unit    string `json:"unit"`
	PerLast string `json:"per_last"`
}

// preferenceParams are the query parameters of GET /v1/preferences.
var preferenceParams = []string{"category", "region", "locale"}

// preferenceSetJSON is one quantity and usage in GET /v1/preferences.
type preferenceSetJSON struct {
	Category string `json:"category"`
	Quantity string `json:"quantity"`
	Usage    string `json:"usage"`
	// Without a region: every list.
	Preferences []preferenceListJSON `json:"preferences,omitempty"`
	// For a region: the list that applies there.
	Region        string               `json:"region,omitempty"`
	MatchedRegion string               `json:"matched_region,omitempty"`
	Units         []preferenceUnitJSON `json:"units,omitempty"`
}

type preferenceListJSON struct {
	Regions []string             `json:"regions"`
	Units   []preferenceUnitJSON `json:"units"`
}

type preferencesMeta struct {
	Total      int    `json:"total"`
	Source     string `json:"source,omitempty"`
	Version    string `json:"cldr_version,omitempty"`
	Licence    string `json:"licence,omitempty"`
	Region     string `json:"region,omitempty"`
	RegionFrom string `json:"region_from,omitempty"`
}

// preferences serves GET /v1/preferences[?category=…][&region=…|&locale=…]:
// the usages of each category and their units, every region's or, for a
// region (or a locale's), the units that apply there, so that a client can
// offer them as settings. An unknown category is 404; an unknown region
// or a malformed locale 400.
func (s *Server) preferences(c *call) reply {
	raw := c.r.URL.RawQuery
	qs, e := parseQuery(raw, preferenceParams...)
	if e != nil {
		return errReply(e)
	}
	category, _ := qs.get(0)
	region, _ := qs.get(1)
	locale, _ := qs.get(2)
	if len(region) > maxPreferenceField || len(locale) > maxPreferenceField {
		return errReply(invalidRequest("region and locale are at most " + strconv.Itoa(maxPreferenceField) + " characters"))
	}
	g := c.snap.graph
	if category != "" {
		if _, ok := g.Category(category); !ok {
			return errReply(newError(codeNotFound, "unknown category "+strconv.Quote(truncate(category, 64))+"; GET /v1/categories lists them"))
		}
	}
	info, sets, _, err := g.Preferences(category, region, locale)
	if err != nil {
		return errReply(fromEngine(err))
	}
	data := make([]preferenceSetJSON, 0, len(sets))
	for _, set := range sets {
		j := preferenceSetJSON{Category: set.Category, Quantity: set.Quantity, Usage: set.Usage}
		for _, l := range set.Lists {
			units := make([]preferenceUnitJSON, len(l.Units))
			for i, u := range l.Units {
				units[i] = preferenceUnitJSON(u)
			}
			if info.Region != "" {
				j.Region, j.MatchedRegion, j.Units = info.Region, l.MatchedRegion, units
				continue
			}
			j.Preferences = append(j.Preferences, preferenceListJSON{Regions: l.Regions, Units: units})
		}
		data = append(data, j)
	}
	m := preferencesMeta{Total: len(data), Source: info.Source, Version: info.Version, Licence: info.Licence, Region: info.Region, RegionFrom: info.RegionFrom}
	b := mustJSON(struct {
		Data []preferenceSetJSON `json:"data"`
		Meta preferencesMeta     `json:"meta"`
	}{data, m})
	return reply{status: http.StatusOK, body: append(b, '\n'), etag: c.snap.etag("/v1/preferences?" + raw)}
}
