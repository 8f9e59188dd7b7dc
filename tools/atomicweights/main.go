// Command atomicweights writes the catalog's table of standard atomic
// weights (catalog/data/elements.yaml) from the Debian package python3-ase
// (the Atomic Simulation Environment), whose module ase.data holds the
// IUPAC 2013 standard atomic weights: Meija et al., "Atomic weights of the
// elements 2013 (IUPAC Technical Report)", Pure Appl. Chem. 88 (2016)
// 265–291, doi:10.1515/pac-2015-0305, Table 1, with the conventional
// atomic weights of Table 3 for the twelve elements whose standard atomic
// weight is an interval (H 1.008, C 12.011, O 15.999, …). ASE gives no
// uncertainties. Elements without a standard atomic weight (no stable
// isotope: ASE lists the mass of an isotope, "98Tc", or nothing) are left
// out.
//
// The package is pinned by version and by the SHA-256 of its .deb, both
// recorded in the generated file with its licence, and by the SHA-256 of
// the one file read from it. Without -deb the command fetches the pinned
// .deb with apt-get download (Debian's archive; run apt-get update
// first); package tools/debian checks and reads it.
//
// Usage:
//
//	go run ./tools/atomicweights [-deb python3-ase_VERSION_all.deb] [-out catalog/data/elements.yaml]
package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"

	"github.com/unitd/unitd/tools/debian"
)

// aseFile is the module ase.data, the one file read from the package.
const aseFile = "usr/lib/python3/dist-packages/ase/data/__init__.py"

// Upstream identifies the package the table is generated from.
var Upstream = struct {
	Deb             debian.Package
	Licence, Source string
}{
	Deb: debian.Package{
		Name:    "python3-ase",
		Version: "3.22.1-3+deb12u1",
		SHA256:  "157cf7947b24a2de26bbfa752e9cddc5178970ee6389031f21476b385ac688ac",
		Files:   map[string]string{aseFile: "03a450be00faed91c60cb91a3e56cd0d9f3f23ffd371ceea4e003679ad70dedc"},
	},
	Licence: "LGPL-2.1+ (ASE); the weights are IUPAC's",
	Source:  "IUPAC 2013 standard atomic weights (Meija et al., Pure Appl. Chem. 88 (2016) 265–291, doi:10.1515/pac-2015-0305, Table 1; the conventional atomic weights of Table 3 where the standard one is an interval), as shipped in the Debian package python3-ase 3.22.1-3+deb12u1 (ase.data.atomic_masses_iupac2016)",
}

// Element is one element with a standard atomic weight.
type Element struct {
	Name, Symbol string
	Number       int
	// Weight is the standard (or conventional) atomic weight as printed.
	Weight string
	// Interval is the standard atomic weight's interval ("[1.00784,
	// 1.00811]") when Weight is a conventional value, else "".
	Interval string
}

var (
	listStart = regexp.MustCompile(`^(\w+)\s*=\s*(?:np\.array\()?\[\s*$`)
	massLine  = regexp.MustCompile(`^\s*([0-9.]+|np\.nan)\s*,?\s*#\s*(\S+)\s*(\[[^\]]*\])?\s*$`)
	quoted    = regexp.MustCompile(`'([^']*)'`)
)

