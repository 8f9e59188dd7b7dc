package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/unitd/unitd/account"
	"github.com/unitd/unitd/accountunits"
	"github.com/unitd/unitd/apikey"
	"github.com/unitd/unitd/engine"
	"github.com/unitd/unitd/store/sqlite"
)

// unitsFixture is a server with the SQL store's units of accounts: two
// accounts, acme and beta; acme has a key that converts only ("read")
// and one that may change its units ("write"), beta one of each kind.
type unitsFixture struct {
	*fixture
	v   *validator
	svc *accountunits.Service
}

func newUnitsFixture(t *testing.T, opt accountunits.Options) *unitsFixture {
	t.Helper()
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "unitd.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	keys := map[string]string{}
	for _, a := range []string{"acme", "beta"} {
		acct, err := db.CreateAccount(ctx, a)
		if err != nil {
			t.Fatal(err)
		}
		for name, scopes := range map[string][]string{"read": nil, "write": {apikey.ScopeUnitsWrite}} {
			key, _, err := db.CreateKey(ctx, acct.ID, name, apikey.EnvTest, scopes, account.Operator)
			if err != nil {
				t.Fatal(err)
			}
			keys[a+"-"+name] = key
		}
	}
	recs, err := db.AuthRecords(ctx)
	if err != nil {
		t.Fatal(err)
	}
	watch, err := account.NewUnitWatcher(ctx, db, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	svc := accountunits.New(db, watch, opt)
	f := newFixture(t, func(c *Config) {
		c.Keys = fakeKeys{apikey.NewSet(recs)}
		c.Units = svc
		c.Define = accountunits.Define
	})
	f.keys = keys
	return &unitsFixture{fixture: f, v: newValidator(t, f), svc: svc}
}

// call sends a request with the key named key and checks the answer
// against /openapi.json; it returns the status and the decoded body.
func (f *unitsFixture) call(t *testing.T, method, target, key, contentType, body string) (int, map[string]any, http.Header) {
	t.Helper()
	req := f.request(t, method, target, f.keys[key], contentType, body)
	resp, raw := f.do(t, req)
	f.v.check(t, req, resp, raw)
	if resp.StatusCode >= 500 {
		t.Errorf("%s %s: %d\n%s", method, target, resp.StatusCode, f.logs.String())
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("%s %s: %v\n%s", method, target, err, raw)
	}
	return resp.StatusCode, m, resp.Header
}

func errCode(m map[string]any) string {
	e, _ := m["error"].(map[string]any)
	c, _ := e["code"].(string)
	return c
}

func resultValue(m map[string]any) string {
	d, _ := m["data"].(map[string]any)
	r, _ := d["result"].(map[string]any)
	v, _ := r["value"].(string)
	return v
}

const smootDoc = `{"category": "length", "symbol": "smoot", "name": "smoot", "plural": "smoots", "system": "MIT",
 "aliases": ["smoots"], "definition": {"factor": "1.7018", "unit": "m"}, "exact": true,
 "source": "Oliver R. Smoot's height, Harvard Bridge, 1958", "examples": ["1 smoot = 1.7018 m"]}`

// TestAccountUnitLifecycle defines, changes, uses and deletes a unit of
// one account through the API, and checks that the other account never
// sees it.
func TestAccountUnitLifecycle(t *testing.T) {
	f := newUnitsFixture(t, accountunits.Options{})
	// Changing needs the scope; reading does not.
	st, m, h := f.call(t, "PUT", "/v1/account/units/smoot", "acme-read", "application/json", smootDoc)
	if st != 403 || errCode(m) != codeInsufficientScope || h.Get("WWW-Authenticate") != challengeScope {
		t.Fatalf("PUT without the scope: %d %v %q", st, m, h.Get("WWW-Authenticate"))
	}
	if st, m, _ := f.call(t, "PUT", "/v1/account/units/smoot", "", "application/json", smootDoc); st != 401 {
		t.Errorf("PUT without a key: %d %v", st, m)
	}
	st, m, _ = f.call(t, "PUT", "/v1/account/units/smoot", "acme-write", "application/json", smootDoc)
	if st != 201 {
		t.Fatalf("first PUT: %d %v", st, m)
	}
	if d := m["data"].(map[string]any); d["name"] != "my:smoot" || d["revision"] != 1.0 || d["unit"].(map[string]any)["account"] != true {
		t.Errorf("PUT answer: %v", d)
	}
	// Any key of the account converts with it, by its plain symbol, its
	// alias and my:.
	for _, from := range []string{"smoot", "my:smoot", "smoots"} {
		st, m, _ := f.call(t, "GET", "/v1/convert?value=364.4&from="+url.QueryEscape(from)+"&to=m", "acme-read", "", "")
		if st != 200 || resultValue(m) != "620.13592" {
			t.Errorf("364.4 %s → m: %d %v", from, st, m)
		}
	}
	// explain names its definition and source.
	st, m, _ = f.call(t, "POST", "/v1/convert", "acme-read", "application/json", `{"value":"1","from":"smoot","to":"ft","explain":true}`)
	if raw, _ := json.Marshal(m); st != 200 || !strings.Contains(string(raw), "Oliver R. Smoot") || !strings.Contains(string(raw), `"unit":"my:smoot"`) {
		t.Errorf("explain: %d %s", st, raw)
	}
	// A change is 200, with the next revision.
	changed := strings.Replace(smootDoc, `"1.7018"`, `"1.70"`, 1)
	changed = strings.Replace(changed, `"1 smoot = 1.7018 m"`, `"1 smoot = 1.7 m"`, 1)
	if st, m, _ := f.call(t, "PUT", "/v1/account/units/my:smoot", "acme-write", "application/json", changed); st != 200 || m["data"].(map[string]any)["revision"] != 2.0 {
		t.Fatalf("second PUT: %d %v", st, m)
	}
	if _, m, _ := f.call(t, "GET", "/v1/convert?value=10&from=smoot&to=m", "acme-read", "", ""); resultValue(m) != "17" {
		t.Errorf("after the change, 10 smoot = %v", m)
	}
	// The list and the unit with its history.
	if st, m, _ := f.call(t, "GET", "/v1/account/units", "acme-read", "", ""); st != 200 || m["meta"].(map[string]any)["total"] != 1.0 {
		t.Errorf("list: %d %v", st, m)
	}
	st, m, _ = f.call(t, "GET", "/v1/account/units/smoot", "acme-read", "", "")
	if hist, _ := m["data"].(map[string]any)["history"].([]any); st != 200 || len(hist) != 2 {
		t.Errorf("unit with history: %d %v", st, m)
	}

	// The other account sees nothing of it: not in conversions, their
	// suggestions, its list or discovery.
	st, m, _ = f.call(t, "GET", "/v1/convert?value=1&from=smoot&to=m", "beta-read", "", "")
	if raw, _ := json.Marshal(m); st != 400 || errCode(m) != string(engine.CodeUnknownUnit) || strings.Contains(string(raw), "smoot\"]") || strings.Contains(string(raw), "my:") {
		t.Errorf("beta converts smoot: %d %s", st, raw)
	}
	if _, m, _ := f.call(t, "GET", "/v1/convert?value=1&from=smoat&to=m", "beta-read", "", ""); strings.Contains(fmt.Sprint(m), "smoot") {
		t.Errorf("beta's suggestions hold acme's unit: %v", m)
	}
	if _, m, _ := f.call(t, "GET", "/v1/convert?value=1&from=smoat&to=m", "acme-read", "", ""); !strings.Contains(fmt.Sprint(m["error"]), "smoot") {
		t.Errorf("acme's suggestions lack its unit: %v", m)
	}
	if _, m, _ := f.call(t, "GET", "/v1/account/units", "beta-read", "", ""); m["meta"].(map[string]any)["total"] != 0.0 {
		t.Errorf("beta's list: %v", m)
	}
	if st, m, _ := f.call(t, "GET", "/v1/units/my:smoot", "beta-read", "", ""); st != 404 {
		t.Errorf("beta's discovery: %d %v", st, m)
	}
	if st, _, _ := f.call(t, "DELETE", "/v1/account/units/smoot", "beta-write", "", ""); st != 404 {
		t.Errorf("beta deletes acme's unit: %d", st)
	}
	// Discovery with acme's key lists it, marked; without a key it is
	// the catalog's alone.
	st, m, _ = f.call(t, "GET", "/v1/units?q=smoot", "acme-read", "", "")
	if d, _ := m["data"].([]any); st != 200 || len(d) != 1 || d[0].(map[string]any)["account"] != true {
		t.Errorf("discovery with acme's key: %d %v", st, m)
	}
	if st, m, _ := f.call(t, "GET", "/v1/units/smoot", "acme-read", "", ""); st != 200 || m["data"].(map[string]any)["symbol"] != "my:smoot" {
		t.Errorf("GET /v1/units/smoot with acme's key: %d %v", st, m)
	}
	if st, m, _ := f.call(t, "GET", "/v1/units?q=smoot", "", "", ""); st != 200 || len(m["data"].([]any)) != 0 {
		t.Errorf("discovery without a key: %d %v", st, m)
	}

	// Deleted: unknown again.
	if st, m, _ := f.call(t, "DELETE", "/v1/account/units/smoot", "acme-read", "", ""); st != 403 || errCode(m) != codeInsufficientScope {
		t.Errorf("DELETE without the scope: %d %v", st, m)
	}
	if st, m, _ := f.call(t, "DELETE", "/v1/account/units/smoot", "acme-write", "", ""); st != 200 {
		t.Fatalf("DELETE: %d %v", st, m)
	}
	if st, m, _ := f.call(t, "GET", "/v1/convert?value=1&from=my:smoot&to=m", "acme-read", "", ""); st != 400 || errCode(m) != string(engine.CodeUnknownUnit) {
		t.Errorf("after DELETE: %d %v", st, m)
	}
	if st, _, _ := f.call(t, "DELETE", "/v1/account/units/smoot", "acme-write", "", ""); st != 404 {
		t.Errorf("second DELETE: %d", st)
	}
}

// TestAccountUnitRefused sends definitions the loader and the rules
// refuse, hostile ones included: each is INVALID_REQUEST (or the
// request-level code) with its problems, never a 5xx.
func TestAccountUnitRefused(t *testing.T) {
	f := newUnitsFixture(t, accountunits.Options{})
	unit := func(sym, extra string) string {
		return `{"category": "length", "symbol": "` + sym + `", "name": "` + sym + `", "plural": "` + sym + `s", "system": "x", "definition": {"factor": "2", "unit": "m"}, "exact": true, "source": "x"` + extra + `}`
	}
	long := strings.Repeat("a", 10<<10)
	for _, tt := range []struct {
		name, symbol, ct, body string
		status                 int
		code, contains         string
	}{
		{"wrong example", "twom", "application/json", unit("twom", `, "examples": ["1 twom = 3 m"]`), 400, codeInvalidRequest, "example"},
		{"no source", "twom", "application/json", strings.Replace(unit("twom", ""), `, "source": "x"`, "", 1), 400, codeInvalidRequest, "source"},
		{"shadows a catalog name", "ft", "application/json", unit("ft", ""), 400, codeInvalidRequest, "ft"},
		{"alias shadows a catalog name", "twom", "application/json", unit("twom", `, "aliases": ["foot"]`), 400, codeInvalidRequest, "foot"},
		{"path and symbol differ", "other", "application/json", unit("twom", ""), 400, codeInvalidRequest, "twom"},
		{"refers to itself", "loop", "application/json", strings.Replace(unit("loop", ""), `"unit": "m"`, `"unit": "loop"`, 1), 400, codeInvalidRequest, "loop"},
		{"unknown unit", "twom", "application/json", strings.Replace(unit("twom", ""), `"unit": "m"`, `"unit": "parsec_x"`, 1), 400, codeInvalidRequest, "parsec_x"},
		{"name of 10 KB", "twom", "application/json", strings.Replace(unit("twom", ""), `"name": "twom"`, `"name": "`+long+`"`, 1), 400, codeInvalidRequest, "at most"},
		{"symbol of 10 KB", long, "application/json", unit(long, ""), 400, codeInvalidRequest, "symbol"},
		{"formula bomb", "bomb", "application/json", strings.Replace(unit("bomb", ""), `"definition": {"factor": "2", "unit": "m"}`, `"definition": {"to": "`+strings.Repeat("x*x*", 60)+`x", "from": "x", "unit": "m"}`, 1), 400, codeInvalidRequest, ""},
		{"huge exponent", "big", "application/json", strings.Replace(unit("big", ""), `"factor": "2"`, `"factor": "1e999999999"`, 1), 400, codeInvalidRequest, ""},
		{"not an object", "twom", "application/json", `["x"]`, 400, codeInvalidRequest, "object"},
		{"malformed JSON", "twom", "application/json", `{"category": `, 400, codeInvalidRequest, "malformed"},
		{"YAML syntax", "twom", "application/yaml", "category: length\nsymbol: [twom\n", 400, codeInvalidRequest, "YAML"},
		{"media type", "twom", "text/plain", unit("twom", ""), 415, codeUnsupportedMediaType, ""},
		{"body too large", "twom", "application/json", unit("twom", `, "description": "`+strings.Repeat("d", 70<<10)+`"`), 413, codePayloadTooLarge, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			st, m, _ := f.call(t, "PUT", "/v1/account/units/"+url.PathEscape(tt.symbol), "acme-write", tt.ct, tt.body)
			raw, _ := json.Marshal(m)
			if st != tt.status || errCode(m) != tt.code || !strings.Contains(string(raw), tt.contains) {
				t.Errorf("%d %s, want %d %s containing %q", st, truncate(string(raw), 600), tt.status, tt.code, tt.contains)
			}
			if tt.code == codeInvalidRequest && tt.name != "not an object" && tt.name != "malformed JSON" {
				d, _ := m["error"].(map[string]any)["details"].(map[string]any)
				if p, _ := d["problems"].([]any); len(p) == 0 {
					t.Errorf("no details.problems: %s", truncate(string(raw), 600))
				}
			}
		})
	}
	if _, m, _ := f.call(t, "GET", "/v1/account/units", "acme-read", "", ""); m["meta"].(map[string]any)["total"] != 0.0 {
		t.Errorf("a refused unit was stored: %v", m)
	}
	// The problems carry their positions in the document.
	_, m, _ := f.call(t, "PUT", "/v1/account/units/twom", "acme-write", "application/yaml", "category: length\nsymbol: twom\nname: twom\nplural: twoms\nsystem: x\ndefinition: {factor: 2, unit: m}\nexact: true\nsource: x\nexamples: [\"1 twom = 3 m\"]\n")
	p := m["error"].(map[string]any)["details"].(map[string]any)["problems"].([]any)[0].(map[string]any)
	if p["line"] != 9.0 || p["source"] != "twom" {
		t.Errorf("problem position: %v", p)
	}
	// YAML is accepted as well, and a unit another needs is not deleted.
	if st, m, _ := f.call(t, "PUT", "/v1/account/units/twom", "acme-write", "application/yaml", "category: length\nsymbol: twom\nname: twom\nplural: twoms\nsystem: x\ndefinition: {factor: 2, unit: m}\nexact: true\nsource: x\n"); st != 201 {
		t.Fatalf("YAML PUT: %d %v", st, m)
	}
	if st, m, _ := f.call(t, "PUT", "/v1/account/units/fourm", "acme-write", "application/json", strings.Replace(unit("fourm", ""), `"unit": "m"`, `"unit": "twom"`, 1)); st != 201 {
		t.Fatalf("PUT of a unit on twom: %d %v", st, m)
	}
	if st, m, _ := f.call(t, "DELETE", "/v1/account/units/twom", "acme-write", "", ""); st != 400 || !strings.Contains(fmt.Sprint(m), "twom") {
		t.Errorf("DELETE of a unit another needs: %d %v", st, m)
	}
	if _, m, _ := f.call(t, "GET", "/v1/convert?value=1&from=fourm&to=m", "acme-read", "", ""); resultValue(m) != "4" {
		t.Errorf("1 fourm = %v", m)
	}
}

