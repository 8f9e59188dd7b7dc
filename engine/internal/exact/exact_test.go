package exact

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/cockroachdb/apd/v3"
	"github.com/unitd/unitd/engine/internal/pi"
	"github.com/unitd/unitd/internal/race"
)

// roundRat rounds r half-even to p significant digits with big.Rat alone
// and prints it as Decimal.String does: the reference of these tests.
func roundRat(r *big.Rat, p int) string {
	if r.Sign() == 0 {
		return "0"
	}
	a := new(big.Rat).Abs(r)
	// e with 10^e <= a < 10^(e+1).
	e := len(new(big.Int).Quo(a.Num(), a.Denom()).String()) - 1
	if a.Cmp(big.NewRat(1, 1)) < 0 {
		e = -1
		for t := new(big.Rat).Mul(a, big.NewRat(10, 1)); t.Cmp(big.NewRat(1, 1)) < 0; t.Mul(t, big.NewRat(10, 1)) {
			e--
		}
	}
	shift := p - 1 - e
	scale := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(max(shift, -shift))), nil))
	s := new(big.Rat).Set(a)
	if shift >= 0 {
		s.Mul(s, scale)
	} else {
		s.Quo(s, scale)
	}
	q, m := new(big.Int).QuoRem(s.Num(), s.Denom(), new(big.Int))
	if c := new(big.Int).Lsh(m, 1).Cmp(s.Denom()); c > 0 || c == 0 && q.Bit(0) == 1 {
		q.Add(q, big.NewInt(1))
	}
	d := Decimal{big: q, Exp: -shift, Neg: r.Sign() < 0}
	return d.String()
}

// piPow is π^k from π to 600 places (package pi checks its digits against
// published ones).
func piPow(k int) *big.Rat {
	p := new(big.Rat).SetFrac(pi.Scaled(600), new(big.Int).Exp(big.NewInt(10), big.NewInt(600), nil))
	out := big.NewRat(1, 1)
	for range max(k, -k) {
		out.Mul(out, p)
	}
	if k < 0 {
		out.Inv(out)
	}
	return out
}

func randomInt(r *rand.Rand) *big.Int {
	var s strings.Builder
	switch r.IntN(6) {
	case 0:
		return big.NewInt(0)
	case 1:
		s.WriteString("1")
	default:
		for range 1 + r.IntN([]int{3, 10, 19, 40}[r.IntN(4)]) {
			s.WriteByte(byte('0' + r.IntN(10)))
		}
	}
	n, _ := new(big.Int).SetString(s.String(), 10)
	if r.IntN(3) == 0 {
		n.Neg(n)
	}
	return n
}

func randomDecimal(r *rand.Rand) *apd.Decimal {
	var s strings.Builder
	if r.IntN(3) == 0 {
		s.WriteByte('-')
	}
	n := 1 + r.IntN([]int{2, 8, 19, 30, 60}[r.IntN(5)])
	for range n {
		s.WriteByte(byte('0' + r.IntN(10)))
	}
	fmt.Fprintf(&s, "e%d", r.IntN(50)-30)
	d, _, err := apd.NewFromString(s.String())
	if err != nil {
		panic(err)
	}
	return d
}

func decimalRat(d *apd.Decimal) *big.Rat {
	r, _ := new(big.Rat).SetString(d.Text('f'))
	return r
}

