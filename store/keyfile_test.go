package store

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestReadKeyFileMissing(t *testing.T) {
	recs, err := ReadKeyFile(filepath.Join(t.TempDir(), "keys.json"))
	if err != nil || len(recs) != 0 {
		t.Errorf("missing file = %v, %v; want no keys", recs, err)
	}
}

func TestDecodeKeyFileRejects(t *testing.T) {
	const hash = "8f434346648f6b96df89dda901c5176b10a6d83961dd3c1ac88b59b2dc327aa4"
	obj := func(id, hash string) string {
		return `{"id":"` + id + `","name":"a","env":"test","prefix":"uc_test_AAAA",` +
			`"created_at":"2026-01-01T00:00:00Z","hash":"` + hash + `"`
	}
	file := func(objs ...string) string {
		return `{"version":1,"keys":[` + strings.Join(objs, ",") + `]}`
	}
	rec := func(fields string) string { return file(obj("key_a", hash) + fields + `}`) }
	if recs, err := decodeKeyFile([]byte(rec(""))); err != nil || len(recs) != 1 || recs[0].Hash != hash {
		t.Fatalf("good file: %+v, %v", recs, err)
	}
	tests := []struct {
		name, data, want string
	}{
		{"empty", ``, "parse"},
		{"truncated", rec("")[:40], "parse"},
		{"not an object", `[]`, "parse"},
		{"trailing data", rec("") + `{}`, "after"},
		{"unknown field", rec(`,"secret":"x"`), "unknown field"},
		{"no version", `{"keys":[]}`, "version"},
		{"future version", `{"version":2,"keys":[]}`, "version"},
		{"bad env", strings.Replace(rec(""), `"env":"test"`, `"env":"prod"`, 1), "env"},
		{"no id", strings.Replace(rec(""), `"id":"key_a"`, `"id":""`, 1), "id"},
		{"no created_at", strings.Replace(rec(""), `"created_at":"2026-01-01T00:00:00Z",`, ``, 1), "created_at"},
		{"short hash", strings.Replace(rec(""), hash, hash[:63], 1), "hex"},
		{"bad hash", strings.Replace(rec(""), hash, "zz"+hash[2:], 1), "hex"},
		{"duplicate id", file(obj("key_a", hash)+"}", obj("key_a", strings.Repeat("0", 64))+"}"), "duplicate id"},
		{"duplicate hash", file(obj("key_a", hash)+"}", obj("key_b", hash)+"}"), "duplicate hash"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := decodeKeyFile([]byte(tt.data))
			if err == nil {
				t.Fatal("accepted")
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not mention %q", err, tt.want)
			}
			if strings.Contains(err.Error(), hash[:16]) {
				t.Errorf("error %q shows the hash", err)
			}
		})
	}
}
