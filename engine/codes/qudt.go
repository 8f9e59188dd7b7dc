package codes

import (
	"math/big"
	"sort"
	"strconv"
	"strings"

	"github.com/unitd/unitd/engine/dimension"
	"github.com/unitd/unitd/engine/fault"
	"github.com/unitd/unitd/engine/internal/exact"
	"github.com/unitd/unitd/engine/internal/suggest"
)

// QUDT units
//
// A qudt: code is a QUDT unit's local name (or its IRI). QUDT gives each
// unit a dimension vector and a multiplier (and offset) onto the coherent
// SI unit of that vector, and says what the unit is made of: its factor
// units with their exponents (REV-PER-MIN is REV·MIN⁻¹), and, for a
// prefixed unit, the unit it scales.
//
// QUDT's conventions, made explicit:
//   - QUDT counts the radian and the steradian as 1: its vector of an
//     angular velocity is that of a frequency, and its multipliers are in
//     radians. unitd finds the radians in what a unit is made of (RAD,
//     and every unit made of it, such as DEG and REV; SR as a square
//     radian) and reads the unit as an angle, angular velocity, solid
//     angle, … of its own: qudt:REV-PER-MIN is an angular velocity, which
//     meets the catalog's rpm through the catalog's bridge of cycles and
//     radians, never as a frequency of 2π/60 Hz;
//   - QUDT counts information in nats (its BIT is ln 2): unitd reads the
//     bit, and the units made of it, as its own unit of information, and
//     refuses an information unit it can only read through its multiplier
//     in nats;
//   - a multiplier that QUDT rounds (its REV is 6.28318531 rad, its
//     REV-PER-MIN 0.10471975516667) is replaced by the exact product of
//     the unit's parts where every part has an exact definition — a
//     catalog unit that claims it, an SI base unit, a prefix — and that
//     product agrees with the multiplier to its digits; otherwise the
//     multiplier is used as written and the answer is not exact.

// QUDTEntry is one QUDT unit: its local name, dimension vector
// (A0E0L1I0M0H0T0D0), multiplier and offset onto the coherent SI unit of
// that vector, and what it is made of.
type QUDTEntry struct {
	Name       string
	Dimension  string
	Multiplier string
	Offset     string
	Symbol     string
	Label      string
	Deprecated bool
	Generated  bool
	// Factors are the units it is made of with their exponents
	// ("REV^1 MIN^-1"); Scales is the unit it scales by a prefix whose
	// multiplier is Prefix.
	Factors, Scales, Prefix string
}

type qudtTable struct {
	units   map[string]*qudtUnit
	current []string // the names of units that are not deprecated, sorted
	suggest suggest.Index
}

type qudtUnit struct {
	entry   QUDTEntry
	vector  dimension.Vector // QUDT's vector, without angle or information
	vecOK   bool
	mult    *big.Rat // nil when unreadable
	offset  *big.Rat // in coherent SI units, nil for none
	digits  int      // significant digits of the multiplier as written
	factors []qudtFactor
	prefix  *big.Rat // of a unit that scales another
}

type qudtFactor struct {
	name string
	exp  int
}

// qudtTerminals are the units in which QUDT counts what it treats as
// numbers, and what unitd reads them as.
var qudtTerminals = map[string]struct{ dim, why string }{
	"RAD": {"A", "QUDT counts the radian as 1: unitd reads the units made of radians as angles"},
	"SR":  {"A A", "QUDT counts the steradian as 1: unitd reads the units made of steradians as solid angles, square radians"},
	"BIT": {"D", "QUDT counts information in nats: unitd reads the units made of bits in bits"},
}

// qudtDimensions maps the letters of a QUDT dimension vector to unitd's
// base dimensions; D (dimensionless) carries none.
var qudtDimensions = map[byte]string{'A': "N", 'E': "I", 'L': "L", 'I': "J", 'M': "M", 'H': "Θ", 'T': "T"}

