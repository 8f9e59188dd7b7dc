package forwarded

import (
	"crypto/tls"
	"net/http/httptest"
	"testing"
)

func TestParseProxies(t *testing.T) {
	p, err := ParseProxies(" 10.0.0.0/8, 192.168.1.7 ,::1,fd00::/8, ")
	if err != nil {
		t.Fatal(err)
	}
	if got := p.String(); got != "10.0.0.0/8,192.168.1.7/32,::1/128,fd00::/8" {
		t.Errorf("parsed %s", got)
	}
	for _, bad := range []string{"10.0.0.0/33", "example.com", "10.0.0.300", "10.0.0.0/8;"} {
		if _, err := ParseProxies(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if p, err := ParseProxies(""); err != nil || !p.Empty() {
		t.Errorf("empty list: %v, %v", p, err)
	}
}

func TestResolve(t *testing.T) {
	p, err := ParseProxies("10.0.0.0/8, 192.0.2.1")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, peer string
		xff        []string
		proto      []string
		wantAddr   string
		wantHTTPS  bool
	}{
		{"no proxy, headers ignored", "203.0.113.5:4000", []string{"198.51.100.1"}, []string{"https"}, "203.0.113.5:4000", false},
		{"trusted proxy", "10.1.2.3:4000", []string{"198.51.100.1"}, []string{"https"}, "198.51.100.1:0", true},
		{"client-supplied entries to the left are ignored", "10.1.2.3:4000", []string{"1.1.1.1, 198.51.100.1"}, nil, "198.51.100.1:0", false},
		{"a chain of trusted proxies", "10.1.2.3:4000", []string{"198.51.100.1, 192.0.2.1", "10.9.9.9"}, []string{"http, https"}, "198.51.100.1:0", true},
		{"the nearest proxy's scheme counts", "10.1.2.3:4000", nil, []string{"https", "http"}, "10.1.2.3:4000", false},
		{"garbage stops the chain", "10.1.2.3:4000", []string{"198.51.100.1, junk, 10.0.0.9"}, nil, "10.0.0.9:0", false},
		{"IPv4-mapped peer", "[::ffff:10.1.2.3]:4000", []string{"198.51.100.1"}, nil, "198.51.100.1:0", false},
		{"no headers", "10.1.2.3:4000", nil, nil, "10.1.2.3:4000", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/", nil)
			r.RemoteAddr = tt.peer
			for _, v := range tt.xff {
				r.Header.Add("X-Forwarded-For", v)
			}
			for _, v := range tt.proto {
				r.Header.Add("X-Forwarded-Proto", v)
			}
			got := p.Resolve(r)
			if got.RemoteAddr != tt.wantAddr || HTTPS(got) != tt.wantHTTPS {
				t.Errorf("RemoteAddr %q, HTTPS %v; want %q, %v", got.RemoteAddr, HTTPS(got), tt.wantAddr, tt.wantHTTPS)
			}
			if r.RemoteAddr != tt.peer {
				t.Error("Resolve changed the request it was given")
			}
		})
	}
	// Trusting no one changes nothing, whatever the headers say.
	r := httptest.NewRequest("GET", "/", nil)
	r.RemoteAddr = "10.1.2.3:4000"
	r.Header.Set("X-Forwarded-For", "198.51.100.1")
	r.Header.Set("X-Forwarded-Proto", "https")
	if got := (Proxies{}).Resolve(r); got != r || HTTPS(got) {
		t.Error("the zero Proxies believed a forwarding header")
	}
	r.TLS = &tls.ConnectionState{}
	if !HTTPS(r) {
		t.Error("a TLS request is not HTTPS")
	}
}
