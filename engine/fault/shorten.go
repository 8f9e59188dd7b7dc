package fault

import "unicode/utf8"

// Shorten cuts a text quoted in a message to 64 bytes, on a rune boundary,
// marking the cut with an ellipsis.
func Shorten(s string) string {
	if len(s) <= 64 {
		return s
	}
	i := 64
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}
