package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/unitd/unitd/catalog"
	"github.com/unitd/unitd/engine"
	"github.com/unitd/unitd/engine/answer"
	"github.com/unitd/unitd/locale"
)

var convertCommand = &command{
	name: "convert",
	synopsis: "VALUE FROM TO [--precision N] [--explain] [--locale TAG] [--usage U --region R]\n" +
		"       unitd convert QUANTITY TO           (free text: unitd convert '5 ft 3 in' cm)\n" +
		"       unitd convert QUESTION              (unitd convert '5 ft 3 in to cm')\n" +
		"       unitd convert - [--precision N]   (one \"VALUE FROM TO\" per stdin line; tab-separated if a unit has spaces; # comments)\n" +
		"       unitd convert --csv FILE --column NAME (--from UNIT | --from-column NAME) --to UNIT [--precision N]",
	summary: "convert a value: unitd convert 12.5 ft m",
	help: "FROM and TO are units or unit expressions such as kg*m/s^2. TO may be auto (the unit people use for --usage in\n" +
		"--region) or a mixed unit such as ft+in; a mixed FROM takes one value per part: unitd convert \"5 3.5\" ft+in cm.",
	run: func(c *call) error { return exitCode(runConvert(c)) },
}

// runConvert runs `unitd convert VALUE FROM TO [--precision N]`,
// `unitd convert QUANTITY TO` and `unitd convert QUESTION` (free text:
// "5 ft 3 in" cm, "5 ft 3 in to cm"), or `unitd convert -` to convert
// each stdin line "VALUE FROM TO" (fields separated by tabs when a unit
// name has spaces; blank and # lines skipped), or `unitd convert --csv
// FILE --column NAME --from UNIT --to UNIT` to add a converted column to a
// CSV file (csv.go). --locale reads free text in a locale and prints the
// result in its words and digits.
func runConvert(c *call) int {
	stdin, stdout, stderr := c.stdin, c.stdout, c.stderr
	fs := c.flags
	precision := fs.Int("precision", engine.DefaultPrecision, fmt.Sprintf("significant `digits` of the result (1-%d)", engine.MaxPrecision))
	explain := fs.Bool("explain", false, "also print where the digits come from: the exact factor and the catalog definitions used")
	dir := fs.String("catalog", envDefault("UNITD_CATALOG", ""), "catalog `directory` (default: the embedded catalog; env UNITD_CATALOG)")
	var job csvJob
	fs.StringVar(&job.file, "csv", "", "convert a column of the CSV `FILE` (- for stdin; a header row is required), writing it with the column NAME_<to> added")
	fs.StringVar(&job.column, "column", "", "with --csv: the `NAME` of the column of values")
	fs.StringVar(&job.from, "from", "", "with --csv: the `UNIT` of every value")
	fs.StringVar(&job.fromColumn, "from-column", "", "with --csv: the `NAME` of the column that holds each row's unit, instead of --from")
	fs.StringVar(&job.to, "to", "", "with --csv: the `UNIT` to convert to")
	var prefs engine.Request
	fs.StringVar(&prefs.Usage, "usage", "", "with TO auto: CLDR's `usage` (person-height, road, weather, …; default when not given)")
	fs.StringVar(&prefs.Region, "region", "", "with TO auto: the `region` (ISO 3166-1 alpha-2, or 001, the default)")
	tag := fs.String("locale", "", "BCP 47 `tag` (de, fr-CA, ar-SA): read free text with its separators and unit names, print the result in its words and digits; with TO auto and no --region, its region is used")
	display := fs.String("unit-display", "short", "width of unit names with --locale: long, short or narrow")
	var q engine.PropertyQuery
	fs.StringVar(&q.Substance, "substance", "", "what is measured, for conversions across kinds: a `name`, alias, CAS number or formula (glucose, 50-99-7, C6H12O6)")
	fs.StringVar(&q.MolarMass, "molar-mass", "", "molar mass, winning over the substance's (`\"180.156 g/mol\"`)")
	fs.StringVar(&q.Density, "density", "", "density, winning over the substance's (`\"0.745 kg/L\"`)")
	fs.StringVar(&q.Charge, "charge", "", "charge number of an ion (`z`), for mEq ↔ mmol")
	fs.StringVar(&q.Conditions, "conditions", "", "gas temperature and pressure (`\"25 degC, 101.325 kPa\"`, or STP, NTP, SATP)")
	pos, err := c.parse()
	if err != nil {
		return c.exit(err)
	}
	if *precision < 1 || *precision > engine.MaxPrecision {
		fmt.Fprintln(stderr, "unitd convert:", engine.ErrPrecision)
		return 2
	}
	if job.file != "" {
		job.precision = *precision
		if err := job.check(); err != nil || len(pos) > 0 || *explain {
			if err == nil {
				err = errors.New("--csv takes no VALUE FROM TO and no --explain")
			}
			fmt.Fprintln(stderr, "unitd convert:", err)
			return 2
		}
	} else if job.column != "" || job.from != "" || job.fromColumn != "" || job.to != "" {
		fmt.Fprintln(stderr, "unitd convert: --column, --from, --from-column and --to go with --csv FILE")
		return 2
	}
	width, ok := locale.ParseWidth(*display)
	if !ok {
		fmt.Fprintln(stderr, "unitd convert: --unit-display must be long, short or narrow")
		return 2
	}
	var lc *locale.Locale
	if *tag != "" {
		prefs.Locale = *tag
		if lc, err = locale.Match(*tag); err != nil {
			fmt.Fprintf(stderr, "unitd convert: --locale %q is not a BCP 47 language tag\n", *tag)
			return 2
		}
	}
	precisionGiven := false
	fs.Visit(func(f *flag.Flag) { precisionGiven = precisionGiven || f.Name == "precision" })
	g, err := loadCatalog(*dir)
	if err != nil {
		fmt.Fprintln(stderr, "unitd convert:", err)
		return 1
	}
	// The substance flags are checked before anything is converted, in
	// every mode; a single conversion's answer resolves them again (from
	// the graph's cache), with an ingredient its text may name.
	props, err := g.ResolveProperties(q)
	if err != nil {
		fmt.Fprintln(stderr, "error:", describe(err))
		return 1
	}
	prefs.Properties = props
	switch {
	case job.file != "":
		job.props = props
		return runCSV(converterOf(g), job, stdin, stdout, stderr)
	case len(pos) == 1 && pos[0] == "-" && *explain:
		fmt.Fprintln(stderr, "unitd convert: --explain takes a single conversion (a stream prints one line per input line)")
		return 2
	case len(pos) == 1 && pos[0] == "-":
		return convertStream(converterOf(g), *precision, prefs, stdin, stdout, isTerminal(stdin))
	case len(pos) < 1 || len(pos) > 3:
		fs.Usage()
		return 2
	}
	query := answer.Query{Locale: lc, Tag: *tag, Width: width, Usage: prefs.Usage, Region: prefs.Region,
		Properties: q, Explain: *explain}
	if precisionGiven {
		query.Precision = *precision
	}
	switch len(pos) {
	case 3:
		query.Value, query.From, query.To = pos[0], pos[1], pos[2]
	case 2:
		query.Form, query.Text, query.To = answer.FormText, pos[0], pos[1]
	case 1:
		query.Form, query.Text = answer.FormQuestion, pos[0]
	}
	var a answer.Answer
	err = convertOne(converterOf(g), &query, &a)
	if a.Input.Assumed != "" {
		fmt.Fprintln(stderr, "assumed:", a.Input.Assumed)
	}
	if err != nil {
		fmt.Fprintln(stderr, "error:", describe(err))
		return 1
	}
	switch {
	case lc != nil:
		fmt.Fprintln(stdout, a.Text)
	case len(a.Result.Parts()) > 0:
		fmt.Fprintln(stdout, engine.PartsText(a.Result.Parts()))
	default:
		fmt.Fprintln(stdout, string(a.Digits)+" "+a.Result.Unit)
	}
	if *explain {
		printExplanation(stdout, a.Explanation, a.Exact)
	}
	return 0
}

