// Command streambench is the stream part of `make bench`: it converts one
// mixed workload of 2,000 rows with `unitd convert -` and with
// @lhncbc/ucum-lhc in Node (the fastest float library at hand, loaded the
// same way: a fresh process reading every row and printing every result),
// and reports the ratio of their times. The target is at least 5×.
//
// The workload mixes linear, prefixed, affine (temperature), compound
// (km/h, kg*m/s^2) and π conversions (deg → rad) that both sides know,
// each row written in unitd's symbols for unitd and in UCUM codes for
// ucum-lhc, with values of a few to 19 digits. Each side runs -rounds
// times, alternately, and the best time of each is compared. Before
// timing, every row must convert on both sides, and the two answers must
// agree to float64's precision (unitd's are exact and correctly rounded;
// ucum-lhc's are floats).
//
// A fresh process pays for its start-up, which at 2,000 rows is most of
// the time of both sides. The second figure excludes it: each side also
// converts the workload -repeat times over in one process, and the time
// per conversion is the difference of the two runs' best times divided by
// the rows the longer run added. It is the cost of one more row in a
// running stream, start-up and warm-up excluded alike on both sides.
//
// Node and the package must be installed: make bench-stream runs npm
// install in tools/streambench/node first.
//
// Usage:
//
//	go run ./tools/streambench [-unitd bin/unitd] [-rows 2000] [-rounds 7] [-repeat 50]
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// pair is one conversion in both vocabularies.
type pair struct{ from, to, ucumFrom, ucumTo string }

var pairs = []pair{
	{"ft", "m", "[ft_i]", "m"},
	{"m", "ft", "m", "[ft_i]"},
	{"in", "cm", "[in_i]", "cm"},
	{"mm", "in", "mm", "[in_i]"},
	{"mi", "km", "[mi_i]", "km"},
	{"yd", "m", "[yd_i]", "m"},
	{"lb", "kg", "[lb_av]", "kg"},
	{"oz", "g", "[oz_av]", "g"},
	{"degF", "degC", "[degF]", "Cel"},
	{"degC", "K", "Cel", "K"},
	{"km/h", "m/s", "km/h", "m/s"},
	{"m/s", "km/h", "m/s", "km/h"},
	{"mi/h", "km/h", "[mi_i]/h", "km/h"},
	{"L", "gal", "L", "[gal_us]"},
	{"ft3", "L", "[cft_i]", "L"},
	{"psi", "kPa", "[psi]", "kPa"},
	{"bar", "kPa", "bar", "kPa"},
	{"Pa", "atm", "Pa", "atm"},
	{"deg", "rad", "deg", "rad"},
	{"h", "s", "h", "s"},
	{"d", "min", "d", "min"},
	{"kWh", "MJ", "kW.h", "MJ"},
	{"W", "kW", "W", "kW"},
	{"ft2", "m2", "[sft_i]", "m2"},
	{"mL", "L", "mL", "L"},
	{"kg*m/s^2", "N", "kg.m/s2", "N"},
	{"g/cm3", "kg/m3", "g/cm3", "kg/m3"},
	{"cal", "J", "cal", "J"},
}

