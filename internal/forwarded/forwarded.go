// Package forwarded decides what a request says about its client when it
// comes through a reverse proxy: the client's address (X-Forwarded-For)
// and the scheme the client used (X-Forwarded-Proto). Those headers are
// believed only from the proxies an operator names; from anyone else they
// are ignored, since any client can send them.
package forwarded

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// Proxies are the peers whose forwarding headers are believed. The zero
// value believes no one.
type Proxies struct {
	nets []netip.Prefix
}

// ParseProxies reads a comma-separated list of addresses and CIDR
// prefixes, such as "10.0.0.0/8, 192.168.1.7, ::1". An empty list trusts
// no one.
func ParseProxies(list string) (Proxies, error) {
	var p Proxies
	for f := range strings.SplitSeq(list, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if strings.Contains(f, "/") {
			pre, err := netip.ParsePrefix(f)
			if err != nil {
				return Proxies{}, fmt.Errorf("%q is not an address or a CIDR prefix such as 10.0.0.0/8", f)
			}
			p.nets = append(p.nets, pre.Masked())
			continue
		}
		a, err := netip.ParseAddr(f)
		if err != nil {
			return Proxies{}, fmt.Errorf("%q is not an address or a CIDR prefix such as 10.0.0.0/8", f)
		}
		p.nets = append(p.nets, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
	}
	return p, nil
}

// Empty reports whether no proxy is trusted.
func (p Proxies) Empty() bool { return len(p.nets) == 0 }

// String lists the trusted prefixes.
func (p Proxies) String() string {
	s := make([]string, len(p.nets))
	for i, n := range p.nets {
		s[i] = n.String()
	}
	return strings.Join(s, ",")
}

// Trusts reports whether host (an address without port) is a trusted
// proxy.
func (p Proxies) Trusts(host string) bool {
	a, err := netip.ParseAddr(host)
	if err != nil {
		return false
	}
	a = a.Unmap()
	for _, n := range p.nets {
		if n.Contains(a) {
			return true
		}
	}
	return false
}

type httpsKey struct{}

// Resolve returns r as its client sent it. When r's peer is a trusted
// proxy, its RemoteAddr becomes the client's address, the right-most
// address of X-Forwarded-For that is not itself a trusted proxy (the
// left-most of an all-trusted chain), and an X-Forwarded-Proto of https
// (the last one, set by the proxy nearest to the server) marks it as
// reached over HTTPS for HTTPS. Any other request is returned as it is.
func (p Proxies) Resolve(r *http.Request) *http.Request {
	if len(p.nets) == 0 {
		return r
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil || !p.Trusts(host) {
		return r
	}
	client := ""
	var hops []string
	for _, v := range r.Header.Values("X-Forwarded-For") {
		for h := range strings.SplitSeq(v, ",") {
			if h = strings.TrimSpace(h); h != "" {
				hops = append(hops, h)
			}
		}
	}
	for i := len(hops) - 1; i >= 0; i-- {
		a, err := netip.ParseAddr(hops[i])
		if err != nil {
			break // a chain with garbage in it is believed no further
		}
		client = a.Unmap().String()
		if !p.Trusts(client) {
			break
		}
	}
	https := false
	if vs := r.Header.Values("X-Forwarded-Proto"); len(vs) > 0 {
		last := vs[len(vs)-1]
		if i := strings.LastIndexByte(last, ','); i >= 0 {
			last = last[i+1:]
		}
		https = strings.EqualFold(strings.TrimSpace(last), "https")
	}
	if client == "" && !https {
		return r
	}
	r2 := r
	if https {
		r2 = r.WithContext(context.WithValue(r.Context(), httpsKey{}, true))
	} else {
		r2 = new(http.Request)
		*r2 = *r
	}
	if client != "" {
		r2.RemoteAddr = net.JoinHostPort(client, "0")
	}
	return r2
}

// HTTPS reports whether the client reached the server over HTTPS: r came
// over TLS, or through a trusted proxy that said so (see Resolve).
func HTTPS(r *http.Request) bool {
	if r.TLS != nil {
		return true
	}
	v, _ := r.Context().Value(httpsKey{}).(bool)
	return v
}