// TestRoundProperty evaluates random maps (linear, affine, with a pole,
// through π) at random decimals (zero and the pole among them) and
// precisions 1–50, in words and in big integers, and compares both with
// big.Rat: the correctly rounded digits, exact exactly when they equal
// the value, ErrPole at the pole. It draws 3,000 maps; 500 under the race
// detector, and make test runs it in full without it.
func TestRoundProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 8))
	maps := 3000
	if race.Enabled {
		maps = 500
	}
	checked, wordsServed := 0, 0
	for range maps {
		a, b, c, d := randomInt(r), randomInt(r), randomInt(r), randomInt(r)
		switch r.IntN(3) {
		case 0:
			b, c = new(big.Int), new(big.Int)
		case 1:
			c = new(big.Int)
		}
		k := 0
		if c.Sign() == 0 && b.Sign() == 0 && r.IntN(2) == 0 {
			k = r.IntN(9) - 4
		}
		m, err := New(new(big.Rat).SetInt(a), new(big.Rat).SetInt(b), new(big.Rat).SetInt(c), new(big.Rat).SetInt(d), k)
		if err != nil {
			continue // constant
		}
		for range 5 {
			x := randomDecimal(r)
			switch r.IntN(8) {
			case 0:
				x.SetInt64(0)
			case 1:
				if c.Sign() != 0 { // the pole, when it is a decimal
					if pole, err := New(new(big.Rat).SetInt(d), new(big.Rat), new(big.Rat), new(big.Rat).SetInt(new(big.Int).Neg(c)), 0); err == nil {
						if v, err := pole.At(apd.New(1, 0)); err == nil {
							if p, exact := Round(&v, 50); !exact {
								p.Apd(x)
							}
						}
					}
				}
			}
			p := 1 + r.IntN(50)
			xr := decimalRat(x)
			den := new(big.Rat).Add(new(big.Rat).Mul(new(big.Rat).SetInt(c), xr), new(big.Rat).SetInt(d))
			for _, words := range []bool{true, false} {
				got, inexact, err := m.Round(x, p, words)
				name := fmt.Sprintf("(%s·x + %s)/(%s·x + %s)·π^%d at %s, p=%d, words=%v", a, b, c, d, k, x, p, words)
				if den.Sign() == 0 {
					if err != ErrPole {
						t.Fatalf("%s: err %v, want ErrPole", name, err)
					}
					continue
				}
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				num := new(big.Rat).Add(new(big.Rat).Mul(new(big.Rat).SetInt(a), xr), new(big.Rat).SetInt(b))
				want := new(big.Rat).Quo(num, den)
				wantExact := true
				if k != 0 && want.Sign() != 0 {
					want.Mul(want, piPow(k))
					wantExact = false
				}
				ref := roundRat(want, p)
				if got.String() != ref {
					t.Fatalf("%s = %s, want %s", name, got.String(), ref)
				}
				if wantExact {
					wantExact = got.Rat().Cmp(want) == 0
				}
				if inexact == wantExact {
					t.Fatalf("%s = %s: inexact %v", name, ref, inexact)
				}
				if words && got.Words() {
					wordsServed++
				}
				checked++
			}
		}
	}
	if checked < maps*20/3 || wordsServed < checked/8 {
		t.Errorf("checked %d evaluations, %d of them in words", checked, wordsServed)
	}
}

// FuzzDivide checks the word division against the big one on any
// numerator of four words, divisor, exponent and precision.
func FuzzDivide(f *testing.F) {
	f.Add(uint64(381), uint64(0), uint64(0), uint64(0), uint64(1250), int16(-1), uint8(34))
	f.Add(uint64(1), uint64(0), uint64(0), uint64(0), uint64(3), int16(0), uint8(50))
	f.Add(^uint64(0), ^uint64(0), ^uint64(0), uint64(1<<40), uint64(7), int16(5), uint8(1))
	f.Add(uint64(25), uint64(0), uint64(0), uint64(0), uint64(10), int16(0), uint8(1))
	f.Add(uint64(999999999999999999), uint64(0), uint64(0), uint64(0), uint64(1), int16(0), uint8(3))
	f.Fuzz(func(t *testing.T, w0, w1, w2, w3, d uint64, exp int16, pb uint8) {
		p := 1 + int(pb)%50
		u := u256{w0, w1, w2, w3}
		var got Decimal
		gi, ok := divWords(&got, u, d, int(exp), false, p)
		if !ok {
			return
		}
		n := new(big.Int)
		for i := 3; i >= 0; i-- {
			n.Lsh(n, 64).Or(n, new(big.Int).SetUint64(u[i]))
		}
		want, wi := divBig(n, new(big.Int).SetUint64(d), int(exp), false, p)
		if got.Rat().Cmp(want.Rat()) != 0 || gi != wi {
			t.Fatalf("%s/%d e%d at %d: words %s (inexact %v), big %s (inexact %v)", n, d, exp, p, got.String(), gi, want.String(), wi)
		}
	})
}

