// Package batchmix is the 100-item batch of unitd's performance
// measurements: the HTTP load run (tools/loadbench) and the server's batch
// benchmark send the same conversions, so their figures describe one
// workload.
package batchmix

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
)

// Size is the number of conversions in the batch.
const Size = 100

// Pairs are realistic conversions: linear, affine, aliases and Unicode
// spellings, a factor through π, and rational formulas (fuel consumption ↔
// economy). Body cycles through them.
var Pairs = [][2]string{
	{"ft", "m"},
	{"degC", "degF"},
	{"km", "mi"},
	{"L/100km", "mpg"},
	{"lb", "kg"},
	{"°F", "°C"},
	{"meters", "feet"},
	{"km/h", "mph"},
	{"kWh", "MJ"},
	{"psi", "kPa"},
	{"gal", "L"},
	{"in", "cm"},
	{"K", "degC"},
	{"mpg", "L/100km"},
	{"oz", "g"},
	{"kn", "m/s"},
	{"acre", "ha"},
	{"BTU", "kJ"},
	{"hp", "kW"},
	{"GiB", "MB"},
	{"atm", "mmHg"},
	{"µm", "in"},
	{"deg", "rad"},
	{"cup", "mL"},
	{"kilometres", "Miles"},
}

// WithDBm returns pairs with the 24th replaced by dBm → mW (10 ** (x / 10)):
// in a batch of 100, items 23, 48, 73 and 98, three of them with a
// non-integer exponent.
func WithDBm(pairs [][2]string) [][2]string {
	p := slices.Clone(pairs)
	p[23] = [2]string{"dBm", "mW"}
	return p
}

// Body builds the request body of the batch: the pairs in turn, with
// values of varied length and form (whole, one decimal, many decimals,
// an exponent).
func Body(pairs [][2]string) []byte {
	var b bytes.Buffer
	b.WriteString(`{"conversions":[`)
	for i := range Size {
		p := pairs[i%len(pairs)]
		value := strconv.Itoa(i + 1)
		switch i % 4 {
		case 1:
			value += ".5"
		case 2:
			value = strconv.FormatFloat(float64(i)*1.37+0.25, 'f', -1, 64)
		case 3:
			value += "e1"
		}
		if i > 0 {
			b.WriteByte(',')
		}
		item, _ := json.Marshal(map[string]string{"value": value, "from": p[0], "to": p[1]})
		b.Write(item)
	}
	b.WriteString(`]}`)
	return b.Bytes()
}