// TestAccountUnitCaps fills an account to its limits: past them each
// change is refused with the contract's error, and another account is
// not affected.
func TestAccountUnitCaps(t *testing.T) {
	f := newUnitsFixture(t, accountunits.Options{Limits: engine.OverlayLimits{Units: 3}, MaxBytes: 1000})
	doc := func(sym string) string {
		return `{"category": "length", "symbol": "` + sym + `", "name": "` + sym + `", "plural": "` + sym + `s", "system": "x", "definition": {"factor": "2", "unit": "m"}, "exact": true, "source": "x"}`
	}
	for i := range 3 {
		if st, m, _ := f.call(t, "PUT", fmt.Sprintf("/v1/account/units/u%d", i), "acme-write", "application/json", doc(fmt.Sprintf("u%d", i))); st != 201 {
			t.Fatalf("unit %d: %d %v", i, st, m)
		}
	}
	st, m, _ := f.call(t, "PUT", "/v1/account/units/u3", "acme-write", "application/json", doc("u3"))
	if st != 400 || !strings.Contains(fmt.Sprint(m), "at most 3") {
		t.Errorf("a fourth unit: %d %v", st, m)
	}
	if st, m, _ := f.call(t, "PUT", "/v1/account/units/u0", "acme-write", "application/json", strings.Replace(doc("u0"), `"source": "x"`, `"source": "`+strings.Repeat("s", 900)+`"`, 1)); st != 400 || !strings.Contains(fmt.Sprint(m), "bytes of documents") {
		t.Errorf("past the bytes of an account: %d %v", st, m)
	}
	if st, m, _ := f.call(t, "PUT", "/v1/account/units/u3", "beta-write", "application/json", doc("u3")); st != 201 {
		t.Errorf("another account: %d %v", st, m)
	}
}

