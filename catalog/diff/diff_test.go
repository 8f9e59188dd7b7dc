package diff

import (
	"bytes"
	"flag"
	"math/big"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// TestGolden compares each fixture pair testdata/CASE/{old,new} and checks
// every output format against testdata/CASE/want.FORMAT.
func TestGolden(t *testing.T) {
	cases, err := filepath.Glob("testdata/*/old")
	if err != nil || len(cases) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	breaking := map[string]bool{}
	for _, oldDir := range cases {
		dir := filepath.Dir(oldDir)
		name := filepath.Base(dir)
		t.Run(name, func(t *testing.T) {
			old, errs := Load(os.DirFS(oldDir), "old")
			if len(errs) > 0 {
				t.Fatalf("old: %v", errs)
			}
			new, errs := Load(os.DirFS(filepath.Join(dir, "new")), "new")
			if len(errs) > 0 {
				t.Fatalf("new: %v", errs)
			}
			r := Compare(old, new)
			breaking[name] = r.Breaking() > 0
			for _, format := range Formats {
				var buf bytes.Buffer
				if err := r.Write(&buf, format); err != nil {
					t.Fatal(err)
				}
				golden := filepath.Join(dir, "want."+format)
				if *update {
					if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%v (run go test ./catalog/diff -update)", err)
				}
				if !bytes.Equal(buf.Bytes(), want) {
					t.Errorf("%s output differs from %s (go test ./catalog/diff -update rewrites it):\n%s", format, golden, buf.Bytes())
				}
			}
		})
	}
	// What CI gates on, independent of the wording of the goldens.
	for name, want := range map[string]bool{
		"unchanged": false, "added": false, "exact_source": false, "base_changed": false,
		"removed": true, "renamed": true, "name_moved": true, "factor_changed": true,
		"offset_changed": true, "formula_changed": true, "ambiguous": true, "substances": true,
	} {
		if got, ok := breaking[name]; !ok || got != want {
			t.Errorf("%s: breaking = %v (ran: %v), want %v", name, got, ok, want)
		}
	}
}

// TestKinds checks the kinds each fixture must produce, so that a golden
// rewritten by -update cannot silently lose one.
func TestKinds(t *testing.T) {
	for name, kinds := range map[string][]Kind{
		"added":           {UnitAdded, CategoryAdded, NameAdded, PrefixedAdded},
		"removed":         {UnitRemoved, CategoryRemoved, NameRemoved, PrefixedRemoved},
		"renamed":         {UnitRenamed},
		"name_moved":      {NameMoved},
		"factor_changed":  {ConversionChanged, ValueChanged},
		"offset_changed":  {ConversionChanged},
		"formula_changed": {ConversionChanged},
		"exact_source":    {ExactChanged, SourceChanged, DefinitionRewritten},
		"ambiguous":       {AmbiguousAdded, AmbiguousRemoved},
		"base_changed":    {BaseChanged, DefinitionRewritten},
		"substances": {SubstanceAdded, SubstanceRemoved, SubstanceValueChanged, SubstanceNameRemoved, SubstanceNameAdded, SubstanceSourceChanged,
			ElementAdded, ElementRemoved, WeightChanged, SourceChanged, ConditionsAdded, ConditionsRemoved, ConditionsChanged},
	} {
		dir := filepath.Join("testdata", name)
		old, errs := Load(os.DirFS(filepath.Join(dir, "old")), "old")
		new, errs2 := Load(os.DirFS(filepath.Join(dir, "new")), "new")
		if len(errs)+len(errs2) > 0 {
			t.Fatalf("%s: %v %v", name, errs, errs2)
		}
		got := map[Kind]bool{}
		for _, c := range Compare(old, new).Changes {
			got[c.Kind] = true
		}
		for _, k := range kinds {
			if !got[k] {
				t.Errorf("%s: no %q change", name, k)
			}
		}
	}
}

func TestFactorChangeValues(t *testing.T) {
	dir := filepath.Join("testdata", "factor_changed")
	old, _ := Load(os.DirFS(filepath.Join(dir, "old")), "old")
	new, _ := Load(os.DirFS(filepath.Join(dir, "new")), "new")
	for _, c := range Compare(old, new).Changes {
		if c.Unit != "ftUS" {
			continue
		}
		// 0.3048 / (1200/3937) − 1 = −0.000002 exactly.
		if c.Old != "factor 1200/3937, unit m" || c.New != "factor 0.3048, unit m" || c.NewValue != "0.3048" || c.Relative != "-2e-06" {
			t.Errorf("ftUS change = %+v", c)
		}
		return
	}
	t.Error("no change of ftUS")
}

func TestDecimalText(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"3/8", "0.375"},
		{"-1/4", "-0.25"},
		{"1200/3937", "0.30480060960121920243840487681…"},
		{"7", "7"},
		{"1/1024", "0.0009765625"},
	} {
		r, _ := new(big.Rat).SetString(tt.in)
		if got := decimalText(r); got != tt.want {
			t.Errorf("decimalText(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
}
