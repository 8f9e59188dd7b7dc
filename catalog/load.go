package catalog

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/unitd/unitd/catalog/internal/yamlfast"
	"github.com/unitd/unitd/engine"
	"github.com/unitd/unitd/engine/dimension"
	"go.yaml.in/yaml/v3"
)

// Load reads every *.yaml file at the top of fsys and compiles them into a
// graph. It returns all problems found, each located as file:line:col;
// the graph is nil when there is any.
func Load(fsys fs.FS) (*engine.Graph, []error) {
	g, errs, _ := load(context.Background(), fsys, nil)
	return g, errs
}

// load is Load that also returns the version of the sources it read,
// whether or not they compiled, and stops compiling when ctx is done. With
// a cache, files whose bytes have not changed since the last load are not
// decoded again.
func load(ctx context.Context, fsys fs.FS, cache *decodeCache) (*engine.Graph, []error, string) {
	spec, errs, complete := loadSpec(fsys, cache)
	if len(errs) > 0 && !complete {
		return nil, capErrors(errs), spec.Version
	}
	units := 0
	for _, cs := range spec.Categories {
		units += len(cs.Units)
	}
	if units > MaxUnits {
		return nil, append(capErrors(errs), fmt.Errorf("catalog declares %d units; at most %d are compiled", units, MaxUnits)), spec.Version
	}
	// The code tables check the units' codes and read the CLDR units of
	// the preferences: a catalog with problems is compiled with them too,
	// so that what it reports is what a good catalog would meet.
	set, err := codeSet()
	if err != nil {
		return nil, []error{err}, spec.Version
	}
	spec.Codes = set
	// Every file decoded (perhaps with bad keys): compile anyway, so that
	// one run reports every problem.
	g, berrs := engine.BuildContext(ctx, spec)
	if errs = append(errs, berrs...); len(errs) > 0 {
		return nil, capErrors(errs), spec.Version
	}
	return g, nil, spec.Version
}

// LoadSpec reads and decodes the catalog without compiling it, for tools
// that need the declarations' positions (unitd diff).
func LoadSpec(fsys fs.FS) (engine.Spec, []error) {
	spec, errs, _ := loadSpec(fsys, nil)
	return spec, errs
}

// decodeCache keeps what each file decoded to, by name and content hash,
// so that a reload after editing one file decodes only that file. Decoding
// is a pure function of the name and the bytes, and the engine never
// modifies a spec, so reusing a decoded category is safe.
type decodeCache struct {
	mu    sync.Mutex // one load at a time
	files map[string]decoded
}

type decoded struct {
	sum     [sha256.Size]byte
	cs      *engine.CategorySpec
	bridges []engine.BridgeSpec        // of bridgesFile
	hints   []engine.HintSpec          // of hintsFile
	codes   []engine.UnclaimedCodeSpec // of unclaimedFile
	prefs   *engine.PreferencesSpec    // of PreferencesFile
	subs    *substanceFile             // of a file of the substance catalog
	errs    []error
}

// bridgesFile is the one catalog file that declares no category but the
// bridges between categories.
const bridgesFile = "bridges.yaml"

// loadSpec also says whether every file was read and gave a category, so
// that compiling it is meaningful despite errors.
func loadSpec(fsys fs.FS, cache *decodeCache) (spec engine.Spec, errs []error, complete bool) {
	return loadSpecOf(fsys, cache, nil)
}

