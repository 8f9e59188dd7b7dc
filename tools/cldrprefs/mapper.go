package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"slices"
	"strings"

	"github.com/cockroachdb/apd/v3"
	"github.com/unitd/unitd/engine"
)

// mapper finds the catalog unit of a CLDR unit.
type mapper struct {
	g      *engine.Graph
	byBase map[string][]candidate
}

type candidate struct {
	unit           string
	factor, offset *big.Rat
}

func newMapper(g *engine.Graph) *mapper { return &mapper{g: g, byBase: map[string][]candidate{}} }

// candidates lists the catalog units that convert to expr by an exact
// linear or affine map, with that map.
func (m *mapper) candidates(expr string) []candidate {
	if cs, ok := m.byBase[expr]; ok {
		return cs
	}
	var cs []candidate
	for _, u := range m.g.Units() {
		res, err := m.g.Convert(engine.Request{Value: "1", From: u.Symbol, To: expr})
		if err != nil {
			continue
		}
		ex := m.g.Explain(&res)
		if ex.Kind == "formula" || !ex.FactorExact || (ex.Offset != "" && !ex.OffsetExact) {
			continue
		}
		f, ok1 := new(big.Rat).SetString(ex.Factor)
		o := new(big.Rat)
		ok2 := true
		if ex.Offset != "" {
			_, ok2 = o.SetString(ex.Offset)
		}
		if ok1 && ok2 {
			cs = append(cs, candidate{unit: u.Symbol, factor: f, offset: o})
		}
	}
	m.byBase[expr] = cs
	return cs
}

// find maps one CLDR unit.
func (m *mapper) find(id string, cu cldrUnit) (mapping, error) {
	mp := mapping{factor: cu.factor, offset: cu.offset, substance: cu.substance}
	expr, err := expression(cu.base)
	if err != nil {
		return mp, err
	}
	mp.base = expr
	if unresolved(id) {
		// CLDR's consumption (cubic-meter-per-meter) is the reciprocal of
		// the catalog's fuel economy, an inverse area: compare values.
		return m.findReciprocal(id, mp)
	}
	var same []string
	for _, c := range m.candidates(expr) {
		if c.factor.Cmp(cu.factor) == 0 && c.offset.Cmp(cu.offset) == 0 {
			same = append(same, c.unit)
		}
	}
	if o, ok := overrides[id]; ok {
		if slices.Contains(same, o) || m.checkExpression(o, expr, cu) {
			mp.unit = o
			return mp, nil
		}
		return mp, fmt.Errorf("override %s does not have CLDR's factor %s to %s", o, cu.factor.RatString(), expr)
	}
	if u, err := m.g.Lookup(strings.ReplaceAll(id, "-", " ")); err == nil && slices.Contains(same, u.Symbol) {
		mp.unit = u.Symbol
		return mp, nil
	}
	switch len(same) {
	case 1:
		mp.unit = same[0]
		return mp, nil
	case 0:
		return mp, fmt.Errorf("no catalog unit is %s %s (add one, with its source)", cu.factor.RatString(), expr)
	}
	return mp, fmt.Errorf("several catalog units are %s %s: %s (choose one in overrides)", cu.factor.RatString(), expr, strings.Join(same, ", "))
}

// claimed maps a CLDR unit as the engine does: what cldr:<id> names in the
// catalog, the unit that claims it, or for an identifier made of others
// its reading through the units that claim its parts. A simple unit of
// CLDR's table must be claimed.
func (m *mapper) claimed(id string, cu cldrUnit, simple bool) (mapping, error) {
	mp := mapping{factor: cu.factor, offset: cu.offset, substance: cu.substance}
	expr, err := expression(cu.base)
	if err != nil {
		return mp, err
	}
	mp.base = expr
	u, ex, err := m.g.Resolve("cldr:" + id)
	switch {
	case err != nil:
		return mp, fmt.Errorf("cldr:%s: %v", id, err)
	case u != nil:
		mp.unit = u.Symbol
	case simple:
		return mp, fmt.Errorf("no catalog unit claims cldr:%s (claim it in the unit's codes)", id)
	default:
		mp.unit = ex.Symbol
	}
	return mp, nil
}