func compileQUDT(entries []QUDTEntry) *qudtTable {
	t := &qudtTable{units: make(map[string]*qudtUnit, len(entries))}
	for _, e := range entries {
		u := &qudtUnit{entry: e, digits: leastDigits(e.Multiplier)}
		t.units[e.Name] = u
		if !e.Deprecated {
			t.current = append(t.current, e.Name)
			t.suggest.Add(e.Name, SystemQUDT+":"+e.Name)
		}
		u.vector, u.vecOK = qudtDimension(e.Dimension)
		for _, f := range strings.Fields(e.Factors) {
			name, exp, ok := strings.Cut(f, "^")
			n, err := strconv.Atoi(exp)
			if !ok || err != nil || n == 0 {
				u.factors = nil
				break
			}
			u.factors = append(u.factors, qudtFactor{name, n})
		}
		if e.Scales != "" {
			if p, ok := new(big.Rat).SetString(e.Prefix); ok && p.Sign() > 0 {
				u.prefix = p
			}
		}
		m, ok := new(big.Rat).SetString(e.Multiplier)
		if !ok || m.Sign() <= 0 {
			continue
		}
		u.mult = m
		if e.Offset != "" {
			o, ok := new(big.Rat).SetString(e.Offset)
			if !ok {
				u.mult = nil
				continue
			}
			if o.Sign() != 0 {
				// QUDT adds the offset before it multiplies.
				u.offset = o.Mul(o, m)
			}
		}
	}
	sort.Strings(t.current)
	return t
}

// qudtDimension reads "A0E0L1I0M0H0T-1D0"; fractional exponents have no
// unitd dimension.
func qudtDimension(s string) (dimension.Vector, bool) {
	var d dimension.Vector
	if s == "" {
		return d, false
	}
	for i := 0; i < len(s); {
		c := s[i]
		j := i + 1
		for j < len(s) && (s[j] == '-' || s[j] >= '0' && s[j] <= '9') {
			j++
		}
		n, err := strconv.Atoi(s[i+1 : j])
		if err != nil || j < len(s) && s[j] == '.' {
			return d, false
		}
		if name, ok := qudtDimensions[c]; ok {
			d[dimension.Index(name)] = n
		} else if c != 'D' {
			return d, false
		}
		i = j
	}
	return d, true
}

// maxQUDTDepth bounds the nesting of units made of units.
const maxQUDTDepth = 12

// dim is the unit's dimension in unitd's model: QUDT's vector, with the
// angles and information found in what the unit is made of.
func (t *qudtTable) dim(u *qudtUnit, depth int) (dimension.Vector, bool) {
	if term, ok := qudtTerminals[u.entry.Name]; ok {
		return dimension.Product(term.dim), true
	}
	if depth > maxQUDTDepth {
		return dimension.Vector{}, false
	}
	var d dimension.Vector
	made := false
	for _, f := range u.factors {
		if f.name == u.entry.Name {
			continue // a base unit made of itself
		}
		fu := t.units[f.name]
		if fu == nil {
			return u.vector, u.vecOK
		}
		fd, ok := t.dim(fu, depth+1)
		if !ok {
			return u.vector, u.vecOK // a part without a dimension (BEAT)
		}
		d, made = d.Add(fd, f.exp), true
	}
	if !made {
		return u.vector, u.vecOK
	}
	// The parts must say what QUDT's vector says, but for the angles and
	// information QUDT counts as numbers.
	check := d
	check[dimension.Angle], check[dimension.Information] = 0, 0
	if !u.vecOK || check != u.vector {
		return u.vector, u.vecOK
	}
	return d, true
}

// notes says which of QUDT's conventions apply to a unit of dimension d.
func qudtNote(d dimension.Vector) string {
	var notes []string
	if d[dimension.Angle] != 0 {
		notes = append(notes, qudtTerminals["RAD"].why)
	}
	if d[dimension.Information] != 0 {
		notes = append(notes, qudtTerminals["BIT"].why)
	}
	return strings.Join(notes, "; ")
}

