package server

import (
	"encoding/json"
	"testing"
)

// TestRecipeFlow converts a recipe of ten ingredients, measured by cup,
// spoon and stick, to grams through free text in English and German (the
// foods by their English and by their German names), and
// checks each answer against the same conversion asked with fields (value,
// from, substance): what the text reads is what the fields say.
func TestRecipeFlow(t *testing.T) {
	f, _ := shippedFixture(t)
	type item struct {
		text, locale                    string
		value, from, substance, assumed string
	}
	recipe := []item{
		{"2 1/4 cups flour", "en-US", "9/4", "cup", "all-purpose-flour", "cup: US customary cup"},
		{"1 cup granulated sugar", "en-US", "1", "cup", "granulated-sugar", "cup: US customary cup"},
		{"3/4 cup packed brown sugar", "en-US", "3/4", "cup", "brown-sugar-packed", "cup: US customary cup"},
		{"2 sticks butter", "en-US", "226", "g", "butter", "1 stick butter = 113 g"},
		{"1 tsp salt", "en-US", "1", "tsp", "salt", "tsp: teaspoon (region US"},
		{"1 tsp baking soda", "en-US", "1", "tsp", "baking-soda", "tsp: teaspoon (region US"},
		{"2 large eggs", "en-US", "100", "g", "egg", "1 large egg = 50 g"},
		{"2 tbsp honey", "en-US", "2", "tbsp", "honey", "tbsp: tablespoon"},
		{"1/2 cup light cream", "en-US", "1/2", "cup", "light-cream", "cup: US customary cup"},
		{"1 cup rolled oats", "en-US", "1", "cup", "rolled-oats", "cup: US customary cup"},
		{"2 EL honey", "de", "2", "tbsp_metric", "honey", "tbsp_metric: metric tablespoon"},
		{"1 TL salt", "de", "1", "tsp_metric", "salt", "tsp_metric: metric teaspoon"},
		{"3 EL flour", "de", "3", "tbsp_metric", "all-purpose-flour", "tbsp_metric: metric tablespoon"},
		{"2 Tassen light cream", "de", "2", "cup_metric", "light-cream", "cup_metric"},
		{"1,5 Tassen granulated sugar", "de", "1.5", "cup_metric", "granulated-sugar", "cup_metric"},
		{"½ TL baking soda", "de", "0.5", "tsp_metric", "baking-soda", "tsp_metric"},
		{"1 stick butter", "de", "113", "g", "butter", "1 stick butter = 113 g"},
		{"4 EL rolled oats", "de", "4", "tbsp_metric", "rolled-oats", "tbsp_metric"},
		{"2 large eggs", "de", "100", "g", "egg", "1 large egg = 50 g"},
		{"250 ml light cream", "de", "250", "mL", "light-cream", ""},
		// The foods by the locale's words.
		{"2 EL Zucker", "de", "2", "tbsp_metric", "granulated-sugar", "tbsp_metric: metric tablespoon"},
		{"3 EL Mehl", "de", "3", "tbsp_metric", "all-purpose-flour", "tbsp_metric"},
		{"1 TL Salz", "de", "1", "tsp_metric", "salt", "tsp_metric"},
		{"2 EL Honig", "de", "2", "tbsp_metric", "honey", "tbsp_metric"},
		{"1,5 Tassen Zucker", "de", "1.5", "cup_metric", "granulated-sugar", "cup_metric"},
		{"250 ml farine", "fr", "250", "mL", "all-purpose-flour", ""},
		{"2 tazas azúcar", "es", "2", "cup_metric", "granulated-sugar", "cup_metric"},
	}
	for _, it := range recipe {
		body, _ := json.Marshal(map[string]string{"quantity": it.text, "to": "g", "locale": it.locale})
		_, got := f.do(t, f.request(t, "POST", "/v1/convert", f.keys["good"], "application/json", string(body)))
		var ans struct {
			Data struct {
				Input struct {
					Assumed string `json:"assumed"`
				} `json:"input"`
				Result struct {
					Value string `json:"value"`
				} `json:"result"`
				Exact bool `json:"exact"`
			} `json:"data"`
		}
		if err := json.Unmarshal(got, &ans); err != nil || ans.Data.Result.Value == "" {
			t.Errorf("%s (%s): %s", it.text, it.locale, got)
			continue
		}
		value := it.value
		if r, ok := fraction(value); ok {
			value = r
		}
		ref, _ := json.Marshal(map[string]string{"value": value, "from": it.from, "to": "g", "substance": it.substance})
		_, want := f.do(t, f.request(t, "POST", "/v1/convert", f.keys["good"], "application/json", string(ref)))
		var wantAns struct {
			Data struct {
				Result struct {
					Value string `json:"value"`
				} `json:"result"`
			} `json:"data"`
		}
		if err := json.Unmarshal(want, &wantAns); err != nil || wantAns.Data.Result.Value == "" {
			t.Errorf("%s: the fields' answer: %s", it.text, want)
			continue
		}
		if ans.Data.Result.Value != wantAns.Data.Result.Value {
			t.Errorf("%s (%s): %s g, the fields give %s g", it.text, it.locale, ans.Data.Result.Value, wantAns.Data.Result.Value)
		}
		if ans.Data.Exact {
			t.Errorf("%s: exact, though a food's density or portion is measured", it.text)
		}
		if it.assumed != "" && !contains(ans.Data.Input.Assumed, it.assumed) || it.assumed == "" && ans.Data.Input.Assumed != "" {
			t.Errorf("%s (%s): assumed %q, want %q", it.text, it.locale, ans.Data.Input.Assumed, it.assumed)
		}
	}
}

// fraction writes the fractions of the table as decimals the value field
// takes (9/4 → 2.25); thirds never appear in it.
func fraction(s string) (string, bool) {
	switch s {
	case "9/4":
		return "2.25", true
	case "3/4":
		return "0.75", true
	case "1/2":
		return "0.5", true
	}
	return "", false
}

func contains(s, sub string) bool {
	return len(sub) == 0 || len(s) >= len(sub) && (s == sub || indexOf(s, sub) >= 0)
}

func indexOf(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return i
		}
	}
	return -1
}
