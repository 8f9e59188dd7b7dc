package server

import (
	"errors"
	"github.com/unitd/unitd/server/ratelimit"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/unitd/unitd/engine"
	"github.com/unitd/unitd/engine/text"
	"github.com/unitd/unitd/locale"
)

// Free text and locales on conversions (the contract's "Quantities as
// people write them, in their language"):
//
//   - quantity (free text, in place of value and from) and q (a whole
//     question) are read by engine/text, in the request's locale: its
//     decimal and grouping separators, its unit names and spelled
//     numbers, and its region for a unit whose meaning depends on it
//     (pint). The engine converts the exact numbers read
//     (engine.Request.Exact). The answer echoes input.text, the value and
//     unit understood, and input.assumed where a unit was read by the
//     region or a portion of a food by its mass. An ingredient after the
//     unit ("1 cup flour") is the request's substance unless the request
//     names one. conversion.textWork is the parser's work (text.Quantity.Work),
//     for a caller that charges it to the key's budget.
//   - locale (a BCP 47 tag; in a batch, for every item that names none),
//     else the best match of Accept-Language, adds result.text: the result
//     in the locale's words and digits (package locale), at unit_display
//     width (short by default), in CLDR's words for the CLDR unit the
//     catalog's unit claims. Without either, reading uses English and no
//     text is added. A locale matched from Accept-Language also stands
//     for locale where to=auto looks for a region. A well-formed tag that
//     names no CLDR locale (tlh, xx, zz-ZZ) is written in English; a tag
//     that is not well-formed BCP 47 is INVALID_REQUEST.
//   - result.text has readable digits unless precision is given (see
//     readableValue): the value is rounded once for it, from the exact
//     value.
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

// options caches the parser options of each locale, for the graph they
// were made for: a reloaded catalog replaces them.
var options sync.Map // *locale.Locale → graphOptions

type graphOptions struct {
	g *engine.Graph
	o *text.Options
}

// kitchens caches each graph's foods and foreign names.
var kitchens sync.Map // *engine.Graph → *kitchen

type kitchen struct {
	pantry  *text.Pantry
	foreign *text.Foreign
}

var english = sync.OnceValue(func() *locale.Locale {
	l, _ := locale.Match("en")
	return l
})

