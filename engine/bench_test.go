package engine

import "testing"

// convertCases are the conversions BenchmarkConvert and
// BenchmarkAppendConvert time: one of each kind of definition.
var convertCases = []struct {
	name string
	req  Request
}{
	{"linear", Request{Value: "12.5", From: "ft", To: "m"}},
	{"linear_division", Request{Value: "12.5", From: "m", To: "ft"}},
	{"linear_aliases", Request{Value: "12.5", From: "feet", To: "Meters"}},
	{"affine", Request{Value: "98.6", From: "degF", To: "degC"}},
	{"formula", Request{Value: "7.5", From: "L/100km", To: "mpg"}},
	{"formula_log", Request{Value: "0.25", From: "W", To: "dBm"}},
	{"formula_exp", Request{Value: "-13.7", From: "dBm", To: "W"}},
	{"expression_seen", Request{Value: "12.5", From: "kg*m/s^2", To: "N"}},
	{"expression_both", Request{Value: "12.5", From: "ft*lb/s^2", To: "kg*m/s^2"}},
	{"interval", Request{Value: "12.5", From: "K", To: "delta_degF"}},
	{"pi", Request{Value: "12.5", From: "deg", To: "rad"}},
	{"bridge", Request{Value: "12.5", From: "rpm", To: "deg/s"}},
}

// BenchmarkConvert times one whole conversion (parse, look up both units,
// convert, round, format) for each kind of definition, through Convert:
// a Request and a Result by value.
func BenchmarkConvert(b *testing.B) {
	g := testGraph(b)
	for _, c := range convertCases {
		b.Run(c.name, func(b *testing.B) {
			if _, err := g.Convert(c.req); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				g.Convert(c.req)
			}
		})
	}
}

// BenchmarkAppendConvert times the same conversions through AppendConvert,
// as the server and the command line convert: the Request and Result by
// pointer, reused from one conversion to the next, and the answer's text
// appended to a buffer. Convert's cost beyond it is copying its two
// structs in and out.
func BenchmarkAppendConvert(b *testing.B) {
	g := testGraph(b)
	for _, c := range convertCases {
		b.Run(c.name, func(b *testing.B) {
			var buf [64]byte
			var res Result
			req := c.req
			if _, err := g.AppendConvert(buf[:0], &req, &res); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				res = Result{}
				text, _ := g.AppendConvert(buf[:0], &req, &res)
				res.Value = string(text)
			}
		})
	}
}

// BenchmarkBuild compiles the test catalog.
func BenchmarkBuild(b *testing.B) {
	spec := testSpec()
	b.ReportAllocs()
	for b.Loop() {
		if _, errs := Build(spec); errs != nil {
			b.Fatal(errs)
		}
	}
}

// BenchmarkParseExpression times the first parse of a 5-operand
// expression (no cache), and a lookup of one already parsed.
func BenchmarkParseExpression(b *testing.B) {
	g := testGraph(b)
	const expr = "lb*ft^2/(s^2*K*min)"
	b.Run("first", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := g.parseExpression(expr); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("cached", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, _, err := g.Resolve(expr); err != nil {
				b.Fatal(err)
			}
		}
	})
}
