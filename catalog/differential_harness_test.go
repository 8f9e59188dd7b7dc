package catalog

import (
	"math/big"
	"testing"

	"github.com/cockroachdb/apd/v3"
)

// TestDifferentialListPatterns checks what a line of judged.txt or
// pending.txt names: * any text, {prefix} exactly one prefix.
func TestDifferentialListPatterns(t *testing.T) {
	prefixes := []string{"k", "m", "da", "Ki"}
	for _, c := range []struct {
		pattern, pair string
		want          bool
	}{
		{"[degRe] → *", "[degRe] → K", true},
		{"[degRe] → *", "[degR] → K", false},
		{"{prefix}Bd → *", "kBd → s", true},
		{"{prefix}Bd → *", "daBd → min", true},
		{"{prefix}Bd → *", "Bd → s", false},
		{"{prefix}Bd → *", "kkBd → s", false},
		{"{prefix}B[*] → *", "KiB[SPL] → B[SPL]", true},
		{"*/[LPF] → 1", "{#}/[LPF] → 1", true},
		{"*/[LPF] → 1", "/[LPF] → 10*", false},
		{"*eq* → *mol*", "meq/L → mmol/L", true},
		{"a.b → c", "aXb → c", false},
	} {
		e := &listEntry{pattern: c.pattern}
		e.compile(prefixes)
		if got := e.re.MatchString(c.pair); got != c.want {
			t.Errorf("%q matches %q: %v, want %v", c.pattern, c.pair, got, c.want)
		}
	}
}

// TestCLDRFactor reads factors as codes/cldr.tsv writes them.
func TestCLDRFactor(t *testing.T) {
	for _, c := range []struct {
		in   string
		want string
		pi   int
	}{
		{"((0.3048)*(0.3048))*43560", "316160658/78125", 0},
		{"(5)/(9)", "5/9", 0},
		{"(1)/(4*pi*pi)", "1/4", -2},
		{"((149597870700)*60*60*180)/(pi)", "96939420213600000", -1},
		{"6.02214076E+23", "602214076000000000000000", 0},
		{"1.66053878283E-27", "166053878283/100000000000000000000000000000000000000", 0},
	} {
		f, err := parseCLDRFactor(c.in)
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		want, _ := new(big.Rat).SetString(c.want)
		if f.r.Cmp(want) != 0 || f.pi != c.pi {
			t.Errorf("%s = %s·π^%d, want %s·π^%d", c.in, f.r.RatString(), f.pi, c.want, c.pi)
		}
	}
	for _, bad := range []string{"", "(1", "1/0", "2*x", "1)"} {
		if _, err := parseCLDRFactor(bad); err == nil {
			t.Errorf("%q reads", bad)
		}
	}
}

// TestPiDigits checks the π the CLDR suite computes against its known
// first 50 digits.
func TestPiDigits(t *testing.T) {
	want, _, _ := apd.NewFromString("3.1415926535897932384626433832795028841971693993751")
	var got apd.Decimal
	apd.BaseContext.WithPrecision(50).Round(&got, piDigits)
	if got.Cmp(want) != 0 {
		t.Errorf("π = %s, want %s", got.String(), want.String())
	}
}

// TestQUDTExpect checks the exact expectation and the tolerance of the
// QUDT suite: a definition written short is exact, one of 34 digits is
// good to its last digit.
func TestQUDTExpect(t *testing.T) {
	// 37.5 °F in kelvin: (37.5 + 459.67)·5/9, with QUDT's 34-digit 5/9.
	want, tol := qudtExpect(t, qudtScale{"0.5555555555555555555555555555555556", "459.67"}, qudtCoherent)("37.5")
	exact := new(big.Rat).Mul(big.NewRat(49717, 100), big.NewRat(5, 9))
	if d := ratDecimal(exact); !within(d, want, tol(d)) {
		t.Errorf("the exact 37.5 °F = %s K is not within the tolerance of %s", d, want)
	}
	if d := decimal(t, "276.205555555555555555555555555"); within(d, want, tol(d)) {
		t.Errorf("%s K passes for 37.5 °F = %s K", d, want)
	}
	// The foot is 0.3048 m exactly: 0.30481 is not it, nor 0.3048000000000000000000000000000001.
	want, tol = qudtExpect(t, qudtScale{"0.3048", ""}, qudtCoherent)("1")
	for _, s := range []string{"0.30481", "0.3048000000000000000000000000000001"} {
		if got := decimal(t, s); within(got, want, tol(got)) {
			t.Errorf("%s m passes for 1 ft (tolerance %s)", s, tol(got))
		}
	}
	// Back: 1 m is 1/0.3048 ft, rounded once at 34 digits.
	want, tol = qudtExpect(t, qudtCoherent, qudtScale{"0.3048", ""})("1")
	if got := decimal(t, "3.280839895013123359580052493438320"); !within(got, want, tol(got)) {
		t.Errorf("1 m = %s ft, not within the tolerance of %s", got, want)
	}
}
