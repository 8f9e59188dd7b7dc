// Package text reads quantities and questions as people type them ("5
// ft 3 in", "5'3\"", "1½ cups", "1.5×10^3 m", "one and a half cups",
// "2 EL Zucker", "1 stick butter", "5 ft 3 in to cm") into an exact
// request: the numbers as rationals, the unit as the catalog's symbol,
// and what was assumed. It parses only: the engine converts
// (engine.Request.Exact), so a third of a cup is rounded once, at the end.
//
// # What it reads
//
// A quantity is an optional sign and one or more components, each a
// number (number.go, words.go) and a unit (unit.go), the last optionally
// followed by an ingredient (kitchen.go). Several components make a mixed
// quantity: units of one category from the largest to the smallest, each
// once, none affine ("5 ft 3 in", "1h30m", "2 h, 15 min"), compared by
// their exact sizes (engine.Graph.CompareUnits); it is handed on as the
// engine's mixed form: Unit "ft+in", one exact value per part. In a mixed
// time ("1h30m") m is the minute.
//
// A question is a quantity, a separator (to, in, as, into, ->, →) and a
// unit: the separator is the one that leaves a quantity on its left and
// a unit on its right ("3 in in cm" is 3 inches in centimetres).
//
// A unit whose meaning depends on the region (pint, quart, gallon, cup,
// fluid ounce, tablespoon, ton, hundredweight, mpg) is read as the
// region's (Options.Region) and said so in Quantity.Assumed; without a
// region, or in one that does not settle it, it is refused with its
// candidates, whether written as a word or a symbol (regional.go).
//
// # What it refuses
//
// Text that cannot be read without guessing is a *fault.Error with code
// INVALID_QUANTITY built by fault.At: the message ends "at position N"
// (in characters, from 1) and Error.Position holds N. No number, no unit,
// an unknown unit (with suggestions), an ambiguous name (with
// candidates), a name of another language (with what it means there), a
// prefix no table of units in use lists (EL as the exalitre), a separator
// the locale does not use that way ("1,5" in English, "1.5" in German), a
// misplaced group, a control character, an ingredient that means several
// foods. F and C alone are refused with both readings (farad or
// Fahrenheit); 5' 3 is refused (the 3 has no unit).
//
// # Cost
//
// Reading is linear in the text: what follows each position is read at
// most once (reader.go), a unit is at most maxUnitBytes long, and a
// question tries only separators with a unit's length after them, right
// side first. Every text has a work budget (Options.Budget); past it the
// text is refused as too complex. Quantity.Work says what the reading
// cost, read or refused, for the caller's rate budget. Text is limited
// to MaxLength bytes and MaxComponents components.
package text
