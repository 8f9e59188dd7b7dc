// Package unitdapi is the client that oapi-codegen writes from unitd's
// /openapi.json. This file is not built with the module: TestGeneratedGoClient
// (client/generated_test.go) generates the client into a temporary file,
// lays both into client/internal/unitdapi through a build overlay, and runs
// this test against a live server whose address and key it passes in
// UNITD_URL and UNITD_KEY. It calls every operation of the document with the
// generated types alone, no hand edit, and checks what comes back.
package unitdapi

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"
)

func newClient(t *testing.T) (*ClientWithResponses, context.Context) {
	t.Helper()
	base, key := os.Getenv("UNITD_URL"), os.Getenv("UNITD_KEY")
	if base == "" || key == "" {
		t.Fatal("UNITD_URL and UNITD_KEY name the server to call and its key (run by TestGeneratedGoClient)")
	}
	c, err := NewClientWithResponses(base, WithRequestEditorFn(func(_ context.Context, r *http.Request) error {
		r.Header.Set("Authorization", "Bearer "+key)
		return nil
	}))
	if err != nil {
		t.Fatal(err)
	}
	return c, t.Context()
}

func ptr[T any](v T) *T { return &v }

// ok fails the test unless the answer was 200 with a body of its type.
func ok[T any](t *testing.T, what string, status int, body []byte, typed *T, err error) *T {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if status != http.StatusOK || typed == nil {
		t.Fatalf("%s: %d %s", what, status, body)
	}
	return typed
}

func TestConvertGet(t *testing.T) {
	c, ctx := newClient(t)
	r, err := c.ConvertGetWithResponse(ctx, &ConvertGetParams{Value: ptr("12.5"), From: ptr("ft"), To: ptr("m")})
	conv := ok(t, "convertGet", r.StatusCode(), r.Body, r.JSON200, err).Data
	if conv.Result.Value == nil || *conv.Result.Value != "3.81" || conv.Result.Unit != "m" || !conv.Exact || conv.Category != "length" {
		t.Errorf("12.5 ft → m = %+v", conv)
	}
	// An error answers in the contract's shape, typed too.
	r, err = c.ConvertGetWithResponse(ctx, &ConvertGetParams{Value: ptr("1"), From: ptr("fet"), To: ptr("m")})
	if err != nil || r.JSON400 == nil || r.JSON400.Error.Code != ErrorCodeUNKNOWNUNIT || r.JSON400.Error.Suggestions == nil ||
		!slices.Contains(*r.JSON400.Error.Suggestions, "ft") || r.JSON400.Error.RequestId != r.HTTPResponse.Header.Get("X-Request-Id") {
		t.Errorf("fet: %v %d %s", err, r.StatusCode(), r.Body)
	}
}

func TestConvertPost(t *testing.T) {
	c, ctx := newClient(t)
	r, err := c.ConvertPostWithResponse(ctx, nil, ConvertPostJSONRequestBody{Value: ptr("72"), From: ptr("degF"), To: ptr("degC"), Precision: ptr(6), Explain: ptr(true)})
	conv := ok(t, "convertPost", r.StatusCode(), r.Body, r.JSON200, err).Data
	if conv.Result.Value == nil || *conv.Result.Value != "22.2222" || conv.Exact || conv.Explain == nil || conv.Explain.Kind != ExplainKindAffine {
		t.Errorf("72 degF → degC = %+v", conv)
	}
	// Digits beyond a float's survive: the value is decimal text.
	r, err = c.ConvertPostWithResponse(ctx, nil, ConvertPostJSONRequestBody{Value: ptr("0.1000000000000000055511151231257827"), From: ptr("m"), To: ptr("mm"), Precision: ptr(50)})
	conv = ok(t, "convertPost", r.StatusCode(), r.Body, r.JSON200, err).Data
	if *conv.Result.Value != "100.0000000000000055511151231257827" {
		t.Errorf("0.1000000000000000055511151231257827 m → mm = %s", *conv.Result.Value)
	}
	// A free-text quantity, with its locale's words.
	r, err = c.ConvertPostWithResponse(ctx, nil, ConvertPostJSONRequestBody{Quantity: ptr("5 ft 3 in"), To: ptr("cm"), Locale: ptr("de")})
	conv = ok(t, "convertPost", r.StatusCode(), r.Body, r.JSON200, err).Data
	if *conv.Result.Value != "160.02" || conv.Result.Text == nil || *conv.Result.Text != "160,02 cm" {
		t.Errorf("5 ft 3 in → cm = %+v", conv.Result)
	}
}

