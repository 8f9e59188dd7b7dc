package catalog

import (
	"fmt"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/apd/v3"
	"github.com/unitd/unitd/engine"
)

// cldrFactor is a factor of CLDR's units.json as codes/cldr.tsv writes it
// (tools/codetables spells the constants out): r · π^pi, exactly.
type cldrFactor struct {
	r  *big.Rat
	pi int
}

// parseCLDRFactor reads a factor: decimals (1.5, 6.02214076E+23) and pi,
// multiplied and divided, in parentheses.
func parseCLDRFactor(s string) (cldrFactor, error) {
	p := &cldrFactorParser{s: strings.ReplaceAll(s, " ", "")}
	f, err := p.product()
	if err == nil && p.i < len(p.s) {
		err = fmt.Errorf("unexpected %q", p.s[p.i:])
	}
	if err != nil {
		return cldrFactor{}, fmt.Errorf("factor %q at %d: %w", s, p.i, err)
	}
	return f, nil
}

type cldrFactorParser struct {
	s string
	i int
}

func (p *cldrFactorParser) product() (cldrFactor, error) {
	f, err := p.operand()
	if err != nil {
		return f, err
	}
	for p.i < len(p.s) && (p.s[p.i] == '*' || p.s[p.i] == '/') {
		op := p.s[p.i]
		p.i++
		g, err := p.operand()
		if err != nil {
			return f, err
		}
		if op == '*' {
			f = cldrFactor{new(big.Rat).Mul(f.r, g.r), f.pi + g.pi}
		} else {
			if g.r.Sign() == 0 {
				return f, fmt.Errorf("division by zero")
			}
			f = cldrFactor{new(big.Rat).Quo(f.r, g.r), f.pi - g.pi}
		}
	}
	return f, nil
}

func (p *cldrFactorParser) operand() (cldrFactor, error) {
	switch {
	case p.i >= len(p.s):
		return cldrFactor{}, fmt.Errorf("operand missing")
	case p.s[p.i] == '(':
		p.i++
		f, err := p.product()
		if err != nil {
			return f, err
		}
		if p.i >= len(p.s) || p.s[p.i] != ')' {
			return f, fmt.Errorf("missing )")
		}
		p.i++
		return f, nil
	case strings.HasPrefix(p.s[p.i:], "pi"):
		p.i += 2
		return cldrFactor{big.NewRat(1, 1), 1}, nil
	}
	start := p.i
	for p.i < len(p.s) && strings.IndexByte("0123456789.eE+-", p.s[p.i]) >= 0 {
		if (p.s[p.i] == '+' || p.s[p.i] == '-') && p.i > start && p.s[p.i-1] != 'e' && p.s[p.i-1] != 'E' {
			break
		}
		p.i++
	}
	r, ok := new(big.Rat).SetString(p.s[start:p.i])
	if !ok {
		return cldrFactor{}, fmt.Errorf("%q is no number", p.s[start:p.i])
	}
	return cldrFactor{r, 0}, nil
}

// piDigits is π to 80 digits, computed by Machin's formula
// π = 16·atan(1/5) − 4·atan(1/239) in fixed point.
var piDigits = func() *apd.Decimal {
	const digits = 90
	unit := new(big.Int).Exp(big.NewInt(10), big.NewInt(digits), nil)
	atanInv := func(x int64) *big.Int {
		// atan(1/x) = Σ (-1)^k / ((2k+1)·x^(2k+1))
		sum := new(big.Int)
		term := new(big.Int).Quo(unit, big.NewInt(x))
		x2 := big.NewInt(x * x)
		for k := int64(0); term.Sign() != 0; k++ {
			t := new(big.Int).Quo(term, big.NewInt(2*k+1))
			if k%2 == 0 {
				sum.Add(sum, t)
			} else {
				sum.Sub(sum, t)
			}
			term.Quo(term, x2)
		}
		return sum
	}
	pi := new(big.Int).Mul(atanInv(5), big.NewInt(16))
	pi.Sub(pi, new(big.Int).Mul(atanInv(239), big.NewInt(4)))
	d := apd.NewWithBigInt(new(apd.BigInt).SetMathBigInt(pi), -digits)
	apd.BaseContext.WithPrecision(80).Round(d, d)
	return d
}()

