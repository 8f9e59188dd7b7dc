package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"unicode/utf8"
)

// FuzzBatchDecode feeds arbitrary bodies to POST /v1/batch. Properties: no
// panic, never a 5xx, the answer is valid JSON, and the strict scanner
// accepts only what encoding/json also considers valid JSON.
func FuzzBatchDecode(f *testing.F) {
	for _, seed := range []string{
		`{"conversions":[{"value":"12.5","from":"ft","to":"m"}]}`,
		`{"conversions":[{"value":1e3,"from":"km","to":"m","precision":3}],"precision":10}`,
		`{"conversions":[{"value":"-300","from":"degC","to":"K"},{"value":"x","from":"gallon","to":"L"},7,null]}`,
		`{"conversions":[{"value":"1","from":"m\u0000","to":"\ud800ft"}]}`,
		`{"conversions":[],"x":1}`,
		`{"conversions":[{"value":[[[[{}]]]]}]}`,
		`{"a":"\u00e9","conversions":{"b":true}} `,
		"\xff{}",
		`[`,
		`{"conversions":[{"to":"m","value":"1","from":"ft"},{"value":"2","from":"ft","to":"m","to":"ft"}]}`,
		`{"conversions":[{"value":"","from":"","to":""},{"value":"1","from":"ft","to":"m"} ]}`,
	} {
		f.Add([]byte(seed))
	}
	set, ks := testKeys(f)
	s := New(Config{Keys: fakeKeys{set}, Env: "test"})
	s.ApplyGraph(testGraph(f))
	h := s.Handler()
	auth := "Bearer " + ks["good"]
	f.Fuzz(func(t *testing.T, body []byte) {
		req := httptest.NewRequest(http.MethodPost, "/v1/batch", bytes.NewReader(body))
		req.Header.Set("Authorization", auth)
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code >= 500 {
			t.Fatalf("status %d for %q: %s", rec.Code, body, rec.Body)
		}
		if !json.Valid(rec.Body.Bytes()) {
			t.Fatalf("answer is not JSON: %s", rec.Body)
		}
		decoded, apiErr := decodeBatch(body, nil)
		accepted := apiErr == nil || apiErr.Code != codeInvalidRequest || !bytes.HasPrefix([]byte(apiErr.Message), []byte("malformed JSON"))
		if accepted && !(json.Valid(body) && utf8.Valid(body)) && len(body) <= DefaultMaxBody {
			t.Fatalf("scanner accepted invalid JSON %q", body)
		}
		if apiErr == nil {
			checkBatchAgainstStdlib(t, body, decoded)
		}
		// The accelerator reads exactly what the general path reads.
		saved := optimize
		optimize = !saved
		other, otherErr := decodeBatch(body, nil)
		optimize = saved
		if fmt.Sprintf("%+v %v", decoded, apiErr) != fmt.Sprintf("%+v %v", other, otherErr) {
			t.Fatalf("%q: optimize %v read %+v %v; the other way %+v %v", body, saved, decoded, apiErr, other, otherErr)
		}
	})
}

// checkBatchAgainstStdlib compares a batch the scanner decoded with
// encoding/json's reading of the same body: as many conversions, and for
// each item without its own error the same unit strings and the value's
// exact text (a string, or a number's literal).
func checkBatchAgainstStdlib(t *testing.T, body []byte, got batchRequest) {
	t.Helper()
	var std struct {
		Conversions []json.RawMessage `json:"conversions"`
	}
	if err := json.Unmarshal(body, &std); err != nil {
		t.Fatalf("scanner accepted a batch encoding/json refuses: %v\n%q", err, body)
	}
	if got.count != len(std.Conversions) {
		t.Fatalf("scanner counted %d conversions, encoding/json %d: %q", got.count, len(std.Conversions), body)
	}
	for i, it := range got.items {
		if it.err != "" {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(std.Conversions[i]))
		dec.UseNumber()
		var m map[string]any
		if err := dec.Decode(&m); err != nil {
			t.Fatalf("item %d accepted by the scanner is not an object for encoding/json: %v", i, err)
		}
		var value string
		switch v := m["value"].(type) {
		case string:
			value = v
		case json.Number:
			value = string(v)
		}
		if value != it.value || m["from"] != it.from || m["to"] != it.to {
			t.Fatalf("item %d: scanner read value %q from %q to %q; encoding/json %v", i, it.value, it.from, it.to, m)
		}
	}
}
