package server

import (
	"bufio"
	"bytes"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/unitd/unitd/catalog"
	"github.com/unitd/unitd/internal/batchmix"
	"github.com/unitd/unitd/internal/promtext"
)

// BenchmarkStream sends the streaming workload (batchmix.Rows rows, in
// turn) as one NDJSON batch through the real handler over loopback TCP
// and reads every answer line: b.N lines per run, reported as ns per line.
func BenchmarkStream(b *testing.B) {
	g, errs := catalog.Load(catalog.Embedded())
	if errs != nil {
		b.Fatal(errs)
	}
	set, ks := testKeys(b)
	s := New(Config{Keys: fakeKeys{set}, Env: "test", Limiter: &fakeLimiter{decide: allowAll},
		Metrics: NewMetrics(promtext.NewRegistry())})
	s.ApplyGraph(g)
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	b.ReportAllocs()
	b.ResetTimer()
	req, _ := http.NewRequest("POST", ts.URL+"/v1/batch", batchmix.Lines(b.N, ndjsonRow))
	req.Header.Set("Authorization", "Bearer "+ks["good"])
	req.Header.Set("Content-Type", "application/x-ndjson")
	resp, err := ts.Client().Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	n := 0
	var last []byte
	for sc.Scan() {
		n++
		last = sc.Bytes()
	}
	if n != b.N+1 || !bytes.HasPrefix(last, []byte(`{"meta":`)) || !bytes.HasSuffix(last, []byte(`"failed":0}}`)) {
		b.Fatalf("%d lines, last %s", n, last)
	}
}

// ndjsonRow appends row i of the streaming workload as an NDJSON line.
func ndjsonRow(b []byte, i int) []byte {
	return append(batchmix.AppendItem(b, batchmix.Pairs, i), '\n')
}
