package server

import (
	"encoding/json"
	"net/http"
	"time"
)

type healthBody struct {
	Status  string        `json:"status"`
	Version string        `json:"version"`
	Catalog healthCatalog `json:"catalog"`
	Keys    *healthKeys   `json:"keys,omitempty"`
	Limits  *healthLimits `json:"rate_limit,omitempty"`
}

// healthLimits says which limiter decides per-key limits: "redis" (shared
// by all replicas) or "local" (this replica alone, while Redis is
// unreachable).
type healthLimits struct {
	Backend string  `json:"backend"`
	Shared  bool    `json:"shared"`
	Since   *string `json:"since"`
	Error   *string `json:"error"`
}

// LimitsStatus is the rate limiter's state as health shows it.
type LimitsStatus struct {
	Backend string // "redis", "local" or "memory"
	Shared  bool   // one budget per key across replicas
	Since   time.Time
	Error   string
}

type healthCatalog struct {
	Version    string       `json:"version"`
	Categories int          `json:"categories"`
	Units      int          `json:"units"`
	LoadedAt   string       `json:"loaded_at"`
	LastReload healthReload `json:"last_reload"`
	// ReloadingSince is when the reload now running started; absent when
	// none is running.
	ReloadingSince *string `json:"reload_in_progress_since,omitempty"`
}

type healthReload struct {
	At    string  `json:"at"`
	OK    bool    `json:"ok"`
	Error *string `json:"error"`
}

type healthKeys struct {
	Count     int     `json:"count"`
	LoadedAt  *string `json:"loaded_at"`
	CheckedAt *string `json:"checked_at"`
	OK        bool    `json:"ok"`
	Error     *string `json:"error"`
}

// health serves GET /v1/health. The status stays "ok" while a graph is
// serving, even when the last catalog or key reload failed; last_reload
// and keys say so. Before any reload is reported, last_reload describes
// the initial load.
func (s *Server) health(c *call) reply {
	sn := c.snap
	b := healthBody{
		Status:  "ok",
		Version: s.cfg.Version,
		Catalog: healthCatalog{
			Version:    sn.graph.Version(),
			Categories: len(sn.graph.Categories()),
			Units:      len(sn.graph.Units()),
			LoadedAt:   rfc3339(sn.loadedAt),
			LastReload: healthReload{At: rfc3339(sn.loadedAt), OK: true},
		},
	}
	if lr := s.reloadStatus(); lr != nil {
		b.Catalog.LastReload = healthReload{At: rfc3339(lr.At), OK: lr.Err == nil}
		if lr.Err != nil {
			msg := truncate(lr.Err.Error(), 2000)
			b.Catalog.LastReload.Error = &msg
		}
	}
	if since := s.reloadingSince(); !since.IsZero() {
		t := rfc3339(since)
		b.Catalog.ReloadingSince = &t
	}
	if s.cfg.KeyStatus != nil {
		ks := s.cfg.KeyStatus()
		k := &healthKeys{Count: ks.Keys, OK: ks.Err == nil}
		if !ks.LoadedAt.IsZero() {
			t := rfc3339(ks.LoadedAt)
			k.LoadedAt = &t
		}
		if !ks.CheckedAt.IsZero() {
			t := rfc3339(ks.CheckedAt)
			k.CheckedAt = &t
		}
		if ks.Err != nil {
			// Store errors may name a path or a host: the log has them;
			// the public answer says only what kind of problem.
			msg := "the keys could not be loaded from the store; the last good keys stay in use (see the server log)"
			k.Error = &msg
		}
		b.Keys = k
	}
	if s.cfg.Limits != nil {
		ls := s.cfg.Limits()
		l := &healthLimits{Backend: ls.Backend, Shared: ls.Shared}
		if !ls.Since.IsZero() {
			t := rfc3339(ls.Since)
			l.Since = &t
		}
		if ls.Error != "" {
			msg := truncate(ls.Error, 300)
			l.Error = &msg
		}
		b.Limits = l
	}
	body, err := json.Marshal(b)
	if err != nil {
		return errReply(internalError(err))
	}
	// A slice of its own: a caller may modify the header map it is given.
	c.w.Header()["Cache-Control"] = []string{"no-store"}
	return reply{status: http.StatusOK, body: append(body, '\n')}
}

func rfc3339(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }
