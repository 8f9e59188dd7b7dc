// Package codes reads the standard unit code systems — UCUM, CLDR unit
// identifiers, QUDT and UN/ECE Recommendation 20 — with their owners'
// tables and grammars, and says what a code means in unitd's dimension
// model: an exact factor onto the coherent SI unit of a dimension, or a
// special unit's function, or an arbitrary unit.
//
// Each system counts some things otherwise than unitd does, and this
// package is where those conventions are made explicit, each with its
// reason: UCUM's mole, bit and equivalent and its inverse units (ucum.go);
// CLDR's revolution, its hertz and its steradian-free lumen and lux, and
// its calendar year (cldr.go); QUDT's dimensionless radian, steradian and
// bit (qudt.go). A code that a catalog unit claims is that unit: the
// engine asks this package only about codes no unit claims, and to check
// each claim against the owner's table (Set.Table).
//
// A Set is compiled once from the tables (Compile) and is read-only
// afterwards: graphs built from the same tables share it.
package codes

import (
	"math/big"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/unitd/unitd/engine/dimension"
	"github.com/unitd/unitd/engine/fault"
	"github.com/unitd/unitd/engine/internal/exact"
)

// The code systems, as written before the colon.
const (
	SystemUCUM  = "ucum"
	SystemCLDR  = "cldr"
	SystemUNECE = "unece"
	SystemQUDT  = "qudt"
)

// Systems lists the code systems in the order unit records print them.
var Systems = []string{SystemUCUM, SystemCLDR, SystemUNECE, SystemQUDT}

// QUDTNamespace is the IRI prefix of QUDT units.
const QUDTNamespace = "http://qudt.org/vocab/unit/"

// Tables are the code systems' own tables, as the catalog loader reads
// them.
type Tables struct {
	UCUM []UCUMEntry
	CLDR []CLDREntry
	QUDT []QUDTEntry
	// UNECE lists the UN/ECE Recommendation 20 (and 21) common codes that
	// exist; what one means is the claim of the catalog unit that has it.
	UNECE []string
	// Sources says where each system's table comes from (upstream package
	// and version), by system.
	Sources map[string]string
}

// Meaning is what a code means.
type Meaning struct {
	// Factor maps a value of the code onto the coherent SI unit of Dim:
	// x code = x·Factor (+ Offset).
	Factor exact.Factor
	Dim    dimension.Vector
	// Offset is added after Factor, in coherent SI units (a scale such
	// as CLDR's fahrenheit), or nil.
	Offset *big.Rat
	// Exact is false when the factor comes from a table that rounds it
	// (a QUDT multiplier that no exact definition replaces).
	Exact bool
	// Digits is how many significant digits of the owner's table the
	// factor is good to, when the table rounds it; 0 when it is exact.
	Digits int
	// Arbitrary names the arbitrary units of the code (UCUM's [IU]),
	// which convert only among themselves; "" for any other.
	Arbitrary string
	// Reciprocal marks a lone UCUM unit defined as an inverse ([diop]):
	// it converts also to the reciprocal of its dimension, by inversion.
	Reciprocal bool
	// Special is set for a UCUM special unit: it converts through its
	// function onto Factor·Dim.
	Special *Special
	// ScaleOf is set for a scale with an offset that is another code's
	// scale under a prefix (QUDT's MilliDEG_C is DEG_C in thousandths):
	// the code of that scale, which a catalog unit claims, read under
	// the prefix Scale. Factor and Offset still say what the owner's table
	// gives, for the engine to check the reading against.
	ScaleOf string
	Scale   *big.Rat
	// Symbol is the code written with the symbols of the catalog units
	// that claim its atoms (ucum:kg.m/s2 is "kg*m/s2"), or "".
	Symbol string
	// Note states the convention the code was read by, when one applied
	// ("QUDT counts the radian as 1: …"), for explanations.
	Note string
}

