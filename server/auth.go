package server

import (
	"net"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/unitd/unitd/apikey"
	"github.com/unitd/unitd/server/ratelimit"
)

// Header values are constants; each response gets its own slice, since a
// handler's caller may modify the header map it is given.
const (
	challengeMissing = `Bearer realm="unitd"`
	challengeInvalid = `Bearer error="invalid_token"`
)

// authorize authenticates the Bearer key of r and takes one token from its
// rate-limit bucket, setting the RateLimit-* headers. It returns the error
// to answer with, if any, or the key's record.
func (s *Server) authorize(rw *respWriter, r *http.Request) (apikey.Record, *apiError) {
	var rec apikey.Record
	e := s.authorizeKey(rw, r, &rec)
	return rec, e
}

func (s *Server) authorizeKey(rw *respWriter, r *http.Request, out *apikey.Record) *apiError {
	now := s.cfg.Now()
	// An address that sent too many invalid keys gets 429 for every
	// request without a valid key; a valid key still gets through, so a
	// client sharing an address with a guesser is not locked out.
	var addr string
	var blockedFor time.Duration
	blocked := false
	if s.fails != nil {
		addr = clientAddr(r)
		blockedFor, blocked = s.fails.blocked(addr, now)
	}
	refuseBlocked := func() *apiError {
		rw.Header()["Retry-After"] = []string{strconv.FormatInt(max(ratelimit.CeilSeconds(blockedFor), 1), 10)}
		return newError(codeRateLimitExceeded, "too many requests with invalid API keys from this address; retry later")
	}
	token, ok := bearerToken(r.Header["Authorization"])
	if !ok && blocked {
		return refuseBlocked()
	}
	if !ok {
		rw.Header()["Www-Authenticate"] = []string{challengeMissing}
		return newError(codeUnauthorized, `send an API key as "Authorization: Bearer <key>"`)
	}
	var set *apikey.Set
	if s.cfg.Keys != nil {
		set = s.cfg.Keys.Current()
	}
	rec, err := set.Authenticate(token, s.cfg.Env, now)
	if err != nil && blocked {
		return refuseBlocked()
	}
	if err != nil {
		// One answer for malformed, unknown, revoked, expired and
		// wrong-environment keys: the caller learns nothing more.
		rw.Header()["Www-Authenticate"] = []string{challengeInvalid}
		if s.fails != nil {
			if wait, blocked := s.fails.fail(addr, now); blocked {
				rw.Header()["Retry-After"] = []string{strconv.FormatInt(max(ratelimit.CeilSeconds(wait), 1), 10)}
			}
		}
		return newError(codeInvalidAPIKey, "the API key is not valid")
	}
	rw.keyID = rec.ID
	*out = rec
	if s.cfg.Limiter == nil {
		s.countUsage(rec.ID, now)
		return nil
	}
	d := s.cfg.Limiter.Take(rec.ID)
	h := rw.Header()
	rw.rlHdr[0][0] = strconv.Itoa(d.Limit)
	rw.rlHdr[1][0] = strconv.Itoa(d.Remaining)
	rw.rlHdr[2][0] = strconv.FormatInt(d.ResetSeconds(), 10)
	h["Ratelimit-Limit"] = rw.rlHdr[0][:]
	h["Ratelimit-Remaining"] = rw.rlHdr[1][:]
	h["Ratelimit-Reset"] = rw.rlHdr[2][:]
	if !d.Allowed {
		h["Retry-After"] = []string{strconv.FormatInt(max(d.RetryAfterSeconds(), 1), 10)}
		return newError(codeRateLimitExceeded, "rate limit of "+strconv.Itoa(d.Limit)+" requests reached for this key; retry after "+h["Retry-After"][0]+" s")
	}
	s.countUsage(rec.ID, now)
	return nil
}

// limitPublic takes one token from the client address's bucket for a
// route that needs no key, and returns the error to answer with when the
// bucket is empty.
func (s *Server) limitPublic(rw *respWriter, r *http.Request) *apiError {
	d := s.cfg.PublicLimiter.Take(clientAddr(r))
	if d.Allowed {
		return nil
	}
	retry := strconv.FormatInt(max(d.RetryAfterSeconds(), 1), 10)
	rw.Header()["Retry-After"] = []string{retry}
	return newError(codeRateLimitExceeded, "too many requests from this address; retry after "+retry+" s")
}

// countUsage tells the usage counter, if any, of a request by keyID.
func (s *Server) countUsage(keyID string, now time.Time) {
	if s.cfg.Usage != nil {
		s.cfg.Usage.Count(keyID, now)
	}
}

// bearerToken reads "Bearer <token>" (the scheme is case-insensitive) from
// the only Authorization header.
func bearerToken(h []string) (string, bool) {
	if len(h) != 1 {
		return "", false
	}
	v := h[0]
	const scheme = "bearer "
	if len(v) <= len(scheme) {
		return "", false
	}
	for i := 0; i < len(scheme); i++ {
		c := v[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != scheme[i] {
			return "", false
		}
	}
	tok := v[len(scheme):]
	for len(tok) > 0 && tok[0] == ' ' {
		tok = tok[1:]
	}
	for len(tok) > 0 && tok[len(tok)-1] == ' ' {
		tok = tok[:len(tok)-1]
	}
	return tok, tok != ""
}

// clientAddr is the host of the connection's peer: the client, or behind
// one of Config.Proxies the client it forwarded for (serve resolves
// RemoteAddr before routing; see package forwarded).
func clientAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// maxBlocked bounds the addresses authFailures remembers as blocked.
const maxBlocked = 10_000

// authFailures slows down key guessing: every refused key takes a token
// from its client address's bucket, and an address whose bucket is empty is
// refused until the bucket would let it try again.
type authFailures struct {
	lim   ratelimit.Limiter
	count atomic.Int64 // len(until), so the common case skips the lock

	mu    sync.Mutex // guards until
	until map[string]time.Time
}

func newAuthFailures(lim ratelimit.Limiter) *authFailures {
	return &authFailures{lim: lim, until: map[string]time.Time{}}
}

// blocked reports whether addr is blocked at now, and for how long.
func (a *authFailures) blocked(addr string, now time.Time) (time.Duration, bool) {
	if a.count.Load() == 0 {
		return 0, false
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	t, ok := a.until[addr]
	if !ok {
		return 0, false
	}
	if !now.Before(t) {
		delete(a.until, addr)
		a.count.Store(int64(len(a.until)))
		return 0, false
	}
	return t.Sub(now), true
}

// fail counts a refused key from addr and reports whether addr is now
// blocked: its bucket has no token left.
func (a *authFailures) fail(addr string, now time.Time) (time.Duration, bool) {
	d := a.lim.Take(addr)
	if d.Allowed && (d.Remaining > 0 || d.RetryAfter <= 0) {
		return 0, false
	}
	// The bucket is empty: block the address until a token is back.
	wait := d.RetryAfter
	if wait <= 0 {
		wait = time.Second
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.until) >= maxBlocked {
		for k, t := range a.until {
			if !now.Before(t) {
				delete(a.until, k)
			}
		}
	}
	if len(a.until) < maxBlocked {
		a.until[addr] = now.Add(wait)
	}
	a.count.Store(int64(len(a.until)))
	return wait, true
}
