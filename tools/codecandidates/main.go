// Command codecandidates proposes standard unit codes for catalog units,
// for a person to review before they go into the catalog's `codes`: for
// every unit written in the catalog (not one a prefix generates) it lists
// the UCUM atoms, CLDR simple units and QUDT units of the shipped code
// tables that convert to it with a factor of exactly 1 (to 12 significant
// digits), ranked by how much their names share. It writes TSV lines
//
//	file	symbol	system	code	score	names
//
// and never edits the catalog. With -pick it prints instead the codes it
// would choose: the best-ranked candidate of each system when it is a
// clear winner (score at least 6, above the runner-up), and for units
// whose symbols are products and quotients (m/s2, kW*h) the codes made of
// their operands' codes in each system's grammar, when they convert
// exactly. `unitd validate` checks every code that is kept against the
// tables.
package main

import (
	"flag"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/unitd/unitd/catalog"
	"github.com/unitd/unitd/engine"
)

func main() {
	pick := flag.Bool("pick", false, "print the codes chosen, one per line: file, symbol, system, code")
	gaps := flag.Bool("gaps", false, "print, for each code no catalog unit claims, the catalog units it converts to exactly: system, code, name, units")
	claimable := flag.Bool("claimable", false, "print the codes a catalog unit could claim (engine.Coverage.Claimable): system, code, name, units with their files")
	flag.Parse()
	g, errs := catalog.Load(catalog.Embedded())
	if len(errs) > 0 {
		fmt.Fprintln(os.Stderr, errs)
		os.Exit(1)
	}
	if *claimable {
		printClaimable(g)
		return
	}
	tables, err := catalog.CodeTables()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	type cand struct{ system, code, name string }
	var cands []cand
	for _, e := range tables.UCUM {
		if e.Type != "prefix" && e.Kind == "" {
			cands = append(cands, cand{engine.SystemUCUM, e.Code, e.Name})
		}
	}
	for _, e := range tables.CLDR {
		if e.Type == "unit" && e.Special == "" {
			cands = append(cands, cand{engine.SystemCLDR, e.ID, strings.ReplaceAll(e.ID, "-", " ")})
		}
	}
	for _, e := range tables.QUDT {
		if !e.Deprecated && e.Offset == "0" {
			cands = append(cands, cand{engine.SystemQUDT, e.Name, e.Label})
		}
	}
	// Candidates by dimension.
	byDim := map[string][]cand{}
	for _, c := range cands {
		_, ex, err := g.Resolve(c.system + ":" + c.code)
		if err != nil || ex == nil {
			continue
		}
		byDim[ex.DimensionText()] = append(byDim[ex.DimensionText()], c)
	}
	spec, _ := catalog.LoadSpec(catalog.Embedded())
	declared := map[string]string{}
	for _, cs := range spec.Categories {
		for _, us := range cs.Units {
			declared[us.Symbol] = us.Origin.File
		}
	}
	if *gaps {
		claimed := map[string]bool{}
		for _, u := range g.Units() {
			for _, system := range engine.CodeSystems {
				if c := u.CodeOf(system); c != "" {
					claimed[system+":"+c] = true
				}
			}
		}
		for _, c := range cands {
			if claimed[c.system+":"+c.code] || c.system == engine.SystemQUDT {
				continue
			}
			_, ex, err := g.Resolve(c.system + ":" + c.code)
			if err != nil || ex == nil {
				continue
			}
			var hits []string
			for _, u := range g.Units() {
				if u.Category.DimensionText() != ex.DimensionText() || u.Doc().Definition.Kind == "formula" {
					continue
				}
				r, err := g.Convert(engine.Request{Value: "1", From: u.Symbol, To: c.system + ":" + c.code, Precision: 12})
				if err == nil && r.Value == "1" {
					hits = append(hits, declared[u.Symbol]+"/"+u.Symbol+"("+u.Name+")")
				}
			}
			fmt.Printf("%s\t%s\t%s\t%s\n", c.system, c.code, c.name, strings.Join(hits, " "))
		}
		return
	}
	picks := map[string]map[string]string{} // symbol → system → code
	var order []*engine.Unit
	for _, u := range g.Units() {
		file, ok := declared[u.Symbol]
		if !ok || u.Doc().Definition.Kind == "formula" {
			continue
		}
		type scored struct {
			c     cand
			score int
		}
		best := map[string][]scored{}
		for _, c := range byDim[u.Category.DimensionText()] {
			r, err := g.Convert(engine.Request{Value: "1", From: u.Symbol, To: c.system + ":" + c.code, Precision: 12})
			if err != nil || r.Value != "1" {
				continue
			}
			best[c.system] = append(best[c.system], scored{c, similarity(u, c.code, c.name)})
		}
		for _, system := range []string{engine.SystemUCUM, engine.SystemCLDR, engine.SystemQUDT} {
			list := best[system]
			sort.SliceStable(list, func(i, j int) bool { return list[i].score > list[j].score })
			if len(list) > 0 && list[0].score >= 6 && (len(list) == 1 || list[0].score > list[1].score) {
				if picks[u.Symbol] == nil {
					picks[u.Symbol] = map[string]string{}
					order = append(order, u)
				}
				picks[u.Symbol][system] = list[0].c.code
			}
			if *pick {
				continue
			}
			for i, s := range list {
				if i == 3 {
					break
				}
				fmt.Printf("%s\t%s\t%s\t%s\t%d\t%s | %s\n", file, u.Symbol, system, s.c.code, s.score, u.Name, s.c.name)
			}
		}
	}
	if !*pick {
		return
	}
	// Compound symbols: each operand's code, in each system's grammar.
	for _, u := range g.Units() {
		file, ok := declared[u.Symbol]
		if !ok || u.Doc().Definition.Kind == "formula" || !strings.ContainsAny(u.Symbol, "*/") {
			continue
		}
		for _, system := range []string{engine.SystemUCUM, engine.SystemCLDR} {
			if picks[u.Symbol][system] != "" {
				continue
			}
			code, ok := compound(u.Symbol, system, picks)
			if !ok {
				continue
			}
			r, err := g.Convert(engine.Request{Value: "1", From: u.Symbol, To: system + ":" + code, Precision: 12})
			if err != nil || r.Value != "1" {
				continue
			}
			if picks[u.Symbol] == nil {
				picks[u.Symbol] = map[string]string{}
				order = append(order, u)
			}
			picks[u.Symbol][system] = code
		}
		_ = file
	}
	for _, u := range order {
		for _, system := range []string{engine.SystemUCUM, engine.SystemCLDR, engine.SystemQUDT} {
			if c := picks[u.Symbol][system]; c != "" {
				fmt.Printf("%s\t%s\t%s\t%s\n", declared[u.Symbol], u.Symbol, system, c)
			}
		}
	}
}

