//go:build !unitd_lite

package main

import (
	"crypto/tls"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync/atomic"
)

// parsePublicURL checks the address people reach the server at, such as
// https://unitd.example.com, and returns it without a trailing slash: a
// scheme of http or https and a host, nothing else.
func parsePublicURL(s string) (string, error) {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil ||
		(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || u.Opaque != "" {
		return "", fmt.Errorf("%q is not a public address such as https://unitd.example.com (a scheme, http or https, and a host, with no path)", s)
	}
	return u.Scheme + "://" + u.Host, nil
}

// certificate is the server's TLS certificate, read from its files at
// start and again on SIGHUP, so that a renewed certificate is taken up
// without a restart.
type certificate struct {
	certFile, keyFile string
	cur               atomic.Pointer[tls.Certificate]
}

func newCertificate(certFile, keyFile string) (*certificate, error) {
	c := &certificate{certFile: certFile, keyFile: keyFile}
	return c, c.load()
}

// load reads the files; on failure the certificate in use stays.
func (c *certificate) load() error {
	kp, err := tls.LoadX509KeyPair(c.certFile, c.keyFile)
	if err != nil {
		return fmt.Errorf("--tls-cert %s, --tls-key %s: %w", c.certFile, c.keyFile, err)
	}
	c.cur.Store(&kp)
	return nil
}

func (c *certificate) config() *tls.Config {
	return &tls.Config{
		MinVersion: tls.VersionTLS12,
		GetCertificate: func(*tls.ClientHelloInfo) (*tls.Certificate, error) {
			return c.cur.Load(), nil
		},
	}
}

// checkTLSFlags says what is wrong with --tls-cert and --tls-key.
func checkTLSFlags(cert, key string) error {
	if (cert == "") != (key == "") {
		return errors.New("--tls-cert and --tls-key go together: give both, or neither")
	}
	return nil
}

// schemeOf is the scheme the server listens with.
func schemeOf(tlsOn bool) string {
	if tlsOn {
		return "https"
	}
	return "http"
}

// publicBase is the address links printed for people start with: the
// public URL, or the listen address.
func publicBase(publicURL, addr string, tlsOn bool) string {
	if publicURL != "" {
		return publicURL
	}
	return schemeOf(tlsOn) + "://" + strings.TrimSuffix(addr, "/")
}
