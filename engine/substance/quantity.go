package substance

import (
	"math/big"
	"strings"

	"github.com/cockroachdb/apd/v3"
	"github.com/unitd/unitd/engine/dimension"
	"github.com/unitd/unitd/engine/fault"
	"github.com/unitd/unitd/engine/internal/exact"
)

// Units resolves the unit of a quantity's text ("g/mol" of "180.156
// g/mol"): its exact map onto coherent SI units, nil when the unit
// converts through a formula; its symbol and its dimension. An error
// says why the name is no unit (the engine's UNKNOWN_UNIT, say).
type Units interface {
	SIMap(name string) (m *exact.Map, symbol string, dim dimension.Vector, err error)
}

// Quantity reads "VALUE UNIT" of the dimension want exactly into
// coherent SI units, for a request field (molar_mass, density,
// conditions), resolving the unit through units; its errors are
// *FieldError. The number ends at a space or where the unit starts
// ("25degC").
func Quantity(units Units, field, text string, want dimension.Vector) (*big.Rat, error) {
	shown := func() string { return fault.Truncate(text, 64) }
	text = strings.TrimSpace(text)
	num, unit, ok := strings.Cut(text, " ")
	if !ok {
		// "25degC": the number ends where the unit starts.
		i := strings.IndexFunc(text, func(r rune) bool { return !strings.ContainsRune("0123456789.+-eE", r) })
		for i > 0 && (text[i-1] == 'e' || text[i-1] == 'E') {
			i-- // "5e" of "5eq" is no exponent
		}
		if i > 0 {
			num, unit, ok = text[:i], text[i:], true
		}
	}
	unit = strings.TrimSpace(unit)
	if !ok || unit == "" {
		return nil, FieldErrorf(field, "%q: expected a value and a unit, such as %q", shown(), Example(want))
	}
	var x apd.Decimal
	if err := exact.ParseValue(&x, num); err != nil {
		return nil, FieldErrorf(field, "%q: %s", shown(), Message(err))
	}
	m, symbol, dim, err := units.SIMap(unit)
	if err != nil {
		return nil, FieldErrorf(field, "%q: %s", shown(), Message(err))
	}
	if m == nil {
		return nil, FieldErrorf(field, "%q: %s converts through a formula; name a linear unit", shown(), symbol)
	}
	if dim != want {
		return nil, FieldErrorf(field, "%q: %s has dimension %s, not %s (such as %q)", shown(), symbol, dim, want, Example(want))
	}
	if m.K() != 0 {
		return nil, FieldErrorf(field, "%q: a unit through π cannot state an exact value", shown())
	}
	if m.HasPole() {
		return nil, FieldErrorf(field, "%q: %s is a reciprocal unit and cannot state a value", shown(), symbol)
	}
	v, err := m.At(&x)
	if err != nil {
		return nil, FieldErrorf(field, "%q: value out of range", shown())
	}
	d := v.Rat()
	if err := exact.CheckSize(d); err != nil {
		return nil, FieldErrorf(field, "%q: value out of range", shown())
	}
	return d, nil
}
