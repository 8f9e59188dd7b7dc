// Package fold gives the key a name is looked up by: lower case, white
// space trimmed and each inner run of it one space. The engine's word
// names and the substances' names and searches compare by it.
package fold

import (
	"strings"
	"unicode/utf8"
)

// Key is the key of a name. Most names are keys already, and are
// returned as they are, without allocating.
func Key(s string) string {
	if isKey(s) {
		return s
	}
	return strings.Join(strings.Fields(strings.ToLower(s)), " ")
}

// isKey reports whether Key would return s itself: s is ASCII without
// upper-case letters or white space but single inner spaces.
func isKey(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'A' && c <= 'Z', c >= utf8.RuneSelf, c == '\t', c == '\n', c == '\r', c == '\v', c == '\f':
			return false
		case c == ' ' && (i == 0 || i == len(s)-1 || s[i-1] == ' '):
			return false
		}
	}
	return true
}
