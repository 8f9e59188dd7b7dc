package main

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/unitd/unitd/internal/pgtest"
)

// unitsSpread is how soon every replica serves a change of an account's
// units, as the product promises it.
const unitsSpread = 5 * time.Second

// send makes one request with a key and returns the status and body.
func send(t *testing.T, method, url, key, contentType, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+key)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

// convertSmoot converts 1 smoot to metres on a replica with key and
// returns the result's value, or the error's code.
func convertSmoot(t *testing.T, r *replica, key string) string {
	t.Helper()
	_, body := send(t, "GET", r.url+"/v1/convert?value=1&from=smoot&to=m", key, "", "")
	var ans struct {
		Data struct {
			Result struct{ Value string } `json:"result"`
		} `json:"data"`
		Error struct{ Code string } `json:"error"`
	}
	if err := json.Unmarshal([]byte(body), &ans); err != nil {
		t.Fatalf("%s: %v", body, err)
	}
	if ans.Error.Code != "" {
		return ans.Error.Code
	}
	return ans.Data.Result.Value
}

// waitUnits asks until answer says want, for at most unitsSpread, and
// reports how long it took.
func waitUnits(t *testing.T, what, want string, answer func() string) time.Duration {
	t.Helper()
	start := time.Now()
	for {
		got := answer()
		if got == want {
			return time.Since(start)
		}
		if time.Since(start) > unitsSpread {
			t.Fatalf("%s: still %q after %v, want %q", what, got, unitsSpread, want)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestReplicasServeAccountUnits runs two unitd processes on one
// PostgreSQL store: a unit defined through one converts through the other
// within seconds; deleted through the other, it is UNKNOWN_UNIT on both;
// another account never sees it.
func TestReplicasServeAccountUnits(t *testing.T) {
	storeURL := pgtest.NewDatabase(t)
	cli(t, "accounts", "create", "--store", storeURL, "acme")
	cli(t, "accounts", "create", "--store", storeURL, "beta")
	newKey := func(acct, name string, more ...string) string {
		return strings.TrimSpace(cli(t, append([]string{"keys", "create", "--store", storeURL, "--account", acct, "--name", name, "--env", "test", "--wait", "0"}, more...)...))
	}
	writer := newKey("acme", "writer", "--scope", "units:write")
	reader := newKey("acme", "reader")
	other := newKey("beta", "other")
	a := startReplica(t, "--store", storeURL, "--env", "test")
	b := startReplica(t, "--store", storeURL, "--env", "test")

	for _, r := range []*replica{a, b} {
		if got := convertSmoot(t, r, reader); got != "UNKNOWN_UNIT" {
			t.Fatalf("before the unit is defined: %s", got)
		}
	}
	doc := "category: length\nsymbol: smoot\nname: smoot\nplural: smoots\nsystem: MIT\n" +
		"definition: {factor: 1.7018, unit: m}\nexact: true\nsource: Oliver R. Smoot's height, Harvard Bridge, 1958\n" +
		"examples: [\"1 smoot = 1.7018 m\"]\n"
	if st, body := send(t, "PUT", a.url+"/v1/account/units/smoot", reader, "application/yaml", doc); st != 403 || !strings.Contains(body, "INSUFFICIENT_SCOPE") {
		t.Fatalf("PUT with a key that converts only: %d %s", st, body)
	}
	if st, body := send(t, "PUT", a.url+"/v1/account/units/smoot", writer, "application/yaml", doc); st != 201 {
		t.Fatalf("PUT through a: %d %s\n%s", st, body, a.log())
	}
	if got := convertSmoot(t, a, reader); got != "1.7018" {
		t.Errorf("a, which stored it: %s", got)
	}
	took := waitUnits(t, "b after the PUT through a", "1.7018", func() string { return convertSmoot(t, b, reader) })
	t.Logf("b served the unit %v after a stored it", took)
	for _, r := range []*replica{a, b} {
		if got := convertSmoot(t, r, other); got != "UNKNOWN_UNIT" {
			t.Errorf("another account converts the unit: %s", got)
		}
		if st, body := send(t, "GET", r.url+"/v1/units?q=smoot", other, "", ""); st != 200 || strings.Contains(body, "smoot") {
			t.Errorf("another account's discovery: %d %s", st, body)
		}
	}

	if st, body := send(t, "DELETE", b.url+"/v1/account/units/smoot", writer, "", ""); st != 200 {
		t.Fatalf("DELETE through b: %d %s", st, body)
	}
	if got := convertSmoot(t, b, reader); got != "UNKNOWN_UNIT" {
		t.Errorf("b, which deleted it: %s", got)
	}
	took = waitUnits(t, "a after the DELETE through b", "UNKNOWN_UNIT", func() string { return convertSmoot(t, a, reader) })
	t.Logf("a dropped the unit %v after b deleted it", took)
}