// convertOne answers a single conversion (VALUE FROM TO, QUANTITY TO or
// QUESTION) into a. A panic on the way (a bug) is an INTERNAL_ERROR,
// printed like any other error.
func convertOne(g answer.Graph, q *answer.Query, a *answer.Answer) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = panicked(v)
		}
	}()
	return answer.Run(g, q, a)
}

// converter is what the command line's conversions go through: the
// graph itself (converterOf), or in tests one that panics, as a bug in
// the engine would.
type converter = answer.Graph

// converterOf returns the converter of g; tests put one of their own in
// its place.
var converterOf = func(g *engine.Graph) converter { return g }

// panicked is the error of a conversion that panicked: a bug in unitd,
// which costs that conversion only (one line of convert -, one cell of
// --csv), never the run.
func panicked(v any) error {
	return &engine.Error{Code: engine.CodeInternal, Message: fmt.Sprintf("unitd failed on this conversion (a bug; please report it with the input): %v", v)}
}

// convertLine converts req, turning a panic into an INTERNAL_ERROR.
func convertLine(conv converter, req engine.Request) (r engine.Result, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = panicked(v)
		}
	}()
	return conv.Convert(req)
}

// appendConverted appends the converted value of req to b, turning a
// panic into an INTERNAL_ERROR.
func appendConverted(conv converter, b []byte, req *engine.Request, res *engine.Result) (out []byte, err error) {
	defer func() {
		if v := recover(); v != nil {
			out, err = b, panicked(v)
		}
	}()
	return conv.AppendConvert(b, req, res)
}

