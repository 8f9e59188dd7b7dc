package substance

import (
	"math/big"
	"strings"
	"testing"

	"github.com/cockroachdb/apd/v3"
	"github.com/unitd/unitd/engine/fault"
)

// hba1cSpec is a measurand shaped as the shipped HbA1c, with glucose.
func hba1cSpec() ([]ElementSpec, []SubstanceSpec, MeasurandSpec) {
	elements := []ElementSpec{
		{Symbol: "H", Name: "hydrogen", Number: 1, Weight: "1.008", Source: "test"},
		{Symbol: "C", Name: "carbon", Number: 6, Weight: "12.011", Source: "test"},
		{Symbol: "O", Name: "oxygen", Number: 8, Weight: "15.999", Source: "test"},
	}
	subs := []SubstanceSpec{{ID: "glucose", Name: "glucose", Formula: "C6H12O6"}}
	m := MeasurandSpec{
		ID: "hba1c", Name: "hemoglobin A1c", Aliases: []string{"HbA1c", "A1C"}, Kind: "clinical",
		Scales: []ScaleSpec{{Name: "NGSP", Unit: "%"}, {Name: "IFCC", Unit: "mmol/mol"}, {Name: "eAG", Unit: "mg/dL", Substance: "glucose"}},
		Equations: []EquationSpec{
			{Name: "master", Equation: "NGSP = 0.09148 * IFCC + 2.152", Source: "test"},
			{Name: "ADAG", Equation: "eAG = 28.7 × NGSP − 46.7", Source: "test"},
		},
		Examples: []MeasurandExampleSpec{{Value: "7", From: "%", Result: "53", To: "mmol/mol", Approx: true}},
	}
	return elements, subs, m
}

// TestParseEquation reads the equations as sources print them, and
// refuses what is not TO = FACTOR * FROM [± OFFSET] with the position.
func TestParseEquation(t *testing.T) {
	m := &Measurand{Scales: []*Scale{{Name: "NGSP", Unit: "%"}, {Name: "IFCC", Unit: "mmol/mol"}, {Name: "eAG", Unit: "mg/dL"}}}
	for _, tt := range []struct {
		src, text, err string
	}{
		{"NGSP = 0.09148 * IFCC + 2.152", "NGSP (%) = 0.09148 × IFCC (mmol/mol) + 2.152", ""},
		{"eAG = 28.7 × NGSP − 46.7", "eAG (mg/dL) = 28.7 × NGSP (%) − 46.7", ""},
		{"eAG=28.7*NGSP-46.7", "eAG (mg/dL) = 28.7 × NGSP (%) − 46.7", ""},
		{"IFCC = NGSP", "IFCC (mmol/mol) = 1 × NGSP (%)", ""},
		{"IFCC = -2 · NGSP", "IFCC (mmol/mol) = -2 × NGSP (%)", ""},
		{"NGSP = 0.09148 * JDS + 2.152", "", `"JDS" is no scale of the measurand at position 18`},
		{"NGSP 0.09148 * IFCC", "", "expected = at position 6"},
		{"NGSP = 0.09148 IFCC", "", "expected * after the factor at position 16"},
		{"NGSP = 0 * IFCC", "", "the factor is zero at position 8"},
		{"NGSP = 1e3 * IFCC", "", "expected * after the factor at position 9"},
		{"NGSP = 1/3 * IFCC", "", "expected * after the factor at position 9"},
		{"NGSP = 0.5 * NGSP", "", "relates scale NGSP to itself"},
		{"NGSP = 0.5 * IFCC + ", "", "expected the offset, a decimal at position 21"},
		{"NGSP = 0.5 * IFCC + -1", "", "expected the offset, a decimal at position 21"},
		{"NGSP = 0.5 * IFCC + 1 + 2", "", `unexpected "+ 2" at position 23`},
		{"NGSP = 0.5 * IFCC * 2", "", "expected + or - and the offset at position 19"},
		{"NGSP = . * IFCC", "", `"." is not a plain decimal at position 8`},
		{"= 1 * IFCC", "", "expected the name of a scale at position 1"},
	} {
		e, err := parseEquation(tt.src, m)
		switch {
		case tt.err != "" && (err == nil || err.Error() != tt.err):
			t.Errorf("%q: %v, want error %q", tt.src, err, tt.err)
		case tt.err == "" && err != nil:
			t.Errorf("%q: %v", tt.src, err)
		case tt.err == "" && e.Text() != tt.text:
			t.Errorf("%q reads as %q, want %q", tt.src, e.Text(), tt.text)
		}
	}
	// The coefficients are the decimals written, exactly.
	e, _ := parseEquation("NGSP = 0.09148 * IFCC + 2.152", m)
	if e.factor.Cmp(big.NewRat(9148, 100000)) != 0 || e.off.Cmp(big.NewRat(2152, 1000)) != 0 || e.Factor != "0.09148" || e.Offset != "2.152" {
		t.Errorf("coefficients %s, %s", e.factor, e.off)
	}
}

