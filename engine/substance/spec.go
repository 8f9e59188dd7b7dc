package substance

import "github.com/unitd/unitd/engine/fault"

// ElementSpec is one element of the table of standard atomic weights.
type ElementSpec struct {
	Symbol string
	Name   string
	Number int
	// Weight is the standard (or conventional) atomic weight, a decimal,
	// and Uncertainty its uncertainty, or "" when none is given.
	Weight      string
	Uncertainty string
	Source      string
	Origin      fault.Origin
}

// SubstanceSpec declares a substance.
type SubstanceSpec struct {
	ID          string
	Name        string
	Aliases     []string
	Formula     string
	CAS         string
	Description string
	// MolarMass, when stated, is a quantity ("180.16 g/mol") with its
	// source; otherwise the molar mass comes from the formula.
	MolarMass QuantitySpec
	// Density is a quantity ("0.7893 g/cm3") at a temperature.
	Density QuantitySpec
	// Charge is the charge number of an ion (2 for Ca²⁺), 0 for none.
	Charge       int
	ChargeSource string
	// Kind is "food" for a food or kitchen ingredient, "" otherwise.
	// A food names the food it is (Food, "brown sugar") and the state
	// its density was measured in (State, "packed"; "" for none): the
	// states of one food are substances of their own that share Food.
	// Portions are the counts of the food its source weighs (a stick of
	// butter, a large egg). These are data for the kitchen; Build reads
	// none of them.
	Kind, Food, State string
	Portions          []PortionSpec
	Origin            fault.Origin
}

// QuantitySpec is a value with its unit ("0.745 kg/L"), the source that
// states it and the conditions it holds at ("15 degC").
type QuantitySpec struct {
	Value      string
	Conditions string
	Source     string
	Origin     fault.Origin
}

// ConditionsSpec declares a named set of reference conditions for gases.
type ConditionsSpec struct {
	Name        string
	Aliases     []string
	Temperature string // a quantity: "0 degC", "273.15 K"
	Pressure    string // a quantity: "101.325 kPa"
	Source      string
	Note        string
	Origin      fault.Origin
}

// GasSpec says which dimensionless categories hold mixing ratios of an
// ideal gas (amount or volume fractions), which convert to concentrations
// through the molar volume.
type GasSpec struct {
	MixingRatios []string
	Origin       fault.Origin
}

// PortionSpec is a count of a food that its source weighs: Name is the
// count ("stick", "large"), Measure the source's own words ("1 stick"),
// Mass the mass of one ("113 g").
type PortionSpec struct {
	Name, Measure, Mass string
	Origin              fault.Origin
}

// MeasurandSpec declares a measurand whose units are related by published
// equations rather than factors (HbA1c in NGSP % and IFCC mmol/mol): its
// names, the scales it is reported on, the equations between them and
// worked examples, which the engine converts when it builds the catalog.
type MeasurandSpec struct {
	ID          string
	Name        string
	Aliases     []string
	Description string
	// Kind is the kind of substance it is listed with ("clinical").
	Kind      string
	Scales    []ScaleSpec
	Equations []EquationSpec
	Examples  []MeasurandExampleSpec
	Origin    fault.Origin
}

// ScaleSpec is one way a measurand is reported: a name the equations use
// ("NGSP"), the unit its values are in ("%"), and, when its values are
// amounts of a catalog substance (estimated average glucose is glucose),
// that substance, through which other units of it convert across kinds.
type ScaleSpec struct {
	Name        string
	Unit        string
	Substance   string
	Description string
	Origin      fault.Origin
}

// EquationSpec is a published equation between two scales, written as
// its source prints it: "TO = FACTOR * FROM + OFFSET" in the scales'
// units, with decimal coefficients ("NGSP = 0.09148 * IFCC + 2.152").
// Exact is false when the coefficients were fitted to data.
type EquationSpec struct {
	Name     string
	Equation string
	Exact    bool
	Source   string
	Note     string
	Origin   fault.Origin
}

// MeasurandExampleSpec is a worked example of a measurand: VALUE FROM
// converts to RESULT TO, exactly, or rounded to RESULT's significant
// digits when Approx.
type MeasurandExampleSpec struct {
	Value, From, Result, To string
	Approx                  bool
	Origin                  fault.Origin
}
