package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/unitd/unitd/catalog"
	"github.com/unitd/unitd/engine"
)

// runConvert runs `unitd convert VALUE FROM TO [--precision N]`, or
// `unitd convert -` to convert each stdin line "VALUE FROM TO".
func runConvert(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("unitd convert", flag.ContinueOnError)
	fs.SetOutput(stderr)
	precision := fs.Int("precision", engine.DefaultPrecision, fmt.Sprintf("significant `digits` of the result (1-%d)", engine.MaxPrecision))
	dir := fs.String("catalog", envDefault("UNITD_CATALOG", ""), "catalog `directory` (default: the embedded catalog; env UNITD_CATALOG)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: unitd convert VALUE FROM TO [--precision N]\n       unitd convert - [--precision N]   (one \"VALUE FROM TO\" per stdin line)")
		fs.PrintDefaults()
	}
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stderr, "unitd convert:", err)
		}
		return 2
	}
	if *precision < 1 || *precision > engine.MaxPrecision {
		fmt.Fprintln(stderr, "unitd convert:", engine.ErrPrecision)
		return 2
	}
	g, err := loadCatalog(*dir)
	if err != nil {
		fmt.Fprintln(stderr, "unitd convert:", err)
		return 1
	}
	switch {
	case len(pos) == 1 && pos[0] == "-":
		return convertStream(g, *precision, stdin, stdout, isTerminal(stdin))
	case len(pos) != 3:
		fs.Usage()
		return 2
	}
	r, err := g.Convert(engine.Request{Value: pos[0], From: pos[1], To: pos[2], Precision: *precision})
	if err != nil {
		fmt.Fprintln(stderr, "error:", describe(err))
		return 1
	}
	fmt.Fprintln(stdout, r.Value, r.Unit)
	return 0
}

// convertStream converts each line of in, writing one line per input line
// in order: the result, or "error: CODE message". It flushes every line
// when interactive, and returns 1 if any line failed.
func convertStream(g *engine.Graph, precision int, in io.Reader, out io.Writer, interactive bool) int {
	w := bufio.NewWriter(out)
	defer w.Flush()
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	code := 0
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 3 {
			fmt.Fprintln(w, "error: INVALID_REQUEST expected \"VALUE FROM TO\"")
			code = 1
		} else if r, err := g.Convert(engine.Request{Value: f[0], From: f[1], To: f[2], Precision: precision}); err != nil {
			fmt.Fprintln(w, "error:", describe(err))
			code = 1
		} else {
			fmt.Fprintln(w, r.Value, r.Unit)
		}
		if interactive {
			w.Flush()
		}
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintln(w, "error: INVALID_REQUEST reading input:", err)
		return 1
	}
	return code
}

// describe prints a conversion error as "CODE message".
func describe(err error) string {
	var e *engine.Error
	if errors.As(err, &e) {
		return string(e.Code) + " " + e.Message
	}
	return "INVALID_REQUEST " + err.Error()
}

// loadCatalog compiles the catalog in dir, or the embedded one.
func loadCatalog(dir string) (*engine.Graph, error) {
	fsys := catalog.Embedded()
	if dir != "" {
		fsys = os.DirFS(dir)
	}
	g, errs := catalog.Load(fsys)
	if len(errs) > 0 {
		msgs := make([]string, len(errs))
		for i, e := range errs {
			msgs[i] = e.Error()
		}
		return nil, fmt.Errorf("catalog has %d problem(s):\n%s", len(errs), strings.Join(msgs, "\n"))
	}
	return g, nil
}

// isTerminal reports whether r is a character device such as a terminal.
func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
