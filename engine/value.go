package engine

import (
	"github.com/cockroachdb/apd/v3"
	"github.com/unitd/unitd/engine/internal/exact"
)

// Limits on submitted values.
const (
	MaxValueLength   = exact.MaxValueLength
	MaxValueExponent = exact.MaxValueExponent
	DefaultPrecision = exact.DefaultPrecision
	MaxPrecision     = exact.MaxPrecision
)

// ParseValue reads a decimal value: an optional sign, digits with an
// optional fraction, and an optional exponent. Anything else (empty text,
// white space, NaN, Infinity, hex, separators, over 100 characters, an
// exponent beyond ±1000) is an INVALID_VALUE error.
func ParseValue(s string) (apd.Decimal, error) {
	var d apd.Decimal
	err := exact.ParseValue(&d, s)
	return d, err
}

// FormatDecimal prints d as the API does: trailing zeros removed, -0 as 0,
// plain notation when the decimal exponent is in [-7, 21), otherwise
// scientific with a lower-case e and an explicit exponent sign
// (1.602176634e-19, 1e+21).
func FormatDecimal(d *apd.Decimal) string { return exact.FormatDecimal(d) }
