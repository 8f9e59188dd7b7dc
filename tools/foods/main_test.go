package main

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/unitd/unitd/tools/debian"
)

// TestReadVolume reads the household measures of the SR as volumes: the
// unit, the state and the grams per unit, or why the measure gives no
// density.
func TestReadVolume(t *testing.T) {
	for _, tc := range []struct {
		amount, desc, grams string
		unit, state, per    string
		why                 string // "" when read; "-" for not a volume
	}{
		{"1", "cup", "227", "cup", "", "227", ""},
		{"1", "cup packed", "220", "cup", "packed", "220", ""},
		{"1", "cup, sifted", "85", "cup", "sifted", "85", ""},
		{"1", "tbsp unsifted", "8.0", "tbsp", "unsifted", "8", ""},
		{"1", "tablespoon", "13.5", "tbsp", "", "13.5", ""},
		{"1", "teaspoon", "4.5", "tsp", "", "4.5", ""},
		{"1", "fl oz", "30.5", "floz", "", "30.5", ""},
		{".5", "cup", "124", "cup", "", "248", ""},
		{".25", "cup leaves, whole", "6.0", "cup", "leaves, whole", "24", ""},
		{"2", "tbsp, chopped", "5.3", "tbsp", "chopped", "2.65", ""},
		// Notes that restate the volume or count the pieces are no state.
		{"1", "cup (8 fl oz)", "245", "cup", "", "245", ""},
		{"1", "cup 8 fl oz", "241", "cup", "", "241", ""},
		{".5", "cup (4 fl oz)", "126", "cup", "", "252", ""},
		{"2", "tbsp (1/8 cup)", "10.0", "tbsp", "", "5", ""},
		{"1", "tbsp (1 NLEA serving)", "14.0", "tbsp", "", "14", ""},
		{"1", "cup (4.86 large eggs)", "243", "cup", "", "243", ""},
		{"1", "cup, diced (approx 20 pieces per cup)", "170", "cup", "diced", "170", ""},
		{"1", "cup chips (6 oz package)", "168", "cup", "chips", "168", ""},
		{"1", "cup, fluid (yields 2 cups whipped)", "238", "cup", "fluid", "238", ""},
		// Notes that are the state stay.
		{"1", "cup (not packed)", "145", "cup", "not packed", "145", ""},
		{"1", "cup, large curd (not packed)", "210", "cup", "large curd, not packed", "210", ""},
		{"1", `cup (1" pieces)`, "118", "cup", `1" pieces`, "118", ""},
		{"1", "cup of miniature", "50", "cup", "miniature", "50", ""},
		// Left out, with the reason.
		{".333", "cup", "27", "", "", "", "the grams per cup are no terminating decimal"},
		{"1", "tbsp (1/4 cup)", "8", "", "", "", "its note (1/4 cup) contradicts it"},
		{"1", "cup (4 fl oz)", "120", "", "", "", "its note (4 fl oz) contradicts it"},
		{"1", "tsp or 1 packet", "5.0", "", "", "", "it names two measures"},
		{"1", "cup, with pits, yields", "138", "", "", "", "its weight is what the measure yields, not the measure"},
		{"1", "cup child 12 fl oz size", "372", "", "", "", "its description child 12 fl oz size names another measure"},
		// Not volumes.
		{"1", "stick", "113", "", "", "", "-"},
		{"1", "oz", "28.35", "", "", "", "-"},
		{"1", "cupcake", "35", "", "", "", "-"},
		{"1", "serving 1 tbsp", "20", "", "", "", "-"},
		{"x", "cup", "20", "", "", "", "no positive amount and weight"},
		{"1", "cup", "0", "", "", "", "no positive amount and weight"},
	} {
		v, why := ReadVolume(Measure{Amount: tc.amount, Desc: tc.desc, Grams: tc.grams})
		switch {
		case tc.why == "-":
			if v.Unit != "" || why != "" {
				t.Errorf("%s %q: read as %+v (%q), want no volume", tc.amount, tc.desc, v, why)
			}
		case tc.why != "":
			if why != tc.why {
				t.Errorf("%s %q: why %q, want %q", tc.amount, tc.desc, why, tc.why)
			}
		default:
			if why != "" || v.Unit != tc.unit || v.State != tc.state || decimalString(v.PerUnit) != tc.per {
				t.Errorf("%s %q = %s g: %s %q %v (%q), want %s %q %s", tc.amount, tc.desc, tc.grams, v.Unit, v.State, v.PerUnit, why, tc.unit, tc.state, tc.per)
			}
		}
	}
}

