package catalog

import (
	"fmt"
	"math/big"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cockroachdb/apd/v3"
	"github.com/unitd/unitd/engine"
)

// qudtUnit is a row of codes/qudt.tsv: QUDT's local name, its dimension
// vector, and the conversion onto the coherent SI unit of that dimension,
// SI = (x + offset) · multiplier, as decimal text.
type qudtUnit struct {
	name, dim, multiplier, offset, symbol string
	systems                               []string
}

// qudtDimTerm is a term of a QUDT dimension vector (A0E0L2I0M1H0T-2D0).
var qudtDimTerm = regexp.MustCompile(`([AELIMHTD])(-?[0-9]+)`)

// qudtBaseSymbols are unitd's symbols of the SI base units, by QUDT's
// letters of the base dimensions.
var qudtBaseSymbols = []struct{ letter, symbol string }{
	{"M", "kg"}, {"L", "m"}, {"T", "s"}, {"E", "A"}, {"H", "K"}, {"A", "mol"}, {"I", "cd"},
}

// qudtBaseExpression is the coherent SI unit of a QUDT dimension vector as
// a unitd expression of base units ("kg*m^2*s^-2"); a dimension of one is
// ucum:1. QUDT counts the radian and steradian as one, so an angular
// velocity's is s^-1.
func qudtBaseExpression(dim string) (string, error) {
	exps := map[string]int{}
	for _, m := range qudtDimTerm.FindAllStringSubmatch(dim, -1) {
		n, err := strconv.Atoi(m[2])
		if err != nil {
			return "", err
		}
		exps[m[1]] = n
	}
	if len(exps) != 8 {
		return "", fmt.Errorf("dimension vector %q: want 8 terms", dim)
	}
	var terms []string
	for _, b := range qudtBaseSymbols {
		// unitd's exponents go from -9 to 9: s^10 is written s^9*s.
		for n := exps[b.letter]; n != 0; {
			e := max(min(n, 9), -9)
			if e == 1 {
				terms = append(terms, b.symbol)
			} else {
				terms = append(terms, fmt.Sprintf("%s^%d", b.symbol, e))
			}
			n -= e
		}
	}
	if len(terms) == 0 {
		return "ucum:1", nil
	}
	return strings.Join(terms, "*"), nil
}

// qudtScale is a unit as QUDT maps it onto the coherent SI unit of its
// dimension: SI = (x + offset) · multiplier, as decimal text.
type qudtScale struct {
	multiplier, offset string
}

var qudtCoherent = qudtScale{"1", ""}

// qudtSITargets is how many QUDT units of multiplier 1 a unit converts
// to, of those unitd takes: all are the same unit to QUDT, and a
// dimensionless unit has 25 of them; two keep the suite quick.
const qudtSITargets = 2

// qudtRoundedDigits is the number of significant digits from which a
// figure of the QUDT table is taken as rounded.
const qudtRoundedDigits = 15

// qudtExpect converts from a to b through the coherent SI unit, exactly,
// and says how far an answer may be from it: half a unit in the last of
// unitd's 34 digits, and the owner's error (qudtError) in a multiplier or
// offset of qudtRoundedDigits or more, carried through the conversion.
// QUDT writes a multiplier it derives to 34 digits (DECIMAL128), and some
// to the 16 or 17 of a double; those are compared at their digits. A
// shorter figure is the definition itself (0.3048, 4.4482216152605) and is
// exact: where QUDT rounded one short (0.0283168466 for the cubic foot),
// the difference is judged.
func qudtExpect(t *testing.T, a, b qudtScale) func(v string) (want *apd.Decimal, tol func(got *apd.Decimal) *apd.Decimal) {
	t.Helper()
	ma, oa, mb, ob := ratOf(t, a.multiplier), ratOf(t, a.offset), ratOf(t, b.multiplier), ratOf(t, b.offset)
	// Relative error of a rounded multiplier, absolute error of a rounded
	// offset (in b's scale).
	rel := new(big.Rat).Add(qudtRelError(t, a.multiplier), qudtRelError(t, b.multiplier))
	off := new(big.Rat).Mul(qudtError(t, a.offset), new(big.Rat).Abs(new(big.Rat).Quo(ma, mb)))
	off.Add(off, qudtError(t, b.offset))
	return func(v string) (*apd.Decimal, func(got *apd.Decimal) *apd.Decimal) {
		scaled := new(big.Rat).Add(ratOf(t, v), oa)
		scaled.Mul(scaled, ma)
		scaled.Quo(scaled, mb) // the result but for b's offset
		want := ratDecimal(new(big.Rat).Sub(scaled, ob))
		bound := new(big.Rat).Mul(rel, scaled.Abs(scaled))
		bd := ratDecimal(bound.Add(bound, off))
		return want, func(got *apd.Decimal) *apd.Decimal {
			var tol apd.Decimal
			apd.BaseContext.WithPrecision(60).Add(&tol, bd, halfULP(got, engine.DefaultPrecision))
			return &tol
		}
	}
}