// loadSpecOf is loadSpec of the files keep admits (every file when keep
// is nil); the version is that of every file all the same.
func loadSpecOf(fsys fs.FS, cache *decodeCache, keep func(name string) bool) (spec engine.Spec, errs []error, complete bool) {
	files, errs := readSources(fsys)
	all := files
	if keep != nil {
		files = nil
		for _, f := range all {
			if keep(f.name) {
				files = append(files, f)
			}
		}
	}
	complete = len(errs) == 0
	var known map[string]decoded
	if cache != nil {
		cache.mu.Lock()
		defer cache.mu.Unlock()
		known = cache.files
	}
	// Files are independent: decode them in parallel, the largest first
	// so that no core is left with a large one at the end, and collect
	// them in order.
	results := make([]decoded, len(files))
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	order := make([]int, len(files))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(len(files[b].src), len(files[a].src)) })
	for _, i := range order {
		f := files[i]
		var sum [sha256.Size]byte // for the cache only
		if cache != nil {
			sum = sha256.Sum256(f.src)
		}
		if d, ok := known[f.name]; ok && d.sum == sum {
			results[i] = d
			continue
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			switch f.name {
			case bridgesFile:
				bs, ferrs := parseBridges(f.name, f.src)
				results[i] = decoded{sum: sum, bridges: bs, errs: ferrs}
				return
			case PreferencesFile:
				ps, ferrs := parsePreferences(f.name, f.src)
				results[i] = decoded{sum: sum, prefs: ps, errs: ferrs}
				return
			case hintsFile:
				hs, ferrs := parseHints(f.name, f.src)
				results[i] = decoded{sum: sum, hints: hs, errs: ferrs}
				return
			case unclaimedFile:
				us, ferrs := parseUnclaimed(f.name, f.src)
				results[i] = decoded{sum: sum, codes: us, errs: ferrs}
				return
			}
			if IsSubstanceFile(f.name) {
				sf, ferrs := parseSubstanceFile(f.name, f.src)
				results[i] = decoded{sum: sum, subs: sf, errs: ferrs}
				return
			}
			cs, ferrs := ParseFile(f.name, f.src)
			results[i] = decoded{sum: sum, cs: cs, errs: ferrs}
		}()
	}
	wg.Wait()
	if cache != nil {
		cache.files = make(map[string]decoded, len(files))
		for i, f := range files {
			cache.files[f.name] = results[i]
		}
	}
	if n := countFunc(results, func(r decoded) bool { return r.cs != nil }); n > 0 {
		spec.Categories = make([]engine.CategorySpec, 0, n)
	}
	for i, r := range results {
		errs = append(errs, r.errs...)
		switch files[i].name {
		case bridgesFile:
			spec.Bridges = r.bridges
			continue
		case PreferencesFile:
			spec.Preferences = r.prefs
			if r.prefs == nil {
				complete = false
			}
			continue
		case hintsFile:
			spec.Hints = r.hints
			continue
		case unclaimedFile:
			spec.UnclaimedCodes = r.codes
			continue
		}
		if IsSubstanceFile(files[i].name) {
			if sf := r.subs; sf != nil {
				spec.Elements = append(spec.Elements, sf.elements...)
				spec.Substances = append(spec.Substances, sf.substances...)
				spec.Conditions = append(spec.Conditions, sf.conditions...)
				spec.Measurands = append(spec.Measurands, sf.measurands...)
				if sf.gas != nil {
					spec.Gas = *sf.gas
				}
			} else {
				complete = false
			}
			continue
		}
		if r.cs != nil {
			spec.Categories = append(spec.Categories, *r.cs)
		} else {
			complete = false
		}
	}
	spec.Version = version(all)
	return spec, errs, complete
}

// countFunc is how many of s f holds for.
func countFunc[E any](s []E, f func(E) bool) int {
	n := 0
	for _, e := range s {
		if f(e) {
			n++
		}
	}
	return n
}

type source struct {
	name string
	src  []byte
}