// printExplanation prints an explanation for a person, indented under the
// result.
func printExplanation(w io.Writer, ex engine.Explanation, exact bool) {
	exactness := func(e bool) string {
		if e {
			return "exact"
		}
		return "rounded"
	}
	fmt.Fprintf(w, "  result:   %s\n", exactness(exact))
	fmt.Fprintf(w, "  catalog:  %s\n", ex.CatalogVersion)
	fmt.Fprintf(w, "  kind:     %s\n", ex.Kind)
	if ex.Factor != "" {
		fmt.Fprintf(w, "  factor:   %s (%s)\n", ex.Factor, exactness(ex.FactorExact))
	}
	if ex.Offset != "" {
		fmt.Fprintf(w, "  offset:   %s (%s)\n", ex.Offset, exactness(ex.OffsetExact))
	}
	for _, f := range ex.Formulas {
		fmt.Fprintf(w, "  formula:  %s = %s %s; back: %s\n", f.Unit, f.To, f.Reference, f.From)
	}
	for _, p := range ex.Properties {
		line := p.Value
		if p.Conditions != "" {
			line += " at " + p.Conditions
		}
		fmt.Fprintf(w, "  %-9s %s  [%s]\n", p.Name+":", line, p.Source)
		if p.Sum != "" {
			fmt.Fprintf(w, "            = %s\n", p.Sum)
		}
	}
	if m := ex.Mixed; m != nil {
		var parts []string
		for _, p := range m.Parts {
			parts = append(parts, p.Unit+" = "+p.PerLast+" "+m.LastPart)
		}
		fmt.Fprintf(w, "  parts:    %s (factor and steps lead to %s)\n", strings.Join(parts, ", "), m.LastPart)
	}
	if p := ex.Preference; p != nil {
		fmt.Fprintf(w, "  chosen:   %s/%s for %s (%s), preferences of %s: %s\n", p.Quantity, p.MatchedUsage, p.Region, p.RegionFrom, p.MatchedRegion, p.Reason())
		var units []string
		for _, u := range p.Units {
			s := u.Unit
			if u.Geq != "" {
				s += " from " + u.Geq + " " + u.GeqUnit
			}
			units = append(units, s)
		}
		fmt.Fprintf(w, "  list:     %s [%s]\n", strings.Join(units, ", "), p.Source)
	}
	fmt.Fprintln(w, "  steps:")
	for _, s := range ex.Steps {
		unit := s.Unit
		if s.Exponent != 0 {
			unit += fmt.Sprintf(" (^%d)", s.Exponent)
		}
		def := "exact"
		if !s.Exact {
			def = "not exact"
		}
		fmt.Fprintf(w, "    %-12s %s  [%s; %s]\n", unit, s.Definition, def, s.Source)
	}
}

