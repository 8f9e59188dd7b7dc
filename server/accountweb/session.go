package accountweb

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/unitd/unitd/account"
	"github.com/unitd/unitd/server/errcode"
	"github.com/unitd/unitd/server/ratelimit"
)

// cookieName is the session cookie. Its value is a random token; the store
// has only the token's hash.
const cookieName = "unitd_session"

// session returns the signed-in session of r, if any. An error means the
// store could not tell: the cookie may well name a valid session.
func (h *Handler) session(r *http.Request) (account.Session, bool, error) {
	c, err := r.Cookie(cookieName)
	if err != nil || c.Value == "" || len(c.Value) > 100 {
		return account.Session{}, false, nil
	}
	s, err := h.cfg.Store.Session(r.Context(), account.HashToken(c.Value), h.cfg.Now())
	if errors.Is(err, account.ErrNotFound) {
		return account.Session{}, false, nil
	}
	if err != nil {
		return account.Session{}, false, err
	}
	return s, true, nil
}

// withSession runs next for a signed-in user, after checking the CSRF
// token on state changes. Without a session, GETs show the sign-in form
// and POSTs are refused; when the store cannot tell, 503.
func (h *Handler) withSession(next func(http.ResponseWriter, *http.Request, account.Session)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		s, ok, err := h.session(r)
		if err != nil {
			h.storeDown(w, r, err)
			return
		}
		if !ok {
			if r.Method == http.MethodGet {
				h.signInForm(w, r, errcode.Status(errcode.Unauthorized), "Please sign in.")
				return
			}
			h.errorPage(w, r, errcode.Unauthorized, "Your session has ended. Please sign in again.")
			return
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			tok := r.PostFormValue("csrf")
			if tok == "" || subtle.ConstantTimeCompare([]byte(tok), []byte(s.CSRF)) != 1 {
				h.errorPage(w, r, errcode.CrossOrigin, "This form is out of date or did not come from this page. Reload the page and try again.")
				return
			}
		}
		next(w, r, s)
	}
}

func (h *Handler) setCookie(w http.ResponseWriter, r *http.Request, value string, maxAge int) {
	http.SetCookie(w, &http.Cookie{
		Name:     cookieName,
		Value:    value,
		Path:     "/account",
		MaxAge:   maxAge,
		HttpOnly: true,
		Secure:   h.secure(r),
		SameSite: http.SameSiteStrictMode,
	})
}

// home is GET /account: the sign-in form, or the account's keys.
func (h *Handler) home(w http.ResponseWriter, r *http.Request) {
	s, ok, err := h.session(r)
	if err != nil {
		h.storeDown(w, r, err)
		return
	}
	if !ok {
		msg := ""
		if r.URL.Query().Get("ready") == "1" {
			msg = "Your password is set. Please sign in."
		}
		h.signInForm(w, r, http.StatusOK, msg)
		return
	}
	h.keysPage(w, r, s)
}

func (h *Handler) signInForm(w http.ResponseWriter, r *http.Request, status int, msg string) {
	h.render(w, r, status, "signin", map[string]any{"Title": "Sign in", "Message": msg, "Email": h.setUpEmail(r)})
}

// setUpEmailCookie carries the e-mail address of a user who has just set
// their password from the set-up page to the sign-in form, which it fills
// in. It is the browser's own (set in answer to its set-up form, HttpOnly,
// SameSite=Strict), so no link can fill the form in for someone else, and
// the address never travels in a URL (logs, history, Referer).
const (
	setUpEmailCookie = "unitd_setup_email"
	setUpEmailMaxAge = 15 * 60 // seconds
)

func (h *Handler) setSetUpEmail(w http.ResponseWriter, r *http.Request, email string) {
	http.SetCookie(w, &http.Cookie{
		Name:     setUpEmailCookie,
		Value:    url.QueryEscape(email),
		Path:     "/account",
		MaxAge:   setUpEmailMaxAge,
		HttpOnly: true,
		Secure:   h.secure(r),
		SameSite: http.SameSiteStrictMode,
	})
}

// setUpEmail returns the address of the set-up cookie, or "".
func (h *Handler) setUpEmail(r *http.Request) string {
	c, err := r.Cookie(setUpEmailCookie)
	if err != nil {
		return ""
	}
	email, err := url.QueryUnescape(c.Value)
	if err != nil {
		return ""
	}
	return email
}

// errSignIn is the one answer for unknown users, disabled users, users
// without a password and wrong passwords.
const errSignIn = "Wrong e-mail address or password."