// TestAccountUnitCatalogAddsTheName stores a unit, then serves a catalog
// release that has the same name: the plain name becomes ambiguous with
// both candidates, my: still reaches the account's unit.
func TestAccountUnitCatalogAddsTheName(t *testing.T) {
	f := newUnitsFixture(t, accountunits.Options{})
	if st, m, _ := f.call(t, "PUT", "/v1/account/units/smoot", "acme-write", "application/json", smootDoc); st != 201 {
		t.Fatalf("PUT: %d %v", st, m)
	}
	spec := testSpecOf(t)
	spec.Version = "test-2"
	spec.Categories[0].Units = append(spec.Categories[0].Units, engine.UnitSpec{Symbol: "smoot", Name: "catalog smoot", Plural: "catalog smoots",
		System: "x", Exact: true, Source: "a later catalog", Definition: engine.DefinitionSpec{Factor: "1.7", Unit: "m"}})
	g, errs := engine.Build(spec)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	f.srv.ApplyGraph(g)
	st, m, _ := f.call(t, "GET", "/v1/convert?value=1&from=smoot&to=m", "acme-read", "", "")
	cands := fmt.Sprint(m["error"].(map[string]any)["candidates"])
	if st != 400 || errCode(m) != string(engine.CodeAmbiguousUnit) || !strings.Contains(cands, "my:smoot") {
		t.Errorf("plain smoot after the catalog added it: %d %v", st, m)
	}
	if _, m, _ := f.call(t, "GET", "/v1/convert?value=1&from=my:smoot&to=m", "acme-read", "", ""); resultValue(m) != "1.7018" {
		t.Errorf("my:smoot: %v", m)
	}
	if _, m, _ := f.call(t, "GET", "/v1/convert?value=1&from=smoot&to=m", "beta-read", "", ""); resultValue(m) != "1.7" {
		t.Errorf("beta's smoot is the catalog's: %v", m)
	}
	// Another change of the account is not refused for what the catalog
	// did.
	if st, m, _ := f.call(t, "PUT", "/v1/account/units/pace", "acme-write", "application/json", strings.ReplaceAll(strings.Replace(smootDoc, `"aliases": ["smoots"], `, "", 1), "smoot", "pace")); st != 201 {
		t.Errorf("a new unit beside the ambiguous one: %d %v", st, m)
	}
}