// qudtFullDigits is the length of the figures QUDT computes in DECIMAL128.
const qudtFullDigits = 34

// qudtError is how far a figure of the QUDT table may be from the value it
// stands for: 0 for an exact one (fewer than qudtRoundedDigits digits);
// half a unit in its last digit for one QUDT rounds; a whole unit in the
// last digit for a figure of 34 digits, which QUDT truncates as often as
// it rounds (BBL_UK_PET-PER-DAY is 0.1591132/86400, …962962962 where the
// value rounds to …962962963; SCM-PER-MIN, 42.3105/60 = 0.705175, is
// written 0.7051750000000000000000000000000001).
func qudtError(t *testing.T, s string) *big.Rat {
	d := decimalOrZero(s)
	if d.IsZero() || d.NumDigits() < qudtRoundedDigits {
		return new(big.Rat)
	}
	lead := int64(5)
	if d.NumDigits() >= qudtFullDigits {
		lead = 10
	}
	return new(big.Rat).Set(ratOf(t, apd.New(lead, d.Exponent-1).String()))
}

// qudtRelError is qudtError relative to the figure.
func qudtRelError(t *testing.T, s string) *big.Rat {
	h := qudtError(t, s)
	if h.Sign() == 0 {
		return h
	}
	return h.Quo(h, new(big.Rat).Abs(ratOf(t, s)))
}

func decimalOrZero(s string) *apd.Decimal {
	if s == "" {
		return apd.New(0, 0)
	}
	d, _, err := apd.NewFromString(s)
	if err != nil {
		return apd.New(0, 0)
	}
	return d
}

// ratOf reads decimal text exactly. The result is shared: callers do not
// change it.
func ratOf(t *testing.T, s string) *big.Rat {
	t.Helper()
	if r, ok := ratCache.Load(s); ok {
		return r.(*big.Rat)
	}
	r := new(big.Rat)
	if s != "" {
		if _, ok := r.SetString(s); !ok {
			t.Fatalf("%q is no decimal", s)
		}
	}
	ratCache.Store(s, r)
	return r
}

// ratCache holds the decimals ratOf has read: the QUDT suite reads the
// same multipliers thousands of times.
var ratCache sync.Map