// decimal is the factor to 60 digits.
func (f cldrFactor) decimal() *apd.Decimal {
	ctx := apd.BaseContext.WithPrecision(70)
	d := ratDecimal(f.r)
	for i := 0; i < f.pi; i++ {
		ctx.Mul(d, d, piDigits)
	}
	for i := 0; i > f.pi; i-- {
		ctx.Quo(d, d, piDigits)
	}
	return d
}

// cldrUnit is a unit of codes/cldr.tsv: base = x·factor + offset.
type cldrUnit struct {
	id, base       string
	factor, offset cldrFactor
}

// cldrPiDigits is the precision of a comparison through π, which CLDR
// writes as a rational (411557987/131002976) that codetables reads as π.
const cldrPiDigits = 30

// TestDifferentialCLDR converts every simple unit of codes/cldr.tsv (CLDR's
// units.json), every prefixable one under every prefix, and every
// deprecated identifier, at 1, 37.5 and -37.5, to its CLDR base unit
// (cldr:<base>) and back, and compares with x·factor + offset computed
// exactly: unitd's 34 digits must be the exact value rounded, or agree
// to cldrPiDigits where the factor goes through π.
func TestDifferentialCLDR(t *testing.T) {
	g := shipped(t)
	start := time.Now()
	var units []cldrUnit
	type prefix struct {
		name  string
		value *big.Rat
	}
	var prefixes []prefix
	var prefixable []cldrUnit
	aliases := map[string]string{}
	var special int
	for _, row := range readTSV(t, "codes/cldr.tsv") {
		if len(row) < 7 {
			t.Fatalf("codes/cldr.tsv: row %q has %d columns", row, len(row))
		}
		switch row[0] {
		case "prefix":
			prefixes = append(prefixes, prefix{row[1], ratOf(t, row[3])})
		case "alias":
			aliases[row[1]] = row[2]
		case "unit":
			if row[6] != "" {
				special++ // beaufort: CLDR gives no factor, ICU's code converts
				continue
			}
			f, err := parseCLDRFactor(row[3])
			if err != nil {
				t.Fatal(err)
			}
			o := cldrFactor{new(big.Rat), 0}
			if row[4] != "" {
				if o, err = parseCLDRFactor(row[4]); err != nil {
					t.Fatal(err)
				}
			}
			u := cldrUnit{id: row[1], base: row[2], factor: f, offset: o}
			units = append(units, u)
			if strings.Contains(" "+row[5]+" ", " prefixable ") {
				prefixable = append(prefixable, u)
			}
		}
	}
	if len(units) < 150 || len(prefixes) < 30 {
		t.Fatalf("codes/cldr.tsv has %d units and %d prefixes; expected the whole table", len(units), len(prefixes))
	}
	var names []string
	for _, p := range prefixes {
		names = append(names, p.name)
	}
	r := newDiffReport(t, "cldr", names)

	known := map[string]bool{}
	for _, u := range units {
		known[u.id] = true
	}
	cases := append([]cldrUnit(nil), units...)
	for _, u := range prefixable {
		for _, p := range prefixes {
			id := p.name + u.id
			if known[id] {
				continue // kilogram is a unit of its own
			}
			cases = append(cases, cldrUnit{id: id, base: u.base, factor: cldrFactor{new(big.Rat).Mul(p.value, u.factor.r), u.factor.pi}, offset: u.offset})
		}
	}
	for _, u := range cases {
		checkCLDRPair(t, g, r, u)
	}
	// A deprecated identifier is its replacement.
	for _, alias := range sortedKeys(aliases) {
		repl := aliases[alias]
		pair := alias + " → " + repl
		for _, v := range differentialValues {
			for _, dir := range [][2]string{{alias, repl}, {repl, alias}} {
				r.convertCase(g, pair, engine.Request{Value: v, From: "cldr:" + dir[0], To: "cldr:" + dir[1], Precision: engine.DefaultPrecision}, v, func(got, want string) bool {
					return decimal(t, got).Cmp(decimal(t, want)) == 0
				})
			}
		}
	}
	t.Logf("cldr: %d units, %d under prefixes, %d aliases; left out: %d special; %v",
		len(units), len(cases)-len(units), len(aliases), special, time.Since(start).Round(time.Millisecond))
	r.finish()
}

