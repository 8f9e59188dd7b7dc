package build

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/unitd/unitd/engine/claim"
	"github.com/unitd/unitd/engine/codes"
	"github.com/unitd/unitd/engine/internal/graph"
	"github.com/unitd/unitd/engine/internal/parallel"
	"github.com/unitd/unitd/engine/spec"
)

// compileCodes checks the catalog's claims on the code tables, and the
// codes it keeps unclaimed.
func (b *builder) compileCodes(set *codes.Set, unclaimed []spec.UnclaimedCode) {
	idx := claim.NewIndex(set)
	claimed := idx.Claimed()
	defer b.unclaimedCodes(set, unclaimed)
	b.t.Codes = idx
	// The codes the catalog writes first, then those derived for prefixed
	// units: a code a unit declares is its own, and a derived one that
	// meets it is dropped (J/cm3 declares MegaJ-PER-M3, which MJ/m3
	// would derive).
	declaredFirst := make([]*graph.Unit, 0, len(b.t.Units))
	var derived []*graph.Unit
	for _, u := range b.t.Units {
		if _, byPrefix := b.prefixCodes[u]; b.specs[u] != nil || byPrefix {
			declaredFirst = append(declaredFirst, u)
		} else {
			derived = append(derived, u)
		}
	}
	ordered := append(declaredFirst, derived...)
	// What is wrong with each claim by itself, for each unit and its
	// systems in order, found in parallel (parallel.For): checkCode reads
	// only the unit and the tables.
	problems := make([][]string, len(ordered))
	systemsOf := make([][]string, len(ordered))
	if parallel.For(b.ctx, len(ordered), func(i int) {
		u := ordered[i]
		codeOf := b.codes[u]
		if len(codeOf) == 0 || u.Conv.Map == nil && u.Conv.Post == nil {
			return
		}
		systems := make([]string, 0, len(codeOf))
		for s := range codeOf {
			systems = append(systems, s)
		}
		sort.Strings(systems)
		c := &claim.Claimant{Unit: u, Words: b.fast}
		msgs := make([]string, len(systems))
		for j, system := range systems {
			msgs[j] = b.checkCode(c, system, codeOf[system], set)
		}
		systemsOf[i], problems[i] = systems, msgs
	}) < len(ordered) {
		b.cancelled()
		return
	}
	// The indexes of claims, still empty, sized for every code claimed.
	claims := make([]int, len(codes.Systems))
	for _, systems := range systemsOf {
		for _, s := range systems {
			if k := slices.Index(codes.Systems, s); k >= 0 {
				claims[k]++
			}
		}
	}
	for k, s := range codes.Systems {
		claimed[s] = make(map[string]*graph.Unit, claims[k])
	}
	claimedBy := make(map[string]*graph.Unit, sum(claims))
	for i, u := range ordered {
		codeOf := b.codes[u]
		if len(codeOf) == 0 || u.Conv.Map == nil && u.Conv.Post == nil {
			u.Codes = graph.CodesOf(codeOf)
			continue
		}
		_, byPrefix := b.prefixCodes[u]
		declared := b.specs[u] != nil || byPrefix
		// A declared unit's codes are its spec's map, which a build
		// never writes: copied before a code is dropped.
		owned := b.specs[u] == nil
		for j, system := range systemsOf[i] {
			code := codeOf[system]
			msg := problems[i][j]
			if msg == "" {
				key := system + ":" + code
				if other := claimedBy[key]; other != nil {
					msg = fmt.Sprintf("code %s is already claimed by unit %q (%s)", key, other.Symbol, describeOrigin(other, b.origins[other]))
				} else {
					claimedBy[key] = u
					claimed[system][code] = u
					continue
				}
			}
			if declared {
				b.errorf(b.origins[u], unitSubject(u.Symbol), "%s", msg)
			}
			if !owned {
				codeOf, owned = maps.Clone(codeOf), true
				b.codes[u] = codeOf
			}
			delete(codeOf, system)
		}
		u.Codes = graph.CodesOf(codeOf)
	}
}

func sum(xs []int) int {
	n := 0
	for _, x := range xs {
		n += x
	}
	return n
}

