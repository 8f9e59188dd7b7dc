package engine

import (
	"fmt"
	"strings"
)

// Code classifies a conversion error; the values are the API's error codes.
type Code string

// Error codes of a failed conversion.
const (
	CodeInvalidValue      Code = "INVALID_VALUE"
	CodeUnknownUnit       Code = "UNKNOWN_UNIT"
	CodeIncompatibleUnits Code = "INCOMPATIBLE_UNITS"
	CodeAmbiguousUnit     Code = "AMBIGUOUS_UNIT"
	// CodeInvalidUnitExpression is a unit expression that does not parse,
	// has an exponent out of range, or holds a formula unit.
	CodeInvalidUnitExpression Code = "INVALID_UNIT_EXPRESSION"
	CodeValueOutOfRange       Code = "VALUE_OUT_OF_RANGE"
	// CodeUnknownSubstance is a substance that names nothing in the
	// substance catalog and is not a valid formula.
	CodeUnknownSubstance Code = "UNKNOWN_SUBSTANCE"
	// CodeInvalidQuantity is free text that cannot be read as a quantity
	// without guessing (see package engine/quantity).
	CodeInvalidQuantity Code = "INVALID_QUANTITY"
	// CodeWorkBudgetExceeded is a conversion that needs more exact-rounding
	// work than its request's Budget has left.
	CodeWorkBudgetExceeded Code = "WORK_BUDGET_EXCEEDED"
	CodeInternal           Code = "INTERNAL_ERROR"
)

// Error is a conversion error with a code and a message safe to show.
type Error struct {
	Code    Code
	Message string
	// Hint guesses what was meant, from the catalog's table of hints
	// (hint.go): "did you mean degC → degF?". It never converts.
	Hint string
	// Suggestions are close matches for an unknown unit.
	Suggestions []string
	// Candidates are the symbols an ambiguous name could mean.
	Candidates []string
	// Details are machine-readable facts about the error, such as the two
	// dimensions of INCOMPATIBLE_UNITS (from_dimension, to_dimension).
	Details map[string]string
	// Needs lists the request fields a conversion across kinds lacks
	// (molar_mass, density, charge, conditions).
	Needs []string
}

func (e *Error) Error() string { return string(e.Code) + ": " + e.Message }

func errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// SpecError is a problem in a Spec, located at its origin.
type SpecError struct {
	Origin Origin
	// Subject names the item, such as `unit "ft"`.
	Subject string
	Message string
}

func (e *SpecError) Error() string {
	var b strings.Builder
	if o := e.Origin.String(); o != "" {
		b.WriteString(o)
		b.WriteString(": ")
	}
	if e.Subject != "" {
		b.WriteString(e.Subject)
		b.WriteString(": ")
	}
	b.WriteString(e.Message)
	return b.String()
}
