// Package codeunit makes what a code of a standard system means where no
// catalog unit claims it: an expression of the factor and dimension its
// owner's table gives, a UCUM special unit over its function (Cel, [pH],
// B[W]), or a catalog unit under a prefix the code names (UCUM's mCel,
// QUDT's MilliDEG_C), each checked against the table. Read picks which
// one a code is.
package codeunit

import (
	"context"
	"fmt"
	"math/big"
	"strings"
	"sync"

	"github.com/unitd/unitd/engine/codes"
	"github.com/unitd/unitd/engine/dimension"
	"github.com/unitd/unitd/engine/fault"
	"github.com/unitd/unitd/engine/formula"
	"github.com/unitd/unitd/engine/internal/exact"
	"github.com/unitd/unitd/engine/internal/graph"
	"github.com/unitd/unitd/engine/unitexpr"
)

// Catalog is what the units of codes are made of: the catalog's
// categories and the units that claim codes.
type Catalog interface {
	// Claimant is the catalog unit claiming a code of a system, or nil.
	Claimant(system, code string) *graph.Unit
	// CategoryOf is the category of a dimension, or nil.
	CategoryOf(d dimension.Vector) *graph.Category
	// Source says where the table of a system comes from.
	Source(system string) string
}

// expression makes a unit expression of what a code means.
func expression(c Catalog, symbol, code string, m codes.Meaning) (*unitexpr.Expression, error) {
	if m.Factor.R == nil || m.Factor.R.Sign() <= 0 {
		return nil, fault.Errorf(fault.InvalidUnitExpression, "%s is not a unit: its factor is not positive", fault.Truncate(code, 64))
	}
	lin, err := exact.Linear(m.Factor.R, m.Factor.K)
	if err != nil {
		return nil, fault.Errorf(fault.InvalidUnitExpression, "%s is not a unit unitd can convert: its factor is %v", fault.Truncate(code, 64), err)
	}
	e := &unitexpr.Expression{Symbol: symbol, Dim: m.Dim, Coherent: m.Factor, Arbitrary: m.Arbitrary, Code: code, Note: m.Note, Reciprocal: m.Reciprocal}
	if cat := c.CategoryOf(e.Dim); cat != nil && e.Arbitrary == "" {
		e.Category = cat
	}
	e.Conv = graph.Conversion{Map: lin, Exact: m.Exact}
	return e, nil
}

// special is the unit of a lone UCUM special unit: the catalog unit
// claiming its atom, under the code's prefix, or else a unit made of its
// UCUM function over its reference.
func special(cat Catalog, code string, s *codes.Special) (*graph.Unit, error) {
	if u := cat.Claimant(codes.SystemUCUM, s.Atom); u != nil && s.Scale.Cmp(exact.One().R) != 0 {
		return scaled(u, code, s.Scale)
	}
	if s.To == "" {
		return nil, fault.Errorf(fault.InvalidUnitExpression, "UCUM special unit %s uses the function %q, which unitd does not implement", s.Atom, s.Function)
	}
	c := cat.CategoryOf(s.RefDim)
	if c == nil {
		return nil, fault.Errorf(fault.Incompatible, "UCUM special unit %s refers to dimension %s, of which unitd has no category", s.Atom, s.RefDim)
	}
	f, err := ucumFormula(s.Function)
	if err != nil {
		return nil, err
	}
	// The prefix scales the value the function reads (pre); the function
	// lands on the reference, which maps onto the category's base (Conv)
	// and onto the coherent SI unit (si).
	pre, err1 := exact.Linear(s.Scale, 0)
	base, err2 := exact.Linear(new(big.Rat).Quo(s.Ref.R, c.Coherent.R), s.Ref.K-c.Coherent.K)
	si, err3 := exact.Linear(s.Ref.R, s.Ref.K)
	if err1 != nil || err2 != nil || err3 != nil {
		return nil, fault.Errorf(fault.InvalidUnitExpression, "%s: its prefix or reference is too large", fault.Truncate(code, 64))
	}
	conv, err := formulaConversion(pre, f, base)
	if err != nil {
		return nil, fmt.Errorf("UCUM special unit %s: %w", s.Atom, err)
	}
	siConv, err := formulaConversion(pre, f, si)
	if err != nil {
		return nil, fmt.Errorf("UCUM special unit %s: %w", s.Atom, err)
	}
	u := &graph.Unit{
		Symbol: code, Name: s.Name, Plural: s.Name,
		Category: c, System: "UCUM", Exact: true,
		Codes: graph.CodesOf(map[string]string{codes.SystemUCUM: strings.TrimPrefix(code, codes.SystemUCUM+":")}),
	}
	u.SetDoc(graph.Doc{
		Source:     "UCUM, special unit " + s.Atom + " (function " + s.Function + "); " + cat.Source(codes.SystemUCUM),
		Definition: graph.Definition{Kind: "formula", Unit: c.Dim.SIText(), To: s.To, From: s.From},
	})
	u.Conv, u.SI, u.Coherent = conv, &siConv, s.Ref
	return u, nil
}

// ucumFormulas holds the compiled formula pair of each UCUM function, so
// that a special unit under each of its prefixes compiles its function
// once per process.
var ucumFormulas sync.Map