// TestDefine defines units for one request on every conversion route:
// they convert in that request only, and hostile definitions are refused.
func TestDefine(t *testing.T) {
	f := newUnitsFixture(t, accountunits.Options{})
	if st, m, _ := f.call(t, "POST", "/v1/convert", "beta-read", "application/json", `{"value":"2","from":"smoot","to":"m","define":["smoot = 1.7018 m"]}`); st != 200 || resultValue(m) != "3.4036" {
		t.Errorf("POST convert with define: %d %v", st, m)
	}
	if st, m, _ := f.call(t, "POST", "/v1/convert", "beta-read", "application/json", `{"value":"1","from":"my:lap","to":"m","define":[`+
		`{"category":"length","symbol":"lap","name":"lap","plural":"laps","system":"club","definition":{"factor":"400","unit":"m"},"exact":true,"source":"the track","examples":["1 lap = 400 m"]}]}`); st != 200 || resultValue(m) != "400" {
		t.Errorf("POST convert with a document: %d %v", st, m)
	}
	if st, m, _ := f.call(t, "GET", "/v1/convert?value=1&from=pace&to=ft&define="+url.QueryEscape("step = 0.5 m; pace = 2 step"), "beta-read", "", ""); st != 200 || resultValue(m) != "3.28083989501312335958005249343832" {
		t.Errorf("GET convert with define: %d %v", st, m)
	}
	st, m, _ := f.call(t, "POST", "/v1/batch", "beta-read", "application/json", `{"define":["smoot = 1.7018 m"],"conversions":[{"value":"1","from":"smoot","to":"m"},{"value":"1","from":"m","to":"smoot"}]}`)
	if st != 200 || m["meta"].(map[string]any)["succeeded"] != 2.0 {
		t.Errorf("batch with define: %d %v", st, m)
	}
	// Never stored: the next request does not know it.
	if st, m, _ := f.call(t, "GET", "/v1/convert?value=1&from=smoot&to=m", "beta-read", "", ""); st != 400 || errCode(m) != string(engine.CodeUnknownUnit) {
		t.Errorf("after define: %d %v", st, m)
	}
	many := make([]string, 21)
	for i := range many {
		many[i] = fmt.Sprintf(`"u%d = 2 m"`, i)
	}
	for _, tt := range []struct{ name, body, contains string }{
		{"clash with the catalog", `["ft = 2 m"]`, "ft"},
		{"wrong example", `[{"category":"length","symbol":"lap","name":"lap","plural":"laps","system":"x","definition":{"factor":"400","unit":"m"},"exact":true,"source":"x","examples":["1 lap = 4 m"]}]`, "example"},
		{"too many", "[" + strings.Join(many, ",") + "]", "at most 20"},
		{"not a definition", `["smoot is long"]`, "SYMBOL = FACTOR UNIT"},
		{"not a string or object", `[1]`, "must be an array"},
		{"cycle", `["a = 2 b", "b = 2 a"]`, ""},
		{"too large", `["` + strings.Repeat("x", 17<<10) + ` = 2 m"]`, "bytes"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			st, m, _ := f.call(t, "POST", "/v1/convert", "beta-read", "application/json", `{"value":"1","from":"m","to":"m","define":`+tt.body+`}`)
			if st != 400 || errCode(m) != codeInvalidRequest || !strings.Contains(fmt.Sprint(m), tt.contains) {
				t.Errorf("%d %v", st, m)
			}
		})
	}
	// A request's unit over the account's: both reach, and it may not
	// redefine the account's.
	if st, m, _ := f.call(t, "PUT", "/v1/account/units/smoot", "acme-write", "application/json", smootDoc); st != 201 {
		t.Fatalf("PUT: %d %v", st, m)
	}
	if st, m, _ := f.call(t, "POST", "/v1/convert", "acme-read", "application/json", `{"value":"1","from":"decismoot","to":"smoot","define":["decismoot = 0.1 smoot"]}`); st != 200 || resultValue(m) != "0.1" {
		t.Errorf("define over the account's units: %d %v", st, m)
	}
	if st, m, _ := f.call(t, "POST", "/v1/convert", "acme-read", "application/json", `{"value":"1","from":"smoot","to":"m","define":["smoot = 2 m"]}`); st != 400 {
		t.Errorf("define redefining the account's unit: %d %v", st, m)
	}
}

