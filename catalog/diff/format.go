package diff

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// Formats are the output formats of Write.
var Formats = []string{"text", "json", "markdown", "github"}

// Write prints the report in format: text (one line per change), json,
// markdown (for a pull-request comment) or github (workflow annotations at
// the changed lines of the new catalog).
func (r Report) Write(w io.Writer, format string) error {
	switch format {
	case "text":
		return r.writeText(w)
	case "json":
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			Report
			Breaking int `json:"breaking"`
		}{r, r.Breaking()})
	case "markdown":
		return r.writeMarkdown(w)
	case "github":
		return r.writeGitHub(w)
	}
	return fmt.Errorf("unknown format %q (%s)", format, strings.Join(Formats, ", "))
}

func (r Report) headline() string {
	switch n, b := len(r.Changes), r.Breaking(); {
	case n == 0:
		return "no changes"
	case b == 0:
		return fmt.Sprintf("%d change(s), none breaking", n)
	default:
		return fmt.Sprintf("%d change(s), %d breaking", n, b)
	}
}

func (r Report) writeText(w io.Writer) error {
	ew := &errWriter{w: w}
	ew.printf("unitd diff %s → %s: %s\n", r.Old, r.New, r.headline())
	for _, c := range r.Changes {
		mark := "        "
		if c.Breaking {
			mark = "BREAKING"
		}
		ew.printf("%s %s: %s\n", mark, c.location(), c.Summary)
	}
	return ew.err
}

func (c Change) location() string {
	switch {
	case c.File == "":
		return c.Category
	case c.Line == 0:
		return c.File
	}
	return fmt.Sprintf("%s:%d", c.File, c.Line)
}

func (r Report) writeMarkdown(w io.Writer) error {
	ew := &errWriter{w: w}
	ew.printf("### Catalog changes: `%s` → `%s`\n\n", r.Old, r.New)
	if len(r.Changes) == 0 {
		ew.printf("No changes to categories, units, names or values.\n")
		return ew.err
	}
	if b := r.Breaking(); b > 0 {
		ew.printf("**%d change(s), %d breaking API consumers** (removed or renamed symbols and names, changed values, newly ambiguous names).\n", len(r.Changes), b)
	} else {
		ew.printf("%d change(s), none breaking API consumers.\n", len(r.Changes))
	}
	section := func(title string, breaking bool) {
		var rows []Change
		for _, c := range r.Changes {
			if c.Breaking == breaking {
				rows = append(rows, c)
			}
		}
		if len(rows) == 0 {
			return
		}
		ew.printf("\n#### %s\n\n", title)
		ew.printf("| where | change | unit or name | old | new | 1 unit → base: relative change |\n")
		ew.printf("|---|---|---|---|---|---|\n")
		for _, c := range rows {
			subject := c.Unit
			if c.Name != "" {
				subject = c.Name
			}
			old, new := c.Old, c.New
			if c.OldValue != "" {
				old += fmt.Sprintf("<br>1 %s = %s %s", c.Unit, c.OldValue, c.Base)
			}
			if c.NewValue != "" {
				new += fmt.Sprintf("<br>1 %s = %s %s", c.Unit, c.NewValue, c.Base)
			}
			ew.printf("| %s | %s | %s | %s | %s | %s |\n", cell(c.location()), c.Kind, code(subject), cell(old), cell(new), cell(c.Relative))
		}
	}
	section("Breaking", true)
	section("Other changes", false)
	return ew.err
}

// cell escapes text for a Markdown table cell.
func cell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}

func code(s string) string {
	if s == "" {
		return ""
	}
	return "`" + strings.ReplaceAll(s, "`", "'") + "`"
}

func (r Report) writeGitHub(w io.Writer) error {
	ew := &errWriter{w: w}
	for _, c := range r.Changes {
		level := "notice"
		if c.Breaking {
			level = "warning"
		}
		props := ""
		if c.File != "" {
			props = " file=" + ghProperty(c.File)
			if c.Line > 0 {
				props += fmt.Sprintf(",line=%d", c.Line)
			}
			props += ","
		} else {
			props = " "
		}
		props += "title=" + ghProperty("unitd diff: "+string(c.Kind))
		ew.printf("::%s%s::%s\n", level, props, ghMessage(c.Summary))
	}
	ew.printf("unitd diff %s → %s: %s\n", r.Old, r.New, r.headline())
	return ew.err
}

// ghMessage and ghProperty escape a workflow command's message and
// property values.
func ghMessage(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func ghProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

// errWriter keeps the first write error.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) printf(format string, args ...any) {
	if e.err == nil {
		_, e.err = fmt.Fprintf(e.w, format, args...)
	}
}
