package server

import (
	"net/http"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/unitd/unitd/engine"
	"github.com/unitd/unitd/engine/answer"
	"github.com/unitd/unitd/locale"
	"github.com/unitd/unitd/server/ratelimit"
)

// Free text and locales on conversions (the contract's "Quantities as
// people write them, in their language"): this file decodes what a
// request says of them into an answer.Query; package engine/answer reads
// the text, converts and writes result.text.
//
//   - quantity (free text, in place of value and from) and q (a whole
//     question) are answer.FormText and answer.FormQuestion: read in the
//     request's locale, and echoed as input.text, the value and unit
//     understood, and input.assumed where a unit was read by the region
//     or a portion of a food by its mass. An ingredient after the unit
//     ("1 cup flour") is the request's substance unless the request names
//     one. Reading costs work (answer.Answer.Work), charged to the key's
//     budget (chargeWork).
//   - locale (a BCP 47 tag; in a batch, for every item that names none),
//     else the best match of Accept-Language, adds result.text: the result
//     in the locale's words and digits, at unit_display width (short by
//     default). Without either, reading uses English and no text is added.
//     A locale matched from Accept-Language also stands for locale where
//     to=auto looks for a region. A well-formed tag that names no CLDR
//     locale (tlh, xx, zz-ZZ) is written in English; a tag that is not
//     well-formed BCP 47 is INVALID_REQUEST.
//   - result.text has readable digits unless precision is given.
//   - A control character (NUL, tab, line feed, DEL, …) in a text field
//     is refused before anything reads it: "5\u0000km" is not 5 km.

// maxAcceptLanguage bounds the Accept-Language header (all its lines
// joined): a longer one is INVALID_REQUEST naming it, on every route of
// the API.
const maxAcceptLanguage = 1024

// acceptLanguage returns the request's Accept-Language, its lines joined
// as RFC 9110 joins a list, or an error when it is over maxAcceptLanguage.
func acceptLanguage(r *http.Request) (string, *apiError) {
	vs := r.Header.Values("Accept-Language")
	n := 0
	for _, v := range vs {
		n += len(v) + 1
	}
	if n > maxAcceptLanguage+1 {
		return "", invalidRequest("the Accept-Language header is longer than " + strconv.Itoa(maxAcceptLanguage) + " bytes; send the languages you prefer most, or the locale parameter")
	}
	if len(vs) == 1 {
		return vs[0], nil
	}
	return strings.Join(vs, ","), nil
}

// requestLocale picks the locale of a conversion: its own locale field,
// else the batch's, else the Accept-Language header, else none. header
// says it came from Accept-Language.
func requestLocale(r *http.Request, conv *conversion, batch *locale.Locale) (l *locale.Locale, header bool, e *apiError) {
	if conv.hasLoc {
		l, err := locale.Match(conv.locale)
		if err != nil {
			return nil, false, invalidRequest("locale " + strconv.Quote(truncate(conv.locale, 40)) + " is not a BCP 47 language tag (such as de, fr-CA, ar-EG)")
		}
		return l, false, nil
	}
	if batch != nil {
		return batch, false, nil
	}
	h, e := acceptLanguage(r)
	if e != nil {
		return nil, false, e
	}
	if h != "" {
		if l, ok := locale.MatchAcceptLanguage(h); ok {
			return l, true, nil
		}
	}
	return nil, false, nil
}

// parseWidth reads unit_display: long, short (the default) or narrow.
func parseWidth(s string) (locale.Width, *apiError) {
	if s == "" {
		return locale.Short, nil
	}
	w, ok := locale.ParseWidth(s)
	if !ok {
		return w, invalidRequest("unit_display must be long, short or narrow")
	}
	return w, nil
}