// factor is the unit's factor onto the coherent SI unit of its dimension:
// exact from its parts where it can be, else its multiplier as written.
func (t *qudtTable) factor(u *qudtUnit, claims Claims, depth int) (f exact.Factor, isExact, ok bool) {
	if claims != nil {
		// A scale with an offset (DEG_F) counts in a compound unit
		// (YD-PER-DEG_F) as the interval of its size: its factor.
		if c, ok := claims.Claim(SystemQUDT, u.entry.Name); ok {
			return c.Factor, c.Exact, true
		}
	}
	if _, ok := qudtTerminals[u.entry.Name]; ok {
		return exact.One(), true, true
	}
	if depth > maxQUDTDepth {
		return exact.Factor{}, false, false
	}
	if u.prefix != nil {
		if s := t.units[u.entry.Scales]; s != nil && s != u {
			if sf, sx, ok := t.factor(s, claims, depth+1); ok {
				f := sf.Mul(exact.Factor{R: u.prefix})
				if t.agrees(u, f) {
					return f, sx, true
				}
			}
		}
	}
	if len(u.factors) > 1 || len(u.factors) == 1 && u.factors[0].exp != 1 {
		f, isExact := exact.One(), true
		for _, part := range u.factors {
			pu := t.units[part.name]
			if pu == nil || pu == u {
				return t.written(u)
			}
			pf, px, ok := t.factor(pu, claims, depth+1)
			if !ok {
				return t.written(u)
			}
			f, isExact = f.Mul(pf.Pow(part.exp)), isExact && px
		}
		if t.agrees(u, f) {
			return f, isExact, true
		}
	}
	return t.written(u)
}

// written is the unit's multiplier as QUDT writes it: exact only when it
// is a whole number or a power of ten, for QUDT rounds the others as it
// pleases (its DEG is 0.0174532925 rad).
func (t *qudtTable) written(u *qudtUnit) (exact.Factor, bool, bool) {
	if u.mult == nil {
		return exact.Factor{}, false, false
	}
	d, _ := t.dim(u, 0)
	if d[dimension.Information] != 0 {
		return exact.Factor{}, false, false // a multiplier in nats
	}
	return exact.Factor{R: u.mult}, u.mult.IsInt() || isPowerOfTen(u.mult), true
}

func isPowerOfTen(r *big.Rat) bool {
	n, d := r.Num(), r.Denom()
	if n.IsInt64() && n.Int64() == 1 {
		n = d
	} else if !d.IsInt64() || d.Int64() != 1 {
		return false
	}
	s := n.String()
	return s[0] == '1' && strings.Trim(s[1:], "0") == ""
}

// agrees reports whether f, computed from the unit's parts, is its
// multiplier to the multiplier's digits (for units of information,
// whose multipliers are in nats, there is nothing to compare with).
func (t *qudtTable) agrees(u *qudtUnit, f exact.Factor) bool {
	if u.mult == nil {
		return false
	}
	if d, _ := t.dim(u, 0); d[dimension.Information] != 0 {
		return true
	}
	digits := u.digits
	if digits == 0 || digits > 30 {
		digits = 30
	}
	// QUDT computes the multipliers of compound units from rounded ones:
	// the product is checked to the precision of the least precise
	// multiplier of the parts too.
	digits = min(digits, t.partDigits(u, 0))
	return exact.Agree(f, exact.Factor{R: u.mult}, digits)
}

// partDigits is the least precision of the multipliers of what u is
// made of, or a large number when they are all exact as written.
func (t *qudtTable) partDigits(u *qudtUnit, depth int) int {
	least := 30
	if depth > maxQUDTDepth {
		return least
	}
	if u.mult != nil && !u.mult.IsInt() && !isPowerOfTen(u.mult) && u.digits > 0 {
		least = u.digits
	}
	for _, f := range u.factors {
		if pu := t.units[f.name]; pu != nil && pu != u {
			least = min(least, t.partDigits(pu, depth+1))
		}
	}
	if s := t.units[u.entry.Scales]; s != nil && s != u {
		least = min(least, t.partDigits(s, depth+1))
	}
	return max(least, 6)
}

