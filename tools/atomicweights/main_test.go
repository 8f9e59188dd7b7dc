package main

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// aseExcerpt is the shape of ase/data/__init__.py that Parse reads, cut
// down: the symbol and name lists and the array of weights.
func aseExcerpt(masses []string) string {
	var b strings.Builder
	b.WriteString("import numpy as np\n\nchemical_symbols = [\n    # 0\n    'X',\n")
	syms := []string{"H", "He", "Li", "Be", "B", "C", "N", "O", "F", "Ne", "Na", "Mg", "Al", "Si", "P", "S", "Cl", "Ar", "K", "Ca", "Sc", "Ti", "V", "Cr", "Mn", "Fe", "Co", "Ni", "Cu", "Zn", "Ga", "Ge", "As", "Se", "Br", "Kr", "Rb", "Sr", "Y", "Zr", "Nb", "Mo", "Tc", "Ru", "Rh", "Pd", "Ag", "Cd", "In", "Sn", "Sb", "Te", "I", "Xe", "Cs", "Ba", "La", "Ce", "Pr", "Nd", "Pm", "Sm", "Eu", "Gd", "Tb", "Dy", "Ho", "Er", "Tm", "Yb", "Lu", "Hf", "Ta", "W", "Re", "Os", "Ir", "Pt", "Au", "Hg", "Tl", "Pb", "Bi", "Po", "At", "Rn", "Fr", "Ra", "Ac", "Th", "Pa", "U", "Np", "Pu"}
	for _, s := range syms {
		b.WriteString("    '" + s + "',\n")
	}
	b.WriteString("    'Am']\n\natomic_names = [\n    '',")
	for _, s := range syms {
		b.WriteString(" 'Name" + s + "',")
	}
	b.WriteString(" 'NameAm']\n\natomic_masses_iupac2016 = np.array([\n    1.0,  # X\n")
	for _, m := range masses {
		b.WriteString("    " + m + "\n")
	}
	b.WriteString("])\n\natomic_masses = atomic_masses_iupac2016\n\natomic_masses_legacy = np.array([\n    1.00794,  # H\n])\n")
	return b.String()
}

// TestParse reads an excerpt in the upstream's form: standard weights,
// conventional weights with their interval, isotope masses and NaN left
// out, and a list that does not line up refused.
func TestParse(t *testing.T) {
	masses := []string{"1.008,  # H [1.00784, 1.00811]", "4.002602,  # He"}
	for z := 3; z <= 94; z++ {
		switch z {
		case 43:
			masses = append(masses, "97.90721,  # 98Tc")
		case 94:
			masses = append(masses, "np.nan,  # Pu")
		default:
			masses = append(masses, "10.5,  # "+[]string{"", "H", "He", "Li", "Be", "B", "C", "N", "O", "F", "Ne", "Na", "Mg", "Al", "Si", "P", "S", "Cl", "Ar", "K", "Ca", "Sc", "Ti", "V", "Cr", "Mn", "Fe", "Co", "Ni", "Cu", "Zn", "Ga", "Ge", "As", "Se", "Br", "Kr", "Rb", "Sr", "Y", "Zr", "Nb", "Mo", "Tc", "Ru", "Rh", "Pd", "Ag", "Cd", "In", "Sn", "Sb", "Te", "I", "Xe", "Cs", "Ba", "La", "Ce", "Pr", "Nd", "Pm", "Sm", "Eu", "Gd", "Tb", "Dy", "Ho", "Er", "Tm", "Yb", "Lu", "Hf", "Ta", "W", "Re", "Os", "Ir", "Pt", "Au", "Hg", "Tl", "Pb", "Bi", "Po", "At", "Rn", "Fr", "Ra", "Ac", "Th", "Pa", "U", "Np", "Pu"}[z])
		}
	}
	els, err := Parse(strings.NewReader(aseExcerpt(masses)))
	if err != nil {
		t.Fatal(err)
	}
	if len(els) != 92 { // 94 masses, less Tc's isotope and Pu's NaN
		t.Errorf("%d elements, want 92", len(els))
	}
	if h := els[0]; h != (Element{Name: "nameh", Symbol: "H", Number: 1, Weight: "1.008", Interval: "[1.00784, 1.00811]"}) {
		t.Errorf("hydrogen read as %+v", h)
	}
	for _, e := range els {
		if e.Symbol == "Tc" || e.Symbol == "Pu" {
			t.Errorf("%s has no standard atomic weight, but was read as %+v", e.Symbol, e)
		}
	}
	// A weight marked with another element than the list's is refused.
	bad := append([]string(nil), masses...)
	bad[5] = "12.011,  # N"
	if _, err := Parse(strings.NewReader(aseExcerpt(bad))); err == nil || !strings.Contains(err.Error(), "element 6:") {
		t.Errorf("a misaligned array: %v", err)
	}
	if _, err := Parse(strings.NewReader("a = [\n 1,\n]\n")); err == nil {
		t.Error("a file without the table was accepted")
	}
}

