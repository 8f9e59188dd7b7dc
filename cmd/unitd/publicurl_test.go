package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

func TestParsePublicURL(t *testing.T) {
	for in, want := range map[string]string{
		"https://unitd.example.com":      "https://unitd.example.com",
		"https://unitd.example.com/":     "https://unitd.example.com",
		"http://127.0.0.1:8080":          "http://127.0.0.1:8080",
		"https://[::1]:8443":             "https://[::1]:8443",
		"ftp://unitd.example.com":        "",
		"unitd.example.com":              "",
		"https://":                       "",
		"https://unitd.example.com/api":  "",
		"https://unitd.example.com/?x=1": "",
		"https://user@unitd.example.com": "",
	} {
		got, err := parsePublicURL(in)
		if got != want || (err == nil) != (want != "") {
			t.Errorf("parsePublicURL(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}

func TestServeFlagsOfAPublicServer(t *testing.T) {
	cfg, err := parseServeFlags([]string{"--public-url", "https://unitd.example.com/", "--trusted-proxies", "10.0.0.0/8,192.0.2.7"}, io.Discard)
	if err != nil || cfg.PublicURL != "https://unitd.example.com" || cfg.Proxies.String() != "10.0.0.0/8,192.0.2.7/32" {
		t.Errorf("parsed %q, %q, %v", cfg.PublicURL, cfg.Proxies.String(), err)
	}
	for _, tt := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--public-url", "unitd.example.com"}, "--public-url"},
		{[]string{"--trusted-proxies", "10.0.0.0/40"}, "--trusted-proxies"},
		{[]string{"--tls-cert", "cert.pem"}, "--tls-key"},
		{[]string{"--tls-key", "key.pem"}, "--tls-cert"},
	} {
		if _, err := parseServeFlags(tt.args, io.Discard); err == nil || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("%v: %v, want an error naming %s", tt.args, err, tt.msg)
		}
	}
}

// TestSetupLinksUseThePublicURL: unitd users prints links that start with
// the public URL, from --public-url or the environment unitd serve reads.
func TestSetupLinksUseThePublicURL(t *testing.T) {
	st := filepath.Join(t.TempDir(), "unitd.db")
	if code, _, stderr := runCLI(t, "", "accounts", "create", "--store", st, "Acme"); code != 0 {
		t.Fatal(stderr)
	}
	_, out, _ := runCLI(t, "", "users", "create", "--store", st, "--account", "Acme", "--public-url", "https://unitd.example.com/", "ada@example.com")
	if !regexp.MustCompile(`^https://unitd\.example\.com/account/setup\?token=[A-Za-z0-9_-]{43}\n$`).MatchString(out) {
		t.Errorf("users create --public-url printed %q", out)
	}
	t.Setenv("UNITD_PUBLIC_URL", "https://accounts.example.org")
	_, out, _ = runCLI(t, "", "users", "link", "--store", st, "ada@example.com")
	if !strings.HasPrefix(out, "https://accounts.example.org/account/setup?token=") {
		t.Errorf("users link with UNITD_PUBLIC_URL printed %q", out)
	}
	if code, _, stderr := runCLI(t, "", "users", "link", "--store", st, "--public-url", "accounts.example.org", "ada@example.com"); code != 2 || !strings.Contains(stderr, "--public-url") {
		t.Errorf("a public URL without a scheme: exit %d, %s", code, stderr)
	}
}

// writeCert writes a fresh self-signed certificate for 127.0.0.1 and its
// key into dir and returns the certificate.
func writeCert(t *testing.T, dir string, serial int64) *x509.Certificate {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(serial), Subject: pkix.Name{CommonName: "unitd test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "cert.pem"), pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "key.pem"), pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder}), 0o600); err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	return cert
}

// TestServeTLS: with --tls-cert and --tls-key the server speaks HTTPS,
// sends HSTS, and takes up a renewed certificate on SIGHUP's reload.
func TestServeTLS(t *testing.T) {
	dir := t.TempDir()
	first := writeCert(t, dir, 1)
	d := startDaemonWith(t, func(c *serveConfig) {
		c.TLSCert, c.TLSKey = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	})
	url := strings.Replace(d.url, "http://", "https://", 1)
	get := func(trust *x509.Certificate) (*http.Response, error) {
		pool := x509.NewCertPool()
		pool.AddCert(trust)
		c := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
		resp, err := c.Get(url + "/v1/health")
		if err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		return resp, err
	}
	resp, err := get(first)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 || resp.TLS == nil || resp.Header.Get("Strict-Transport-Security") == "" {
		t.Errorf("GET over TLS: %d, TLS %v, HSTS %q", resp.StatusCode, resp.TLS != nil, resp.Header.Get("Strict-Transport-Security"))
	}
	if r, err := http.Get(d.url + "/v1/health"); err == nil {
		r.Body.Close()
		if r.StatusCode == 200 {
			t.Error("plain HTTP answered on the TLS port")
		}
	}
	second := writeCert(t, dir, 2)
	d.d.reload()
	if _, err := get(first); err == nil {
		t.Error("the old certificate is still served after the reload")
	}
	if resp, err := get(second); err != nil || resp.TLS.PeerCertificates[0].SerialNumber.Int64() != 2 {
		t.Errorf("the renewed certificate after the reload: %v", err)
	}
}

// TestTakenPortNamesItsFlag: a port already in use is reported at once,
// naming the flag that chose it.
func TestTakenPortNamesItsFlag(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	st := filepath.Join(t.TempDir(), "unitd.db")
	for _, tt := range []struct{ flag, addr, admin string }{
		{"--admin-addr", "127.0.0.1:0", busy.Addr().String()},
		{"--addr", busy.Addr().String(), "off"},
	} {
		code, _, stderr := runCLI(t, "", "serve", "--addr", tt.addr, "--admin-addr", tt.admin, "--store", st)
		if code != 1 || !strings.Contains(stderr, tt.flag+" "+busy.Addr().String()) ||
			!strings.Contains(stderr, "another unitd") || !strings.Contains(stderr, "give another address with "+tt.flag) {
			t.Errorf("%s on a taken port: exit %d\n%s", tt.flag, code, stderr)
		}
	}
	// The default collides with neither Prometheus (9090), its Pushgateway
	// (9091) and Alertmanager (9093), nor the node exporter (9100).
	cfg, err := parseServeFlags(nil, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if _, port, _ := net.SplitHostPort(cfg.AdminAddr); port == "9090" || port == "9091" || port == "9093" || port == "9100" {
		t.Errorf("the default admin address %s takes a port of the Prometheus ecosystem", cfg.AdminAddr)
	}
}