// quantityOptions are the parser's options for a locale (English words
// with no region when l is nil), reading the locale's unit names as the
// units of g that claim them, and a unit whose meaning depends on the
// region as the region of tag (the request's locale).
func quantityOptions(g *engine.Graph, l *locale.Locale, tag string) *text.Options {
	base := l
	if base == nil {
		if base = english(); base == nil {
			return nil
		}
	}
	var o *text.Options
	if v, ok := options.Load(base); ok && v.(graphOptions).g == g {
		o = v.(graphOptions).o
	} else {
		k, _ := kitchens.Load(g)
		if k == nil {
			k, _ = kitchens.LoadOrStore(g, &kitchen{pantry: text.NewPantry(g.Substances()), foreign: text.NewForeign(g)})
		}
		kk := k.(*kitchen)
		o = text.LocaleOptions(base, g, "", "", kk.foreign, kk.pantry)
		options.Store(base, graphOptions{g, o})
	}
	if l == nil || tag == "" {
		return o
	}
	region, how, err := g.LocaleRegion(tag)
	if err != nil || region == "" {
		return o
	}
	withRegion := *o
	withRegion.Region, withRegion.RegionHow = region, how
	return &withRegion
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

// prepareText settles a conversion's locale and width and reads its free
// text into value, from and to. batch is the batch's locale, if any.
func prepareText(r *http.Request, g *engine.Graph, conv *conversion, batch *locale.Locale, batchWidth string) *apiError {
	if e := checkControl(conv); e != nil {
		return e
	}
	lc, header, e := requestLocale(r, conv, batch)
	if e != nil {
		return e
	}
	if header {
		// The reader's language stands for locale where to=auto asks
		// for a region, as the locale field would.
		conv.locale, conv.hasLoc = lc.Tag, true
	}
	w := conv.unitDisplay
	if w == "" {
		w = batchWidth
	}
	width, e := parseWidth(w)
	if e != nil {
		return e
	}
	opts := quantityOptions(g, lc, conv.locale)
	if lc != nil {
		lc = lc.In(g)
	}
	conv.lc, conv.width = lc, width
	var q text.Quantity
	var err error
	switch {
	case conv.hasQ:
		var qq text.Question
		qq, err = text.ParseQuestion(g, conv.q, opts)
		q, conv.text, conv.to, conv.hasTo = qq.Quantity, conv.q, qq.To, true
	case conv.hasQuantity:
		q, err = text.Parse(g, conv.quantity, opts)
		conv.text = conv.quantity
	default:
		return nil
	}
	conv.textWork = q.Work
	if err != nil {
		return freeTextError(err)
	}
	conv.value, conv.from, conv.exact, conv.assumed = q.Value, q.Unit, q.Exact, q.Assumed
	conv.hasValue, conv.hasFrom = true, true
	if ing := q.Ingredient; ing != nil {
		if conv.props.Substance == "" {
			conv.props.Substance = ing.ID
		}
		// A portion's mass is the catalog's measured value.
		conv.rounded = ing.Portion != ""
	}
	return nil
}

// freeTextError is the API error of unreadable free text: its position
// travels as a number in details.
func freeTextError(err error) *apiError {
	e := fromEngine(err)
	var ee *engine.Error
	if errors.As(err, &ee) {
		if p, err := strconv.Atoi(ee.Details["position"]); err == nil {
			e.Details["position"] = p
		}
	}
	return e
}

// appendResultText appends ,"text":"…" when the conversion has a locale:
// value (the result as the answer's value has it) in readable digits,
// unless the request gave a precision.
func appendResultText(b []byte, g *engine.Graph, conv *conversion, req *engine.Request, res *engine.Result, value []byte) []byte {
	if conv.lc == nil {
		return b
	}
	v := string(value)
	if req.Precision == 0 {
		v = readableValue(g, conv, req, res, v)
	}
	var buf [128]byte
	t := conv.lc.AppendUnit(buf[:0], v, res.Unit, conv.width)
	b = append(b, `,"text":`...)
	return appendString(b, string(t))
}

// readableValue is v, the result at the default 34 digits, in readable
// digits (locale.Readable): at most 3 fraction digits, or the input's
// significant figures where more. It rounds v itself when v is exact or
// its dropped digits are no half; else it asks the engine for the value
// at the readable precision, which rounds once from the exact value.
func readableValue(g *engine.Graph, conv *conversion, req *engine.Request, res *engine.Result, v string) string {
	sig := inputFigures(conv.value)
	r, ok := locale.Readable(v, sig, res.Exact && !conv.rounded)
	if ok {
		return r
	}
	again, err := convertAt(g, conv, req, locale.ReadablePrecision(v, sig))
	if err != nil || again.Value == "" {
		return v
	}
	return again.Value
}

// inputFigures is the significant figures of the input: of its number,
// or of the part with the most of a mixed quantity's ("5 3.5").
func inputFigures(v string) int {
	n := 0
	for f := range strings.FieldsSeq(v) {
		n = max(n, inputDigits(f))
	}
	return max(n, 1)
}

// convertAt converts the request again at precision p.
func convertAt(g *engine.Graph, conv *conversion, req *engine.Request, p int) (engine.Result, error) {
	r := *req
	r.Precision = p
	return g.Convert(r)
}

// appendMixedText appends ,"text":… for a mixed result ("5 ft 3.5 in",
// "5 Fuß 3,5 Zoll") when the conversion has a locale. Without a precision
// the last part has readable digits: when they differ from the part's, the
// engine converts again at their precision, so that a carry lands in the
// part before (never "5 ft 12 in").
func appendMixedText(b []byte, g *engine.Graph, conv *conversion, req *engine.Request, res *engine.Result) []byte {
	if conv.lc == nil {
		return b
	}
	parts := res.Parts
	if last := parts[len(parts)-1].Value; req.Precision == 0 {
		sig := inputFigures(conv.value)
		if r, ok := locale.Readable(last, sig, res.Exact && !conv.rounded); !ok || r != last {
			if again, err := convertAt(g, conv, req, locale.ReadablePrecision(last, sig)); err == nil && len(again.Parts) == len(parts) {
				parts = again.Parts
			}
		}
	}
	lp := make([]locale.Part, len(parts))
	for i, p := range parts {
		lp[i] = locale.Part{Value: p.Value, Unit: p.Unit.Symbol}
	}
	b = append(b, `,"text":`...)
	return appendString(b, conv.lc.FormatMixed(lp, conv.width))
}

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
