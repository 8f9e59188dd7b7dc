package server

import (
	"net/http"

	"github.com/unitd/unitd/internal/promtext"
)

// AdminHandler serves the operator's endpoints, meant for a listener of
// their own that is not exposed with the API:
//
//   - /metrics: the metrics of reg, in the Prometheus text format;
//   - /livez: 200 while the process serves at all;
//   - /readyz: 200 once a catalog is applied and Config.Ready (the key
//     store, say) reports nil; 503 before that and while draining after a
//     shutdown began.
func (s *Server) AdminHandler(reg *promtext.Registry) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", reg.Handler())
	mux.HandleFunc("GET /livez", func(w http.ResponseWriter, r *http.Request) {
		plain(w, http.StatusOK, "ok\n")
	})
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) {
		switch {
		case s.draining.Load():
			plain(w, http.StatusServiceUnavailable, "draining\n")
		case !s.ready.Load():
			plain(w, http.StatusServiceUnavailable, "no catalog loaded yet\n")
		case s.cfg.Ready != nil:
			if err := s.cfg.Ready(); err != nil {
				plain(w, http.StatusServiceUnavailable, "not ready: "+err.Error()+"\n")
				return
			}
			plain(w, http.StatusOK, "ok\n")
		default:
			plain(w, http.StatusOK, "ok\n")
		}
	})
	return mux
}

func plain(w http.ResponseWriter, status int, body string) {
	h := w.Header()
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	w.Write([]byte(body))
}