func TestConvertBatch(t *testing.T) {
	c, ctx := newClient(t)
	r, err := c.ConvertBatchWithResponse(ctx, nil, ConvertBatchJSONRequestBody{
		Conversions: []ConversionItem{{Value: ptr("12.5"), From: ptr("ft"), To: ptr("m")}, {Value: ptr("abc"), From: ptr("ft"), To: ptr("m")}},
		Precision:   ptr(10),
	})
	b := ok(t, "convertBatch", r.StatusCode(), r.Body, r.JSON200, err)
	if len(b.Data) != 2 || b.Meta.Total != 2 || b.Meta.Succeeded != 1 || b.Meta.Failed != 1 {
		t.Fatalf("batch = %s", r.Body)
	}
	// status tells which schema an item has.
	first, err := b.Data[0].ValueByDiscriminator()
	if s, isSuccess := first.(BatchItemSuccess); err != nil || !isSuccess || *s.Result.Value != "3.81" || s.Index != 0 {
		t.Errorf("item 0 = %#v, %v", first, err)
	}
	second, err := b.Data[1].ValueByDiscriminator()
	if e, isError := second.(BatchItemError); err != nil || !isError || e.Error.Code != ItemErrorCodeINVALIDVALUE || e.Input.Value == nil || *e.Input.Value != "abc" {
		t.Errorf("item 1 = %#v, %v", second, err)
	}
}

func TestConvertStream(t *testing.T) {
	c, ctx := newClient(t)
	body := `{"value":"12.5","from":"ft","to":"m"}` + "\n" + `{"value":"abc","from":"ft","to":"m"}` + "\n" + `{"quantity":"100 km/h","to":"m/s"}` + "\n"
	resp, err := c.ConvertStreamWithBody(ctx, &ConvertStreamParams{Precision: ptr("6")}, "application/x-ndjson", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/x-ndjson" {
		t.Fatalf("convertStream: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	var lines []BatchStreamLine
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		var line BatchStreamLine
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatalf("line %d: %v", len(lines), err)
		}
		lines = append(lines, line)
	}
	if err := sc.Err(); err != nil || len(lines) != 4 {
		t.Fatalf("%d lines, %v", len(lines), err)
	}
	for i, want := range []string{"3.81", "", "27.7778"} {
		if want == "" {
			e, err := lines[i].AsBatchItemError()
			if err != nil || e.Status != BatchItemErrorStatusError || e.Error.Code != ItemErrorCodeINVALIDVALUE {
				t.Errorf("line %d = %+v, %v", i, e, err)
			}
			continue
		}
		s, err := lines[i].AsBatchItemSuccess()
		if err != nil || s.Status != Success || s.Index != i || *s.Result.Value != want {
			t.Errorf("line %d = %+v, %v", i, s, err)
		}
	}
	meta, err := lines[3].AsBatchStreamMeta()
	if err != nil || meta.Meta.Total != 3 || meta.Meta.Succeeded != 2 || meta.Meta.Failed != 1 {
		t.Errorf("meta = %+v, %v", meta, err)
	}
}

func TestDiscovery(t *testing.T) {
	c, ctx := newClient(t)

	cats, err := c.ListCategoriesWithResponse(ctx, nil)
	list := ok(t, "listCategories", cats.StatusCode(), cats.Body, cats.JSON200, err)
	if list.Meta.Total != len(list.Data) || !slices.ContainsFunc(list.Data, func(c Category) bool { return c.Id == "length" && c.BaseUnit == "m" }) {
		t.Errorf("categories: %d, no length in m", list.Meta.Total)
	}

	cat, err := c.GetCategoryWithResponse(ctx, "length", nil)
	detail := ok(t, "getCategory", cat.StatusCode(), cat.Body, cat.JSON200, err).Data
	if detail.Id != "length" || !slices.ContainsFunc(detail.Units, func(u Unit) bool {
		return u.Symbol == "ft" && u.Definition.Factor != nil && *u.Definition.Factor == "12" && *u.Definition.Unit == "in"
	}) {
		t.Errorf("length: %d units, no ft of 12 in", len(detail.Units))
	}

	units, err := c.ListUnitsWithResponse(ctx, &ListUnitsParams{Category: ptr("speed"), Q: ptr("km")})
	ul := ok(t, "listUnits", units.StatusCode(), units.Body, units.JSON200, err)
	if !slices.ContainsFunc(ul.Data, func(u Unit) bool { return u.Symbol == "km/h" }) {
		t.Errorf("speed units matching km: %d, no km/h", ul.Meta.Total)
	}

	// A symbol with a slash travels percent-encoded.
	unit, err := c.GetUnitWithResponse(ctx, "km/h", &GetUnitParams{Locale: ptr("de")})
	u, err := ok(t, "getUnit", unit.StatusCode(), unit.Body, unit.JSON200, err).Data.AsUnit()
	if err != nil || u.Symbol != "km/h" || u.Category != "speed" || u.DisplayName == nil || u.DisplayName.Long == "" {
		t.Errorf("km/h = %+v, %v", u, err)
	}
	// A unit expression is a record of its own kind.
	unit, err = c.GetUnitWithResponse(ctx, "kg*m/s^2", nil)
	x, err := ok(t, "getUnit", unit.StatusCode(), unit.Body, unit.JSON200, err).Data.AsExpressionUnit()
	if err != nil || x.Symbol != "kg*m/s^2" || x.Category != "force" || x.Definition.Kind != Expression || x.Definition.Factor != "1" || x.Definition.Unit != "kg*m*s^-2" {
		t.Errorf("kg*m/s^2 = %+v, %v", x, err)
	}

	subs, err := c.ListSubstancesWithResponse(ctx, &ListSubstancesParams{Q: ptr("gluc")})
	sl := ok(t, "listSubstances", subs.StatusCode(), subs.Body, subs.JSON200, err)
	if !slices.ContainsFunc(sl.Data, func(s Substance) bool { return s.Id == "glucose" }) {
		t.Errorf("substances matching gluc: %d, no glucose", sl.Meta.Total)
	}

	sub, err := c.GetSubstanceWithResponse(ctx, "C6H12O6", nil)
	s := ok(t, "getSubstance", sub.StatusCode(), sub.Body, sub.JSON200, err).Data
	if s.Id != "glucose" || s.MolarMass == nil || !strings.HasSuffix(s.MolarMass.Value, " g/mol") {
		t.Errorf("C6H12O6 = %+v", s)
	}

	prefs, err := c.ListPreferencesWithResponse(ctx, &ListPreferencesParams{Category: ptr("length"), Region: ptr("GB")})
	pl := ok(t, "listPreferences", prefs.StatusCode(), prefs.Body, prefs.JSON200, err)
	if pl.Meta.Region == nil || *pl.Meta.Region != "GB" || !slices.ContainsFunc(pl.Data, func(p PreferenceSet) bool {
		return p.Usage == "person-height" && p.Units != nil && len(*p.Units) > 0 && (*p.Units)[0].Unit == "ft+in"
	}) {
		t.Errorf("length in GB: %s", prefs.Body)
	}
}

