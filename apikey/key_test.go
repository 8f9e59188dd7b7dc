package apikey

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestGenerate(t *testing.T) {
	seen := map[string]bool{}
	for _, env := range []string{EnvLive, EnvTest} {
		for range 100 {
			key, err := Generate(env)
			if err != nil {
				t.Fatal(err)
			}
			if want := "uc_" + env + "_"; !strings.HasPrefix(key, want) {
				t.Fatalf("key %q does not start with %q", key, want)
			}
			if got := len(key) - len("uc_"+env+"_"); got != 43 {
				t.Fatalf("secret part has %d characters, want 43", got)
			}
			if got, ok := parseKey(key); !ok || got != env {
				t.Fatalf("parseKey(generated) = %q, %v", got, ok)
			}
			if seen[key] {
				t.Fatal("Generate repeated a key")
			}
			seen[key] = true
		}
	}
	if _, err := Generate("prod"); err == nil {
		t.Error("Generate(prod) succeeded")
	}
}

func TestAuthenticate(t *testing.T) {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	later := t0.Add(time.Hour)
	mk := func(name, env string, mod func(*Record)) (string, Record) {
		key, rec, err := NewRecord(name, env, t0)
		if err != nil {
			t.Fatal(err)
		}
		if mod != nil {
			mod(&rec)
		}
		return key, rec
	}
	active, activeRec := mk("active", EnvTest, nil)
	live, liveRec := mk("live", EnvLive, nil)
	revoked, revokedRec := mk("revoked", EnvTest, func(r *Record) { r.RevokedAt = &t0 })
	expired, expiredRec := mk("expired", EnvTest, func(r *Record) { r.ExpiresAt = &t0 })
	expiring, expiringRec := mk("expiring", EnvTest, func(r *Record) { r.ExpiresAt = &later })
	unknown, err := Generate(EnvTest)
	if err != nil {
		t.Fatal(err)
	}
	set := NewSet([]Record{activeRec, liveRec, revokedRec, expiredRec, expiringRec})
	secret := active[len("uc_test_"):]

	tests := []struct {
		name     string
		token    string
		env      string
		now      time.Time
		wantErr  error
		wantName string
	}{
		{"active", active, EnvTest, t0, nil, "active"},
		{"live key on live server", live, EnvLive, t0, nil, "live"},
		{"live key on test server", live, EnvTest, t0, ErrWrongEnv, ""},
		{"test key on live server", active, EnvLive, t0, ErrWrongEnv, ""},
		{"unknown", unknown, EnvTest, t0, ErrUnknown, ""},
		{"revoked", revoked, EnvTest, t0, ErrUnknown, ""},
		{"expired at expiry", expired, EnvTest, t0, ErrUnknown, ""},
		{"before expiry", expiring, EnvTest, later.Add(-time.Nanosecond), nil, "expiring"},
		{"after expiry", expiring, EnvTest, later, ErrUnknown, ""},
		{"empty", "", EnvTest, t0, ErrMalformed, ""},
		{"bearer prefix left on", "Bearer " + active, EnvTest, t0, ErrMalformed, ""},
		{"trailing space", active + " ", EnvTest, t0, ErrMalformed, ""},
		{"other vendor", "sk_test_" + secret, EnvTest, t0, ErrMalformed, ""},
		{"unknown env", "uc_prod_" + secret, EnvTest, t0, ErrMalformed, ""},
		{"short", active[:len(active)-1], EnvTest, t0, ErrMalformed, ""},
		{"long", active + "A", EnvTest, t0, ErrMalformed, ""},
		{"padded", active[:len(active)-1] + "=", EnvTest, t0, ErrMalformed, ""},
		{"standard base64 alphabet", "uc_test_" + strings.Repeat("+", 42) + "A", EnvTest, t0, ErrMalformed, ""},
		// 43 characters carry 258 bits; the last 2 must be zero.
		{"non-canonical trailing bits", "uc_test_" + strings.Repeat("A", 42) + "B", EnvTest, t0, ErrMalformed, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec, err := set.Authenticate(tt.token, tt.env, tt.now)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if rec.Name != tt.wantName {
				t.Errorf("record name = %q, want %q", rec.Name, tt.wantName)
			}
			if err != nil && tt.token != "" && strings.Contains(err.Error(), tt.token) {
				t.Errorf("error %q contains the token", err)
			}
		})
	}

	var nilSet *Set
	if _, err := nilSet.Authenticate(active, EnvTest, t0); !errors.Is(err, ErrUnknown) {
		t.Errorf("nil set: err = %v, want ErrUnknown", err)
	}
}

func TestCheckName(t *testing.T) {
	for _, name := range []string{"ci", "billing (prod) – eu", strings.Repeat("x", 100)} {
		if err := checkName(name); err != nil {
			t.Errorf("checkName(%q) = %v", name, err)
		}
	}
	for _, name := range []string{"", "  ", "a\nb", "a\x1b[31m", "\x85", "\xff", strings.Repeat("x", 101)} {
		if err := checkName(name); err == nil {
			t.Errorf("checkName(%q) accepted", name)
		}
	}
}

// TestRecordOf checks that the record made for an existing key
// authenticates that key in its environment and no other key, and that
// a token that is not a key has no record.
func TestRecordOf(t *testing.T) {
	key, err := Generate(EnvLive)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := RecordOf(key, "key_aaaaaaaaaaaaaaaa", "bench", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if rec.Env != EnvLive || rec.Prefix != key[:prefixLen] || rec.Hash != HashSecret(key) || len(rec.Hash) != HashHexLen {
		t.Errorf("record %+v does not describe %s", rec, key[:prefixLen])
	}
	set := NewSet([]Record{rec})
	if got, err := set.Authenticate(key, EnvLive, time.Now()); err != nil || got.ID != rec.ID {
		t.Errorf("Authenticate(key) = %+v, %v", got, err)
	}
	other, _ := Generate(EnvLive)
	if _, err := set.Authenticate(other, EnvLive, time.Now()); err == nil {
		t.Error("another key authenticates")
	}
	if _, err := RecordOf("hunter2", "key_b", "x", time.Now()); err == nil {
		t.Error("RecordOf accepted a token that is not a key")
	}
}