// TestRoundDecimal rounds long decimals, ties among them, both ways and
// against big.Rat.
func TestRoundDecimal(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	for range 3000 {
		n := 1 + r.IntN(75)
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('0' + r.IntN(10))
		}
		if r.IntN(4) == 0 && n > 2 { // a tie or a near-tie
			for i := n / 2; i < n; i++ {
				b[i] = '0'
			}
			b[n/2] = '5'
		}
		x, _, _ := apd.NewFromString(fmt.Sprintf("%s%se%d", []string{"", "-"}[r.IntN(2)], b, r.IntN(80)-40))
		p := 1 + r.IntN(50)
		want := roundRat(decimalRat(x), p)
		for _, words := range []bool{true, false} {
			got, inexact := RoundDecimal(x, p, words)
			if got.String() != want || inexact != (got.Rat().Cmp(decimalRat(x)) != 0) {
				t.Fatalf("RoundDecimal(%s, %d, %v) = %s (inexact %v), want %s", x, p, words, got.String(), inexact, want)
			}
		}
	}
}

// TestCompose checks Then, Inverse, Scale and Pair against evaluating
// the maps one after another in big.Rat.
func TestCompose(t *testing.T) {
	rat := func(s string) *big.Rat { v, _ := new(big.Rat).SetString(s); return v }
	ftm, _ := Linear(rat("0.3048"), 0)
	degF, _ := Affine(rat("5/9"), new(big.Rat).Mul(rat("459.67"), rat("5/9")), 0)
	per100, _ := New(new(big.Rat), rat("100"), rat("1"), new(big.Rat), 0) // 100/x
	deg, _ := Linear(rat("1/180"), 1)
	x := apd.New(125, -1)
	for _, tt := range []struct {
		name string
		m    func() (*Map, error)
		want string
	}{
		{"ft then m back", func() (*Map, error) { return Pair(ftm, ftm) }, "12.5"},
		{"degF to K", func() (*Map, error) { return degF, nil }, "262.3166666666666666666666666666667"},
		{"degF to degF", func() (*Map, error) { return Pair(degF, degF) }, "12.5"},
		{"L/100km twice", func() (*Map, error) { return per100.Then(per100) }, "12.5"},
		{"deg to rad", func() (*Map, error) { return deg, nil }, "0.2181661564992911971154613460610766"},
		{"deg to deg", func() (*Map, error) { return Pair(deg, deg) }, "12.5"},
		{"scaled", func() (*Map, error) { return ftm.Scale(rat("2"), 0) }, "7.62"},
		{"pi cancels in a scale", func() (*Map, error) { return deg.Scale(rat("180"), -1) }, "12.5"},
	} {
		m, err := tt.m()
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		for _, words := range []bool{true, false} {
			got, _, err := m.Round(x, 34, words)
			if err != nil || got.String() != tt.want {
				t.Errorf("%s at 12.5 (words %v) = %s %v, want %s", tt.name, words, got.String(), err, tt.want)
			}
		}
	}
	if _, err := deg.Then(degF); err != ErrPiInside {
		t.Errorf("π into an offset: %v, want ErrPiInside", err)
	}
	if _, err := New(rat("2"), rat("4"), rat("1"), rat("2"), 0); err != ErrConstant {
		t.Errorf("(2x+4)/(x+2): %v, want ErrConstant", err)
	}
	if _, err := New(new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), MaxBits+1)), new(big.Rat), new(big.Rat), rat("1"), 0); err != ErrTooLarge {
		t.Errorf("a huge coefficient: %v, want ErrTooLarge", err)
	}
}

