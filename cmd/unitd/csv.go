package main

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/unitd/unitd/engine"
)

// csvJob is `unitd convert --csv FILE --column NAME --from UNIT --to UNIT`
// (or --from-column NAME instead of --from): a CSV file with a header
// row, one of whose columns holds values to convert.
type csvJob struct {
	file       string // "-" for stdin
	column     string // the column of values
	from       string // the unit of every value, or ""
	fromColumn string // the column holding each row's unit, or ""
	to         string
	precision  int
	// props are the --substance flags resolved, or nil.
	props *engine.Properties
}

// check reports what is missing or contradictory in the flags.
func (j *csvJob) check() error {
	switch {
	case j.column == "":
		return errors.New("--csv needs --column NAME: the column of values to convert")
	case j.to == "":
		return errors.New("--csv needs --to UNIT")
	case (j.from == "") == (j.fromColumn == ""):
		return errors.New("--csv needs either --from UNIT or --from-column NAME (the column that holds each row's unit)")
	}
	return nil
}

// unitErrors are the conversion errors that say a unit is wrong, not a
// value: with --from, every row would fail the same way.
var unitErrors = map[engine.Code]bool{
	engine.CodeUnknownUnit: true, engine.CodeAmbiguousUnit: true, engine.CodeInvalidUnitExpression: true,
	engine.CodeIncompatibleUnits: true,
}

// runCSV converts the job's column, reading the file (or stdin) and
// writing the CSV with the column NAME_<to> added to out, a row at a time.
// A cell that does not convert is left empty in the new column and
// reported on stderr with its line; an empty cell stays empty. It returns
// 1 when any cell or row was bad, 2 when the units or the header are
// wrong, 0 otherwise.
func runCSV(conv converter, j csvJob, stdin io.Reader, stdout, stderr io.Writer) int {
	fail := func(code int, format string, args ...any) int {
		fmt.Fprintf(stderr, "unitd convert: "+format+"\n", args...)
		return code
	}
	// With one unit for every row, a unit that is wrong is wrong once.
	from, to := j.from, j.to
	if from == "" {
		from = to
	}
	if _, err := convertLine(conv, engine.Request{Value: "1", From: from, To: to, Properties: j.props}); err != nil {
		var e *engine.Error
		if errors.As(err, &e) && unitErrors[e.Code] {
			return fail(2, "%s", describe(err))
		}
	}
	in := stdin
	interactive := isTerminal(stdin)
	if j.file != "-" {
		f, err := os.Open(j.file)
		if err != nil {
			return fail(2, "%v", err)
		}
		defer f.Close()
		in, interactive = f, false
	}
	r := csv.NewReader(bufio.NewReaderSize(in, 64<<10))
	r.ReuseRecord = true
	header, err := r.Read()
	if errors.Is(err, io.EOF) {
		return fail(2, "%s has no header row", j.name())
	}
	if err != nil {
		return fail(1, "%s: %v", j.name(), err)
	}
	header = append([]string(nil), header...)
	header[0] = strings.TrimPrefix(header[0], "\ufeff") // a byte-order mark, as spreadsheets write
	col, err := columnIndex(header, j.column)
	if err != nil {
		return fail(2, "%s: %v", j.name(), err)
	}
	fromCol := -1
	if j.fromColumn != "" {
		if fromCol, err = columnIndex(header, j.fromColumn); err != nil {
			return fail(2, "%s: %v", j.name(), err)
		}
	}
	added := j.column + "_" + j.to
	if _, err := columnIndex(header, added); err == nil {
		return fail(2, "%s already has a column %q", j.name(), added)
	}
	r.FieldsPerRecord = -1 // rows of another length are reported below, not fatal

	bw := bufio.NewWriterSize(stdout, 64<<10)
	w := csv.NewWriter(bw)
	defer bw.Flush()
	w.Write(append(header, added))
	width := len(header)
	row := make([]string, 0, width+1)
	var buf []byte
	var res engine.Result
	code := 0
	report := func(line int, format string, args ...any) {
		fmt.Fprintf(stderr, "line %d: "+format+"\n", append([]any{line}, args...)...)
		code = 1
	}
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			// A quote out of place: where the next row starts is unknown.
			w.Flush()
			bw.Flush()
			return fail(1, "%s: %v; stopped there", j.name(), err)
		}
		line, _ := r.FieldPos(0)
		if len(rec) != width {
			report(line, "%d fields, the header has %d", len(rec), width)
		}
		// The new column stays the last of the header's width, whatever
		// the row's.
		row = append(row[:0], rec[:min(len(rec), width)]...)
		for len(row) < width {
			row = append(row, "")
		}
		value, unit := strings.TrimSpace(row[col]), j.from
		if fromCol >= 0 {
			unit = strings.TrimSpace(row[fromCol])
		}
		out := ""
		if value != "" {
			if fromCol >= 0 && unit == "" {
				report(line, "column %q: no unit in column %q", j.column, j.fromColumn)
			} else {
				req := engine.Request{Value: value, From: unit, To: j.to, Precision: j.precision, Properties: j.props}
				if buf, err = appendConverted(conv, buf[:0], &req, &res); err != nil {
					l, _ := r.FieldPos(col)
					report(l, "column %q: %s", j.column, describe(err))
				} else {
					out = string(buf)
				}
			}
		}
		row = append(row, out)
		if len(rec) > width {
			row = append(row, rec[width:]...)
		}
		w.Write(row)
		if interactive {
			w.Flush()
			bw.Flush()
		}
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return fail(1, "writing: %v", err)
	}
	return code
}

func (j *csvJob) name() string {
	if j.file == "-" {
		return "stdin"
	}
	return j.file
}

// columnIndex finds the one column of the header named name.
func columnIndex(header []string, name string) (int, error) {
	at := -1
	for i, h := range header {
		if h == name {
			if at >= 0 {
				return 0, fmt.Errorf("two columns are named %q (%d and %d)", name, at+1, i+1)
			}
			at = i
		}
	}
	if at < 0 {
		quoted := make([]string, len(header))
		for i, h := range header {
			quoted[i] = strconv.Quote(h)
		}
		return 0, fmt.Errorf("no column %q in the header (it has %s)", name, strings.Join(quoted, ", "))
	}
	return at, nil
}