// TestReadPortion reads the counts of a food: one of it, neither a volume
// nor a mass, a serving nor a yield.
func TestReadPortion(t *testing.T) {
	for _, tc := range []struct {
		amount, desc, name string
	}{
		{"1", "stick", "stick"},
		{"1", "large", "large"},
		{"1", `medium (2-1/2" dia)`, "medium"},
		{"1", `slice, large (1/4" thick)`, "slice"},
		{"1", "Italian tomato", "italian tomato"},
		{"1", "package (10 oz)", "package"},
		{"10", "grapes", ""},
		{"1", "oz", ""},
		{"1", "lb", ""},
		{"1", "cup", ""},
		{"1", "tbsp unsifted", ""},
		{"1", "cubic inch", ""},
		{"1", "jigger 1.5 fl oz", ""},
		{"1", "serving packet", ""},
		{"1", "NLEA serving", ""},
		{"1", "package yields", ""},
		{"1", "recipe yield", ""},
	} {
		name, ok := ReadPortion(Measure{Amount: tc.amount, Desc: tc.desc, Grams: "1"})
		if name != tc.name || ok != (tc.name != "") {
			t.Errorf("%s %q: %q %v, want %q", tc.amount, tc.desc, name, ok, tc.name)
		}
	}
}

// srExcerpt is FOOD_DES and WEIGHT in the SR's own form, cut down.
const (
	foodExcerpt = "~01001~^~0100~^~Butter, salted~^~BUTTER,WITH SALT~^~~^~~^~Y~^~~^0^~~^6.38^4.27^8.79^3.87\r\n" +
		"~19334~^~1900~^~Sugars, brown~^~SUGARS,BROWN~^~~^~~^~~^~~^0^~~^6.25^4.00^9.00^3.87\r\n" +
		"~14384~^~1400~^~Water, bottled, PERRIER~^~WATER,BTLD,PERRIER~^~~^~Nestl\xe9 Waters~^~~^~~^0^~~^6.25^^^\r\n"
	weightExcerpt = "~01001~^1^1^~cup~^227^^\r\n" +
		"~01001~^2^1^~tbsp~^14.2^^\r\n" +
		"~01001~^3^1^~pat (1\" sq, 1/3\" high)~^5.0^^\r\n" +
		"~01001~^4^1^~stick~^113^^\r\n" +
		"~19334~^1^1^~cup packed~^220^^\r\n" +
		"~19334~^2^1^~cup unpacked~^145^^\r\n" +
		"~19334~^4^1^~tsp packed~^4.6^^\r\n"
)