// checkCode says what is wrong with a unit's claim of a code, or "".
func (b *builder) checkCode(c *claim.Claimant, system, code string, set *codes.Set) string {
	if code == "" || strings.TrimSpace(code) != code {
		return fmt.Sprintf("code %s:%q is empty or has surrounding white space", system, code)
	}
	switch system {
	case codes.SystemUNECE:
		if len(code) < 2 || len(code) > 3 || strings.ToUpper(code) != code {
			return fmt.Sprintf("unece code %q is not a Recommendation 20 common code (two or three upper-case letters or digits)", code)
		}
		if set != nil {
			if exists, ok := set.Exists(code); ok && !exists {
				return fmt.Sprintf("code unece:%s is not in the UN/ECE code list", code)
			}
		}
		return ""
	case codes.SystemUCUM, codes.SystemCLDR, codes.SystemQUDT:
	default:
		return fmt.Sprintf("unknown code system %q (known: %s)", system, strings.Join(codes.Systems, ", "))
	}
	if set == nil {
		return ""
	}
	m, err := set.Table(system, code)
	if err != nil {
		return fmt.Sprintf("code %s:%s: %v", system, code, err)
	}
	return c.Problem(system, code, m, true)
}

// unclaimedCodes checks the codes the catalog keeps unclaimed: each is a
// code of a table, no unit claims it, it is listed once, and a unit could
// claim it but for the entry (else the entry is stale).
func (b *builder) unclaimedCodes(set *codes.Set, specs []spec.UnclaimedCode) {
	if set == nil || len(specs) == 0 || b.stopped {
		return
	}
	unclaimed := b.t.Codes.Unclaimed()
	claimed := b.t.Codes.Claimed()
	byDim := claim.ByDimension(b.t.Units, b.fast)
	// Whether a unit could claim each code, found in parallel for the
	// codes that pass the checks below but for being listed twice:
	// claim.TableCounterparts reads only the units (each unit's offset read here,
	// before they are shared) and the tables.
	for _, cs := range byDim {
		for _, c := range cs {
			c.AffineOffset()
		}
	}
	type listed struct {
		us        *spec.UnclaimedCode
		name      string
		system    string
		code      string
		problem   string // what is wrong with the entry but a repetition
		claimable bool
	}
	var entries []listed
	for i := range specs {
		for _, name := range specs[i].Codes {
			entries = append(entries, listed{us: &specs[i], name: name})
		}
	}
	if parallel.For(b.ctx, len(entries), func(i int) {
		e := &entries[i]
		system, code, ok := codes.Split(e.name)
		e.system, e.code = system, code
		switch {
		case !ok || system != codes.SystemUCUM && system != codes.SystemCLDR && system != codes.SystemQUDT:
			e.problem = fmt.Sprintf("%q is not a ucum:, cldr: or qudt: code", e.name)
		case !slices.Contains(set.Codes(system), code):
			e.problem = fmt.Sprintf("%s is not a unit of the %s table", e.name, strings.ToUpper(system))
		case claimed[system][code] != nil:
			e.problem = fmt.Sprintf("%s is claimed by unit %q", e.name, claimed[system][code].Symbol)
		default:
			e.claimable = len(claim.TableCounterparts(set, byDim, system, code)) > 0
		}
	}) < len(entries) {
		b.cancelled()
		return
	}
	k := 0
	for i := range specs {
		us := &specs[i]
		subject := "unclaimed codes"
		if strings.TrimSpace(us.Reason) == "" {
			b.errorf(us.Origin, subject, "the entry gives no reason")
		}
		for range us.Codes {
			e := &entries[k]
			k++
			if e.problem != "" {
				b.errorf(us.Origin, subject, "%s", e.problem)
				continue
			}
			if _, dup := unclaimed[e.system][e.code]; dup {
				b.errorf(us.Origin, subject, "%s is listed twice", e.name)
				continue
			}
			if !e.claimable {
				b.errorf(us.Origin, subject, "no catalog unit could claim %s (none has its meaning, or one that has it claims a code of %s already): delete it from the list", e.name, strings.ToUpper(e.system))
				continue
			}
			unclaimed[e.system][e.code] = us.Reason
		}
	}
}