// signIn is POST /account/signin.
//
// Attempts are limited as OWASP's device cookies have it ("Slow Down Online
// Guessing Attacks with Device Cookies"): a browser that has signed in as
// the user before carries a device cookie for that user and gets its own
// allowance of failures; every other client shares the user's allowance for
// unknown devices; a device or the unknown devices that spend theirs are
// locked out for the rest of the window, the others are not. Only failures
// count (a success and an attempt the server could not check are given
// back), so no one can lock the user out of their own browser, and guessers
// from any number of addresses get at most SignInPerUser wrong passwords an
// hour. Apart from that, each client address may try SignInPerAddr times an
// hour, whatever the outcome.
func (h *Handler) signIn(w http.ResponseWriter, r *http.Request) {
	addr := clientAddr(r)
	email, err := account.NormalizeEmail(r.PostFormValue("email"))
	pw := r.PostFormValue("password")
	form := map[string]any{"Title": "Sign in", "Email": r.PostFormValue("email")}
	now := h.cfg.Now()
	addrTicket, addrWait, ok := h.addrLog.count(addr, now)
	if !ok {
		h.tooMany(w, r, addrWait)
		return
	}
	var u account.User
	var stored string
	if err == nil {
		u, stored, err = h.cfg.Store.PasswordHash(r.Context(), email)
		if err != nil && !errors.Is(err, account.ErrNotFound) {
			h.addrLog.forget(addrTicket)
			h.storeDown(w, r, err)
			return
		}
	}
	known := err == nil && stored != ""
	// The allowance this attempt spends: its device's, or the one the
	// user's unknown devices share, kept by the e-mail address whether or
	// not anyone has it, so that a 429 tells nothing about who exists.
	limitKey := "user " + email
	if email == "" {
		limitKey = "user (not an e-mail address)"
	}
	if known {
		if dev, ok := h.trustedDevice(r, u.ID, stored); ok {
			limitKey = "device " + dev
		}
	}
	failTicket, failWait, ok := h.failLog.count(limitKey, now)
	if !ok {
		h.addrLog.forget(addrTicket)
		h.tooMany(w, r, failWait)
		return
	}
	// notCounted gives both attempts back: nothing was decided.
	notCounted := func() {
		h.addrLog.forget(addrTicket)
		h.failLog.forget(failTicket)
	}
	hash := h.dummyHash
	if known {
		hash = stored
	}
	// Always one Argon2id verification, against the dummy hash when there
	// is no real one, so unknown users take as long as known ones.
	match, verr := h.verify(r.Context(), hash, pw)
	if errors.Is(verr, account.ErrBusy) {
		notCounted()
		h.busy(w, r, "signin", form)
		return
	}
	if verr != nil && r.Context().Err() != nil {
		notCounted()
		return // the client went away while waiting its turn
	}
	if verr != nil {
		// No answer either way (the password worker failed, or a stored
		// hash is unreadable): the server's fault, not a wrong password.
		notCounted()
		h.internalError(w, r, fmt.Errorf("checking the password of %q: %w", u.ID, verr))
		return
	}
	if !match || !known {
		if known {
			// Written off the request's path: a database write only for
			// known users would make them answer measurably later.
			h.auditLater(account.AuditEvent{AccountID: u.AccountID, Actor: u.Email,
				Action: account.ActionSignInFail, Addr: addr})
		}
		form["Error"] = errSignIn
		h.render(w, r, errcode.Status(errcode.Unauthorized), "signin", form)
		return
	}
	// The right password: it spends nothing of the failures' allowance.
	h.failLog.forget(failTicket)
	token, err := account.NewToken()
	if err != nil {
		h.internalError(w, r, err)
		return
	}
	csrf, err := account.NewToken()
	if err != nil {
		h.internalError(w, r, err)
		return
	}
	now = now.UTC()
	s := account.Session{TokenHash: account.HashToken(token), UserID: u.ID, CSRF: csrf, CreatedAt: now, ExpiresAt: now.Add(account.SessionTTL)}
	if err := h.cfg.Store.CreateSession(r.Context(), s); err != nil {
		h.addrLog.forget(addrTicket)
		h.storeDown(w, r, err)
		return
	}
	// A session that came with the request is ended: a new token on every
	// sign-in, so a planted cookie cannot be fixed on a victim.
	if c, err := r.Cookie(cookieName); err == nil && c.Value != "" {
		h.cfg.Store.DeleteSession(r.Context(), account.HashToken(c.Value))
	}
	h.cfg.Store.AddAudit(r.Context(), account.AuditEvent{AccountID: u.AccountID, Actor: u.Email, Action: account.ActionSignIn, Addr: addr})
	h.setCookie(w, r, token, int(account.SessionTTL.Seconds()))
	if _, err := r.Cookie(setUpEmailCookie); err == nil {
		http.SetCookie(w, &http.Cookie{Name: setUpEmailCookie, Path: "/account", MaxAge: -1, HttpOnly: true, Secure: h.secure(r), SameSite: http.SameSiteStrictMode})
	}
	if err := h.setDeviceCookie(w, r, u.ID, stored); err != nil {
		h.logger.Warn("account page: no device cookie", "error", err)
	}
	http.Redirect(w, r, "/account", http.StatusSeeOther)
}

