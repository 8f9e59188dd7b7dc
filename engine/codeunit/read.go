package codeunit

import (
	"strconv"
	"strings"

	"github.com/unitd/unitd/engine/claim"
	"github.com/unitd/unitd/engine/codes"
	"github.com/unitd/unitd/engine/fault"
	"github.com/unitd/unitd/engine/internal/graph"
	"github.com/unitd/unitd/engine/unitexpr"
)

// Read reads a code that no catalog unit claims, written name
// ("ucum:mCel"), by its system's table in idx: a special unit or a
// catalog unit under a prefix (the unit), or else an expression of the
// table's factor. A code of unece, which is read only through claims, or
// of an unknown system is UNKNOWN_UNIT with suggestions.
func Read(cat Catalog, idx *claim.Index, name, system, code string) (*graph.Unit, *unitexpr.Expression, error) {
	switch system {
	case codes.SystemUCUM, codes.SystemCLDR, codes.SystemQUDT:
	case codes.SystemUNECE:
		e := idx.Unknown(system, code)
		if set := idx.Tables(); set != nil {
			if exists, _ := set.Exists(code); exists {
				e.Message = "UN/ECE Recommendation 20 code " + code + " names no unit of the catalog" + strings.TrimPrefix(e.Message, "unknown unece code "+strconv.Quote(fault.Truncate(code, 64)))
			}
		}
		return nil, nil, e
	default:
		e := fault.Errorf(fault.UnknownUnit, "unknown unit system %q in %q: the systems are %s", fault.Truncate(system, 64), fault.Truncate(name, 64), strings.Join(codes.Systems, ", "))
		if !strings.Contains(code, "://") {
			for _, sys := range codes.Systems {
				e.Suggestions = append(e.Suggestions, sys+":"+fault.Truncate(code, 64))
			}
		}
		return nil, nil, e
	}
	set := idx.Tables()
	if set == nil {
		return nil, nil, fault.Errorf(fault.UnknownUnit, "unknown unit %q: this catalog has no code tables", fault.Truncate(name, 64))
	}
	m, err := set.Read(system, code, idx)
	if err != nil {
		return nil, nil, err
	}
	written := system + ":" + code
	if m.Special != nil {
		u, err := special(cat, written, m.Special)
		return u, nil, err
	}
	if m.ScaleOf != "" {
		u, err := prefixedScale(cat, written, system, m)
		return u, nil, err
	}
	symbol := m.Symbol
	if symbol == "" {
		symbol = written
	}
	e, err := expression(cat, symbol, written, m)
	return nil, e, err
}
