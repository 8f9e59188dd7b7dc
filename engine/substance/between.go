package substance

import (
	"math/big"

	"github.com/unitd/unitd/engine/dimension"
)

// Conversions across kinds of quantity
//
// A property of what is measured relates two dimensions by an exact
// rational factor: a molar mass M (M N⁻¹) relates mass and amount, a
// density ρ (M L⁻³) mass and volume, a charge number z (Z) amount and
// equivalents, and the molar volume of an ideal gas Vm = R·T/p (L³ N⁻¹,
// R = N_A·k exactly) volume and amount. When two dimensions differ by
// D = M^a · Z^c · (L³ N⁻¹)^d with each exponent −1, 0 or 1, a value's
// coherent SI units convert by dividing by M^a · z^c · Vm^d. M·Vm⁻¹
// together is a density: the one the request states, else that of the
// ideal gas at the stated conditions, else the substance's own (a
// liquid's or a solid's), except where one side is a gas's mixing ratio,
// which only the gas's density converts.

// gasConstant is R = N_A·k, exact since the SI of 2019, in J/(mol·K).
var gasConstant = func() *big.Rat {
	na, _ := new(big.Rat).SetString("6.02214076e23")
	k, _ := new(big.Rat).SetString("1.380649e-23")
	return na.Mul(na, k)
}()

// gasConstantSource cites R.
const gasConstantSource = "SI Brochure, 9th ed. (2019), §2.2 (N_A = 6.02214076e23 mol⁻¹, k = 1.380649e-23 J/K, exact), R = N_A·k"

// Values are the properties a conversion across kinds may use.
type Values struct {
	MolarMass, Density, Charge *Property
	Temperature, Pressure      *Property
	// DensityStated says the density was stated by the request, and wins
	// over a gas's.
	DensityStated bool
}

// Needs says how a request gives each property a conversion may lack.
var Needs = map[string]string{
	"molar_mass": "a molar mass: pass `substance` or `molar_mass`",
	"density":    "a density: pass `substance` or `density` (for a gas, `conditions` with a molar mass)",
	"charge":     "a charge number: pass `substance` (an ion) or `charge`",
	"conditions": "a temperature and pressure: pass `conditions` (\"25 degC, 101.325 kPa\", or a named set such as STP)",
}

// exponents says whether from and to differ by M^a·Z^c·(L³N⁻¹)^d with
// small exponents, and returns them.
func exponents(fd, td dimension.Vector) (a, c, d int, ok bool) {
	delta := fd.Add(td, -1)
	a, c = delta[dimension.Index("M")], delta[dimension.Index("Z")]
	l, n := delta[dimension.Index("L")], delta[dimension.Index("N")]
	if l%3 != 0 {
		return 0, 0, 0, false
	}
	d = l / 3
	if n != -a-d || max(a, -a) > 1 || max(c, -c) > 1 || max(d, -d) > 1 || (a == 0 && c == 0 && d == 0) {
		return 0, 0, 0, false
	}
	for i, e := range delta {
		switch dimension.Symbols()[i] {
		case "M", "Z", "L", "N":
		default:
			if e != 0 {
				return 0, 0, 0, false
			}
		}
	}
	return a, c, d, true
}

// Between finds the factor a value's coherent SI units are divided by to
// convert from dimension fd to td with the values v; mixing says one side
// is a gas's mixing ratio. ok is false when the two dimensions are not
// related by a property at all; needs lists the request fields missing
// (see Needs) when they are but v lacks them; used lists the properties
// the factor is made of, in order.
func Between(fd, td dimension.Vector, v Values, mixing bool) (r *big.Rat, used []*Property, needs []string, ok bool) {
	a, c, d, ok := exponents(fd, td)
	if !ok {
		return nil, nil, nil, false
	}
	r = big.NewRat(1, 1)
	use := func(q *Property, e int) {
		if e == 0 {
			return
		}
		x := q.si
		if e < 0 {
			x = new(big.Rat).Inv(x)
		}
		r.Mul(r, x)
		used = append(used, q)
	}
	need := func(field string) {
		for _, n := range needs {
			if n == field {
				return
			}
		}
		needs = append(needs, field)
	}
	gas := v.Temperature != nil && v.Pressure != nil
	vm := func(e int) {
		// Vm = R·T/p.
		x := new(big.Rat).Mul(gasConstant, v.Temperature.si)
		x.Quo(x, v.Pressure.si)
		if e < 0 {
			x.Inv(x)
		}
		r.Mul(r, x)
		used = append(used, v.Temperature, v.Pressure, &Property{Name: "gas_constant", Value: gasConstant.FloatString(14) + " J/(mol*K)", Source: gasConstantSource, si: gasConstant})
	}
	if a != 0 && a == -d {
		// A density: stated, of the gas at the conditions, or the
		// substance's own (not for a gas's mixing ratio).
		switch {
		case v.DensityStated:
			use(v.Density, a)
		case gas && v.MolarMass != nil:
			use(v.MolarMass, a)
			vm(d)
		case v.Density != nil && !mixing:
			use(v.Density, a)
		case mixing:
			if v.MolarMass == nil {
				need("molar_mass")
			}
			if !gas {
				need("conditions")
			}
		default:
			need("density")
		}
	} else {
		if a != 0 {
			if v.MolarMass == nil {
				need("molar_mass")
			} else {
				use(v.MolarMass, a)
			}
		}
		if d != 0 {
			if !gas {
				need("conditions")
			} else {
				vm(d)
			}
		}
	}
	if c != 0 {
		if v.Charge == nil {
			need("charge")
		} else {
			use(v.Charge, c)
		}
	}
	return r, used, needs, true
}