// Special is a UCUM special unit: a function from the unit's values
// (times Scale, its prefix) onto its reference, Ref in coherent SI units
// of RefDim.
type Special struct {
	Atom, Name, Function string
	Scale                *big.Rat
	Ref                  exact.Factor
	RefDim               dimension.Vector
	// To and From are the function and its inverse as unitd formulas in
	// x, or "" when unitd does not implement the function.
	To, From string
}

// Claim is what the catalog says of a code one of its units claims.
type Claim struct {
	// Symbol is the claiming unit's symbol.
	Symbol string
	// Factor maps the unit onto the coherent SI unit of Dim; Exact says
	// whether its definition is exact.
	Factor exact.Factor
	Dim    dimension.Vector
	Exact  bool
	// Offset is set for a unit with an offset (a scale).
	Offset bool
}

// Claims finds the catalog unit claiming a code.
type Claims interface {
	Claim(system, code string) (Claim, bool)
}

// Split splits a namespaced unit name into its system (in lower case) and
// code: "UCUM:mg/dL" is ("ucum", "mg/dL"), a QUDT IRI is ("qudt", its
// local name). ok is false for a name that names no system; a name with an
// unknown system ("foo:bar") gives that system in lower case.
func Split(name string) (system, code string, ok bool) {
	for _, iri := range [...]string{QUDTNamespace, "https://qudt.org/vocab/unit/"} {
		if len(name) > len(iri) && strings.EqualFold(name[:len(iri)], iri) {
			return SystemQUDT, name[len(iri):], true
		}
	}
	i := strings.IndexByte(name, ':')
	if i <= 0 || i > 16 {
		return "", "", false
	}
	for j := 0; j < i; j++ {
		c := name[j]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			return "", "", false
		}
	}
	if strings.HasPrefix(name[i:], "://") {
		return strings.ToLower(name[:i]), name, true // an IRI of no known system
	}
	return strings.ToLower(name[:i]), name[i+1:], true
}

// Set is the compiled tables of the code systems.
type Set struct {
	ucum    *ucumTable
	cldr    *cldrTable
	qudt    *qudtTable
	unece   map[string]bool
	sources map[string]string
	// meanings remembers Table's answers (tableKey → tableAnswer): the
	// tables never change, and every build of a catalog checks the same
	// few hundred claims against them. It holds about maxMeanings
	// answers at most (nMeanings counts them; goroutines storing at once
	// may pass it by one each); past that, Table reads again.
	meanings  sync.Map
	nMeanings atomic.Int64
}

// maxMeanings bounds the answers a Set remembers: several times the
// claims and unclaimed codes of the shipped catalog and every code of the
// tables, so that a catalog reloaded with ever new codes cannot grow it.
const maxMeanings = 1 << 15

type tableKey struct{ system, code string }

type tableAnswer struct {
	m   Meaning
	err error
}

// Compile compiles the tables, reporting the rows it cannot read. The Set
// is usable even then: those rows stay unread.
func Compile(t *Tables) (*Set, []error) {
	s := &Set{sources: t.Sources}
	var errs, e []error
	s.ucum, errs = compileUCUM(t.UCUM)
	s.cldr, e = compileCLDR(t.CLDR)
	errs = append(errs, e...)
	s.qudt = compileQUDT(t.QUDT)
	if len(t.UNECE) > 0 {
		s.unece = make(map[string]bool, len(t.UNECE))
		for _, c := range t.UNECE {
			s.unece[c] = true
		}
	}
	return s, errs
}

// Source says where the table of a system comes from, or "".
func (s *Set) Source(system string) string { return s.sources[system] }

// Exists reports whether a UN/ECE code is in the Recommendation's list.
// ok is false when the Set has no list.
func (s *Set) Exists(code string) (exists, ok bool) {
	if s.unece == nil {
		return false, false
	}
	return s.unece[code], true
}

