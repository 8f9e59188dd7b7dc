package accountweb

import (
	"context"
	"crypto/subtle"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/unitd/unitd/account"
	"github.com/unitd/unitd/server"
)

// cookieName is the session cookie. Its value is a random token; the store
// has only the token's hash.
const cookieName = "unitd_session"

// session returns the signed-in session of r, if any.
func (h *Handler) session(r *http.Request) (account.Session, bool) {
	c, err := r.Cookie(cookieName)
	if err != nil || c.Value == "" || len(c.Value) > 100 {
		return account.Session{}, false
	}
	s, err := h.cfg.Store.Session(r.Context(), account.HashToken(c.Value), h.cfg.Now())
	if err != nil {
		if !errors.Is(err, account.ErrNotFound) {
			h.logger.Error("account page: read session", "error", err)
		}
		return account.Session{}, false
	}
	return s, true
}

// withSession runs next for a signed-in user, after checking the CSRF
// token on state changes. Without a session, GETs show the sign-in form
// and POSTs are refused.
func (h *Handler) withSession(next func(http.ResponseWriter, *http.Request, account.Session)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		s, ok := h.session(r)
		if !ok {
			if r.Method == http.MethodGet {
				h.signInForm(w, r, server.StatusOf(server.CodeUnauthorized), "Please sign in.")
				return
			}
			h.errorPage(w, r, server.CodeUnauthorized, "Your session has ended. Please sign in again.")
			return
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			tok := r.PostFormValue("csrf")
			if tok == "" || subtle.ConstantTimeCompare([]byte(tok), []byte(s.CSRF)) != 1 {
				h.errorPage(w, r, server.CodeCrossOrigin, "This form is out of date or did not come from this page. Reload the page and try again.")
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
		Secure:   r.TLS != nil,
		SameSite: http.SameSiteStrictMode,
	})
}

// home is GET /account: the sign-in form, or the account's keys.
func (h *Handler) home(w http.ResponseWriter, r *http.Request) {
	s, ok := h.session(r)
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
	h.render(w, r, status, "signin", map[string]any{"Title": "Sign in", "Message": msg})
}

// errSignIn is the one answer for unknown users, disabled users, users
// without a password and wrong passwords.
const errSignIn = "Wrong e-mail address or password."

// signIn is POST /account/signin.
func (h *Handler) signIn(w http.ResponseWriter, r *http.Request) {
	addr := clientAddr(r)
	email, err := account.NormalizeEmail(r.PostFormValue("email"))
	pw := r.PostFormValue("password")
	userKey := email
	if err != nil {
		userKey = "invalid"
	}
	// Both buckets are spent whatever the outcome, so the limits also
	// bound guessing across many addresses or many users.
	dAddr, dUser := h.addrLim.Take(addr), h.userLim.Take(userKey)
	if !dAddr.Allowed || !dUser.Allowed {
		wait := max(dAddr.RetryAfterSeconds(), dUser.RetryAfterSeconds(), 1)
		w.Header().Set("Retry-After", strconv.FormatInt(wait, 10))
		h.signInForm(w, r, server.StatusOf(server.CodeRateLimitExceeded), "Too many sign-in attempts. Please wait "+minutes(wait)+" and try again.")
		return
	}
	var u account.User
	hash := h.dummyHash
	known := false
	if err == nil {
		var stored string
		u, stored, err = h.cfg.Store.PasswordHash(r.Context(), email)
		switch {
		case err == nil && stored != "":
			hash, known = stored, true
		case err != nil && account.ErrorCode(err) != account.CodeNotFound:
			h.internalError(w, r, err)
			return
		}
	}
	// Always one Argon2id verification, against the dummy hash when there
	// is no real one, so unknown users take as long as known ones.
	ok, verr := h.verify(hash, pw)
	if verr != nil || !ok || !known {
		if known {
			// Written off the request's path: a database write only for
			// known users would make them answer measurably later.
			h.auditLater(account.AuditEvent{AccountID: u.AccountID, Actor: u.Email,
				Action: account.ActionSignInFail, Addr: addr})
		}
		if verr != nil && known {
			h.logger.Error("account page: stored password hash unreadable", "user", u.ID, "error", verr)
		}
		h.render(w, r, server.StatusOf(server.CodeUnauthorized), "signin", map[string]any{"Title": "Sign in", "Error": errSignIn, "Email": r.PostFormValue("email")})
		return
	}
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
	now := h.cfg.Now().UTC()
	s := account.Session{TokenHash: account.HashToken(token), UserID: u.ID, CSRF: csrf, CreatedAt: now, ExpiresAt: now.Add(account.SessionTTL)}
	if err := h.cfg.Store.CreateSession(r.Context(), s); err != nil {
		h.internalError(w, r, err)
		return
	}
	// A session that came with the request is ended: a new token on every
	// sign-in, so a planted cookie cannot be fixed on a victim.
	if c, err := r.Cookie(cookieName); err == nil && c.Value != "" {
		h.cfg.Store.DeleteSession(r.Context(), account.HashToken(c.Value))
	}
	h.cfg.Store.AddAudit(r.Context(), account.AuditEvent{AccountID: u.AccountID, Actor: u.Email, Action: account.ActionSignIn, Addr: addr})
	h.setCookie(w, r, token, int(account.SessionTTL.Seconds()))
	http.Redirect(w, r, "/account", http.StatusSeeOther)
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
		h.internalError(w, r, err)
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
		h.render(w, r, server.StatusOf(account.CodeInvalid), "setup", map[string]any{"Title": "Choose a password", "Token": token, "Email": u.Email, "Error": msg, "MinLen": account.MinPasswordLen})
		return
	}
	hash, err := account.HashPassword(pw, h.cfg.Params)
	if err != nil {
		h.internalError(w, r, err)
		return
	}
	if _, err := h.cfg.Store.SetPassword(r.Context(), th, hash, h.cfg.Now(), account.Actor{Addr: clientAddr(r)}); err != nil {
		h.fail(w, r, err, badSetupLink)
		return
	}
	http.Redirect(w, r, "/account?ready=1", http.StatusSeeOther)
}
