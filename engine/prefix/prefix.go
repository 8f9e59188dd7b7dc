// Package prefix holds the prefixes a catalog unit may be generated under:
// the SI prefixes of the SI Brochure and the binary prefixes of IEC
// 80000-13, each an exact power of ten or of two, and how a prefixed
// unit is spelt and coded from its unit (Spellings, Codes).
package prefix

import (
	"math/big"
	"sync"
)

// A Prefix multiplies a unit by an exact power of ten or of two.
type Prefix struct {
	Symbol string
	// Symbols are further spellings of the prefix symbol (µ and μ for u).
	Symbols []string
	Name    string
	Base    int // 10 or 2
	Power   int
}

// Source citations of the prefix sets.
const (
	siPrefixSource     = "SI Brochure, 9th ed. (2019, updated 2022), §3, Table 7 (SI prefixes)"
	binaryPrefixSource = "IEC 80000-13:2008, §4 (prefixes for binary multiples)"
)

// The 24 SI prefixes of the SI Brochure (2022, with ronna, quetta, ronto
// and quecto). Micro is written u, with µ (micro sign) and μ (Greek mu) as
// further spellings.
var siPrefixes = []Prefix{
	{Symbol: "Q", Name: "quetta", Base: 10, Power: 30},
	{Symbol: "R", Name: "ronna", Base: 10, Power: 27},
	{Symbol: "Y", Name: "yotta", Base: 10, Power: 24},
	{Symbol: "Z", Name: "zetta", Base: 10, Power: 21},
	{Symbol: "E", Name: "exa", Base: 10, Power: 18},
	{Symbol: "P", Name: "peta", Base: 10, Power: 15},
	{Symbol: "T", Name: "tera", Base: 10, Power: 12},
	{Symbol: "G", Name: "giga", Base: 10, Power: 9},
	{Symbol: "M", Name: "mega", Base: 10, Power: 6},
	{Symbol: "k", Name: "kilo", Base: 10, Power: 3},
	{Symbol: "h", Name: "hecto", Base: 10, Power: 2},
	{Symbol: "da", Name: "deca", Base: 10, Power: 1},
	{Symbol: "d", Name: "deci", Base: 10, Power: -1},
	{Symbol: "c", Name: "centi", Base: 10, Power: -2},
	{Symbol: "m", Name: "milli", Base: 10, Power: -3},
	{Symbol: "u", Symbols: []string{"µ", "μ"}, Name: "micro", Base: 10, Power: -6},
	{Symbol: "n", Name: "nano", Base: 10, Power: -9},
	{Symbol: "p", Name: "pico", Base: 10, Power: -12},
	{Symbol: "f", Name: "femto", Base: 10, Power: -15},
	{Symbol: "a", Name: "atto", Base: 10, Power: -18},
	{Symbol: "z", Name: "zepto", Base: 10, Power: -21},
	{Symbol: "y", Name: "yocto", Base: 10, Power: -24},
	{Symbol: "r", Name: "ronto", Base: 10, Power: -27},
	{Symbol: "q", Name: "quecto", Base: 10, Power: -30},
}

// The binary prefixes of IEC 80000-13.
var binaryPrefixes = []Prefix{
	{Symbol: "Ki", Name: "kibi", Base: 2, Power: 10},
	{Symbol: "Mi", Name: "mebi", Base: 2, Power: 20},
	{Symbol: "Gi", Name: "gibi", Base: 2, Power: 30},
	{Symbol: "Ti", Name: "tebi", Base: 2, Power: 40},
	{Symbol: "Pi", Name: "pebi", Base: 2, Power: 50},
	{Symbol: "Ei", Name: "exbi", Base: 2, Power: 60},
	{Symbol: "Zi", Name: "zebi", Base: 2, Power: 70},
	{Symbol: "Yi", Name: "yobi", Base: 2, Power: 80},
}

// Sets are the prefix sets a catalog names (UnitSpec prefixes: si, binary).
var Sets = map[string][]Prefix{
	"si":     siPrefixes,
	"binary": binaryPrefixes,
}

// Sources cite each set's definition.
var Sources = map[string]string{
	"si":     siPrefixSource,
	"binary": binaryPrefixSource,
}

// Factor is the prefix's exact factor as a catalog writes it: "1000",
// "1/1000", "1024".
func (p Prefix) Factor() string {
	if f, ok := prefixFactors()[[2]int{p.Base, p.Power}]; ok {
		return f
	}
	return prefixFactor(p.Base, p.Power)
}

func prefixFactor(base, power int) string {
	f := new(big.Int).Exp(big.NewInt(int64(base)), big.NewInt(int64(max(power, -power))), nil).String()
	if power < 0 {
		f = "1/" + f
	}
	return f
}

// prefixFactors holds every prefix's factor, computed once, when a
// catalog with prefixes is first built.
var prefixFactors = sync.OnceValue(func() map[[2]int]string {
	m := map[[2]int]string{}
	for _, set := range [][]Prefix{siPrefixes, binaryPrefixes} {
		for _, p := range set {
			m[[2]int{p.Base, p.Power}] = prefixFactor(p.Base, p.Power)
		}
	}
	return m
})
