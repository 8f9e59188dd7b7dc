package catalog

import (
	"bufio"
	"bytes"
	"embed"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/unitd/unitd/engine/codes"
	"go.yaml.in/yaml/v3"
)

// The standard unit code tables (codes/: UCUM, CLDR, QUDT), generated from
// their owners' packages by `go run ./tools/codetables`, with the licences
// and SOURCES.md that say where each comes from. Every load compiles them
// with the catalog, so that a unit's `codes` are checked against them and
// namespaced names (ucum:mg/dL) are read with them.
//
//go:embed codes/*.tsv codes/LICENSE-* codes/SOURCES.md
var codeFiles embed.FS

var codeTables = sync.OnceValues(func() (*codes.Tables, error) {
	return ReadCodeTables(codeFiles, "codes")
})

// CodeTables returns the code tables shipped with unitd, as read.
func CodeTables() (*codes.Tables, error) { return codeTables() }

// codeSet is the shipped tables compiled, once per process: every load of
// a catalog checks its claims against the same tables.
var codeSet = sync.OnceValues(func() (*codes.Set, error) {
	t, err := codeTables()
	if err != nil {
		return nil, err
	}
	set, errs := codes.Compile(t)
	if len(errs) > 0 {
		return nil, fmt.Errorf("code tables: %w", errors.Join(errs...))
	}
	return set, nil
})

// ReadCodeTables reads ucum.tsv, cldr.tsv and qudt.tsv from dir of fsys.
func ReadCodeTables(fsys interface {
	ReadFile(string) ([]byte, error)
}, dir string) (*codes.Tables, error) {
	t := &codes.Tables{Sources: map[string]string{}}
	read := func(name, system string, each func(f []string) error) error {
		src, err := fsys.ReadFile(dir + "/" + name)
		if err != nil {
			return err
		}
		sc := bufio.NewScanner(bytes.NewReader(src))
		sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
		line := 0
		for sc.Scan() {
			line++
			text := sc.Text()
			if strings.HasPrefix(text, "#") {
				if line == 1 {
					t.Sources[system] = strings.TrimSpace(strings.TrimPrefix(text, "#"))
				}
				continue
			}
			if err := each(strings.Split(text, "\t")); err != nil {
				return fmt.Errorf("%s:%d: %v", name, line, err)
			}
		}
		return sc.Err()
	}
	need := func(f []string, n int) error {
		if len(f) != n {
			return fmt.Errorf("expected %d columns, found %d", n, len(f))
		}
		return nil
	}
	err := read("ucum.tsv", codes.SystemUCUM, func(f []string) error {
		if err := need(f, 9); err != nil {
			return err
		}
		t.UCUM = append(t.UCUM, codes.UCUMEntry{Type: f[0], Code: f[1], Metric: f[2] == "1", Kind: f[3], Value: f[4], Unit: f[5], Function: f[6], Name: f[7], Property: f[8]})
		return nil
	})
	if err == nil {
		err = read("cldr.tsv", codes.SystemCLDR, func(f []string) error {
			if err := need(f, 7); err != nil {
				return err
			}
			t.CLDR = append(t.CLDR, codes.CLDREntry{Type: f[0], ID: f[1], Base: f[2], Factor: f[3], Offset: f[4], Systems: f[5], Special: f[6]})
			return nil
		})
	}
	if err == nil {
		err = read("qudt.tsv", codes.SystemQUDT, func(f []string) error {
			if err := need(f, 12); err != nil {
				return err
			}
			t.QUDT = append(t.QUDT, codes.QUDTEntry{Name: f[0], Dimension: f[1], Multiplier: f[2], Offset: f[3], Symbol: f[4], Label: f[5],
				Deprecated: f[6] == "1", Generated: f[7] == "1", Factors: f[9], Scales: f[10], Prefix: f[11]})
			return nil
		})
	}
	if err == nil {
		err = read("unece.tsv", codes.SystemUNECE, func(f []string) error {
			if err := need(f, 1); err != nil {
				return err
			}
			t.UNECE = append(t.UNECE, f[0])
			return nil
		})
	}
	if err != nil {
		return nil, fmt.Errorf("code tables: %w", err)
	}
	return t, nil
}

// codes decodes a unit's `codes`: a mapping of code system to code.
func (d *decoder) codes(n *yaml.Node, s string) map[string]string {
	out := map[string]string{}
	d.mappingBy(n, s, func(system string, v *yaml.Node) bool {
		label, ok := codeLabels[system]
		if !ok {
			return false
		}
		var code string
		d.str(v, s, label, &code)
		if code != "" {
			out[system] = code
		}
		return true
	}, func() []string { return slices.Collect(maps.Keys(codeLabels)) })
	return out
}

// codeLabels names each code system's key in messages, by the system.
var codeLabels = func() map[string]string {
	m := map[string]string{}
	for _, system := range codes.Systems {
		m[system] = "codes " + system
	}
	return m
}()