// read reads a QUDT unit that no catalog unit claims.
func (t *qudtTable) read(name string, claims Claims) (Meaning, error) {
	u := t.units[name]
	if u == nil {
		e := fault.Errorf(fault.UnknownUnit, "unknown qudt code %q", fault.Truncate(name, 64))
		e.Suggestions = t.suggest.Suggest(name, 5)
		return Meaning{}, e
	}
	if u.offset != nil {
		return t.prefixedScale(u, claims)
	}
	d, ok := t.dim(u, 0)
	if !ok {
		return Meaning{}, fault.Errorf(fault.Incompatible, "QUDT unit %s has no conversion unitd can use (dimension vector %q)", name, u.entry.Dimension)
	}
	f, isExact, ok := t.factor(u, claims, 0)
	if !ok {
		if d[dimension.Information] != 0 {
			return Meaning{}, fault.Errorf(fault.Incompatible, "QUDT unit %s measures information by a multiplier in nats, which unitd does not read; a unit of the catalog that claims it, or its parts, would define it", name)
		}
		return Meaning{}, fault.Errorf(fault.Incompatible, "QUDT unit %s has no conversion unitd can use (dimension vector %q)", name, u.entry.Dimension)
	}
	m := Meaning{Factor: f, Dim: d, Exact: isExact, Note: qudtNote(d)}
	if !isExact {
		m.Digits = u.digits
	}
	return m, nil
}

// prefixedScale reads a scale with an offset that no catalog unit
// claims: a prefix on a scale a catalog unit claims (MilliDEG_C, DEG_C
// under milli, whose offset QUDT states exactly: (x + 273150)·0.001 K)
// is that unit under the prefix, as UCUM's mCel is; any other is refused.
func (t *qudtTable) prefixedScale(u *qudtUnit, claims Claims) (Meaning, error) {
	name := u.entry.Name
	base := t.units[u.entry.Scales]
	if u.prefix == nil || base == nil || base.offset == nil || claims == nil {
		return Meaning{}, fault.Errorf(fault.UnknownUnit, "QUDT unit %s is a scale with an offset that no catalog unit claims", name)
	}
	if _, ok := claims.Claim(SystemQUDT, base.entry.Name); !ok {
		return Meaning{}, fault.Errorf(fault.UnknownUnit, "QUDT unit %s is the scale %s under a prefix, which no catalog unit claims", name, base.entry.Name)
	}
	d, ok := t.dim(u, 0)
	if !ok || u.mult == nil {
		return Meaning{}, fault.Errorf(fault.Incompatible, "QUDT unit %s has no conversion unitd can use (dimension vector %q)", name, u.entry.Dimension)
	}
	return Meaning{Factor: exact.Factor{R: u.mult}, Dim: d, Offset: u.offset, Exact: true,
		ScaleOf: base.entry.Name, Scale: u.prefix,
		Note: "QUDT's " + name + " is its " + base.entry.Name + " under the prefix " + u.prefix.RatString()}, nil
}

// table is the unit as QUDT's table gives it, for checking a claim: its
// multiplier as written (and offset), with the angles and information of
// its parts.
func (t *qudtTable) table(name string) (Meaning, error) {
	u := t.units[name]
	if u == nil {
		return Meaning{}, fault.Errorf(fault.UnknownUnit, "code qudt:%s is not in the QUDT table", name)
	}
	d, ok := t.dim(u, 0)
	if !ok || u.mult == nil {
		return Meaning{}, fault.Errorf(fault.Incompatible, "code qudt:%s has no conversion unitd can read (dimension vector %q)", name, u.entry.Dimension)
	}
	f, isExact, ok := t.factor(u, nil, 0)
	if !ok {
		if d[dimension.Information] == 0 {
			return Meaning{}, fault.Errorf(fault.Incompatible, "code qudt:%s has no conversion unitd can read", name)
		}
		// A unit of information read through its multiplier in nats: the
		// claim is checked against it in bits.
		f, isExact = exact.Factor{R: new(big.Rat).Quo(u.mult, ln2)}, false
	}
	m := Meaning{Factor: f, Dim: d, Offset: u.offset, Exact: isExact, Digits: min(u.digits, 15), Note: qudtNote(d)}
	if isExact && u.digits == 0 {
		m.Digits = 0
	}
	return m, nil
}

// ln2 is ln 2 to 40 digits, for reading QUDT's multipliers of information
// (in nats) when a claim is checked; nothing converts through it.
var ln2, _ = new(big.Rat).SetString("0.6931471805599453094172321214581765680755")