// TestLinearIsNormalForm checks that Linear, which copies a rational's
// numerator and denominator, builds the same map as New, which
// normalises four coefficients, for rationals of every sign and size and
// powers of π.
func TestLinearIsNormalForm(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 2000; i++ {
		random := func() *big.Int { // 1 to about 2^256
			x := new(big.Int)
			for range 1 + r.IntN(4) {
				x.Lsh(x, 64).Or(x, new(big.Int).SetUint64(r.Uint64()))
			}
			return x.Rsh(x, uint(r.IntN(64))).Add(x, big.NewInt(1))
		}
		num, den := random(), random()
		if r.IntN(2) == 0 {
			num.Neg(num)
		}
		f := new(big.Rat).SetFrac(num, den)
		k := r.IntN(5) - 2
		got, _ := Linear(f, k)
		want, err := New(f, new(big.Rat), new(big.Rat), big.NewRat(1, 1), k)
		if err != nil {
			t.Fatal(err)
		}
		if got.a.Cmp(want.a) != 0 || got.b.Cmp(want.b) != 0 || got.c.Cmp(want.c) != 0 || got.d.Cmp(want.d) != 0 ||
			got.k != want.k || got.w != want.w || got.id != want.id {
			t.Fatalf("Linear(%s, %d) = %+v, New gives %+v", f.RatString(), k, got, want)
		}
	}
	if m, _ := Linear(big.NewRat(7, 7), 0); !m.IsIdentity() {
		t.Error("Linear(1, 0) is not the identity")
	}
}

// TestCmpUint64 compares word-held decimals with integers against big.Rat,
// at the edges of the words (10^19, 2^64, 10^38) and at random.
func TestCmpUint64(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	edges := []uint64{0, 1, 9, 10, 11, 12, 14, 60, 99, 100, 1e18, 1e19 - 1, 1e19, 1<<64 - 1}
	word := func() uint64 {
		switch r.IntN(3) {
		case 0:
			return edges[r.IntN(len(edges))]
		case 1:
			return r.Uint64N(1000)
		}
		return r.Uint64()
	}
	for i := 0; i < 200000; i++ {
		d := Decimal{lo: word(), Exp: r.IntN(90) - 45, Neg: r.IntN(8) == 0}
		if r.IntN(3) == 0 {
			d.hi = word() % (1 << 60) // below 10^38 with lo
		}
		n := word()
		if r.IntN(4) == 0 && !d.IsZero() {
			// n equal to d where d is a whole number that fits a word.
			if v := d.Rat(); v.IsInt() && v.Num().IsUint64() {
				n = v.Num().Uint64()
			}
		}
		checkCmp(t, d, n)
	}
	// A coefficient n·10^k (and one either side) at exponent -k equals n
	// (and misses it by a hair), for every k whose product fits 128 bits.
	for i := 0; i < 20000; i++ {
		n, k := word(), r.IntN(40)
		c := new(big.Int).Mul(new(big.Int).SetUint64(n), pow10Big(k))
		c.Add(c, big.NewInt(int64(r.IntN(3)-1)))
		if c.Sign() < 0 || c.BitLen() > 124 {
			continue
		}
		hi := new(big.Int).Rsh(c, 64)
		lo := new(big.Int).And(c, new(big.Int).SetUint64(1<<64-1))
		checkCmp(t, Decimal{hi: hi.Uint64(), lo: lo.Uint64(), Exp: -k}, n)
	}
}

func checkCmp(t *testing.T, d Decimal, n uint64) {
	t.Helper()
	want := d.Rat().Cmp(new(big.Rat).SetUint64(n))
	if got := d.CmpUint64(n); got != want {
		t.Fatalf("%s (hi %d lo %d exp %d) vs %d: got %d, want %d", d.String(), d.hi, d.lo, d.Exp, n, got, want)
	}
}