// Parse reads ase/data/__init__.py: the lists chemical_symbols and
// atomic_names, and the array atomic_masses_iupac2016, one element a line
// ("1.008,  # H [1.00784, 1.00811]"), from Z = 0 (the dummy X). A comment
// whose symbol starts with a mass number ("98Tc") marks the mass of an
// isotope, not a standard atomic weight.
func Parse(r io.Reader) ([]Element, error) {
	var symbols, names []string
	var masses []string
	var comments []string
	var intervals []string
	list := ""
	sc := bufio.NewScanner(r)
	line := 0
	for sc.Scan() {
		line++
		text := sc.Text()
		if list == "" {
			if m := listStart.FindStringSubmatch(text); m != nil {
				switch m[1] {
				case "chemical_symbols", "atomic_names", "atomic_masses_iupac2016":
					list = m[1]
				}
			}
			continue
		}
		code, _, _ := strings.Cut(text, "#")
		if strings.HasPrefix(strings.TrimSpace(code), "]") {
			list = ""
			continue
		}
		switch list {
		case "chemical_symbols":
			for _, m := range quoted.FindAllStringSubmatch(code, -1) {
				symbols = append(symbols, m[1])
			}
		case "atomic_names":
			for _, m := range quoted.FindAllStringSubmatch(text, -1) {
				names = append(names, m[1])
			}
		case "atomic_masses_iupac2016":
			m := massLine.FindStringSubmatch(text)
			if m == nil {
				return nil, fmt.Errorf("line %d: not a mass and its element: %q", line, text)
			}
			masses, comments, intervals = append(masses, m[1]), append(comments, m[2]), append(intervals, m[3])
		}
		if strings.Contains(code, "]") {
			list = "" // the list closes on this line
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(masses) < 90 || len(symbols) < len(masses) || len(names) < len(masses) {
		return nil, fmt.Errorf("read %d masses, %d symbols and %d names: not the expected module", len(masses), len(symbols), len(names))
	}
	var out []Element
	for z := 1; z < len(masses); z++ {
		w, sym := masses[z], comments[z]
		if w == "np.nan" || sym[0] >= '0' && sym[0] <= '9' {
			continue // no standard atomic weight
		}
		if sym != symbols[z] {
			return nil, fmt.Errorf("element %d: the mass is marked %q, the symbol list says %q", z, sym, symbols[z])
		}
		if _, err := strconv.ParseFloat(w, 64); err != nil || strings.HasPrefix(w, ".") {
			return nil, fmt.Errorf("%s: weight %q is no decimal", sym, w)
		}
		out = append(out, Element{Name: strings.ToLower(names[z]), Symbol: sym, Number: z, Weight: w, Interval: intervals[z]})
	}
	if len(out) < 80 {
		return nil, fmt.Errorf("only %d elements with a standard atomic weight: not the expected table", len(out))
	}
	return out, nil
}

// Write writes elements.yaml: the header that says where the table comes
// from, then one element a line.
func Write(w io.Writer, els []Element) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# Standard atomic weights: the molar mass of a formula is the sum of its\n")
	fmt.Fprintf(&b, "# atoms' weights times the molar mass constant, 1 g/mol. An element whose\n")
	fmt.Fprintf(&b, "# standard atomic weight is an interval has its conventional value, and\n")
	fmt.Fprintf(&b, "# the interval beside it.\n")
	fmt.Fprintf(&b, "#\n# Generated by `go run ./tools/atomicweights`; do not edit by hand.\n")
	fmt.Fprintf(&b, "source: %s\n", quote(Upstream.Source))
	fmt.Fprintf(&b, "upstream:\n")
	for _, kv := range [][2]string{
		{"package", Upstream.Deb.Name}, {"version", Upstream.Deb.Version}, {"sha256", Upstream.Deb.SHA256},
		{"file", aseFile}, {"licence", Upstream.Licence},
	} {
		fmt.Fprintf(&b, "  %s: %s\n", kv[0], quote(kv[1]))
	}
	rows := elementRows(els)
	sum := sha256.Sum256(rows)
	fmt.Fprintf(&b, "# SHA-256 of the element lines below, as written: %s\n", hex.EncodeToString(sum[:]))
	fmt.Fprintf(&b, "elements:\n")
	b.Write(rows)
	_, err := w.Write(b.Bytes())
	return err
}

// elementRows writes one line per element.
func elementRows(els []Element) []byte {
	var b bytes.Buffer
	for _, e := range els {
		fmt.Fprintf(&b, "  - {symbol: %s, name: %s, number: %d, weight: %s", quote(e.Symbol), quote(e.Name), e.Number, quote(e.Weight))
		if e.Interval != "" {
			fmt.Fprintf(&b, ", interval: %s", quote(e.Interval))
		}
		b.WriteString("}\n")
	}
	return b.Bytes()
}

func quote(s string) string { return strconv.Quote(s) }

func main() {
	deb := flag.String("deb", "", "the pinned .deb of "+Upstream.Deb.Name+" (default: fetch it with apt-get download)")
	out := flag.String("out", "catalog/data/elements.yaml", "the catalog file to write")
	flag.Parse()
	fail := func(err error) {
		fmt.Fprintln(os.Stderr, "atomicweights:", err)
		os.Exit(1)
	}
	if *deb == "" {
		dir, err := os.MkdirTemp("", "atomicweights")
		if err != nil {
			fail(err)
		}
		defer os.RemoveAll(dir)
		debs, err := debian.Fetch(dir, Upstream.Deb)
		if err != nil {
			fail(err)
		}
		*deb = debs[0]
	}
	files, err := Upstream.Deb.Read(*deb)
	if err != nil {
		fail(err)
	}
	els, err := Parse(bytes.NewReader(files[aseFile]))
	if err != nil {
		fail(fmt.Errorf("%s: %w", aseFile, err))
	}
	var b bytes.Buffer
	if err := Write(&b, els); err != nil {
		fail(err)
	}
	if err := os.WriteFile(*out, b.Bytes(), 0o644); err != nil {
		fail(err)
	}
	fmt.Fprintf(os.Stderr, "atomicweights: %d elements written to %s\n", len(els), *out)
}