// TestShippedTable checks catalog/data/elements.yaml, the shipped table,
// against what this command writes: it names the pinned package (name,
// version, hash, licence), it is Write's output byte for byte, with the
// SHA-256 of the element lines the command computed (so that a line edited
// by hand no longer matches it), and the weights are IUPAC 2013's where
// they can be checked by hand.
func TestShippedTable(t *testing.T) {
	got, err := os.ReadFile("../../catalog/data/elements.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Source   string            `yaml:"source"`
		Upstream map[string]string `yaml:"upstream"`
		Elements []struct {
			Symbol, Name, Weight, Interval string
			Number                         int
		} `yaml:"elements"`
	}
	if err := yaml.Unmarshal(got, &doc); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"package": Upstream.Deb.Name, "version": Upstream.Deb.Version, "sha256": Upstream.Deb.SHA256, "file": aseFile, "licence": Upstream.Licence}
	for k, v := range want {
		if doc.Upstream[k] != v {
			t.Errorf("upstream %s = %q, want %q: regenerate with go run ./tools/atomicweights", k, doc.Upstream[k], v)
		}
	}
	if doc.Source != Upstream.Source {
		t.Errorf("source = %q, want %q", doc.Source, Upstream.Source)
	}
	var els []Element
	for _, e := range doc.Elements {
		els = append(els, Element{Name: e.Name, Symbol: e.Symbol, Number: e.Number, Weight: e.Weight, Interval: e.Interval})
	}
	var rewritten bytes.Buffer
	if err := Write(&rewritten, els); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, rewritten.Bytes()) {
		t.Error("catalog/data/elements.yaml is not what the command writes (a weight edited by hand changes its lines' recorded SHA-256): regenerate it, never edit it")
	}
	if len(els) != 84 {
		t.Errorf("%d elements; the 2013 table gives 84 a standard atomic weight", len(els))
	}
	bySymbol := map[string]Element{}
	for _, e := range els {
		bySymbol[e.Symbol] = e
	}
	// Printed in Meija et al. (2016), Tables 1 and 3.
	for sym, w := range map[string]string{"H": "1.008", "C": "12.011", "N": "14.007", "O": "15.999", "Na": "22.98976928", "Cl": "35.45", "K": "39.0983", "Ca": "40.078", "Fe": "55.845", "Pb": "207.2", "U": "238.02891"} {
		if bySymbol[sym].Weight != w {
			t.Errorf("%s: %q, want %q", sym, bySymbol[sym].Weight, w)
		}
	}
	if bySymbol["C"].Interval != "[12.0096, 12.0116]" || bySymbol["Na"].Interval != "" {
		t.Errorf("intervals: C %q, Na %q", bySymbol["C"].Interval, bySymbol["Na"].Interval)
	}
	for _, sym := range []string{"Tc", "Pm", "Po", "Np", "Pu"} {
		if _, ok := bySymbol[sym]; ok {
			t.Errorf("%s has no standard atomic weight", sym)
		}
	}
}