func TestOperations(t *testing.T) {
	c, ctx := newClient(t)

	h, err := c.HealthWithResponse(ctx, nil)
	health := ok(t, "health", h.StatusCode(), h.Body, h.JSON200, err)
	if health.Status != Ok || health.Catalog.Units == 0 || !health.Catalog.LastReload.Ok || health.Catalog.LoadedAt.IsZero() {
		t.Errorf("health = %+v", health)
	}

	d, err := c.OpenapiWithResponse(ctx, nil)
	doc := ok(t, "openapi", d.StatusCode(), d.Body, d.JSON200, err)
	if doc.Openapi != "3.1.0" || doc.Info.Version != health.Version || len(doc.Paths) < 10 {
		t.Errorf("openapi %s, version %s, %d paths", doc.Openapi, doc.Info.Version, len(doc.Paths))
	}
	// The document is cached by its ETag.
	d, err = c.OpenapiWithResponse(ctx, &OpenapiParams{IfNoneMatch: ptr(d.HTTPResponse.Header.Get("ETag"))})
	if err != nil || d.StatusCode() != http.StatusNotModified {
		t.Errorf("If-None-Match: %v %d", err, d.StatusCode())
	}
}

// TestAccountUnits defines, changes, lists, reads, uses and deletes a unit
// of the key's account (the key carries units:write).
func TestAccountUnits(t *testing.T) {
	c, ctx := newClient(t)
	const smoot = `{"category": "length", "symbol": "smoot", "name": "smoot", "plural": "smoots", "system": "MIT",
 "definition": {"factor": "1.7018", "unit": "m"}, "exact": true,
 "source": "Oliver R. Smoot's height, Harvard Bridge, 1958", "examples": ["1 smoot = 1.7018 m"]}`
	put, err := c.PutAccountUnitWithBodyWithResponse(ctx, "smoot", nil, "application/json", strings.NewReader(smoot))
	if err != nil || put.StatusCode() != http.StatusCreated || put.JSON201 == nil || put.JSON201.Data.Symbol != "smoot" || put.JSON201.Data.Revision != 1 {
		t.Fatalf("PUT smoot: %v %d %s", err, put.StatusCode(), put.Body)
	}
	put, err = c.PutAccountUnitWithBodyWithResponse(ctx, "smoot", nil, "application/json", strings.NewReader(strings.Replace(smoot, `"MIT"`, `"MIT units"`, 1)))
	if changed := ok(t, "putAccountUnit", put.StatusCode(), put.Body, put.JSON200, err); changed.Data.Revision != 2 {
		t.Errorf("changed smoot: revision %d", changed.Data.Revision)
	}
	l, err := c.ListAccountUnitsWithResponse(ctx, nil)
	if list := ok(t, "listAccountUnits", l.StatusCode(), l.Body, l.JSON200, err); list.Meta.Total != 1 || list.Data[0].Symbol != "smoot" {
		t.Errorf("list = %+v", list)
	}
	g, err := c.GetAccountUnitWithResponse(ctx, "smoot", nil)
	if one := ok(t, "getAccountUnit", g.StatusCode(), g.Body, g.JSON200, err); one.Data.Symbol != "smoot" || !strings.Contains(one.Data.Document, "1.7018") {
		t.Errorf("smoot = %+v", one.Data)
	}
	conv, err := c.ConvertGetWithResponse(ctx, &ConvertGetParams{Value: ptr("364.4"), From: ptr("my:smoot"), To: ptr("m")})
	if r := ok(t, "convert my:smoot", conv.StatusCode(), conv.Body, conv.JSON200, err).Data; r.Result.Value == nil || *r.Result.Value != "620.13592" {
		t.Errorf("364.4 my:smoot = %+v", r.Result)
	}
	del, err := c.DeleteAccountUnitWithResponse(ctx, "smoot", nil)
	if d := ok(t, "deleteAccountUnit", del.StatusCode(), del.Body, del.JSON200, err); !d.Data.Deleted || d.Data.Symbol != "smoot" {
		t.Errorf("delete = %+v", d.Data)
	}
}