// checkCLDRPair converts u to its base unit and back at every value, and
// to the catalog unit that claims its identifier, or else the one its
// identifier names ("century"): the same unit by its name, the identity.
// That is what reaches unitd's own units from CLDR's, whose base units
// count the radian and steradian as one (lux is candela-per-square-meter
// in CLDR).
func checkCLDRPair(t *testing.T, g *engine.Graph, r *diffReport, u cldrUnit) {
	t.Helper()
	throughPi := u.factor.pi != 0 || u.offset.pi != 0
	named, _ := g.Find(u.id)
	if claimant := g.CLDRClaimant(u.id); claimant != "" {
		named, _ = g.Find(claimant)
	}
	if named != nil {
		pair := u.id + " → " + named.Symbol
		for _, v := range differentialValues {
			if strings.HasPrefix(v, "-") && u.base == "kelvin" && u.offset.r.Sign() == 0 {
				continue
			}
			want := decimal(t, v)
			for _, dir := range [][2]string{{"cldr:" + u.id, named.Symbol}, {named.Symbol, "cldr:" + u.id}} {
				r.convertCase(g, pair, engine.Request{Value: v, From: dir[0], To: dir[1], Precision: engine.DefaultPrecision}, v, cldrAgree(t, want, throughPi))
			}
		}
	}
	pair := u.id + " → " + u.base
	if u.id == u.base {
		return // the base unit itself: its prefixed forms convert to it
	}
	ctx := apd.BaseContext.WithPrecision(70)
	f, o := u.factor.decimal(), u.offset.decimal()
	// A temperature of a scale from absolute zero has no negative values.
	absolute := u.base == "kelvin"
	for _, v := range differentialValues {
		x := decimal(t, v)
		negative := x.Negative
		if !(negative && absolute && u.offset.r.Sign() == 0) {
			var want apd.Decimal
			ctx.Mul(&want, x, f)
			ctx.Add(&want, &want, o)
			r.convertCase(g, pair, engine.Request{Value: v, From: "cldr:" + u.id, To: "cldr:" + u.base, Precision: engine.DefaultPrecision}, want.String(), cldrAgree(t, &want, throughPi))
		}
		if !(negative && absolute) {
			var want apd.Decimal
			ctx.Sub(&want, x, o)
			ctx.Quo(&want, &want, f)
			r.convertCase(g, pair, engine.Request{Value: v, From: "cldr:" + u.base, To: "cldr:" + u.id, Precision: engine.DefaultPrecision}, want.String(), cldrAgree(t, &want, throughPi))
		}
	}
}

// cldrAgree compares unitd's answer with the exact value: within half a
// unit in the last of unitd's 34 digits, or of cldrPiDigits through π.
func cldrAgree(t *testing.T, want *apd.Decimal, throughPi bool) func(got, _ string) bool {
	return func(got, _ string) bool {
		gd := decimal(t, got)
		digits := engine.DefaultPrecision
		if throughPi {
			digits = cldrPiDigits
		}
		// Half a unit in the last digit, and a hair for the 70 digits of
		// the exact value.
		tol := halfULP(want, digits)
		apd.BaseContext.WithPrecision(70).Mul(tol, tol, apd.New(1000001, -6))
		return within(gd, want, tol)
	}
}