// TestDifferentialQUDT converts every unit of codes/qudt.tsv that QUDT
// gives a multiplier, at 1, 37.5 and -37.5, to the coherent SI unit of its
// dimension and back, and compares with (x + offset)·multiplier computed
// exactly from the table's decimals (@qudtlib/allunits), to the owner's
// digits (qudtTolerance). The SI unit is named both as an expression of
// base units and as each QUDT unit of that dimension with the multiplier 1
// (HZ, RAD-PER-SEC, PER-SEC for T^-1), of the SI system where there are
// such: each one unitd converts to must give QUDT's figure, and unitd must
// convert to at least one.
func TestDifferentialQUDT(t *testing.T) {
	g := shipped(t)
	start := time.Now()
	var units []qudtUnit
	var deprecated, noFactor, noDimension int
	for _, row := range readTSV(t, "codes/qudt.tsv") {
		if len(row) < 9 {
			t.Fatalf("codes/qudt.tsv: row %q has %d columns", row, len(row))
		}
		switch {
		case row[6] == "1":
			deprecated++
		case row[1] == "":
			noDimension++ // no dimension vector: QUDT names no SI unit to convert to
		case row[2] == "" || ratOf(t, row[2]).Sign() == 0:
			noFactor++ // a logarithmic or other nonlinear unit: QUDT gives no factor
		default:
			units = append(units, qudtUnit{name: row[0], dim: row[1], multiplier: row[2], offset: row[3], symbol: row[4], systems: strings.Fields(row[8])})
		}
	}
	if len(units) < 2000 {
		t.Fatalf("codes/qudt.tsv has %d units with a factor; expected the whole table", len(units))
	}

	// The SI units of each dimension: multiplier 1, no offset.
	siOf := map[string][]qudtUnit{}
	for _, u := range units {
		if ratOf(t, u.multiplier).Cmp(big.NewRat(1, 1)) == 0 && ratOf(t, u.offset).Sign() == 0 {
			siOf[u.dim] = append(siOf[u.dim], u)
		}
	}
	for dim, us := range siOf {
		var si []qudtUnit
		for _, u := range us {
			if slices.Contains(u.systems, "SI") {
				si = append(si, u)
			}
		}
		if len(si) > 0 {
			us = si
		}
		sort.Slice(us, func(i, j int) bool { return us[i].name < us[j].name })
		siOf[dim] = us
	}

	// A catalog unit that claims a QUDT code says what its category's
	// base is worth in QUDT's terms.
	scaleOf := map[string]qudtScale{}
	for _, u := range units {
		scaleOf[u.name] = qudtScale{u.multiplier, u.offset}
	}

	r := newDiffReport(t, "qudt", nil)
	var targets int
	for _, u := range units {
		base, err := qudtBaseExpression(u.dim)
		if err != nil {
			t.Fatalf("qudt:%s: %v", u.name, err)
		}
		from := "qudt:" + u.name
		unit, expr, err := g.Resolve(from)
		if err != nil {
			r.ran(u.name + " → ?")
			r.differ(u.name+" → ?", "unitd does not read %s: %v", from, err)
			continue
		}
		type target struct {
			to    string
			scale qudtScale
		}
		candidates := []target{{base, qudtCoherent}}
		for _, si := range siOf[u.dim] {
			if si.name != u.name {
				candidates = append(candidates, target{"qudt:" + si.name, qudtCoherent})
			}
		}
		// The base unit of the category unitd reads the code in, by its
		// catalog symbol, where it is the coherent SI unit of QUDT's
		// dimension (not km/L, the base of fuel economy, nor rad/s, which
		// unitd does not take for s^-1), or claims a QUDT code that says
		// what it is.
		var category *engine.Category
		switch {
		case unit != nil:
			category = unit.Category
		case expr != nil:
			category = expr.Category
		}
		if category != nil && category.Base != nil {
			if q := category.Base.CodeOf("qudt"); q != "" && scaleOf[q].multiplier != "" {
				candidates = append(candidates, target{category.Base.Symbol, scaleOf[q]})
			} else if res, _, err := convertRecovering(g, engine.Request{Value: "1", From: category.Base.Symbol, To: base}); err == nil && res.Value == "1" {
				candidates = append(candidates, target{category.Base.Symbol, qudtCoherent})
			}
		}
		// The unit's own symbol in QUDT, where unitd reads it: the same
		// unit by another name, so the conversion is the identity. This is
		// what reaches unitd's angles, which QUDT's dimension vectors
		// leave out (RAD-PER-SEC is rad/s, T^-1 in QUDT).
		if u.symbol != "" {
			if _, _, err := g.Resolve(u.symbol); err == nil {
				candidates = append(candidates, target{u.symbol, qudtScale{u.multiplier, u.offset}})
			}
		}
		accepted, siAccepted := 0, 0
		for _, c := range candidates {
			si := strings.HasPrefix(c.to, "qudt:") && c.scale == qudtCoherent
			if si && siAccepted == qudtSITargets {
				continue
			}
			if _, _, err := convertRecovering(g, engine.Request{Value: "1", From: from, To: c.to, Precision: engine.DefaultPrecision}); err != nil {
				continue
			}
			if si {
				siAccepted++
			}
			accepted++
			targets++
			checkQUDTPair(t, g, r, u, c.to, c.scale)
		}
		if accepted == 0 {
			pair := u.name + " → " + base
			r.ran(pair)
			var tried []string
			for _, c := range candidates {
				tried = append(tried, c.to)
			}
			r.differ(pair, "unitd converts %s to no SI unit of its QUDT dimension %s (tried %s)", from, u.dim, strings.Join(tried, ", "))
		}
	}
	t.Logf("qudt: %d units with a factor (%d targets); left out: %d deprecated, %d without a dimension vector, %d without a factor; %v",
		len(units), targets, deprecated, noDimension, noFactor, time.Since(start).Round(time.Millisecond))
	r.finish()
}

// checkQUDTPair converts u to the unit `to`, whose scale in QUDT's terms
// is given, and back, at every value.
func checkQUDTPair(t *testing.T, g *engine.Graph, r *diffReport, u qudtUnit, to string, toScale qudtScale) {
	t.Helper()
	pair := u.name + " → " + to
	from := "qudt:" + u.name
	uScale := qudtScale{u.multiplier, u.offset}
	// A temperature of a scale from absolute zero has no negative values.
	absolute := func(s qudtScale) bool {
		return u.dim == "A0E0L0I0M0H1T0D0" && ratOf(t, s.offset).Sign() == 0
	}
	expect := map[bool]func(string) (*apd.Decimal, func(*apd.Decimal) *apd.Decimal){
		true:  qudtExpect(t, uScale, toScale),
		false: qudtExpect(t, toScale, uScale),
	}
	for _, v := range differentialValues {
		negative := strings.HasPrefix(v, "-")
		for _, dir := range []struct {
			from, to string
			a, b     qudtScale
		}{{from, to, uScale, toScale}, {to, from, toScale, uScale}} {
			if negative && absolute(dir.a) {
				continue
			}
			wd, tol := expect[dir.a == uScale](v)
			r.convertCase(g, pair, engine.Request{Value: v, From: dir.from, To: dir.to, Precision: engine.DefaultPrecision}, wd.String(), func(got, _ string) bool {
				gd := decimal(t, got)
				return within(gd, wd, tol(gd))
			})
		}
	}
}