// version is a hash of the file names and contents.
func version(files []source) string {
	h := sha256.New()
	for _, f := range files {
		fmt.Fprintf(h, "%s\x00%d\x00", f.name, len(f.src))
		h.Write(f.src)
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// yamlLine matches a YAML error that names its line; compiled on first
// use, as are the package's other patterns.
var yamlLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^yaml: line (\d+): (.*)$`) })

// yamlSyntax starts the message of a YAML syntax error.
const yamlSyntax = "YAML syntax: "

// ParseFile decodes one category file. name is used in error positions.
func ParseFile(name string, src []byte) (*engine.CategorySpec, []error) {
	d, top, errs := parseYAML(name, src)
	if top == nil {
		return nil, errs
	}
	defer d.done()
	cs := d.file_(top)
	return cs, d.errs
}

// parseYAML reads a file's YAML tree and returns its top node, or nil with
// the errors. It is the one reader of the gate fastYAML. The caller calls
// the decoder's done when it has decoded the tree, and keeps no node.
func parseYAML(name string, src []byte) (*decoder, *yaml.Node, []error) {
	if fastYAML {
		yp := yamlParsers.Get().(*yamlfast.Parser)
		if doc, ok := yp.Parse(src); ok {
			return &decoder{file: name, tree: yp}, doc.Content[0], nil
		}
		yp.Release()
		yamlParsers.Put(yp)
	}
	var root yaml.Node
	if err := yaml.Unmarshal(src, &root); err != nil {
		o := engine.Origin{File: name, Line: 1, Column: 1}
		msg := err.Error()
		if m := yamlLine().FindStringSubmatch(msg); m != nil {
			o.Line, _ = strconv.Atoi(m[1])
			msg = yamlSyntax + m[2]
			if line, col := syntaxLine(src, err.Error()); line >= o.Line {
				o.Line, o.Column = line, col
			}
		}
		return nil, nil, []error{&engine.SpecError{Origin: o, Message: msg}}
	}
	d := &decoder{file: name}
	if len(root.Content) == 0 {
		d.errorf(&root, "", "file is empty")
		return nil, nil, d.errs
	}
	return d, root.Content[0], nil
}

// syntaxLine returns the line of src where the YAML syntax error failure
// (yaml's message for the whole of src) appears, and the column of that
// line's first character, or 0, 0. yaml reports some
// errors at the start of the block the parser was in: a list item's key
// indented too little on line 25 is "line 9: did not find expected '-'
// indicator", line 9 being "units:". The first line whose addition makes
// the beginning of the file fail with that same error is where the mistake
// is. A binary search over the lines parses the file about log2(lines)
// times, and only when it has an error.
func syntaxLine(src []byte, failure string) (line, col int) {
	var ends []int // ends[i]: the offset just past line i+1
	for i, c := range src {
		if c == '\n' {
			ends = append(ends, i+1)
		}
	}
	if len(ends) == 0 || ends[len(ends)-1] != len(src) {
		ends = append(ends, len(src))
	}
	fails := func(lines int) bool {
		var n yaml.Node
		err := yaml.Unmarshal(src[:ends[lines-1]], &n)
		return err != nil && err.Error() == failure
	}
	lo, hi := 1, len(ends) // fails(hi) holds: it is the whole file
	if !fails(hi) {
		return 0, 0
	}
	for lo < hi {
		mid := lo + (hi-lo)/2
		if fails(mid) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	start := 0
	if lo > 1 {
		start = ends[lo-2]
	}
	text := src[start:ends[lo-1]]
	return lo, len(text) - len(bytes.TrimLeft(text, " \t")) + 1
}

// parseBridges decodes the bridges file: a list under "bridges" of
// {from, to, factor, exact, source[, note]}, where 1 from = factor to.
func parseBridges(name string, src []byte) ([]engine.BridgeSpec, []error) {
	d, top, errs := parseYAML(name, src)
	if top == nil {
		return nil, errs
	}
	defer d.done()
	var out []engine.BridgeSpec
	d.mapping(top, "", fields{
		"bridges": func(v *yaml.Node) {
			d.list(v, "", "bridges", func(item *yaml.Node) {
				bs := engine.BridgeSpec{Origin: d.origin(item)}
				const s = "bridge"
				d.mapping(item, s, fields{
					"from":   func(v *yaml.Node) { d.str(v, s, "from", &bs.From) },
					"to":     func(v *yaml.Node) { d.str(v, s, "to", &bs.To) },
					"factor": func(v *yaml.Node) { d.str(v, s, "factor", &bs.Factor) },
					"exact":  func(v *yaml.Node) { d.boolean(v, s, "exact", &bs.Exact) },
					"source": func(v *yaml.Node) { d.str(v, s, "source", &bs.Source) },
					"note":   func(v *yaml.Node) { d.str(v, s, "note", &bs.Note) },
				})
				out = append(out, bs)
			})
		},
	})
	return out, d.errs
}

// yamlParsers are the parsers of the fast path, whose memory one file's
// tree takes after another's: files are decoded on every core, and a
// catalog's trees together are many times the size of its files.
var yamlParsers = sync.Pool{New: func() any { return new(yamlfast.Parser) }}

// decoder walks a YAML tree, decoding known keys and reporting the rest.
type decoder struct {
	file    string
	errs    []error
	aliases int              // aliases followed so far, at most MaxAliases
	tree    *yamlfast.Parser // that holds the tree, for done; nil for yaml.v3's
}

// done gives the memory of the tree back once it is decoded: no node may
// be used after.
func (d *decoder) done() {
	if d.tree != nil {
		d.tree.Release()
		yamlParsers.Put(d.tree)
		d.tree = nil
	}
}

func (d *decoder) origin(n *yaml.Node) engine.Origin {
	return engine.Origin{File: d.file, Line: n.Line, Column: n.Column}
}

func (d *decoder) errorf(n *yaml.Node, subject, format string, args ...any) {
	d.errs = append(d.errs, &engine.SpecError{Origin: d.origin(n), Subject: subject, Message: fmt.Sprintf(format, args...)})
}

// fields maps a key to the function decoding its value.
type fields map[string]func(v *yaml.Node)

// mapping decodes a mapping node, key by key. Unknown and repeated keys
// are errors.
func (d *decoder) mapping(n *yaml.Node, subject string, fs fields) bool {
	return d.mappingBy(n, subject, func(key string, v *yaml.Node) bool {
		f, ok := fs[key]
		if ok {
			f(v)
		}
		return ok
	}, func() []string { return slices.Collect(maps.Keys(fs)) })
}

// mappingBy is mapping with the keys' decoding done by decode, which says
// whether it knows the key, and known, the keys it knows for messages.
// Neither is kept: a caller's closures stay on its stack.
func (d *decoder) mappingBy(n *yaml.Node, subject string, decode func(key string, v *yaml.Node) bool, known func() []string) bool {
	if n.Kind == yaml.AliasNode {
		// Each alias decodes its anchor again: bound the work, or a small
		// file could expand a million times.
		if d.aliases++; d.aliases > MaxAliases {
			if d.aliases == MaxAliases+1 {
				d.errorf(n, subject, "more than %d aliases in one file", MaxAliases)
			}
			return false
		}
		n = n.Alias
	}
	if n.Kind != yaml.MappingNode {
		d.errorf(n, subject, "expected a mapping, found %s", kindName(n))
		return false
	}
	var seen map[string]bool // for a long mapping; a short one is searched
	if len(n.Content) > 2*shortMapping {
		seen = make(map[string]bool, len(n.Content)/2)
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if repeated(n.Content[:i], k.Value, seen) {
			d.errorf(k, subject, "key %q repeated", k.Value)
			continue
		}
		if !decode(k.Value, v) {
			d.errorf(k, subject, "unknown key %q (known: %s)", k.Value, knownKeys(known()))
		}
	}
	return true
}

// shortMapping is the most keys a mapping has for its keys to be searched
// rather than kept in a map, as most of the catalog's mappings are.
const shortMapping = 24

// repeated reports whether key is one of the keys of before, the entries
// of a mapping before it, and notes it in seen when there is one.
func repeated(before []*yaml.Node, key string, seen map[string]bool) bool {
	if seen != nil {
		if seen[key] {
			return true
		}
		seen[key] = true
		return false
	}
	for i := 0; i < len(before); i += 2 {
		if before[i].Value == key {
			return true
		}
	}
	return false
}

func knownKeys(keys []string) string {
	sort.Strings(keys)
	return strings.Join(slices.Compact(keys), ", ")
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		return fmt.Sprintf("the value %q", n.Value)
	}
	return "nothing"
}

// str decodes a scalar's literal text: numbers keep their exact digits.
func (d *decoder) str(n *yaml.Node, subject, key string, dst *string) {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		d.errorf(n, subject, "%s: expected a single value, found %s", key, kindName(n))
		return
	}
	*dst = n.Value
}

func (d *decoder) boolean(n *yaml.Node, subject, key string, dst *bool) {
	if n.Kind != yaml.ScalarNode || n.Tag != "!!bool" {
		d.errorf(n, subject, "%s: expected true or false, found %s", key, kindName(n))
		return
	}
	*dst = n.Value == "true"
}

func (d *decoder) list(n *yaml.Node, subject, key string, each func(*yaml.Node)) {
	if n.Kind != yaml.SequenceNode {
		d.errorf(n, subject, "%s: expected a list, found %s", key, kindName(n))
		return
	}
	for _, item := range n.Content {
		each(item)
	}
}

// grow makes room in s for the items of n when it is a list, so that
// decoding them appends without copying.
func grow[S ~[]E, E any](s S, n *yaml.Node) S {
	if n.Kind == yaml.SequenceNode {
		return slices.Grow(s, len(n.Content))
	}
	return s
}

func (d *decoder) strs(n *yaml.Node, subject, key string, dst *[]string) {
	*dst = grow(*dst, n)
	d.list(n, subject, key, func(item *yaml.Node) {
		var s string
		d.str(item, subject, key, &s)
		if s != "" {
			*dst = append(*dst, s)
		}
	})
}

func (d *decoder) file_(n *yaml.Node) *engine.CategorySpec {
	cs := &engine.CategorySpec{Origin: d.origin(n)}
	var sawCategory bool
	d.mapping(n, "", fields{
		"category": func(v *yaml.Node) {
			sawCategory = true
			d.category(v, cs)
		},
		"units": func(v *yaml.Node) {
			cs.Units = grow(cs.Units, v)
			d.list(v, "", "units", func(item *yaml.Node) {
				us := d.unit(item)
				// "my:" names an account's own units, whatever the
				// catalog holds (engine.AccountPrefix).
				reserved := func(name string) {
					if len(name) >= len(engine.AccountPrefix) && strings.EqualFold(name[:len(engine.AccountPrefix)], engine.AccountPrefix) {
						d.errorf(item, fmt.Sprintf("unit %q", us.Symbol), "%q: names starting with %s are kept for the units of accounts", name, engine.AccountPrefix)
					}
				}
				reserved(us.Symbol)
				reserved(us.Name)
				reserved(us.Plural)
				for _, name := range us.Symbols {
					reserved(name)
				}
				for _, name := range us.Aliases {
					reserved(name)
				}
				cs.Units = append(cs.Units, us)
			})
		},
		"ambiguous": func(v *yaml.Node) {
			d.list(v, "", "ambiguous", func(item *yaml.Node) {
				cs.Ambiguous = append(cs.Ambiguous, d.ambiguous(item))
			})
		},
	})
	if !sawCategory {
		d.errorf(n, "", "missing key \"category\"")
		return nil
	}
	if base := strings.TrimSuffix(path.Base(d.file), ".yaml"); cs.ID != "" && base != cs.ID {
		d.errorf(n, fmt.Sprintf("category %q", cs.ID), "file name should be %s.yaml", cs.ID)
	}
	return cs
}

func (d *decoder) category(n *yaml.Node, cs *engine.CategorySpec) {
	cs.Origin = d.origin(n)
	const s = "category"
	d.mapping(n, s, fields{
		"id":          func(v *yaml.Node) { d.str(v, s, "id", &cs.ID) },
		"name":        func(v *yaml.Node) { d.str(v, s, "name", &cs.Name) },
		"description": func(v *yaml.Node) { d.str(v, s, "description", &cs.Description) },
		"base":        func(v *yaml.Node) { d.str(v, s, "base", &cs.Base) },
		"minimum":     func(v *yaml.Node) { d.str(v, s, "minimum", &cs.Minimum) },
		"preferred":   func(v *yaml.Node) { d.boolean(v, s, "preferred", &cs.Preferred) },
		"logarithmic": func(v *yaml.Node) { d.boolean(v, s, "logarithmic", &cs.Logarithmic) },
		"si_factor":   func(v *yaml.Node) { d.str(v, s, "si_factor", &cs.SIFactor) },
		"dimension": func(v *yaml.Node) {
			cs.Dimension = map[string]int{}
			if v.Kind == yaml.ScalarNode && v.Value == "1" {
				return // dimensionless
			}
			d.dimension(v, s, cs.Dimension)
		},
	})
}

// dimension decodes a category's dimension, a mapping of base dimension
// symbols to exponents, into dst.
func (d *decoder) dimension(n *yaml.Node, s string, dst map[string]int) {
	d.mappingBy(n, s, func(dim string, v *yaml.Node) bool {
		if !slices.Contains(dimensionSymbols, dim) {
			return false
		}
		e, err := strconv.Atoi(v.Value)
		if v.Kind != yaml.ScalarNode || err != nil || e == 0 {
			d.errorf(v, "category", "dimension %s: expected a non-zero whole exponent, found %s", dim, kindName(v))
			return true
		}
		dst[dim] = e
		return true
	}, func() []string { return dimension.Symbols() })
}

// dimensionSymbols are the symbols of the base dimensions.
var dimensionSymbols = dimension.Symbols()

func (d *decoder) unit(n *yaml.Node) engine.UnitSpec {
	return d.unitWith(n, nil)
}

// unitWith decodes a unit whose mapping may also hold the keys of extra
// (an account's unit names its category beside its own keys).
func (d *decoder) unitWith(n *yaml.Node, extra fields) engine.UnitSpec {
	us := engine.UnitSpec{Origin: d.origin(n)}
	// Name the unit in messages once its symbol is known.
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == "symbol" {
				us.Symbol = n.Content[i+1].Value
			}
		}
	}
	s := "unit " + strconv.Quote(us.Symbol) // fmt's %q, for every unit
	d.mappingBy(n, s, func(key string, v *yaml.Node) bool {
		if f, ok := extra[key]; ok {
			f(v)
			return true
		}
		f, ok := unitKeys[key]
		if ok {
			f(d, v, s, &us)
		}
		return ok
	}, func() []string { return slices.AppendSeq(slices.Collect(maps.Keys(unitKeys)), maps.Keys(extra)) })
	return us
}

// unitKeys decode the keys of a unit.
var unitKeys = map[string]func(d *decoder, v *yaml.Node, s string, us *engine.UnitSpec){
	"symbol":  func(d *decoder, v *yaml.Node, s string, us *engine.UnitSpec) { d.str(v, s, "symbol", &us.Symbol) },
	"name":    func(d *decoder, v *yaml.Node, s string, us *engine.UnitSpec) { d.str(v, s, "name", &us.Name) },
	"plural":  func(d *decoder, v *yaml.Node, s string, us *engine.UnitSpec) { d.str(v, s, "plural", &us.Plural) },
	"aliases": func(d *decoder, v *yaml.Node, s string, us *engine.UnitSpec) { d.strs(v, s, "aliases", &us.Aliases) },
	"symbols": func(d *decoder, v *yaml.Node, s string, us *engine.UnitSpec) { d.strs(v, s, "symbols", &us.Symbols) },
	"system":  func(d *decoder, v *yaml.Node, s string, us *engine.UnitSpec) { d.str(v, s, "system", &us.System) },
	"description": func(d *decoder, v *yaml.Node, s string, us *engine.UnitSpec) {
		d.str(v, s, "description", &us.Description)
	},
	"exact":      func(d *decoder, v *yaml.Node, s string, us *engine.UnitSpec) { d.boolean(v, s, "exact", &us.Exact) },
	"source":     func(d *decoder, v *yaml.Node, s string, us *engine.UnitSpec) { d.str(v, s, "source", &us.Source) },
	"definition": func(d *decoder, v *yaml.Node, s string, us *engine.UnitSpec) { us.Definition = d.definition(v, s) },
	"prefixes":   func(d *decoder, v *yaml.Node, s string, us *engine.UnitSpec) { us.Prefixes = d.prefixes(v, s) },
	"codes":      func(d *decoder, v *yaml.Node, s string, us *engine.UnitSpec) { us.Codes = d.codes(v, s) },
	"examples": func(d *decoder, v *yaml.Node, s string, us *engine.UnitSpec) {
		us.Examples = grow(us.Examples, v)
		d.list(v, s, "examples", func(item *yaml.Node) {
			if ex, ok := d.example(item, s); ok {
				us.Examples = append(us.Examples, ex)
			}
		})
	},
}

func (d *decoder) definition(n *yaml.Node, s string) engine.DefinitionSpec {
	def := engine.DefinitionSpec{Origin: d.origin(n)}
	d.mappingBy(n, s, func(key string, v *yaml.Node) bool {
		var dst *string
		var label string
		switch key {
		case "unit":
			dst, label = &def.Unit, "definition unit"
		case "factor":
			dst, label = &def.Factor, "definition factor"
		case "offset":
			dst, label = &def.Offset, "definition offset"
		case "to":
			dst, label = &def.To, "definition to"
		case "from":
			dst, label = &def.From, "definition from"
		default:
			return false
		}
		d.str(v, s, label, dst)
		return true
	}, func() []string { return []string{"unit", "factor", "offset", "to", "from"} })
	return def
}

func (d *decoder) prefixes(n *yaml.Node, s string) *engine.PrefixSpec {
	ps := &engine.PrefixSpec{Origin: d.origin(n)}
	if n.Kind == yaml.ScalarNode {
		ps.Set = n.Value
		return ps
	}
	d.mapping(n, s, fields{
		"set":    func(v *yaml.Node) { d.str(v, s, "prefixes set", &ps.Set) },
		"only":   func(v *yaml.Node) { d.strs(v, s, "prefixes only", &ps.Only) },
		"except": func(v *yaml.Node) { d.strs(v, s, "prefixes except", &ps.Except) },
		"codes": func(v *yaml.Node) {
			ps.Codes = map[string]map[string]string{}
			fs := fields{}
			for _, system := range engine.CodeSystems {
				fs[system] = func(v *yaml.Node) {
					m := map[string]string{}
					pfs := fields{}
					if v.Kind == yaml.MappingNode {
						for i := 0; i+1 < len(v.Content); i += 2 {
							p := v.Content[i].Value
							pfs[p] = func(v *yaml.Node) {
								var code string
								d.str(v, s, "prefixes codes "+system+" "+p, &code)
								m[p] = code
							}
						}
					}
					d.mapping(v, s, pfs)
					ps.Codes[system] = m
				}
			}
			d.mapping(v, s, fs)
		},
	})
	return ps
}

// example reads "VALUE [FROM] = RESULT TO" (exact) or with ≈ or ~ (rounded).
func (d *decoder) example(n *yaml.Node, s string) (engine.ExampleSpec, bool) {
	ex := engine.ExampleSpec{Origin: d.origin(n)}
	var text string
	d.str(n, s, "example", &text)
	if text == "" {
		return ex, false
	}
	var left, right string
	for _, sep := range []string{" = ", " ≈ ", " ~ "} {
		if l, r, ok := strings.Cut(text, sep); ok {
			left, right, ex.Approx = l, r, sep != " = "
			break
		}
	}
	var lf, rf [3]string // strings.Fields, up to three words
	ln, rn := fieldsUpTo(left, lf[:]), fieldsUpTo(right, rf[:])
	if ln < 1 || ln > 2 || rn != 2 {
		d.errorf(n, s, "example %q: expected \"VALUE [UNIT] = RESULT UNIT\" (or ≈ for a rounded result)", text)
		return ex, false
	}
	ex.Value = lf[0]
	if ln == 2 {
		ex.From = lf[1]
	}
	ex.Result, ex.To = rf[0], rf[1]
	return ex, true
}

// fieldsUpTo puts the first len(dst) words of s, as strings.Fields splits
// it, in dst, and returns how many it put.
func fieldsUpTo(s string, dst []string) int {
	n := 0
	for n < len(dst) {
		s = strings.TrimLeftFunc(s, unicode.IsSpace)
		if s == "" {
			break
		}
		end := strings.IndexFunc(s, unicode.IsSpace)
		if end < 0 {
			end = len(s)
		}
		dst[n], s = s[:end], s[end:]
		n++
	}
	return n
}

func (d *decoder) ambiguous(n *yaml.Node) engine.AmbiguousSpec {
	as := engine.AmbiguousSpec{Origin: d.origin(n)}
	const s = "ambiguous"
	d.mapping(n, s, fields{
		"name":       func(v *yaml.Node) { d.str(v, s, "name", &as.Name) },
		"candidates": func(v *yaml.Node) { d.strs(v, s, "candidates", &as.Candidates) },
		"note":       func(v *yaml.Node) { d.str(v, s, "note", &as.Note) },
	})
	return as
}
