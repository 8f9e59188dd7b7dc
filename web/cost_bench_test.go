package web

import (
	"net/http"
	"net/http/httptest"
	"syscall"
	"testing"
	"time"

	"github.com/unitd/unitd/catalog"
	"github.com/unitd/unitd/engine"
)

// BenchmarkPages renders pages of the shipped catalog, each from its cache
// (hit) and afresh (miss), and reports the tokens of the public budget a
// fresh one costs.
func BenchmarkPages(b *testing.B) {
	g, errs := catalog.Load(catalog.Embedded())
	if len(errs) > 0 {
		b.Fatal(errs)
	}
	var charged int
	p := New(Config{Graph: func() *engine.Graph { return g }, Version: "bench", Charge: func(_ *http.Request, n int) { charged += n }})
	for _, target := range []string{"/catalog?q=e", "/catalog?q=e&page=9", "/catalog?q=gallon", "/catalog", "/catalog?system=SI",
		"/catalog/length", "/catalog/units/m", "/web/units?q=e", "/", "/docs"} {
		for _, mode := range []string{"hit", "miss"} {
			b.Run(mode+target, func(b *testing.B) {
				var n int
				charged = 0
				cpu0 := cpuTime()
				for b.Loop() {
					if mode == "miss" {
						p.view().cache = newPageCache(pageCacheBytes, pageCacheEntries)
					}
					rec := httptest.NewRecorder()
					p.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, target, nil))
					n = rec.Body.Len()
				}
				b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op")
				b.ReportMetric(float64(n), "bytes/page")
				if mode == "miss" {
					b.ReportMetric(1+float64(charged)/float64(b.N), "tokens/page")
				}
			})
		}
	}
}

// cpuTime is the process's user and system CPU time so far: on a shared
// machine a steadier measure of work than the wall clock.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
