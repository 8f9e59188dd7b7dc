package server

import (
	"errors"
	"net/http"
	"strconv"
	"sync"

	"github.com/unitd/unitd/engine"
	"github.com/unitd/unitd/engine/quantity"
	"github.com/unitd/unitd/locale"
)

// Free text and locales on conversions (the contract's "Quantities as
// people write them, in their language"):
//
//   - quantity (free text, in place of value and from) and q (a whole
//     question) are read by engine/quantity, in the request's locale: its
//     decimal and grouping separators and its unit names, after the
//     catalog's. The answer echoes input.text, and the value and unit
//     understood.
//   - locale (a BCP 47 tag; in a batch, for every item that names none),
//     else the best match of Accept-Language, adds result.text: the result
//     in the locale's words and digits (package locale), at unit_display
//     width (short by default). Without either, reading uses English and
//     no text is added.

// requestLocale picks the locale of a conversion: its own locale field,
// else the batch's, else the Accept-Language header, else none.
func requestLocale(r *http.Request, conv *conversion, batch *locale.Locale) (*locale.Locale, *apiError) {
	if conv.hasLoc {
		l, err := locale.Match(conv.locale)
		if err != nil {
			return nil, invalidRequest("locale " + strconv.Quote(truncate(conv.locale, 40)) + " is not a BCP 47 language tag (such as de, fr-CA, ar-EG)")
		}
		return l, nil
	}
	if batch != nil {
		return batch, nil
	}
	if h := r.Header.Get("Accept-Language"); h != "" {
		if l, ok := locale.MatchAcceptLanguage(h); ok {
			return l, nil
		}
	}
	return nil, nil
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

// options caches the parser options of each locale.
var options sync.Map // *locale.Locale → *quantity.Options

var english = sync.OnceValue(func() *locale.Locale {
	l, _ := locale.Match("en")
	return l
})

// quantityOptions are the parser's options for a locale (English when
// l is nil).
func quantityOptions(l *locale.Locale) *quantity.Options {
	if l == nil {
		if l = english(); l == nil {
			return nil
		}
	}
	if o, ok := options.Load(l); ok {
		return o.(*quantity.Options)
	}
	n := l.Numbers()
	o := &quantity.Options{Locale: l.Tag, Decimal: n.Decimal, Group: n.Group, Primary: n.Primary, Secondary: n.Secondary, Names: l.Lookup}
	v, _ := options.LoadOrStore(l, o)
	return v.(*quantity.Options)
}

// prepareText settles a conversion's locale and width and reads its free
// text into value, from and to. batch is the batch's locale, if any.
func prepareText(r *http.Request, g *engine.Graph, conv *conversion, batch *locale.Locale, batchWidth string) *apiError {
	lc, e := requestLocale(r, conv, batch)
	if e != nil {
		return e
	}
	w := conv.unitDisplay
	if w == "" {
		w = batchWidth
	}
	width, e := parseWidth(w)
	if e != nil {
		return e
	}
	conv.lc, conv.width = lc, width
	switch {
	case conv.hasQ:
		q, err := quantity.ParseQuestion(g, conv.q, quantityOptions(lc))
		conv.text = conv.q
		if err != nil {
			return freeTextError(err)
		}
		conv.value, conv.from, conv.to, conv.rounded = q.Value, q.Unit, q.To, q.Rounded
		conv.hasValue, conv.hasFrom, conv.hasTo = true, true, true
		if q.Rounded {
			conv.read = &q.Quantity
		}
	case conv.hasQuantity:
		q, err := quantity.Parse(g, conv.quantity, quantityOptions(lc))
		conv.text = conv.quantity
		if err != nil {
			return freeTextError(err)
		}
		conv.value, conv.from, conv.rounded = q.Value, q.Unit, q.Rounded
		conv.hasValue, conv.hasFrom = true, true
		if q.Rounded {
			conv.read = &q
		}
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

// appendResultText appends ,"text":"…" when the conversion has a locale.
func appendResultText(b []byte, conv *conversion, value []byte, unit string) []byte {
	if conv.lc == nil {
		return b
	}
	var buf [128]byte
	t := conv.lc.AppendUnit(buf[:0], string(value), unit, conv.width)
	b = append(b, `,"text":`...)
	return appendString(b, string(t))
}

// appendMixedText appends ,"text":… for a mixed result ("5 ft 3.5 in",
// "5 Fuß 3,5 Zoll") when the conversion has a locale.
func appendMixedText(b []byte, conv *conversion, parts []engine.Part) []byte {
	if conv.lc == nil {
		return b
	}
	lp := make([]locale.Part, len(parts))
	for i, p := range parts {
		lp[i] = locale.Part{Value: p.Value, Unit: p.Unit.Symbol}
	}
	b = append(b, `,"text":`...)
	return appendString(b, conv.lc.FormatMixed(lp, conv.width))
}