// checkControl refuses a control character (Unicode Cc) in a
// conversion's text fields: free text as INVALID_QUANTITY at its
// position, any other field as INVALID_REQUEST naming the field.
func checkControl(conv *conversion) *apiError {
	for _, f := range [...]struct{ name, v string }{{"quantity", conv.quantity}, {"q", conv.q}} {
		if i := strings.IndexFunc(f.v, unicode.IsControl); i >= 0 {
			p := utf8.RuneCountInString(f.v[:i]) + 1
			e := newError(string(engine.CodeInvalidQuantity), "free text may not hold a control character (U+"+strconv.FormatInt(int64(utf8RuneAt(f.v, i)), 16)+") (position "+strconv.Itoa(p)+")")
			e.Details = map[string]any{"position": p}
			return e
		}
	}
	fields := [...]struct{ name, v string }{{"value", conv.value}, {"from", conv.from}, {"to", conv.to}, {"locale", conv.locale},
		{"unit_display", conv.unitDisplay}, {"usage", conv.usage}, {"region", conv.region}}
	for _, f := range fields {
		if strings.IndexFunc(f.v, unicode.IsControl) >= 0 {
			return invalidRequest(`"` + f.name + `" may not hold a control character`)
		}
	}
	for _, p := range conv.parts {
		if strings.IndexFunc(p.value, unicode.IsControl) >= 0 || strings.IndexFunc(p.unit, unicode.IsControl) >= 0 {
			return invalidRequest(`"parts" may not hold a control character`)
		}
	}
	return nil
}

func utf8RuneAt(s string, i int) rune {
	r, _ := utf8.DecodeRuneInString(s[i:])
	return r
}

// query settles a conversion's locale and width and returns the query
// it asks: its own fields, else those of its batch (nil for a single
// conversion), whose locale loc is. Usage, region and locale of the batch
// stand for those the item leaves out, and its precision when the item
// gives none.
func (c *conversion) query(r *http.Request, batch *batchRequest, loc *locale.Locale) (answer.Query, *apiError) {
	var q answer.Query
	if e := checkControl(c); e != nil {
		return q, e
	}
	if batch == nil {
		batch = &noBatch
	}
	lc, header, e := requestLocale(r, c, loc)
	if e != nil {
		return q, e
	}
	w := c.unitDisplay
	if w == "" {
		w = batch.unitDisplay
	}
	if q.Width, e = parseWidth(w); e != nil {
		return q, e
	}
	q.Locale, q.Tag = lc, c.locale
	switch {
	case header:
		// The reader's language stands for locale where to=auto asks
		// for a region, as the locale field would.
		q.Tag = lc.Tag
	case !c.hasLoc:
		q.Tag = batch.shared.locale
	}
	q.Value, q.From, q.To = c.value, c.from, c.to
	switch {
	case c.hasQ:
		q.Form, q.Text = answer.FormQuestion, c.q
	case c.hasQuantity:
		q.Form, q.Text = answer.FormText, c.quantity
	}
	q.Precision, q.InputPrecision = c.precisionOf(batch.precision, batch.precisionInput)
	q.Usage, q.Region = c.usage, c.region
	if q.Usage == "" {
		q.Usage = batch.shared.usage
	}
	if q.Region == "" {
		q.Region = batch.shared.region
	}
	q.Properties, q.SharedQuery = c.props, batch.props
	q.Explain = c.explain || batch.explain
	return q, nil
}

// noBatch is the batch of a single conversion: nothing shared.
var noBatch batchRequest

// textWorkPerToken is the free-text work (text.Quantity.Work) that costs
// one more token of the key's rate limit: about what reading a text of a
// hundred characters costs, a tenth of a millisecond, where a plain
// conversion costs a microsecond. Everyday texts ("5 ft 3 in") cost a few
// hundred units and nothing more than their request; the hardest texts
// the parser accepts (questions of 256 bytes, some 6,000 units) cost six
// tokens, so that a batch or stream of them spends the key's budget in
// proportion to the work it makes.
const textWorkPerToken = 1000

// chargeWork charges the key the whole tokens that work is worth, when
// the limiter can charge after the fact (ratelimit.Charger), and returns
// the work left over, for the next charge.
func (s *Server) chargeWork(keyID string, work int) int {
	n := work / textWorkPerToken
	if n == 0 || keyID == "" {
		return work
	}
	if c, ok := s.cfg.Limiter.(ratelimit.Charger); ok {
		c.Charge(keyID, n)
	}
	return work - n*textWorkPerToken
}