func main() {
	unitd := flag.String("unitd", "bin/unitd", "the unitd `binary` to time")
	rows := flag.Int("rows", 2000, "rows in the workload")
	rounds := flag.Int("rounds", 7, "runs of each side; the best of each is compared")
	repeat := flag.Int("repeat", 50, "times the workload is repeated in one process for the figure without start-up (≥ 2)")
	nodeDir := flag.String("node", "tools/streambench/node", "`directory` with convert.mjs and node_modules")
	flag.Parse()
	log.SetFlags(0)
	if *repeat < 2 {
		log.Fatal("-repeat must be at least 2")
	}

	dir, err := os.MkdirTemp("", "streambench")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	var text bytes.Buffer
	var ucumRows [][3]string
	r := rand.New(rand.NewPCG(2000, 5))
	for i := range *rows {
		p := pairs[i%len(pairs)]
		v := value(r)
		fmt.Fprintf(&text, "%s %s %s\n", v, p.from, p.to)
		ucumRows = append(ucumRows, [3]string{v, p.ucumFrom, p.ucumTo})
	}
	workload := filepath.Join(dir, "workload.json")
	js, _ := json.Marshal(ucumRows)
	if err := os.WriteFile(workload, js, 0o600); err != nil {
		log.Fatal(err)
	}
	longText := bytes.Repeat(text.Bytes(), *repeat)
	var longRows [][3]string
	for range *repeat {
		longRows = append(longRows, ucumRows...)
	}
	longWorkload := filepath.Join(dir, "workload-long.json")
	js, _ = json.Marshal(longRows)
	if err := os.WriteFile(longWorkload, js, 0o600); err != nil {
		log.Fatal(err)
	}
	script, err := filepath.Abs(filepath.Join(*nodeDir, "convert.mjs"))
	if err != nil {
		log.Fatal(err)
	}

	runUnitd := func() ([]byte, time.Duration, error) {
		return run(exec.Command(*unitd, "convert", "-"), text.Bytes())
	}
	runNode := func() ([]byte, time.Duration, error) {
		return run(exec.Command("node", script, workload), nil)
	}
	runUnitdLong := func() ([]byte, time.Duration, error) {
		return run(exec.Command(*unitd, "convert", "-"), longText)
	}
	runNodeLong := func() ([]byte, time.Duration, error) {
		return run(exec.Command("node", script, longWorkload), nil)
	}
	// Check the answers before timing anything.
	uo, _, err := runUnitd()
	if err != nil {
		log.Fatalf("unitd convert -: %v\n%s", err, firstLines(uo))
	}
	no, _, err := runNode()
	if err != nil {
		log.Fatalf("node %s: %v (run npm install in %s)\n%s", script, err, *nodeDir, firstLines(no))
	}
	if err := agree(uo, no, *rows); err != nil {
		log.Fatal(err)
	}
	sides := []struct {
		name string
		run  func() ([]byte, time.Duration, error)
	}{
		{"unitd", runUnitd}, {"ucum-lhc", runNode},
		{"unitd long", runUnitdLong}, {"ucum-lhc long", runNodeLong},
	}
	best := map[string]time.Duration{}
	for range *rounds {
		for _, s := range sides {
			out, d, err := s.run()
			if err != nil {
				log.Fatalf("%s: %v\n%s", s.name, err, firstLines(out))
			}
			if b, ok := best[s.name]; !ok || d < b {
				best[s.name] = d
			}
		}
	}
	ratio := float64(best["ucum-lhc"]) / float64(best["unitd"])
	fmt.Printf("stream of %d mixed rows, a fresh process each, best of %d:\n", *rows, *rounds)
	fmt.Printf("  unitd convert -            %8.1f ms\n", ms(best["unitd"]))
	fmt.Printf("  @lhncbc/ucum-lhc (Node)    %8.1f ms\n", ms(best["ucum-lhc"]))
	fmt.Printf("  ratio                      %8.2f×  (%s)\n", ratio, target(ratio))

	added := float64((*repeat - 1) * *rows)
	perRow := func(name string) float64 {
		return float64(best[name+" long"]-best[name]) / added
	}
	u, n := perRow("unitd"), perRow("ucum-lhc")
	fmt.Printf("start-up excluded: the workload %d times over in one process, less once, per row:\n", *repeat)
	fmt.Printf("  unitd convert -            %8.0f ns\n", u)
	fmt.Printf("  @lhncbc/ucum-lhc (Node)    %8.0f ns\n", n)
	if u > 0 {
		fmt.Printf("  ratio                      %8.2f×  (%s)\n", n/u, target(n/u))
	} else {
		fmt.Println("  ratio: not measurable (the longer run was not slower; raise -repeat)")
	}
}

func target(ratio float64) string {
	if ratio < 5 {
		return "BELOW the target of 5×"
	}
	return "meets the target of 5×"
}

// value is a decimal of 1 to 19 significant digits, now and then negative
// or with an exponent, within every unit's domain (no temperature below
// absolute zero).
func value(r *rand.Rand) string {
	digits := 1 + r.IntN(19)
	if r.IntN(2) == 0 {
		digits = 1 + r.IntN(5) // most traffic: a few digits
	}
	var b strings.Builder
	for i := range digits {
		c := byte('0' + r.IntN(10))
		if i == 0 && c == '0' {
			c = '1'
		}
		b.WriteByte(c)
	}
	s := b.String()
	if cut := r.IntN(len(s) + 1); cut > 0 && cut < len(s) {
		s = s[:cut] + "." + s[cut:]
	}
	if len(s) > 6 && r.IntN(3) == 0 {
		s = s[:6] // keep temperatures and the like in range
	}
	return s
}

func run(cmd *exec.Cmd, stdin []byte) ([]byte, time.Duration, error) {
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	start := time.Now()
	err := cmd.Run()
	return out.Bytes(), time.Since(start), err
}

// agree checks that both sides answered every row, alike to float64's
// precision.
func agree(unitd, node []byte, rows int) error {
	u := strings.Split(strings.TrimSpace(string(unitd)), "\n")
	n := strings.Split(strings.TrimSpace(string(node)), "\n")
	if len(u) != rows || len(n) != rows {
		return fmt.Errorf("unitd answered %d rows and ucum-lhc %d, of %d", len(u), len(n), rows)
	}
	for i := range u {
		a, errA := strconv.ParseFloat(strings.Fields(u[i])[0], 64)
		b, errB := strconv.ParseFloat(strings.Fields(n[i])[0], 64)
		if errA != nil || errB != nil {
			return fmt.Errorf("row %d: unitd %q, ucum-lhc %q", i+1, u[i], n[i])
		}
		if math.Abs(a-b) > 1e-9*math.Max(math.Abs(a), math.Abs(b))+1e-300 {
			return fmt.Errorf("row %d: unitd %q and ucum-lhc %q disagree", i+1, u[i], n[i])
		}
	}
	return nil
}

func firstLines(b []byte) string {
	lines := strings.SplitN(string(b), "\n", 6)
	return strings.Join(lines[:min(5, len(lines))], "\n")
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