// streamFields splits one stdin line: on tabs when it has any, so that
// unit names with spaces ("degree Celsius") work, else on white space.
func streamFields(line string) []string {
	if !strings.Contains(line, "\t") {
		return strings.Fields(line)
	}
	f := strings.Split(line, "\t")
	for i := range f {
		f[i] = strings.TrimSpace(f[i])
	}
	return f
}

// resultText prints a result: "2.54 cm", or its parts, "5 ft 3.5 in".
func resultText(r *engine.Result) string {
	if len(r.Parts()) > 0 {
		return engine.PartsText(r.Parts())
	}
	return r.Value + " " + r.Unit
}

// convertStream converts each line of in, writing one line per input line
// in order: the result, or "error: CODE message" (INTERNAL_ERROR for a
// line whose conversion panicked: the lines after it are converted all
// the same). It flushes every line when interactive, and returns 1 if any
// line failed.
func convertStream(conv converter, precision int, prefs engine.Request, in io.Reader, out io.Writer, interactive bool) int {
	w := bufio.NewWriter(out)
	defer w.Flush()
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	code := 0
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue // blank lines and comments
		}
		f := streamFields(line)
		if len(f) > 3 && !strings.Contains(line, "\t") {
			// A value per part of a mixed unit: "5 3.5 ft+in cm".
			f = []string{strings.Join(f[:len(f)-2], " "), f[len(f)-2], f[len(f)-1]}
		}
		req := prefs
		if len(f) == 3 {
			req.Value, req.From, req.To, req.Precision = f[0], f[1], f[2], precision
		}
		if len(f) != 3 {
			fmt.Fprintln(w, "error: INVALID_REQUEST expected \"VALUE FROM TO\"")
			code = 1
		} else if r, err := convertLine(conv, req); err != nil {
			fmt.Fprintln(w, "error:", describe(err))
			code = 1
		} else {
			fmt.Fprintln(w, resultText(&r))
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

// describe prints a conversion error as "CODE message", and its hint, if
// any, as "; hint: …".
func describe(err error) string {
	var e *engine.Error
	if errors.As(err, &e) {
		if e.Hint != "" {
			return string(e.Code) + " " + e.Message + "; hint: " + e.Hint
		}
		return string(e.Code) + " " + e.Message
	}
	var fe *engine.FieldError
	if errors.As(err, &fe) {
		return "INVALID_REQUEST " + fe.Error()
	}
	return "INVALID_REQUEST " + err.Error()
}

// loadCatalog compiles the catalog in dir, or the embedded one.
func loadCatalog(dir string) (*engine.Graph, error) {
	if dir == "" {
		return embeddedGraph()
	}
	return loadGraph(os.DirFS(dir))
}

// embeddedGraph restores the catalog built into the binary from its
// compiled snapshot, once per process: it never changes, and a Graph
// serves any number of callers. The collector is off while it restores:
// nearly all it allocates stays live, so a collection then would scan
// it for nothing (a sixth of `unitd convert 1 m ft`'s processor time),
// and the peak memory is the same.
var embeddedGraph = sync.OnceValues(func() (*engine.Graph, error) {
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	return loaded(catalog.LoadEmbedded())
})

func loadGraph(fsys fs.FS) (*engine.Graph, error) {
	return loaded(catalog.Load(fsys))
}

func loaded(g *engine.Graph, errs []error) (*engine.Graph, error) {
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
