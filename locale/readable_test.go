package locale

import "testing"

// TestReadable rounds as ICU's default number format does (3 fraction
// digits at most), keeping the input's figures where they are more, once,
// half to even, and refuses an inexact tie.
func TestReadable(t *testing.T) {
	for _, c := range []struct {
		v     string
		sig   int
		exact bool
		want  string
		ok    bool
	}{
		{"1234.56789", 1, true, "1234.568", true},
		{"96.56064", 2, true, "96.561", true},
		{"0.0004", 1, true, "0.0004", true},        // the input's one figure
		{"0.00041234", 1, true, "0.0004", true},    // ICU would write 0
		{"0.00041234", 0, true, "0", true},         // no figures asked: ICU's 0
		{"0.0006", 0, true, "0.001", true},         // rounds up into the thousandths
		{"0.0005", 0, true, "0", true},             // a half: to even 0
		{"0.0015", 0, true, "0.002", true},         // a half: to even 2
		{"0.0025", 0, true, "0.002", true},         // a half: to even 2
		{"1.0015", 1, true, "1.002", true},         // exact half: to even
		{"1.0015", 1, false, "1.0015", false},      // a half from rounding: ask the engine
		{"1.00150000001", 1, false, "1.002", true}, // above a half
		{"1.00149999999", 1, false, "1.001", true}, // below a half
		{"999.9996", 1, true, "1000", true},        // the carry adds a digit
		{"-2.5004", 1, true, "-2.5", true},
		{"152.4", 1, true, "152.4", true},
		{"1500", 1, true, "1500", true},
		{"12345678.123456", 12, true, "12345678.1235", true}, // 12 figures
		{"1.602176634e-19", 3, true, "1.6e-19", true},
		{"1.602176634e-19", 4, true, "1.602e-19", true},
		{"6.02214076e23", 2, true, "6.02214076e23", true}, // thousandths of a large number keep all
		{"0", 1, true, "0", true},
		{"0.000", 1, true, "0", true},
		{"2.50", 3, true, "2.5", true},
		{"abc", 1, true, "abc", true},
	} {
		got, ok := Readable(c.v, c.sig, c.exact)
		if got != c.want || ok != c.ok {
			t.Errorf("Readable(%q, %d, %v) = %q %v, want %q %v", c.v, c.sig, c.exact, got, ok, c.want, c.ok)
		}
	}
	for _, c := range []struct {
		v    string
		sig  int
		want int
	}{
		{"1.0015", 1, 4}, {"1234.5678", 2, 7}, {"0.00041", 1, 1}, {"0.00041", 3, 3}, {"0.5", 1, 3}, {"12.3456", 9, 9},
	} {
		if got := ReadablePrecision(c.v, c.sig); got != c.want {
			t.Errorf("ReadablePrecision(%q, %d) = %d, want %d", c.v, c.sig, got, c.want)
		}
	}
}