// TestRoundUint64 is Round on fractions of two words, where the word
// path serves them.
func TestRoundUint64(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	served := 0
	for i := 0; i < 100000; i++ {
		num, den, p := r.Uint64()>>r.IntN(64), r.Uint64()>>r.IntN(64)|1, 1+r.IntN(50)
		got, gotInexact, ok := RoundUint64(num, den, p)
		if !ok {
			continue
		}
		served++
		want, wantInexact := Round(&Value{Num: new(big.Int).SetUint64(num), Den: new(big.Int).SetUint64(den)}, p)
		if got.String() != want.String() || gotInexact != wantInexact {
			t.Fatalf("%d/%d at %d: got %s (inexact %v), want %s (inexact %v)", num, den, p, got.String(), gotInexact, want.String(), wantInexact)
		}
	}
	if served < 50000 {
		t.Errorf("the word path served %d of 100000 fractions of words", served)
	}
}

func TestAgree(t *testing.T) {
	f := func(s string) Factor {
		x, err := ParseFactor(s)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	for _, tt := range []struct {
		a, b   string
		digits int
		want   bool
	}{
		{"0.3048", "0.3048", 1, true},
		{"1/3", "0.333333333333", 12, true},
		{"1/3", "0.333333333333", 14, false},
		{"2*pi/60", "0.1047197551666666666666666666666667", 9, true},
		{"2*pi/60", "0.1047197551666666666666666666666667", 12, false},
		{"pi/180", "0.0174532925", 9, true},
		{"pi/180", "0.0174532925", 11, false},
		{"-1/3", "0.333333333333", 12, false},
		{"1", "0", 5, false},
	} {
		if got := Agree(f(tt.a), f(tt.b), tt.digits); got != tt.want {
			t.Errorf("Agree(%s, %s, %d) = %v, want %v", tt.a, tt.b, tt.digits, got, tt.want)
		}
	}
}

func TestLinearRefusesWhatNoMapStates(t *testing.T) {
	if _, err := Linear(new(big.Rat), 0); err != ErrConstant {
		t.Errorf("Linear(0) = %v, want ErrConstant", err)
	}
	huge := new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), MaxBits+1))
	if _, err := Linear(huge, 0); err != ErrTooLarge {
		t.Errorf("Linear(2^%d) = %v, want ErrTooLarge", MaxBits+1, err)
	}
	if _, err := Linear(new(big.Rat).Inv(huge), 0); err != ErrTooLarge {
		t.Errorf("Linear(2^-%d) = %v, want ErrTooLarge", MaxBits+1, err)
	}
}

