package main

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// The SR's flat files: one record a line (CRLF), fields separated by
// carets, text fields between tildes ("~01001~^1^1^~cup~^227^^"), in
// Latin-1 (a few descriptions of FOOD_DES have an é).

// Food is one record of FOOD_DES: the food's five-digit NDB number, its
// food group and its long description ("Sugars, brown").
type Food struct {
	NDB, Group, Desc string
}

// Measure is one record of WEIGHT: Amount of the household measure Desc
// weighs Grams ("1" "cup packed" "220"), as printed.
type Measure struct {
	NDB    string
	Seq    int
	Amount string
	Desc   string
	Grams  string
}

// records reads the SR's records of n fields each.
func records(r io.Reader, n int, each func(line int, f []string) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		text := latin1(strings.TrimSuffix(sc.Text(), "\r"))
		if text == "" {
			continue
		}
		f := strings.Split(text, "^")
		if len(f) != n {
			return fmt.Errorf("line %d: %d fields, want %d", line, len(f), n)
		}
		for i, s := range f {
			if len(s) >= 2 && s[0] == '~' && s[len(s)-1] == '~' {
				f[i] = s[1 : len(s)-1]
			}
		}
		if err := each(line, f); err != nil {
			return fmt.Errorf("line %d: %w", line, err)
		}
	}
	return sc.Err()
}

// latin1 decodes Latin-1 text.
func latin1(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			r := make([]rune, len(s))
			for j := 0; j < len(s); j++ {
				r[j] = rune(s[j])
			}
			return string(r)
		}
	}
	return s
}

// ParseFoods reads FOOD_DES (14 fields a record), keyed by NDB number.
func ParseFoods(r io.Reader) (map[string]Food, error) {
	foods := map[string]Food{}
	err := records(r, 14, func(_ int, f []string) error {
		if !isNDB(f[0]) || f[2] == "" {
			return fmt.Errorf("not a food record: %q", f[:3])
		}
		if _, dup := foods[f[0]]; dup {
			return fmt.Errorf("NDB %s twice", f[0])
		}
		foods[f[0]] = Food{NDB: f[0], Group: f[1], Desc: f[2]}
		return nil
	})
	if err == nil && len(foods) < 1000 {
		err = fmt.Errorf("only %d foods: not the SR's food descriptions", len(foods))
	}
	return foods, err
}

// ParseWeights reads WEIGHT (7 fields a record), the measures of each
// food in the order of their sequence numbers.
func ParseWeights(r io.Reader) (map[string][]Measure, error) {
	weights := map[string][]Measure{}
	n := 0
	err := records(r, 7, func(_ int, f []string) error {
		seq, err := strconv.Atoi(f[1])
		if !isNDB(f[0]) || err != nil || f[3] == "" {
			return fmt.Errorf("not a weight record: %q", f[:5])
		}
		for _, num := range []string{f[2], f[4]} {
			if _, ok := decimal(num); !ok {
				return fmt.Errorf("NDB %s seq %d: %q is no decimal", f[0], seq, num)
			}
		}
		ms := weights[f[0]]
		if len(ms) > 0 && ms[len(ms)-1].Seq >= seq {
			return fmt.Errorf("NDB %s: sequence %d after %d", f[0], seq, ms[len(ms)-1].Seq)
		}
		weights[f[0]] = append(ms, Measure{NDB: f[0], Seq: seq, Amount: f[2], Desc: f[3], Grams: f[4]})
		n++
		return nil
	})
	if err == nil && n < 1000 {
		err = fmt.Errorf("only %d weights: not the SR's weight table", n)
	}
	return weights, err
}

func isNDB(s string) bool {
	if len(s) != 5 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