// tooMany answers a sign-in past its limit: 429 with Retry-After.
func (h *Handler) tooMany(w http.ResponseWriter, r *http.Request, wait time.Duration) {
	sec := max(ratelimit.CeilSeconds(wait), 1)
	w.Header().Set("Retry-After", strconv.FormatInt(sec, 10))
	h.signInForm(w, r, http.StatusTooManyRequests, "Too many sign-in attempts. Please wait "+minutes(sec)+" and try again.")
}

// auditLater records ev in the background, within 10 s.
func (h *Handler) auditLater(ev account.AuditEvent) {
	ev.At = h.cfg.Now().UTC()
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := h.cfg.Store.AddAudit(ctx, ev); err != nil {
			h.logger.Warn("account page: audit log", "action", ev.Action, "error", err)
		}
	}()
}

func minutes(sec int64) string {
	if sec < 90 {
		return strconv.FormatInt(sec, 10) + " seconds"
	}
	return strconv.FormatInt((sec+59)/60, 10) + " minutes"
}

// signOut is POST /account/signout.
func (h *Handler) signOut(w http.ResponseWriter, r *http.Request, s account.Session) {
	if err := h.cfg.Store.DeleteSession(r.Context(), s.TokenHash); err != nil {
		h.storeDown(w, r, err)
		return
	}
	h.cfg.Store.AddAudit(r.Context(), account.AuditEvent{AccountID: s.AccountID, Actor: s.Email, Action: account.ActionSignOut, Addr: clientAddr(r)})
	h.setCookie(w, r, "", -1)
	http.Redirect(w, r, "/account", http.StatusSeeOther)
}

// badSetupLink is what the page says of a set-up token that is unknown,
// spent or expired.
var badSetupLink = map[string]string{account.CodeNotFound: "This set-up link is not valid: it may have been used already or have expired. Ask your operator for a new one."}

// setupForm is GET /account/setup?token=…: the form to choose a password.
func (h *Handler) setupForm(w http.ResponseWriter, r *http.Request) {
	token := r.URL.Query().Get("token")
	u, err := h.cfg.Store.SetupUser(r.Context(), account.HashToken(token), h.cfg.Now())
	if err != nil {
		h.fail(w, r, err, badSetupLink)
		return
	}
	h.render(w, r, http.StatusOK, "setup", map[string]any{"Title": "Choose a password", "Token": token, "Email": u.Email, "MinLen": account.MinPasswordLen})
}

// setup is POST /account/setup: sets the password and spends the link.
func (h *Handler) setup(w http.ResponseWriter, r *http.Request) {
	token := r.PostFormValue("token")
	pw, again := r.PostFormValue("password"), r.PostFormValue("password2")
	th := account.HashToken(token)
	u, err := h.cfg.Store.SetupUser(r.Context(), th, h.cfg.Now())
	if err != nil {
		h.fail(w, r, err, badSetupLink)
		return
	}
	msg := ""
	if err := account.CheckPassword(pw); err != nil {
		msg = "The password needs at least 12 characters (and at most 256 bytes)."
	} else if pw != again {
		msg = "The two passwords differ."
	}
	if msg != "" {
		h.render(w, r, errcode.Status(account.CodeInvalid), "setup", map[string]any{"Title": "Choose a password", "Token": token, "Email": u.Email, "Error": msg, "MinLen": account.MinPasswordLen})
		return
	}
	hash, err := h.hash(r.Context(), pw)
	if errors.Is(err, account.ErrBusy) {
		h.busy(w, r, "setup", map[string]any{"Title": "Choose a password", "Token": token, "Email": u.Email, "MinLen": account.MinPasswordLen})
		return
	}
	if err != nil {
		h.internalError(w, r, err)
		return
	}
	if _, err := h.cfg.Store.SetPassword(r.Context(), th, hash, h.cfg.Now(), account.Actor{Addr: clientAddr(r)}); err != nil {
		h.fail(w, r, err, badSetupLink)
		return
	}
	h.setSetUpEmail(w, r, u.Email)
	http.Redirect(w, r, "/account?ready=1", http.StatusSeeOther)
}
