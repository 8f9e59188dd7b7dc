package accountweb

import (
	"net/http"
	"strconv"
	"time"

	"github.com/unitd/unitd/account"
)

// keyRow is one key as the page lists it.
type keyRow struct {
	account.Key
	State       string // active, expiring, expired, revoked
	Requests24h int64
}

// auditLimit is how many audit events the page shows.
const auditLimit = 50

// keysPage is the signed-in GET /account: the keys, a form to create one
// and the audit log.
func (h *Handler) keysPage(w http.ResponseWriter, r *http.Request, s account.Session) {
	ctx := r.Context()
	h.flushUsage(r)
	now := h.cfg.Now()
	ks, err := h.cfg.Store.Keys(ctx, s.AccountID)
	if err != nil {
		h.storeDown(w, r, err)
		return
	}
	counts, err := h.cfg.Store.RequestsSince(ctx, s.AccountID, now.Add(-24*time.Hour))
	if err != nil {
		h.storeDown(w, r, err)
		return
	}
	events, err := h.cfg.Store.Audit(ctx, s.AccountID, auditLimit)
	if err != nil {
		h.storeDown(w, r, err)
		return
	}
	rows := make([]keyRow, 0, len(ks))
	for i := len(ks) - 1; i >= 0; i-- { // newest first
		k := ks[i]
		rows = append(rows, keyRow{Key: k, State: k.State(now), Requests24h: counts[k.ID]})
	}
	h.render(w, r, http.StatusOK, "keys", map[string]any{
		"Title": "Your API keys", "Session": s, "Keys": rows, "Audit": events, "Env": h.cfg.Env, "UnitsTab": h.cfg.Units != nil,
	})
}

func (h *Handler) flushUsage(r *http.Request) {
	if h.cfg.FlushUsage != nil {
		if err := h.cfg.FlushUsage(r.Context()); err != nil {
			h.logger.Warn("account page: usage flush", "error", err)
		}
	}
}

func actor(r *http.Request, s account.Session) account.Actor {
	return account.Actor{Name: s.Email, Addr: clientAddr(r)}
}

// createKey is POST /account/keys.
func (h *Handler) createKey(w http.ResponseWriter, r *http.Request, s account.Session) {
	name := r.PostFormValue("name")
	// A key converts only unless the form asks for more (the "scope"
	// checkboxes); the store refuses a scope it does not know.
	key, k, err := h.cfg.Store.CreateKey(r.Context(), s.AccountID, name, h.cfg.Env, r.PostForm["scope"], actor(r, s))
	if err != nil {
		h.fail(w, r, err, map[string]string{account.CodeInvalid: "A key needs a name of 1 to 100 characters, without control characters."})
		return
	}
	h.newKeyPage(w, r, s, key, k, nil)
}

// newKeyPage shows a key once, right after it was made.
func (h *Handler) newKeyPage(w http.ResponseWriter, r *http.Request, s account.Session, key string, k account.Key, old *account.Key) {
	h.render(w, r, http.StatusOK, "newkey", map[string]any{
		"Title": "Your new key", "Session": s, "Key": key, "Record": k, "Old": old,
	})
}

// noSuchKey is what the page says of a key id that is not the account's.
var noSuchKey = map[string]string{account.CodeNotFound: "Your account has no such key."}

// ownKey loads the path's key of the session's account; another account's
// key is "not found", like a key that does not exist.
func (h *Handler) ownKey(w http.ResponseWriter, r *http.Request, s account.Session) (account.Key, bool) {
	k, err := h.cfg.Store.Key(r.Context(), s.AccountID, r.PathValue("id"))
	if err != nil {
		h.fail(w, r, err, noSuchKey)
		return k, false
	}
	return k, true
}

// graceChoices are the grace periods the rotate form offers, in hours.
var graceChoices = []struct {
	Hours int
	Label string
}{{0, "none: revoke the old key now"}, {1, "1 hour"}, {12, "12 hours"}, {24, "24 hours"}, {48, "2 days"}, {72, "3 days"}, {168, "7 days"}}