// TestFromLowestTerms: the coefficients any map writes out read back into
// the same map, for maps of every shape (linear, affine, with a pole, with
// π) and size (in words and beyond); coefficients that are not in their
// normal form, or that make a constant, are refused.
func TestFromLowestTerms(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 2))
	random := func() *big.Rat { // small or about 2^200, of either sign
		x := new(big.Int).SetUint64(r.Uint64N(1000) + 1)
		if r.IntN(3) == 0 {
			x.Lsh(x, 200).Add(x, new(big.Int).SetUint64(r.Uint64()))
		}
		if r.IntN(2) == 0 {
			x.Neg(x)
		}
		return new(big.Rat).SetFrac(x, big.NewInt(int64(r.IntN(999)+1)))
	}
	for i := range 3000 {
		var m *Map
		var err error
		switch i % 4 {
		case 0:
			m, err = Linear(random(), r.IntN(5)-2)
		case 1:
			m, err = Affine(random(), random(), 0)
		case 2:
			m, err = New(new(big.Rat), random(), random(), random(), 0) // b/(c·x + d)
		default:
			m, err = New(random(), random(), random(), random(), 0)
		}
		if err != nil {
			continue // a constant drawn by chance
		}
		a, b, c, d := m.Coefficients()
		got, err := FromLowestTerms(a, b, c, d, m.K())
		if err != nil {
			t.Fatalf("%v: the coefficients it writes out are refused: %v", m, err)
		}
		if got.a.Cmp(m.a) != 0 || got.b.Cmp(m.b) != 0 || got.c.Cmp(m.c) != 0 || got.d.Cmp(m.d) != 0 ||
			got.k != m.k || got.w != m.w || got.id != m.id {
			t.Fatalf("read back %+v, want %+v", got, m)
		}
		// Twice each coefficient, or all four negated (when that moves
		// the sign off C, or D for an affine map), is no normal form.
		a, b, c, d = m.Coefficients()
		for _, x := range [4]*big.Int{a, b, c, d} {
			x.Lsh(x, 1)
		}
		if _, err := FromLowestTerms(a, b, c, d, m.K()); err == nil {
			t.Fatalf("%v doubled was read back", m)
		}
		a, b, c, d = m.Coefficients()
		for _, x := range [4]*big.Int{a, b, c, d} {
			x.Neg(x)
		}
		if _, err := FromLowestTerms(a, b, c, d, m.K()); err == nil {
			t.Fatalf("%v negated was read back", m)
		}
	}
	for _, tt := range []struct {
		name       string
		a, b, c, d int64
		want       error
	}{
		{"x", 1, 0, 0, 1, nil},
		{"-x", -1, 0, 0, 1, nil},
		{"1/x", 0, 1, 1, 0, nil},
		{"(9x + 160)/5", 9, 160, 0, 5, nil},
		{"2x/2", 2, 0, 0, 2, errNotNormal},
		{"x/-1", 1, 0, 0, -1, errNotNormal},
		{"1/-x", 0, 1, -1, 0, errNotNormal},
		{"0·x", 0, 0, 0, 1, ErrConstant},
		{"x/0", 1, 0, 0, 0, ErrConstant},
		{"(2x + 4)/(x + 2)", 2, 4, 1, 2, ErrConstant},
		{"(-2x + 4)/(x - 2)", -2, 4, 1, -2, ErrConstant},
		{"(2x - 4)/(x + 2)", 2, -4, 1, 2, nil},
	} {
		_, err := FromLowestTerms(big.NewInt(tt.a), big.NewInt(tt.b), big.NewInt(tt.c), big.NewInt(tt.d), 0)
		if err != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, err, tt.want)
		}
	}
}

// TestCoprime: Coprime says what big.Int.GCD says of the same integers,
// of every sign and size, zeros among them.
func TestCoprime(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 7))
	random := func() *big.Int {
		switch r.IntN(4) {
		case 0:
			return new(big.Int)
		case 1:
			return big.NewInt(r.Int64N(50) - 25)
		}
		x := new(big.Int).SetUint64(r.Uint64())
		x.Lsh(x, uint(r.IntN(300))).Add(x, big.NewInt(r.Int64N(1000)))
		if r.IntN(2) == 0 {
			x.Neg(x)
		}
		return x
	}
	for range 3000 {
		xs := make([]*big.Int, 1+r.IntN(4))
		for i := range xs {
			xs[i] = random()
		}
		if r.IntN(3) == 0 { // a common factor
			f := big.NewInt(r.Int64N(30) + 2)
			for _, x := range xs {
				x.Mul(x, f)
			}
		}
		g := new(big.Int)
		for _, x := range xs {
			if x.Sign() != 0 {
				g.GCD(nil, nil, g, new(big.Int).Abs(x))
			}
		}
		want := g.IsInt64() && g.Int64() == 1
		if got := Coprime(xs...); got != want {
			t.Fatalf("Coprime(%v) = %v, gcd %v", xs, got, g)
		}
	}
	if Coprime() || Coprime(new(big.Int)) || !Coprime(big.NewInt(-1)) || Coprime(big.NewInt(6), big.NewInt(-4)) {
		t.Error("Coprime of no integers, of zero, of -1 or of 6 and -4")
	}
}