// checkExpression reports whether a catalog expression has CLDR's factor.
func (m *mapper) checkExpression(name, expr string, cu cldrUnit) bool {
	res, err := m.g.Convert(engine.Request{Value: "1", From: name, To: expr})
	if err != nil {
		return false
	}
	ex := m.g.Explain(&res)
	f, ok := new(big.Rat).SetString(ex.Factor)
	return ok && ex.FactorExact && ex.Offset == "" && f.Cmp(cu.factor) == 0 && cu.offset.Sign() == 0
}

// unresolved reports whether a CLDR unit is one of consumption, a volume
// per length, whose base keeps a unit above and below the line
// (cubic-meter-per-meter, not an area).
func unresolved(id string) bool {
	return strings.HasPrefix(id, "liter-per-") || id == "cubic-meter-per-meter"
}

// findReciprocal maps a unit of consumption or its inverse onto the
// catalog's fuel economy by converting sample values.
func (m *mapper) findReciprocal(id string, mp mapping) (mapping, error) {
	var same []string
	for _, u := range m.g.Units() {
		if u.Category.ID != "fuel_economy" {
			continue
		}
		if reciprocalMatches(m.g, u.Symbol, mp.factor) {
			same = append(same, u.Symbol)
		}
	}
	if len(same) == 1 {
		mp.unit = same[0]
		return mp, nil
	}
	return mp, fmt.Errorf("catalog units of fuel economy with CLDR's %s: %v", mp.factor.RatString(), same)
}

// reciprocalMatches reports whether x of unit (of fuel economy, whose
// coherent unit is m^-2) is 1/(x·factor) m^-2 for sample values x: the
// reciprocal of x of a CLDR consumption unit, a volume per length.
func reciprocalMatches(g *engine.Graph, unit string, factor *big.Rat) bool {
	for _, x := range []int64{1, 8, 37} {
		res, err := g.Convert(engine.Request{Value: fmt.Sprint(x), From: unit, To: "m^-2", Precision: 40})
		if err != nil {
			return false
		}
		want := new(big.Rat).Mul(big.NewRat(x, 1), factor)
		want.Inv(want)
		var n, d, out apd.Decimal
		n.Coeff.SetMathBigInt(want.Num())
		d.Coeff.SetMathBigInt(want.Denom())
		if _, err := apd.BaseContext.WithPrecision(40).Quo(&out, &n, &d); err != nil {
			return false
		}
		if engine.FormatDecimal(&out) != res.Value {
			return false
		}
	}
	return true
}

// orderedMap is a JSON object with its keys in order.
type orderedMap struct {
	keys []string
	vals map[string]any
}

// readOrdered decodes JSON keeping the order of object keys: objects
// become orderedMap, arrays []any, numbers their literal text, strings
// strings.
func readOrdered(src []byte) (orderedMap, error) {
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.UseNumber()
	v, err := readValue(dec)
	if err != nil {
		return orderedMap{}, err
	}
	m, ok := v.(orderedMap)
	if !ok {
		return orderedMap{}, fmt.Errorf("expected an object")
	}
	return m, nil
}

func readValue(dec *json.Decoder) (any, error) {
	t, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := t.(type) {
	case json.Delim:
		switch t {
		case '{':
			m := orderedMap{vals: map[string]any{}}
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return nil, err
				}
				v, err := readValue(dec)
				if err != nil {
					return nil, err
				}
				m.keys = append(m.keys, k.(string))
				m.vals[k.(string)] = v
			}
			_, err := dec.Token()
			return m, err
		case '[':
			var a []any
			for dec.More() {
				v, err := readValue(dec)
				if err != nil {
					return nil, err
				}
				a = append(a, v)
			}
			_, err := dec.Token()
			return a, err
		}
	case json.Number:
		return t.String(), nil
	case string:
		return t, nil
	}
	if t == nil {
		return nil, io.ErrUnexpectedEOF
	}
	return fmt.Sprint(t), nil
}