var operand = regexp.MustCompile(`^([A-Za-z_µ]+?)(\^?-?[0-9])?$`)

// compound writes a symbol such as kg/m2 or N*m in a system's grammar from
// its operands' codes; ok is false when an operand has none.
func compound(symbol, system string, picks map[string]map[string]string) (string, bool) {
	if strings.ContainsAny(symbol, "()") {
		return "", false
	}
	var num, den []string
	sign := 1
	rest := symbol
	for rest != "" {
		i := strings.IndexAny(rest, "*/")
		part := rest
		next := ""
		if i >= 0 {
			part, next = rest[:i], rest[i+1:]
		}
		m := operand.FindStringSubmatch(part)
		if m == nil {
			return "", false
		}
		code := picks[m[1]][system]
		if code == "" {
			return "", false
		}
		exp := 1
		if m[2] != "" {
			exp, _ = strconv.Atoi(strings.TrimPrefix(m[2], "^"))
		}
		switch system {
		case engine.SystemUCUM:
			if exp != 1 {
				code += strconv.Itoa(exp)
			}
		case engine.SystemCLDR:
			switch exp {
			case 1:
			case 2:
				code = "square-" + code
			case 3:
				code = "cubic-" + code
			default:
				if exp < 1 {
					return "", false
				}
				code = "pow" + strconv.Itoa(exp) + "-" + code
			}
		}
		if sign > 0 {
			num = append(num, code)
		} else {
			den = append(den, code)
		}
		if i >= 0 && rest[i] == '/' {
			sign = -1
		} else if i >= 0 && system == engine.SystemCLDR && sign < 0 {
			return "", false // a*b after a quotient: CLDR has one per
		}
		rest = next
		if i < 0 {
			break
		}
	}
	if system == engine.SystemUCUM {
		out := strings.Join(num, ".")
		for _, d := range den {
			out += "/" + d
		}
		return out, true
	}
	if len(num) == 0 {
		return "", false
	}
	out := strings.Join(num, "-")
	if len(den) > 0 {
		out += "-per-" + strings.Join(den, "-")
	}
	return out, true
}

// similarity scores how well a code and its name match a unit: the same
// symbol, the same name, shared words.
func similarity(u *engine.Unit, code, name string) int {
	score := 0
	if code == u.Symbol {
		score += 10
	}
	norm := func(s string) string {
		s = strings.ToLower(s)
		s = strings.NewReplacer("metre", "meter", "litre", "liter", "-", " ", "_", " ", "[", "", "]", "").Replace(s)
		return s
	}
	un, cn := norm(u.Name), norm(name)
	if un == cn || norm(code) == un {
		score += 8
	}
	words := strings.Fields(un)
	for _, w := range words {
		if len(w) > 2 && strings.Contains(cn, w) {
			score += 2
		}
	}
	for _, a := range append(append([]string{}, u.Aliases...), u.Symbols...) {
		if norm(a) == cn || a == code {
			score += 4
		}
	}
	return score
}

// printClaimable prints each code that engine.Coverage.Claimable lists,
// with its name in its system and the units that could claim it, each
// with the file it is written in (a prefixed unit: its unit's file and
// the prefix set).
func printClaimable(g *engine.Graph) {
	tables, err := catalog.CodeTables()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	names := map[string]string{}
	for _, e := range tables.UCUM {
		names["ucum:"+e.Code] = e.Name
	}
	for _, e := range tables.QUDT {
		names["qudt:"+e.Name] = e.Label + " (" + e.Symbol + ")"
	}
	spec, _ := catalog.LoadSpec(catalog.Embedded())
	declared := map[string]string{}
	for _, cs := range spec.Categories {
		for _, us := range cs.Units {
			declared[us.Symbol] = us.Origin.File
		}
	}
	for _, c := range g.CodeCoverage() {
		for _, cl := range c.Claimable {
			var units []string
			for _, sym := range cl.Units {
				u, _ := g.Find(sym)
				where := declared[sym]
				if where == "" && u != nil && u.Prefixed != nil {
					where = declared[u.Prefixed.Symbol] + " prefix of " + u.Prefixed.Symbol
				}
				name := ""
				if u != nil {
					name = u.Name
				}
				units = append(units, sym+" ("+name+"; "+where+")")
			}
			fmt.Printf("%s\t%s\t%s\t%s\n", c.System, cl.Code, names[c.System+":"+cl.Code], strings.Join(units, " | "))
		}
	}
}
