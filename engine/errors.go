package engine

import (
	"github.com/unitd/unitd/engine/fault"
	"github.com/unitd/unitd/engine/formula"
)

// Code classifies a conversion error; the values are the API's error
// codes (package fault).
type Code = fault.Code

// Error is a conversion error with a code and a message safe to show.
type Error = fault.Error

// Error codes of a failed conversion.
const (
	CodeInvalidValue          = fault.InvalidValue
	CodeUnknownUnit           = fault.UnknownUnit
	CodeIncompatibleUnits     = fault.Incompatible
	CodeAmbiguousUnit         = fault.AmbiguousUnit
	CodeInvalidUnitExpression = fault.InvalidUnitExpression
	CodeValueOutOfRange       = fault.ValueOutOfRange
	CodeUnknownSubstance      = fault.UnknownSubstance
	CodeInvalidQuantity       = fault.InvalidQuantity
	CodeWorkBudgetExceeded    = fault.WorkBudgetExceeded
	CodeInvalidRequest        = fault.InvalidRequest
	CodeInternal              = fault.Internal
)

func errorf(code Code, format string, args ...any) *Error {
	return fault.Errorf(code, format, args...)
}

// SpecError is a problem in a Spec, located at its origin.
type SpecError = fault.SpecError

// Budget bounds the slow work of one request (package formula): a batch
// shares one among its items.
type Budget = formula.Budget

// DefaultBudget is the budget the HTTP server gives each request.
const DefaultBudget = formula.DefaultBudget

// NewBudget returns a Budget of n units.
func NewBudget(n int) *Budget { return formula.NewBudget(n) }