// TestMeasurandRoute: the route between two scales follows the equations
// forwards and backwards, and its map is their exact composition: 7 % is
// (7 − 2.152)/0.09148 mmol/mol, and 53 mmol/mol is 28.7·(0.09148·53 +
// 2.152) − 46.7 mg/dL.
func TestMeasurandRoute(t *testing.T) {
	els, subs, ms := hba1cSpec()
	c, errs := Build(els, nil, subs, []MeasurandSpec{ms}, nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	s := c.Find("A1C")
	if s == nil || s.Measurand == nil || s.ID != "hba1c" || c.Find("hemoglobin A1c") != s {
		t.Fatalf("A1C finds %+v", s)
	}
	m := s.Measurand
	ngsp, ifcc, eag := m.Scale("NGSP"), m.Scale("IFCC"), m.Scale("eAG")
	if eag.Substance == nil || eag.Substance.ID != "glucose" {
		t.Errorf("eAG's substance: %+v", eag.Substance)
	}
	for _, tt := range []struct {
		from, to *Scale
		steps    string
		x, want  string
	}{
		{ngsp, ifcc, "master inverse", "7", "(7 - 2.152) / 0.09148"},
		{ifcc, ngsp, "master", "53", "0.09148 * 53 + 2.152"},
		{ifcc, eag, "master, ADAG", "53", "28.7 * (0.09148 * 53 + 2.152) - 46.7"},
		{eag, ifcc, "ADAG inverse, master inverse", "154", "((154 + 46.7) / 28.7 - 2.152) / 0.09148"},
		{ngsp, ngsp, "", "7", "7"},
	} {
		route := m.Route(tt.from, tt.to)
		var names []string
		for _, st := range route {
			n := st.Equation.Name
			if st.Inverse {
				n += " inverse"
			}
			names = append(names, n)
		}
		if got := strings.Join(names, ", "); got != tt.steps {
			t.Errorf("%s → %s: route %q, want %q", tt.from.Name, tt.to.Name, got, tt.steps)
		}
		mp, err := RouteMap(route)
		if err != nil {
			t.Fatal(err)
		}
		var x apd.Decimal
		x.SetString(tt.x)
		v, err := mp.At(&x)
		if err != nil {
			t.Fatal(err)
		}
		if want := evalRat(t, tt.want); v.Rat().Cmp(want) != 0 {
			t.Errorf("%s → %s at %s: %s, want %s", tt.from.Name, tt.to.Name, tt.x, v.Rat().RatString(), want.RatString())
		}
		if RouteExact(route) != (len(route) == 0) {
			t.Errorf("%s → %s: exact %v", tt.from.Name, tt.to.Name, RouteExact(route))
		}
	}
	if got := (Step{m.Equations[0], true}).Text(); got != "IFCC (mmol/mol) = (NGSP (%) − 2.152) / 0.09148" {
		t.Errorf("inverse text %q", got)
	}
	if got := (Step{m.Equations[1], true}).Text(); got != "NGSP (%) = (eAG (mg/dL) + 46.7) / 28.7" {
		t.Errorf("inverse text %q", got)
	}
}

// evalRat evaluates a small arithmetic expression of decimals exactly:
// + - * / and parentheses, as the test writes them.
func evalRat(t *testing.T, s string) *big.Rat {
	t.Helper()
	toks := strings.Fields(strings.NewReplacer("(", " ( ", ")", " ) ").Replace(s))
	var expr, term, atom func() *big.Rat
	pos := 0
	atom = func() *big.Rat {
		tok := toks[pos]
		pos++
		if tok == "(" {
			r := expr()
			pos++ // )
			return r
		}
		r, ok := new(big.Rat).SetString(tok)
		if !ok {
			t.Fatalf("bad number %q", tok)
		}
		return r
	}
	term = func() *big.Rat {
		r := atom()
		for pos < len(toks) && (toks[pos] == "*" || toks[pos] == "/") {
			op := toks[pos]
			pos++
			if op == "*" {
				r.Mul(r, atom())
			} else {
				r.Quo(r, atom())
			}
		}
		return r
	}
	expr = func() *big.Rat {
		r := term()
		for pos < len(toks) && (toks[pos] == "+" || toks[pos] == "-") {
			op := toks[pos]
			pos++
			if op == "+" {
				r.Add(r, term())
			} else {
				r.Sub(r, term())
			}
		}
		return r
	}
	return expr()
}

// TestMeasurandBuildErrors: every problem of a measurand is reported at
// its origin, and a measurand that does not build is not in the catalog.
func TestMeasurandBuildErrors(t *testing.T) {
	els, subs, good := hba1cSpec()
	o := func(line int) fault.Origin { return fault.Origin{File: "measurands.yaml", Line: line, Column: 5} }
	for _, tt := range []struct {
		name string
		edit func(m *MeasurandSpec)
		want string
	}{
		{"bad id", func(m *MeasurandSpec) { m.ID = "HbA1c" }, "id must be lower-case"},
		{"no name", func(m *MeasurandSpec) { m.Name = "" }, "name is required"},
		{"one scale", func(m *MeasurandSpec) { m.Scales = m.Scales[:1]; m.Equations = nil }, "needs at least two scales"},
		{"scale twice", func(m *MeasurandSpec) { m.Scales = append(m.Scales, ScaleSpec{Name: "IFCC", Unit: "mmol/mol"}) }, `scale "IFCC" is declared twice`},
		{"scale name", func(m *MeasurandSpec) { m.Scales[0].Name = "NGSP %" }, `scale "NGSP %": a name is a letter`},
		{"no unit", func(m *MeasurandSpec) { m.Scales[1].Unit = " " }, `scale "IFCC": unit is required`},
		{"unknown substance", func(m *MeasurandSpec) { m.Scales[2].Substance = "fructose" }, `scale "eAG": substance "fructose" is not in the catalog`},
		{"no source", func(m *MeasurandSpec) { m.Equations[1].Source = "" }, `equation "eAG = 28.7 × NGSP − 46.7": source is required`},
		{"no equation name", func(m *MeasurandSpec) { m.Equations[0].Name = "" }, "name is required"},
		{"bad equation", func(m *MeasurandSpec) { m.Equations[0].Equation = "NGSP = 0.09148 * IFC + 2.152" }, `"IFC" is no scale of the measurand at position 18`},
		{"two routes", func(m *MeasurandSpec) {
			m.Equations = append(m.Equations, EquationSpec{Name: "direct", Equation: "eAG = 2.6 * IFCC + 15", Source: "test"})
		}, "IFCC and eAG are already related (by another route of equations)"},
		{"unrelated scale", func(m *MeasurandSpec) { m.Equations = m.Equations[:1] }, "no equation relates scale eAG to scale NGSP"},
		{"no examples", func(m *MeasurandSpec) { m.Examples = nil }, "needs worked examples"},
		{"name taken", func(m *MeasurandSpec) { m.Aliases = append(m.Aliases, "Glc", "dextrose") }, `name "dextrose" is already substance "glucose"`},
	} {
		m := good
		m.Origin = o(2)
		m.Scales = append([]ScaleSpec(nil), good.Scales...)
		m.Equations = append([]EquationSpec(nil), good.Equations...)
		m.Aliases = append([]string(nil), good.Aliases...)
		tt.edit(&m)
		subs := append([]SubstanceSpec(nil), subs...)
		subs[0].Aliases = []string{"dextrose"}
		c, errs := Build(els, nil, subs, []MeasurandSpec{m}, nil)
		var msgs []string
		for _, e := range errs {
			msgs = append(msgs, e.Error())
		}
		if len(errs) == 0 || !strings.Contains(strings.Join(msgs, "\n"), tt.want) {
			t.Errorf("%s: %v, want %q", tt.name, msgs, tt.want)
		}
		if tt.name != "name taken" && c.Find("hemoglobin A1c") != nil {
			t.Errorf("%s: the broken measurand is in the catalog", tt.name)
		}
	}
}
