package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"
)

// run feeds a stream of go test -json to a report and returns what it
// printed and its exit code.
func run(t *testing.T, stream string) (string, int) {
	t.Helper()
	var out bytes.Buffer
	r := newReport(&out, 3)
	events := make(chan event)
	go func() {
		defer close(events)
		if err := decode(strings.NewReader(stream), events); err != nil {
			t.Error(err)
		}
	}()
	for e := range events {
		r.add(e, time.Now())
	}
	code := r.finish()
	return out.String(), code
}

// TestGoldenRun: a recorded `go test -json ./...` of a module with a
// package that does not build, one with a failing subtest, one that
// passes and one without tests prints what go test prints without -json
// (the failed test's output, no PASS line), then the slowest.
func TestGoldenRun(t *testing.T) {
	in, err := os.ReadFile("testdata/run.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("testdata/run.golden")
	if err != nil {
		t.Fatal(err)
	}
	got, code := run(t, string(in))
	if got != string(want) {
		t.Errorf("output:\n%s\nwant (testdata/run.golden):\n%s", got, want)
	}
	if code != 1 {
		t.Errorf("exit %d, want 1: a package failed", code)
	}
	for _, quiet := range []string{"TestPass", "quiet", "not here", "\nPASS\n"} {
		if strings.Contains(got, quiet) {
			t.Errorf("the output shows %q, which go test without -v does not", quiet)
		}
	}
}

func TestAllPassExitsZero(t *testing.T) {
	stream := `{"Action":"start","Package":"m/a"}
{"Action":"run","Package":"m/a","Test":"TestA"}
{"Action":"output","Package":"m/a","Test":"TestA","Output":"=== RUN   TestA\n"}
{"Action":"pass","Package":"m/a","Test":"TestA","Elapsed":2.5}
{"Action":"output","Package":"m/a","Output":"PASS\n"}
{"Action":"output","Package":"m/a","Output":"ok  \tm/a\t2.6s\n"}
{"Action":"pass","Package":"m/a","Elapsed":2.6}
`
	got, code := run(t, stream)
	want := "ok  \tm/a\t2.6s\n   slowest packages: m/a 2.6s\n   slowest tests: m/a.TestA 2.5s\n"
	if got != want || code != 0 {
		t.Errorf("exit %d, output:\n%q\nwant exit 0 and\n%q", code, got, want)
	}
}

// TestStreamEndsEarly: a package with no result when the stream ends (go
// test was killed) fails, with the output of its unfinished test.
func TestStreamEndsEarly(t *testing.T) {
	stream := `{"Action":"start","Package":"m/a"}
{"Action":"run","Package":"m/a","Test":"TestHang"}
{"Action":"output","Package":"m/a","Test":"TestHang","Output":"    a_test.go:9: waiting\n"}
`
	got, code := run(t, stream)
	if code != 1 || !strings.Contains(got, "a_test.go:9: waiting\nFAIL\tm/a\t(no result: go test stopped)\n") {
		t.Errorf("exit %d, output:\n%s", code, got)
	}
}

// TestStillRunning: after every without a finished package, one line
// names the packages running and their longest-running tests.
func TestStillRunning(t *testing.T) {
	var out bytes.Buffer
	r := newReport(&out, 0)
	t0 := time.Date(2026, 11, 28, 8, 0, 0, 0, time.UTC)
	r.last = t0
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	r.add(event{Time: at(0), Action: "start", Package: "github.com/unitd/unitd/cmd/unitd"}, at(0))
	r.add(event{Time: at(1), Action: "run", Package: "github.com/unitd/unitd/cmd/unitd", Test: "TestREADMEExamples"}, at(1))
	r.add(event{Time: at(2), Action: "run", Package: "github.com/unitd/unitd/cmd/unitd", Test: "TestReplicas"}, at(2))
	r.add(event{Time: at(3), Action: "run", Package: "github.com/unitd/unitd/cmd/unitd", Test: "TestReplicas/redis_down"}, at(3))
	r.add(event{Time: at(5), Action: "start", Package: "github.com/unitd/unitd/server"}, at(5))
	const every = 30 * time.Second
	r.tick(at(20), every)
	if out.Len() != 0 {
		t.Fatalf("a line before 30 s:\n%s", out.String())
	}
	r.tick(at(31), every)
	want := "   … still running: cmd/unitd 31s (TestREADMEExamples 30s, TestReplicas 29s); server 26s\n"
	if out.String() != want {
		t.Fatalf("got\n%q\nwant\n%q", out.String(), want)
	}
	out.Reset()
	r.add(event{Time: at(40), Action: "output", Package: "github.com/unitd/unitd/server", Output: "ok  \tgithub.com/unitd/unitd/server\t35s\n"}, at(40))
	r.add(event{Time: at(40), Action: "pass", Package: "github.com/unitd/unitd/server", Elapsed: 35}, at(40))
	r.tick(at(61), every)
	if out.String() != "ok  \tgithub.com/unitd/unitd/server\t35s\n" {
		t.Fatalf("a line within 30 s of a finished package:\n%s", out.String())
	}
	r.tick(at(71), every)
	if !strings.HasSuffix(out.String(), "   … still running: cmd/unitd 71s (TestREADMEExamples 70s, TestReplicas 69s)\n") {
		t.Errorf("got\n%s", out.String())
	}
	// With no test binary running, go test is building them.
	out.Reset()
	r.add(event{Time: at(80), Action: "pass", Package: "github.com/unitd/unitd/cmd/unitd", Elapsed: 80}, at(80))
	r.tick(at(111), every)
	if want := "   … building test binaries, 31s since cmd/unitd finished\n"; out.String() != want {
		t.Errorf("got\n%q\nwant\n%q", out.String(), want)
	}
}