// ucumFormula is the compiled pair of a UCUM function.
func ucumFormula(name string) (*formula.Pair, error) {
	if f, ok := ucumFormulas.Load(name); ok {
		return f.(*formula.Pair), nil
	}
	to, from, _ := codes.Function(name)
	f, errTo, errFrom := formula.Compile(context.Background(), to, from)
	if errTo != nil || errFrom != nil {
		return nil, fmt.Errorf("UCUM function %s: %v %v", name, errTo, errFrom)
	}
	v, _ := ucumFormulas.LoadOrStore(name, f)
	return v.(*formula.Pair), nil
}

// formulaConversion is the conversion of a unit defined by a formula pair
// f: pre, then f, then post onto the reference. A pair of Möbius maps
// (Cel's x + 273.15) joins pre and post into one exact map, as a catalog
// formula does (defineFormula); any other runs stepwise in decimals.
func formulaConversion(pre *exact.Map, f *formula.Pair, post *exact.Map) (graph.Conversion, error) {
	c := graph.Conversion{FormulaUnit: true, Exact: true}
	if f.ToMap == nil {
		c.Pre, c.Formula, c.Post = pre, f, post
		return c, nil
	}
	m, err := pre.Then(f.ToMap)
	if err == nil {
		m, err = m.Then(post)
	}
	c.Map = m
	return c, err
}

// prefixedScale is a code that is the scale another code names, which a
// catalog unit claims, under a prefix (QUDT's MilliDEG_C): that unit under
// the prefix, checked against the factor and offset the owner's table
// gives the code.
func prefixedScale(c Catalog, written, system string, m codes.Meaning) (*graph.Unit, error) {
	base := c.Claimant(system, m.ScaleOf)
	if base == nil {
		return nil, fault.Errorf(fault.UnknownUnit, "%s is %s:%s under a prefix, which no catalog unit claims", fault.Truncate(written, 64), system, m.ScaleOf)
	}
	u, err := scaled(base, written, m.Scale)
	if err != nil {
		return nil, err
	}
	var f, o *big.Rat
	ok := u.SI != nil && u.SI.Map != nil
	if ok {
		f, o, ok = u.SI.Map.Affine()
	}
	if !ok || m.Offset == nil || f.Cmp(m.Factor.R) != 0 || m.Factor.K != 0 || o.Cmp(m.Offset) != 0 {
		return nil, fault.Errorf(fault.Incompatible, "%s is %s under a prefix, but its factor and offset are not %s's under that prefix", fault.Truncate(written, 64), m.ScaleOf, base.Symbol)
	}
	u.Codes = graph.CodesOf(map[string]string{system: strings.TrimPrefix(written, system+":")})
	u.Doc().Source = "QUDT: " + m.Note + "; " + c.Source(system)
	return u, nil
}

// scaled is u under a prefix: the prefix scales the value the unit's
// map, or its formula, reads (UCUM's mCel is a thousandth of a degree on
// the Celsius scale's own reading, cNp a hundredth of a neper).
func scaled(u *graph.Unit, symbol string, scale *big.Rat) (*graph.Unit, error) {
	m, err := exact.Linear(scale, 0)
	if err != nil {
		return nil, fault.Errorf(fault.InvalidUnitExpression, "%s: its prefix is %v", fault.Truncate(symbol, 64), err)
	}
	nu := *u
	nu.Symbol, nu.Prefixed, nu.Aliases, nu.Symbols = symbol, u, nil, nil
	doc := *u.Doc()
	doc.Examples = nil
	nu.SetDoc(doc)
	scaleConv := func(c graph.Conversion) (graph.Conversion, error) {
		var err error
		switch {
		case c.Transcendental() && c.Pre == nil:
			c.Pre = m
		case c.Transcendental():
			c.Pre, err = m.Then(c.Pre)
		default:
			c.Map, err = m.Then(c.Map)
		}
		if c.Bound != nil && err == nil {
			c.Bound = minimumBound(u.Category, c.Map)
		}
		return c, err
	}
	if nu.Conv, err = scaleConv(u.Conv); err != nil {
		return nil, fault.Errorf(fault.InvalidUnitExpression, "%s: %v", fault.Truncate(symbol, 64), exact.DescribeMapError(err))
	}
	if u.SI != nil {
		s, err := scaleConv(*u.SI)
		if err != nil {
			return nil, fault.Errorf(fault.InvalidUnitExpression, "%s: %v", fault.Truncate(symbol, 64), exact.DescribeMapError(err))
		}
		nu.SI = &s
	}
	if u.Coherent.R != nil {
		nu.Coherent = u.Coherent.Mul(exact.Factor{R: scale})
	}
	nu.AsInterval = nil
	return &nu, nil
}

// minimumBound is the bound that the category minimum sets on a unit whose
// map is m, (x·a + b)/d with d > 0: x is in range when x·a + b >=
// minimum·d. It is nil when there is nothing to bound or the bound is no
// exact decimal (Build refuses such catalog units).
func minimumBound(c *graph.Category, m *exact.Map) *graph.Bound {
	bd, err := graph.NewBound(c.MinimumRat, m)
	if err != nil {
		return nil
	}
	return bd
}
