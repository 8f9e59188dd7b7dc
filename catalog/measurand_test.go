package catalog

import (
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// TestMeasurandCatalog checks the shipped measurands: each equation named,
// cited and marked not exact (they were fitted to data), each measurand
// with worked examples (which Load converted), and their names found as
// substances are.
func TestMeasurandCatalog(t *testing.T) {
	g := shipped(t)
	n := 0
	for _, s := range g.Substances() {
		m := s.Measurand
		if m == nil {
			continue
		}
		n++
		if len(m.Examples) == 0 || len(m.Equations) != len(m.Scales)-1 {
			t.Errorf("%s: %d examples, %d equations for %d scales", s.ID, len(m.Examples), len(m.Equations), len(m.Scales))
		}
		for _, e := range m.Equations {
			if e.Name == "" || len(e.Source) < 40 || e.Exact {
				t.Errorf("%s: equation %q: name %q, exact %v, source %q", s.ID, e.Text(), e.Name, e.Exact, e.Source)
			}
		}
	}
	if n == 0 {
		t.Fatal("no measurand in the shipped catalog")
	}
	for _, name := range []string{"HbA1c", "A1C", "a1c", "hemoglobin A1c", "glycated haemoglobin", "hba1c"} {
		if s, err := g.Substance(name); err != nil || s.ID != "hba1c" || s.Measurand == nil {
			t.Errorf("%s: %v, %v", name, s, err)
		}
	}
	hb, err := g.Substance("Hb")
	if err != nil || hb.ID != "hemoglobin" || hb.MolarMass == nil || hb.MolarMass.Value != "16114.5 g/mol" || !strings.Contains(hb.Description, "monomer") {
		t.Errorf("Hb: %+v, %v", hb, err)
	}
}

// TestMeasurandCatalogErrors loads the shipped catalog with a broken
// measurands.yaml: every problem is reported at its position, the worked
// examples are checked, and nothing loads.
func TestMeasurandCatalogErrors(t *testing.T) {
	fsys := fstest.MapFS{}
	files, _ := readSources(Embedded())
	for _, f := range files {
		fsys[f.name] = &fstest.MapFile{Data: f.src}
	}
	fsys["measurands.yaml"] = &fstest.MapFile{Data: []byte(`measurands:
  - id: hba1c
    name: hemoglobin A1c
    kind: clinical
    aliases: [HbA1c]
    scales:
      - {name: NGSP, unit: "%"}
      - {name: IFCC, unit: mmol/mol}
      - {name: eAG, unit: mg/dL, substance: glucose}
    equations:
      - name: master
        equation: NGSP = 0.09148 * IFCC + 2.152
        source: a test
      - name: ADAG
        equation: eAG = 28.7 * NGSP - 46.7
        exact: false
        source: a test
    examples:
      - 7 % ≈ 54 mmol/mol
      - 7 % ≈ 154.2 mg/dL
      - 7 ≈ 53 mmol/mol
      - 7 % ≈ 53 ft
  - id: broken
    name: broken
    kind: lab
    scales:
      - {name: A, unit: "%"}
      - {name: B, unit: "percent"}
      - {name: C, unit: dBm}
      - {name: D, unit: wibbles}
    equations:
      - {name: ab, equation: B = 2 * A, exact: true, source: a test}
      - {name: bc, equation: C = 2 * B, exact: true, source: a test}
      - {name: cd, equation: D = 2 * C, exact: true, source: a test}
    examples:
      - 1 % = 2 percent
  - id: overlap
    name: overlap
    scales:
      - {name: A, unit: "%"}
      - {name: B, unit: percent}
      - {name: C, unit: g/L}
      - {name: D, unit: mg/dL}
    equations:
      - {name: ab, equation: B = 2 * A, exact: true, source: a test}
      - {name: bc, equation: C = 2 * B, exact: true, source: a test}
      - {name: cd, equation: D = 2 * C, exact: true, source: a test}
    examples:
      - 1 % = 4 g/L
`)}
	g, errs := Load(fsys)
	if g != nil {
		t.Fatal("a broken measurand catalog loaded")
	}
	var got []string
	for _, err := range errs {
		got = append(got, err.Error())
	}
	for _, want := range []string{
		`measurands.yaml:11:9: measurand "hba1c": equation "NGSP = 0.09148 * IFCC + 2.152": say whether it is exact`,
		`measurands.yaml:21:9: measurand "hba1c": example: a measurand's example names the unit it converts from`,
		`measurands.yaml:25:11: measurand "broken": kind "lab" is not a kind of substance`,
		`measurands.yaml:19:9: measurand "hba1c": example "7 % ≈ 54 mmol/mol": wrong result: 53 mmol/mol`,
		`measurands.yaml:20:9: measurand "hba1c": example "7 % ≈ 154.2 mg/dL": the result is exact: write it with =`,
		`measurands.yaml:22:9: measurand "hba1c": example "7 % ≈ 53 ft": % and ft are not both in scales of the measurand`,
		`measurands.yaml:29:9: measurand "broken": scale C: unit dBm is not linear or affine`,
		`measurands.yaml:30:9: measurand "broken": scale D: unit: unknown unit "wibbles"`,
		`measurands.yaml:41:9: measurand "overlap": scales A (%) and B (percent) have units that convert to each other`,
		`measurands.yaml:43:9: measurand "overlap": scales C (g/L) and D (mg/dL) have units that convert to each other`,
	} {
		if !slices.ContainsFunc(got, func(g string) bool { return strings.HasPrefix(g, want) }) {
			t.Errorf("missing error %s\ngot:\n%s", want, strings.Join(got, "\n"))
		}
	}
}