// keyPage is GET /account/keys/{id}: the key's traffic, rotation and
// revocation.
func (h *Handler) keyPage(w http.ResponseWriter, r *http.Request, s account.Session) {
	h.flushUsage(r) // before the key is read, so that "last used" is current
	k, ok := h.ownKey(w, r, s)
	if !ok {
		return
	}
	ctx := r.Context()
	now := h.cfg.Now()
	day, err := h.cfg.Store.Usage(ctx, s.AccountID, k.ID, now.Add(-24*time.Hour), 15*time.Minute)
	if err != nil {
		h.storeDown(w, r, err)
		return
	}
	week, err := h.cfg.Store.Usage(ctx, s.AccountID, k.ID, now.Add(-7*24*time.Hour), 2*time.Hour)
	if err != nil {
		h.storeDown(w, r, err)
		return
	}
	events, err := h.cfg.Store.Audit(ctx, s.AccountID, 500)
	if err != nil {
		h.storeDown(w, r, err)
		return
	}
	var mine []account.AuditEvent
	for _, e := range events {
		if e.KeyID == k.ID {
			mine = append(mine, e)
		}
	}
	h.render(w, r, http.StatusOK, "key", map[string]any{
		"Title": "Key " + k.Name, "Session": s, "Key": keyRow{Key: k, State: k.State(now)},
		"Day":    newChart("day", "Requests in the last 24 hours, per 15 minutes", day, 15*time.Minute, 24*time.Hour, now),
		"Week":   newChart("week", "Requests in the last 7 days, per 2 hours", week, 2*time.Hour, 7*24*time.Hour, now),
		"Graces": graceChoices, "DefaultGrace": int(account.DefaultGrace / time.Hour), "Audit": mine,
		"Usable": k.Usable(now) && k.ReplacedBy == "",
	})
}

// rotateKey is POST /account/keys/{id}/rotate with grace_hours (0 to 168).
func (h *Handler) rotateKey(w http.ResponseWriter, r *http.Request, s account.Session) {
	k, ok := h.ownKey(w, r, s)
	if !ok {
		return
	}
	// The hours are checked before they become a Duration, which a huge
	// number would overflow into the allowed range.
	hours, err := strconv.Atoi(r.PostFormValue("grace_hours"))
	if err != nil || hours < 0 || hours > int(account.MaxGrace/time.Hour) {
		h.errorPage(w, r, account.CodeInvalid, "The grace period must be a whole number of hours from 0 to 168 (7 days).")
		return
	}
	key, nk, err := h.cfg.Store.RotateKey(r.Context(), s.AccountID, k.ID, time.Duration(hours)*time.Hour, actor(r, s))
	if err != nil {
		h.fail(w, r, err, map[string]string{
			account.CodeNotFound:     noSuchKey[account.CodeNotFound],
			account.CodeKeyNotUsable: "This key is revoked, expired or already rotated; create a new key instead.",
		})
		return
	}
	old, err := h.cfg.Store.Key(r.Context(), s.AccountID, k.ID)
	if err != nil {
		h.storeDown(w, r, err)
		return
	}
	h.newKeyPage(w, r, s, key, nk, &old)
}

// revokeKey is POST /account/keys/{id}/revoke. Without confirm=yes it
// only asks: the key page's "Revoke now" leads to a page that names the
// key and its last use, whose own button revokes it.
func (h *Handler) revokeKey(w http.ResponseWriter, r *http.Request, s account.Session) {
	k, ok := h.ownKey(w, r, s)
	if !ok {
		return
	}
	if r.PostFormValue("confirm") != "yes" {
		if k.RevokedAt != nil {
			http.Redirect(w, r, "/account/keys/"+k.ID, http.StatusSeeOther)
			return
		}
		h.render(w, r, http.StatusOK, "revoke", map[string]any{"Title": "Revoke key " + k.Name, "Session": s, "Key": k})
		return
	}
	if err := h.cfg.Store.RevokeKey(r.Context(), s.AccountID, k.ID, actor(r, s)); err != nil {
		h.fail(w, r, err, noSuchKey)
		return
	}
	http.Redirect(w, r, "/account/keys/"+k.ID, http.StatusSeeOther)
}