// TestDefineStream defines a unit for an NDJSON stream through its query.
func TestDefineStream(t *testing.T) {
	f := newUnitsFixture(t, accountunits.Options{})
	req := f.request(t, "POST", "/v1/batch/stream?define="+url.QueryEscape("smoot = 1.7018 m"), f.keys["beta-read"], ndjsonContentType,
		`{"value":"1","from":"smoot","to":"m"}`+"\n"+`{"value":"2","from":"smoot","to":"cm"}`+"\n")
	resp, body := f.do(t, req)
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"value":"1.7018"`) || !strings.Contains(string(body), `"value":"340.36"`) || !strings.Contains(string(body), `"succeeded":2`) {
		t.Errorf("stream with define: %d %s", resp.StatusCode, body)
	}
	req = f.request(t, "POST", "/v1/batch/stream?define="+url.QueryEscape("ft = 2 m"), f.keys["beta-read"], ndjsonContentType, `{"value":"1","from":"m","to":"m"}`+"\n")
	if resp, body := f.do(t, req); resp.StatusCode != 400 || !strings.Contains(string(body), codeInvalidRequest) {
		t.Errorf("stream with a refused define: %d %s", resp.StatusCode, body)
	}
}

// TestAccountUnitsWithoutStore: a server without the store keeps no
// account units.
func TestAccountUnitsWithoutStore(t *testing.T) {
	f := newFixture(t, nil)
	resp, body := f.do(t, f.request(t, "GET", "/v1/account/units", f.keys["good"], "", ""))
	if resp.StatusCode != 404 || !strings.Contains(string(body), "store") {
		t.Errorf("%d %s", resp.StatusCode, body)
	}
	resp, body = f.do(t, f.request(t, "POST", "/v1/convert", f.keys["good"], "application/json", `{"value":"1","from":"smoot","to":"m","define":["smoot = 1.7018 m"]}`))
	if resp.StatusCode != 400 || !strings.Contains(string(body), "define") {
		t.Errorf("define without Define: %d %s", resp.StatusCode, body)
	}
}

// TestDefineHostile sends ten thousand definitions every way a request
// can: each is refused with the contract's error, never a 5xx.
func TestDefineHostile(t *testing.T) {
	f := newUnitsFixture(t, accountunits.Options{})
	lines := make([]string, 10000)
	for i := range lines {
		lines[i] = fmt.Sprintf(`"u%d = 2 m"`, i)
	}
	req := f.request(t, "POST", "/v1/convert", f.keys["beta-read"], "application/json", `{"value":"1","from":"m","to":"m","define":[`+strings.Join(lines, ",")+`]}`)
	if resp, body := f.do(t, req); resp.StatusCode != 413 || !strings.Contains(string(body), codePayloadTooLarge) {
		t.Errorf("10,000 definitions in a body: %d %s", resp.StatusCode, truncate(string(body), 300))
	}
	few := `{"value":"1","from":"m","to":"m","define":[` + strings.Join(lines[:1000], ",") + `]}`
	if st, m, _ := f.call(t, "POST", "/v1/convert", "beta-read", "application/json", few); st != 400 || !strings.Contains(fmt.Sprint(m), "at most 20") {
		t.Errorf("1,000 definitions: %d %v", st, m)
	}
	q := url.QueryEscape(strings.ReplaceAll(strings.Join(lines, ";"), `"`, ""))
	req = f.request(t, "GET", "/v1/convert?value=1&from=m&to=m&define="+q[:6000], f.keys["beta-read"], "", "")
	if resp, body := f.do(t, req); resp.StatusCode >= 500 || resp.StatusCode == 200 {
		t.Errorf("definitions in a long query: %d %s", resp.StatusCode, truncate(string(body), 300))
	}
}
