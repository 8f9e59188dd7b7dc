// Package batchmix is the 100-item batch of unitd's performance
// measurements: the HTTP load run (tools/loadbench) and the server's batch
// benchmark send the same conversions, so their figures describe one
// workload.
package batchmix

import (
	"bytes"
	"encoding/json"
	"io"
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
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(AppendItem(nil, pairs, i))
	}
	b.WriteString(`]}`)
	return b.Bytes()
}

// Rows is the number of rows of the streaming workload: a data file of
// rows cycling through the pairs, with Row's values. The stream
// measurements repeat it to a million lines.
const Rows = 2000

// Row returns row i of the workload: pair i mod len(pairs), and a value of
// one of four forms by i mod 4 (whole, one decimal, many decimals, an
// exponent). The first Size rows are the items of Body.
func Row(pairs [][2]string, i int) (value, from, to string) {
	p := pairs[i%len(pairs)]
	value = strconv.Itoa(i + 1)
	switch i % 4 {
	case 1:
		value += ".5"
	case 2:
		value = strconv.FormatFloat(float64(i)*1.37+0.25, 'f', -1, 64)
	case 3:
		value += "e1"
	}
	return value, p[0], p[1]
}

// AppendItem appends row i as a batch item, the JSON object
// {"from":…,"to":…,"value":…}: an element of Body, or a line of an
// NDJSON stream without its newline.
func AppendItem(b []byte, pairs [][2]string, i int) []byte {
	value, from, to := Row(pairs, i)
	item, _ := json.Marshal(map[string]string{"value": value, "from": from, "to": to})
	return append(b, item...)
}

// AppendText appends row i as a line of `unitd convert -`,
// "VALUE FROM TO\n".
func AppendText(b []byte, pairs [][2]string, i int) []byte {
	value, from, to := Row(pairs, i)
	b = append(b, value...)
	b = append(b, ' ')
	b = append(b, from...)
	b = append(b, ' ')
	b = append(b, to...)
	return append(b, '\n')
}

// Lines returns a reader of n lines, line i being row i mod Rows of the
// workload as appendRow writes it (AppendItem and a newline for NDJSON,
// AppendText for `unitd convert -`). The Rows distinct lines are made
// once; the n lines are produced as they are read, so a million of them
// never sit in memory.
func Lines(n int, appendRow func(b []byte, i int) []byte) io.Reader {
	r := &linesReader{n: n}
	for i := range Rows {
		r.text = appendRow(r.text, i)
		r.ends[i] = len(r.text)
	}
	return r
}

type linesReader struct {
	text []byte    // the Rows distinct lines, one after another
	ends [Rows]int // where each ends in text
	n, i int       // lines in all, lines begun
	cur  []byte    // what is left of the current line
}

func (r *linesReader) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if len(r.cur) == 0 {
			if r.i == r.n {
				break
			}
			k := r.i % Rows
			start := 0
			if k > 0 {
				start = r.ends[k-1]
			}
			r.cur = r.text[start:r.ends[k]]
			r.i++
		}
		c := copy(p[n:], r.cur)
		n += c
		r.cur = r.cur[c:]
	}
	if n == 0 && len(p) > 0 {
		return 0, io.EOF
	}
	return n, nil
}
