// Package fault defines the errors unitd reports about a request: a code
// from the API contract, a message safe to show, and, where a parser read
// the text, the position of the problem in it.
//
// Every request parser of the engine (unit expressions, UCUM and CLDR
// codes, chemical formulas, free text, locale tags) reports a position the
// same way: At counts it in characters (runes) from 1, writes it into the
// message as "at position N" and keeps it in Error.Position, which the
// HTTP adapter sends as details.position.
package fault

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Code classifies an error; the values are the API's error codes.
type Code string

// Error codes of a conversion, and of a request the engine reads.
const (
	InvalidValue  Code = "INVALID_VALUE"
	UnknownUnit   Code = "UNKNOWN_UNIT"
	Incompatible  Code = "INCOMPATIBLE_UNITS"
	AmbiguousUnit Code = "AMBIGUOUS_UNIT"
	// InvalidUnitExpression is a unit expression or code that does not
	// parse, has an exponent out of range, or holds a formula unit.
	InvalidUnitExpression Code = "INVALID_UNIT_EXPRESSION"
	ValueOutOfRange       Code = "VALUE_OUT_OF_RANGE"
	// UnknownSubstance is a substance that names nothing in the
	// substance catalog and is not a valid formula.
	UnknownSubstance Code = "UNKNOWN_SUBSTANCE"
	// InvalidQuantity is free text that cannot be read as a quantity
	// without guessing.
	InvalidQuantity Code = "INVALID_QUANTITY"
	// WorkBudgetExceeded is a conversion that needs more slow work than
	// its request has left.
	WorkBudgetExceeded Code = "WORK_BUDGET_EXCEEDED"
	// InvalidRequest asks for something that does not exist, such as an
	// unknown usage or region of the unit preferences.
	InvalidRequest Code = "INVALID_REQUEST"
	Internal       Code = "INTERNAL_ERROR"
)

// Error is an error with a code and a message safe to show.
type Error struct {
	Code    Code
	Message string
	// Position is where in the text a parser read the problem is, in
	// characters from 1, or 0.
	Position int
	// Hint guesses what was meant: "did you mean degC → degF?". It never
	// converts.
	Hint string
	// Suggestions are close matches for an unknown name.
	Suggestions []string
	// Candidates are what an ambiguous name could mean.
	Candidates []string
	// Details are machine-readable facts about the error, such as the two
	// dimensions of INCOMPATIBLE_UNITS (from_dimension, to_dimension).
	Details map[string]string
	// Needs lists the request fields a conversion across kinds lacks
	// (molar_mass, density, charge, conditions).
	Needs []string
}

func (e *Error) Error() string { return string(e.Code) + ": " + e.Message }

// Errorf returns an Error with the code and a formatted message.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// At returns an Error about the text src at byte offset off: its message
// is the formatted one followed by " at position N", N the offset in
// characters from 1, which Position holds too.
func At(code Code, src string, off int, format string, args ...any) *Error {
	n := RunePosition(src, off)
	return &Error{Code: code, Message: fmt.Sprintf(format, args...) + " at position " + strconv.Itoa(n), Position: n}
}

// RunePosition converts a byte offset into src to a position in
// characters from 1. An offset past the end is one past the last
// character.
func RunePosition(src string, off int) int {
	off = max(0, min(off, len(src)))
	return utf8.RuneCountInString(src[:off]) + 1
}

// Truncate shortens s to at most n bytes for a message, on a rune
// boundary, marking the cut.
func Truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}

// Origin is where an item of a catalog was written (file:line:col), for
// error messages.
type Origin struct {
	File   string
	Line   int
	Column int
}

func (o Origin) String() string {
	switch {
	case o.File == "":
		return ""
	case o.Line == 0:
		return o.File
	}
	return fmt.Sprintf("%s:%d:%d", o.File, o.Line, o.Column)
}

// SpecError is a problem in a catalog, located at its origin.
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
