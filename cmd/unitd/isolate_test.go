package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/unitd/unitd/engine"
)

// boomUnit is the unit whose conversion panics through panicky.
const boomUnit = "boom"

// panicky is the graph with a bug: converting from boomUnit panics, as
// the engine did on UCUM's centineper (ucum:cNp).
type panicky struct{ *engine.Graph }

func (p panicky) Convert(req engine.Request) (engine.Result, error) {
	if req.From == boomUnit {
		var parts []string
		_ = parts[len(req.From)]
	}
	return p.Graph.Convert(req)
}

func (p panicky) AppendConvert(b []byte, req *engine.Request, res *engine.Result) ([]byte, error) {
	if req.From == boomUnit {
		var parts []string
		_ = parts[len(req.From)]
	}
	return p.Graph.AppendConvert(b, req, res)
}

// withPanicky makes the command line convert through panicky until the
// test ends.
func withPanicky(t *testing.T) {
	t.Helper()
	saved := converterOf
	converterOf = func(g *engine.Graph) converter { return panicky{g} }
	t.Cleanup(func() { converterOf = saved })
}

// TestConvertPanicIsOneLine: a conversion that panics (a bug) is that
// line's "error: INTERNAL_ERROR …" in `unitd convert -`, and every later
// line is converted; in --csv it is that cell's error; alone, it is an
// error message and exit 1, never a crash.
func TestConvertPanicIsOneLine(t *testing.T) {
	withPanicky(t)
	code, stdout, stderr := runCLI(t, "1 ft m\n1 "+boomUnit+" m\n2 ft m\n3 in cm\n", "convert", "-")
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	if code != 1 || len(lines) != 4 || lines[0] != "0.3048 m" || lines[2] != "0.6096 m" || lines[3] != "7.62 cm" ||
		!strings.HasPrefix(lines[1], "error: INTERNAL_ERROR unitd failed on this conversion (a bug; please report it with the input): runtime error: index out of range [4] with length 0") {
		t.Errorf("convert -: exit %d\n%s\nstderr: %s", code, stdout, stderr)
	}

	code, stdout, stderr = runCLI(t, "", "convert", "1", boomUnit, "m")
	if code != 1 || stdout != "" || !strings.HasPrefix(stderr, "error: INTERNAL_ERROR unitd failed on this conversion") {
		t.Errorf("convert 1 %s m: exit %d, stdout %q, stderr %q", boomUnit, code, stdout, stderr)
	}

	path := filepath.Join(t.TempDir(), "rows.csv")
	if err := os.WriteFile(path, []byte("v,u\n1,ft\n1,"+boomUnit+"\n2,ft\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr = runCLI(t, "", "convert", "--csv", path, "--column", "v", "--from-column", "u", "--to", "m")
	if code != 1 || stdout != "v,u,v_m\n1,ft,0.3048\n1,boom,\n2,ft,0.6096\n" ||
		!strings.HasPrefix(stderr, `line 3: column "v": INTERNAL_ERROR unitd failed on this conversion`) {
		t.Errorf("--csv: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}

// TestConvertShippedCodeNeverKillsTheStream: UCUM's centineper
// (ucum:cNp), on which the engine has panicked, costs `unitd convert -`
// its own line at most. (Whatever the engine answers for it; the test
// above proves the isolation with a panic of its own.)
func TestConvertShippedCodeNeverKillsTheStream(t *testing.T) {
	code, stdout, stderr := runCLI(t, "1 ft m\n1 ucum:cNp ucum:Np\n2 ft m\n", "convert", "-")
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	if len(lines) != 3 || lines[0] != "0.3048 m" || lines[2] != "0.6096 m" || code > 1 {
		t.Errorf("exit %d\n%s\nstderr: %s", code, stdout, stderr)
	}
	code, _, stderr = runCLI(t, "", "convert", "1", "ucum:cNp", "ucum:Np")
	if code > 1 || strings.Contains(stderr, "goroutine") {
		t.Errorf("convert 1 ucum:cNp ucum:Np: exit %d, stderr %q", code, stderr)
	}
}