// SameUnit returns the code under which a catalog unit claims the unit a
// code names when the code is another name of it: the replacement of a
// deprecated code (CLDR's liter-per-100kilometers is
// liter-per-100-kilometer), the plain unit of a CLDR person unit
// (year-person is year). ok is false for any other code.
func (s *Set) SameUnit(system, code string) (string, bool) {
	if system != SystemCLDR || s.cldr == nil {
		return "", false
	}
	if r, ok := s.cldr.aliases[code]; ok {
		return r, true
	}
	r, ok := s.cldr.persons[code]
	return r, ok
}

// Codes lists a system's codes, sorted: UCUM's atoms, CLDR's simple units,
// QUDT's units that are not deprecated, Rec 20's codes.
func (s *Set) Codes(system string) []string {
	switch system {
	case SystemUCUM:
		return s.ucum.codes
	case SystemCLDR:
		return s.cldr.ids
	case SystemQUDT:
		return s.qudt.current
	case SystemUNECE:
		out := make([]string, 0, len(s.unece))
		for c := range s.unece {
			out = append(out, c)
		}
		sortStrings(out)
		return out
	}
	return nil
}

// Read says what a code that no catalog unit claims means, with claims
// naming the catalog units that claim the codes it is made of: their
// symbols write the code's canonical form, and their exact definitions
// replace a table's rounded factors. Errors are *fault.Error:
// INVALID_UNIT_EXPRESSION for a malformed code, UNKNOWN_UNIT for an
// unknown one (with suggestions from its system), INCOMPATIBLE_UNITS for
// one that has no conversion unitd can use.
func (s *Set) Read(system, code string, claims Claims) (Meaning, error) {
	if len(code) > maxCodeLength {
		return Meaning{}, fault.Errorf(fault.InvalidUnitExpression, "%s code is longer than %d bytes", system, maxCodeLength)
	}
	switch system {
	case SystemUCUM:
		p := &ucumParser{t: s.ucum, src: code, claims: claims}
		return p.read()
	case SystemCLDR:
		return s.cldr.read(code, claims)
	case SystemQUDT:
		return s.qudt.read(code, claims)
	}
	return Meaning{}, fault.Errorf(fault.UnknownUnit, "unknown %s code %q", system, fault.Truncate(code, 64))
}

// Table says what the owner's table makes of a code, without the
// catalog's definitions, as a catalog claim is checked against it:
// Meaning.Digits says to how many digits the table states the factor.
// The Meaning is shared by every caller asking of the same code, like
// the tables themselves: its numbers must not be modified.
func (s *Set) Table(system, code string) (Meaning, error) {
	k := tableKey{system, code}
	if a, ok := s.meanings.Load(k); ok {
		a := a.(*tableAnswer)
		return a.m, a.err
	}
	m, err := s.table(system, code)
	if s.nMeanings.Load() < maxMeanings {
		// The key is cloned: a code is often a slice of a catalog file.
		k = tableKey{system, strings.Clone(code)}
		if _, loaded := s.meanings.LoadOrStore(k, &tableAnswer{m, err}); !loaded {
			s.nMeanings.Add(1)
		}
	}
	return m, err
}

// table is Table, read from the tables.
func (s *Set) table(system, code string) (Meaning, error) {
	switch system {
	case SystemCLDR:
		return s.cldr.table(code)
	case SystemQUDT:
		return s.qudt.table(code)
	}
	return s.Read(system, code, nil)
}

// Suggest lists up to five codes of a system close to code.
func (s *Set) Suggest(system, code string) []string {
	switch system {
	case SystemUCUM:
		return s.ucum.suggest.Suggest(code, 5)
	case SystemCLDR:
		return s.cldr.suggest.Suggest(code, 5)
	case SystemQUDT:
		return s.qudt.suggest.Suggest(code, 5)
	}
	return nil
}

// Functions are the UCUM functions unitd implements, by name, as formulas
// in x: to (onto the reference) and from.
func Function(name string) (to, from string, ok bool) {
	f, ok := ucumFunctions[name]
	return f.to, f.from, ok
}