// TestParseAndBuild reads the SR's form and builds the entries of two
// foods: one state with its portions, and two states, each named with
// and without its state, and refuses what the SR does not say.
func TestParseAndBuild(t *testing.T) {
	foods, err := ParseFoods(strings.NewReader(foodExcerpt))
	if err == nil || !strings.Contains(err.Error(), "only 3 foods") {
		t.Fatalf("a short FOOD_DES: %v", err)
	}
	foods = map[string]Food{}
	if err := records(strings.NewReader(foodExcerpt), 14, func(_ int, f []string) error {
		foods[f[0]] = Food{NDB: f[0], Group: f[1], Desc: f[2]}
		if f[0] == "14384" && f[5] != "Nestlé Waters" {
			t.Errorf("Latin-1 read as %q", f[5])
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	weights := map[string][]Measure{}
	if err := records(strings.NewReader(weightExcerpt), 7, func(_ int, f []string) error {
		weights[f[0]] = append(weights[f[0]], Measure{NDB: f[0], Amount: f[2], Desc: f[3], Grams: f[4]})
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for i := range weights["19334"] {
		weights["19334"][i].Seq = i + 1
	}
	list, err := ParseIngredients(strings.NewReader("# a comment\n01001\tbutter\tsalted butter\n19334\tbrown sugar\n"))
	if err != nil {
		t.Fatal(err)
	}
	tab, err := Build(list, foods, weights)
	if err != nil {
		t.Fatal(err)
	}
	if tab.Foods != 2 || tab.Portions != 2 || len(tab.Entries) != 3 {
		t.Fatalf("%d foods, %d portions, %d entries; want 2, 2, 3", tab.Foods, tab.Portions, len(tab.Entries))
	}
	butter, packed, unpacked := tab.Entries[0], tab.Entries[1], tab.Entries[2]
	if butter.ID != "butter" || butter.State != "" || butter.Density != "227 g/cup" || strings.Join(butter.Aliases, "|") != "salted butter" {
		t.Errorf("butter: %+v", butter)
	}
	if butter.Source != "USDA SR21, NDB 01001 Butter, salted: 1 cup = 227 g" {
		t.Errorf("butter's source: %q", butter.Source)
	}
	if len(butter.Portions) != 2 || butter.Portions[1] != (Portion{Name: "stick", Measure: "1 stick", Mass: "113 g"}) || butter.Portions[0].Name != "pat" {
		t.Errorf("butter's portions: %+v", butter.Portions)
	}
	if packed.ID != "brown-sugar-packed" || packed.Name != "brown sugar, packed" || packed.Food != "brown sugar" || packed.State != "packed" || packed.Density != "220 g/cup" {
		t.Errorf("packed: %+v", packed)
	}
	if strings.Join(packed.Aliases, "|") != "packed brown sugar" {
		t.Errorf("packed's aliases %q: the plain name means two states, so neither has it", packed.Aliases)
	}
	if unpacked.ID != "brown-sugar-unpacked" || unpacked.Density != "145 g/cup" {
		t.Errorf("unpacked: %+v", unpacked)
	}
	var b bytes.Buffer
	if err := Write(&b, tab); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Substances []map[string]any `yaml:"substances"`
	}
	if err := yaml.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatalf("not YAML: %v\n%s", err, b.String())
	}
	if len(doc.Substances) != 3 || doc.Substances[1]["name"] != "brown sugar, packed" || doc.Substances[0]["density"].(map[string]any)["value"] != "227 g/cup" {
		t.Errorf("written as %v", doc.Substances)
	}

	// A food the SR does not have, one without a volume measure, and a
	// name two foods claim are refused.
	for in, want := range map[string]string{
		"99999\tunobtainium\n": "no such food in the SR",
		"14384\tperrier\n":     "no volume measure",
		"19334\tbrown sugar\n01001\tbrown sugar, packed\n":        `id "brown-sugar-packed" twice`,
		"01001\tbutter\n01001\tmore butter\n":                     "listed twice",
		"01001\t2 butter\n":                                       "starting with a letter",
		"19334\tbrown sugar\n01001\tbutter\tpacked brown sugar\n": `name "packed brown sugar" of butter is already brown-sugar-packed`,
		"01001\tbutter\t" + strings.Repeat("b; ", 32) + "b\n":     "aliases, more than",
		"01001\tbutter\tb;;c\n":                                   "an empty alias",
	} {
		list, err := ParseIngredients(strings.NewReader(in))
		if err == nil {
			_, err = Build(list, foods, weights)
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", in, err, want)
		}
	}
}

// TestShippedTable regenerates catalog/data/substances-foods.yaml from
// the pinned source files in testdata (checked against their SHA-256,
// the same the command checks in the .deb) and fails when the shipped
// file is not that, byte for byte. It also checks the facts a cook
// knows and the source prints, and that the table is as large as the
// catalog promises.
func TestShippedTable(t *testing.T) {
	files, err := readTestData("testdata")
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	tab, err := generate(files, &want)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../../catalog/data/substances-foods.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want.Bytes()) {
		t.Error("catalog/data/substances-foods.yaml is not what go run ./tools/foods writes from the pinned source: regenerate it, never edit it")
	}
	if tab.Foods < 300 {
		t.Errorf("%d foods, want at least 300", tab.Foods)
	}
	byID := map[string]Entry{}
	for _, e := range tab.Entries {
		byID[e.ID] = e
	}
	// As printed in the SR21's WEIGHT table.
	for id, density := range map[string]string{
		"all-purpose-flour":     "125 g/cup",
		"granulated-sugar":      "200 g/cup",
		"brown-sugar-packed":    "220 g/cup",
		"brown-sugar-unpacked":  "145 g/cup",
		"powdered-sugar-sifted": "100 g/cup",
		"butter":                "227 g/cup",
		"honey":                 "339 g/cup",
		"salt":                  "292 g/cup",
		"baking-soda":           "4.6 g/tsp",
		"onions-chopped":        "160 g/cup",
		"cheddar-cheese-melted": "244 g/cup",
	} {
		if byID[id].Density != density {
			t.Errorf("%s: density %q, want %q", id, byID[id].Density, density)
		}
	}
	portions := map[string]string{}
	for _, p := range byID["butter"].Portions {
		portions["butter "+p.Name] = p.Mass
	}
	for _, p := range byID["egg"].Portions {
		portions["egg "+p.Name] = p.Mass
	}
	if portions["butter stick"] != "113 g" || portions["egg large"] != "50 g" || portions["egg jumbo"] != "63 g" {
		t.Errorf("portions %v: want a 113 g stick of butter, a 50 g large egg and a 63 g jumbo one", portions)
	}
	if s := byID["brown-sugar-packed"]; s.Food != "brown sugar" || s.State != "packed" || !strings.Contains(strings.Join(s.Aliases, "|"), "packed brown sugar") {
		t.Errorf("packed brown sugar: %+v", s)
	}
}

// TestTestDataChecksTheHash: a source file that is not the pinned one is
// refused.
func TestTestDataChecksTheHash(t *testing.T) {
	dir := t.TempDir()
	files := map[string][]byte{foodFile: []byte("x"), weightFile: []byte("y")}
	if err := debian.WriteTestData(dir, files); err != nil {
		t.Fatal(err)
	}
	if _, err := readTestData(dir); err == nil || !strings.Contains(err.Error(), "is not the pinned") {
		t.Errorf("other files: %v", err)
	}
}
