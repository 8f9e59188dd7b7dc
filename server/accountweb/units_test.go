package accountweb

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"github.com/unitd/unitd/account"
	"github.com/unitd/unitd/accountunits"
	"github.com/unitd/unitd/catalog"
	"github.com/unitd/unitd/engine"
)

// unitsFixture is the account page with the Units tab, over the shipped
// catalog.
func unitsFixture(t *testing.T) *fixture {
	t.Helper()
	g, errs := catalog.LoadEmbedded()
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	f := newFixture(t, false, func(c *Config) {
		w, err := account.NewUnitWatcher(context.Background(), c.Store.(account.UnitLoader), nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		c.Units = accountunits.New(c.Store.(account.UnitStore), w, accountunits.Options{})
		c.Graph = func() *engine.Graph { return g }
	})
	f.user(f.acctA, "ada@example.com")
	f.user(f.acctB, "bob@example.com")
	return f
}

type checkAnswer struct {
	OK       bool
	Symbol   string
	Problems []problem
	Preview  string
}

func (c *client) check(t *testing.T, csrf, doc, value, to string) checkAnswer {
	t.Helper()
	resp, body := c.postForm("/account/units/check", url.Values{"csrf": {csrf}, "document": {doc}, "value": {value}, "to": {to}})
	var ans checkAnswer
	if resp.StatusCode != 200 || json.Unmarshal([]byte(body), &ans) != nil {
		t.Fatalf("check: %d %s", resp.StatusCode, body)
	}
	return ans
}

// TestUnitsTab defines, checks, previews, changes and deletes a unit on
// the account page, and shows that another account's users see none of
// it.
func TestUnitsTab(t *testing.T) {
	f := unitsFixture(t)
	ada, csrf := f.signedIn("ada@example.com")
	resp, body := ada.get("/account/units")
	if resp.StatusCode != 200 || !strings.Contains(body, `aria-current="page">Units`) || !strings.Contains(body, "symbol: smoot") {
		t.Fatalf("the Units tab: %d\n%s", resp.StatusCode, body)
	}
	if _, body := ada.get("/account"); !strings.Contains(body, `href="/account/units"`) || !strings.Contains(body, `value="units:write"`) {
		t.Errorf("the keys tab lacks the Units tab or the scope:\n%s", body)
	}

	// Live validation and the preview store nothing.
	if ans := ada.check(t, csrf, exampleDocument, "364.4", "m"); !ans.OK || ans.Symbol != "smoot" || ans.Preview != "364.4 smoot = 620.13592 m" {
		t.Errorf("check of the example: %+v", ans)
	}
	wrong := strings.Replace(exampleDocument, "1.7018 m\"]", "1.8 m\"]", 1)
	if ans := ada.check(t, csrf, wrong, "1", "m"); ans.OK || len(ans.Problems) == 0 || ans.Problems[0].Line != 9 || !strings.Contains(ans.Problems[0].Message, "example") {
		t.Errorf("check of a wrong example: %+v", ans)
	}
	if ans := ada.check(t, csrf, strings.Replace(exampleDocument, "symbol: smoot", "symbol: ft", 1), "", ""); ans.OK {
		t.Errorf("check of a catalog name: %+v", ans)
	}
	if ans := ada.check(t, csrf, exampleDocument, "1", "kg"); !ans.OK || !strings.Contains(ans.Preview, "cannot convert") {
		t.Errorf("preview to another kind: %+v", ans)
	}
	if docs, _ := f.db.Units(context.Background(), f.acctA.ID); len(docs) != 0 {
		t.Fatalf("a check stored %v", docs)
	}

	// A refused save shows the problems and keeps the text.
	resp, body = ada.postForm("/account/units", url.Values{"csrf": {csrf}, "document": {wrong}})
	if resp.StatusCode != 400 || !strings.Contains(body, "line 9") || !strings.Contains(body, "1.8 m") {
		t.Errorf("refused save: %d\n%s", resp.StatusCode, body)
	}
	// Without the form's token, nothing happens.
	if resp, _ := ada.postForm("/account/units", url.Values{"document": {exampleDocument}}); resp.StatusCode != 403 {
		t.Errorf("save without CSRF: %d", resp.StatusCode)
	}
	resp, _ = ada.postForm("/account/units", url.Values{"csrf": {csrf}, "document": {exampleDocument}})
	if resp.StatusCode != 303 || resp.Header.Get("Location") != "/account/units/smoot" {
		t.Fatalf("save: %d %s", resp.StatusCode, resp.Header.Get("Location"))
	}
	if _, body := ada.get("/account/units"); !strings.Contains(body, "<code>my:smoot</code>") || !strings.Contains(body, "1 my:smoot = 1.7018 m") {
		t.Errorf("list after the save:\n%s", body)
	}
	changed := strings.Replace(strings.Replace(exampleDocument, "1.7018", "1.70", 1), "= 1.7018 m", "= 1.7 m", 1)
	if resp, _ := ada.postForm("/account/units", url.Values{"csrf": {csrf}, "document": {changed}}); resp.StatusCode != 303 {
		t.Fatalf("change: %d", resp.StatusCode)
	}
	if _, body := ada.get("/account/units?edit=smoot"); !strings.Contains(body, "factor: 1.70,") {
		t.Errorf("edit fills the form with the unit:\n%s", body)
	}

	// Bob's account sees nothing of it.
	bob, csrfB := f.signedIn("bob@example.com")
	if _, body := bob.get("/account/units"); strings.Contains(body, "my:smoot</code>") {
		t.Errorf("bob's list shows ada's unit")
	}
	if resp, _ := bob.get("/account/units/smoot"); resp.StatusCode != 404 {
		t.Errorf("bob's view of ada's unit: %d", resp.StatusCode)
	}
	if resp, _ := bob.postForm("/account/units/smoot/delete", url.Values{"csrf": {csrfB}}); resp.StatusCode != 404 {
		t.Errorf("bob deletes ada's unit: %d", resp.StatusCode)
	}
	if ans := bob.check(t, csrfB, strings.Replace(exampleDocument, "unit: m}", "unit: my:smoot}", 1), "", ""); ans.OK {
		t.Errorf("bob's check reaches ada's unit: %+v", ans)
	}

	// Deleted, with its history kept; the audit log says who.
	if resp, _ := ada.postForm("/account/units/smoot/delete", url.Values{"csrf": {csrf}}); resp.StatusCode != 303 {
		t.Fatalf("delete: %d", resp.StatusCode)
	}
	resp, body = ada.get("/account/units/smoot")
	if resp.StatusCode != 200 || !strings.Contains(body, "deleted") || strings.Count(body, "<tr><td class=\"num\">") != 3 || !strings.Contains(body, "ada@example.com") {
		t.Errorf("history after the delete: %d\n%s", resp.StatusCode, body)
	}
	if _, body := ada.get("/account"); !strings.Contains(body, account.ActionUnitDelete) {
		t.Errorf("audit log lacks the delete:\n%s", body)
	}
}

// TestUnitsTabOff: a page without the units of accounts has no such tab.
func TestUnitsTabOff(t *testing.T) {
	f := newFixture(t, false, nil)
	f.user(f.acctA, "ada@example.com")
	ada, _ := f.signedIn("ada@example.com")
	if resp, _ := ada.get("/account/units"); resp.StatusCode != 404 {
		t.Errorf("GET /account/units: %d", resp.StatusCode)
	}
	if _, body := ada.get("/account"); strings.Contains(body, "/account/units") {
		t.Errorf("the keys page links to a Units tab that is not there")
	}
}
