// Package jsonscan reads JSON text strictly and cheaply, for request
// bodies whose numbers must keep their exact text.
//
// It is not a general decoder: the caller walks the text with Peek,
// Object, Array, ReadString, ReadNumber and Skip, and decides what each
// member means (and so which keys are unknown or repeated). The scanner
// checks the syntax of everything it reads, including what is skipped:
// anything it accepts is valid JSON. It keeps number literals as their
// exact text, bounds nesting at MaxDepth, refuses invalid UTF-8, control
// characters in strings and trailing data (End), and allocates only the
// strings that contain escapes.
//
// # String lifetime
//
// A string without escapes is returned as a view of the scanned bytes
// (unsafe.String), not a copy. It is valid only while those bytes are
// unchanged: the caller must not modify or reuse the buffer given to Reset
// while any string read from it is still in use. Copy a string
// (strings.Clone) to keep it longer.
package jsonscan

import (
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// MaxDepth bounds nesting anywhere in a text.
const MaxDepth = 32

// Reset makes s read data from its start.
func (s *Scanner) Reset(data []byte) { s.data, s.i = data, 0 }

// Offset is the byte offset the scanner has reached.
func (s *Scanner) Offset() int { return s.i }

// SyntaxError is malformed JSON at byte Offset.
type SyntaxError struct {
	Offset int
	Msg    string
}

func (e *SyntaxError) Error() string { return e.Msg + " at byte " + strconv.Itoa(e.Offset) }

// Scanner reads one JSON text. The zero Scanner reads an empty text;
// Reset gives it one.
//
// Strings without escapes are returned as views of data, not copies: they
// stay valid only while data is unchanged. Request bodies live in the
// pooled respWriter until the response has been written, so every string
// read from a body is done with before the buffer is reused.
type Scanner struct {
	data []byte
	i    int
}

func (s *Scanner) fail(msg string) *SyntaxError { return &SyntaxError{Offset: s.i, Msg: msg} }

func (s *Scanner) ws() {
	d, i := s.data, s.i
	for i < len(d) && (d[i] == ' ' || d[i] == '\t' || d[i] == '\n' || d[i] == '\r') {
		i++
	}
	s.i = i
}

// Peek returns the next non-space byte, or 0 at the end.
func (s *Scanner) Peek() byte {
	d, i := s.data, s.i
	for i < len(d) {
		switch c := d[i]; c {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			s.i = i
			return c
		}
	}
	s.i = i
	return 0
}

// ReadString reads a string; the scanner is at its opening quote.
func (s *Scanner) ReadString() (string, error) {
	// The common case, a string of plain ASCII, in a tight loop on locals.
	d, start := s.data, s.i+1
	i := start
	for i < len(d) && plainASCII[d[i]] {
		i++
	}
	if i < len(d) && d[i] == '"' {
		s.i = i + 1
		if i == start {
			return "", nil
		}
		return unsafe.String(&d[start], i-start), nil
	}
	s.i = i
	return s.readStringRest(start)
}

// readStringRest finishes a string from s.i, where something other than
// plain ASCII stands: UTF-8, an escape, a control character or the end.
func (s *Scanner) readStringRest(start int) (string, error) {
	for s.i < len(s.data) {
		for s.i < len(s.data) && plainASCII[s.data[s.i]] {
			s.i++
		}
		if s.i == len(s.data) {
			break
		}
		c := s.data[s.i]
		switch {
		case c == '"':
			var v string
			if s.i > start {
				v = unsafe.String(&s.data[start], s.i-start)
			}
			s.i++
			return v, nil
		case c == '\\':
			return s.strEscaped(start)
		case c < 0x20:
			return "", s.fail("control character in string")
		case c < utf8.RuneSelf:
			s.i++
		default:
			r, size := utf8.DecodeRune(s.data[s.i:])
			if r == utf8.RuneError && size == 1 {
				return "", s.fail("invalid UTF-8 in string")
			}
			s.i += size
		}
	}
	return "", s.fail("unterminated string")
}

// plainASCII marks the bytes a JSON string may hold as they are.
var plainASCII = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// strEscaped finishes a string that contains escapes.
func (s *Scanner) strEscaped(start int) (string, error) {
	buf := append([]byte(nil), s.data[start:s.i]...)
	for s.i < len(s.data) {
		c := s.data[s.i]
		switch {
		case c == '"':
			s.i++
			return string(buf), nil
		case c == '\\':
			s.i++
			if s.i >= len(s.data) {
				return "", s.fail("unterminated string")
			}
			e := s.data[s.i]
			s.i++
			switch e {
			case '"', '\\', '/':
				buf = append(buf, e)
			case 'b':
				buf = append(buf, '\b')
			case 'f':
				buf = append(buf, '\f')
			case 'n':
				buf = append(buf, '\n')
			case 'r':
				buf = append(buf, '\r')
			case 't':
				buf = append(buf, '\t')
			case 'u':
				r, ok := s.hex4()
				if !ok {
					return "", s.fail("bad \\u escape")
				}
				if utf16.IsSurrogate(r) {
					r2 := rune(-1)
					if s.i+1 < len(s.data) && s.data[s.i] == '\\' && s.data[s.i+1] == 'u' {
						save := s.i
						s.i += 2
						var ok2 bool
						if r2, ok2 = s.hex4(); !ok2 {
							return "", s.fail("bad \\u escape")
						}
						if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
							r = dec
						} else {
							s.i = save
							r = utf8.RuneError
						}
					} else {
						r = utf8.RuneError
					}
				}
				buf = utf8.AppendRune(buf, r)
			default:
				return "", s.fail("bad escape")
			}
		case c < 0x20:
			return "", s.fail("control character in string")
		case c < utf8.RuneSelf:
			buf = append(buf, c)
			s.i++
		default:
			r, size := utf8.DecodeRune(s.data[s.i:])
			if r == utf8.RuneError && size == 1 {
				return "", s.fail("invalid UTF-8 in string")
			}
			buf = append(buf, s.data[s.i:s.i+size]...)
			s.i += size
		}
	}
	return "", s.fail("unterminated string")
}

func (s *Scanner) hex4() (rune, bool) {
	if s.i+4 > len(s.data) {
		return 0, false
	}
	var r rune
	for _, c := range s.data[s.i : s.i+4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	s.i += 4
	return r, true
}

// ReadNumber reads a number and returns its literal text.
func (s *Scanner) ReadNumber() (string, error) {
	start := s.i
	d := s.data
	if s.i < len(d) && d[s.i] == '-' {
		s.i++
	}
	switch {
	case s.i < len(d) && d[s.i] == '0':
		s.i++
	case s.i < len(d) && d[s.i] >= '1' && d[s.i] <= '9':
		s.digits()
	default:
		return "", s.fail("bad number")
	}
	if s.i < len(d) && d[s.i] == '.' {
		s.i++
		if s.digits() == 0 {
			return "", s.fail("bad number")
		}
	}
	if s.i < len(d) && (d[s.i] == 'e' || d[s.i] == 'E') {
		s.i++
		if s.i < len(d) && (d[s.i] == '+' || d[s.i] == '-') {
			s.i++
		}
		if s.digits() == 0 {
			return "", s.fail("bad number")
		}
	}
	return string(d[start:s.i]), nil
}

func (s *Scanner) digits() int {
	n := 0
	for s.i < len(s.data) && s.data[s.i] >= '0' && s.data[s.i] <= '9' {
		s.i++
		n++
	}
	return n
}

// ReadBool reads true or false. ok is false, and nothing is read, when the
// next value is of another type.
func (s *Scanner) ReadBool() (v, ok bool, err error) {
	switch s.Peek() {
	case 't':
		return true, true, s.literal("true")
	case 'f':
		return false, true, s.literal("false")
	}
	return false, false, nil
}

func (s *Scanner) literal(word string) error {
	if len(s.data)-s.i < len(word) || string(s.data[s.i:s.i+len(word)]) != word {
		return s.fail("invalid character")
	}
	s.i += len(word)
	return nil
}

// Skip reads and discards any value, checking its syntax.
func (s *Scanner) Skip(depth int) error {
	if depth > MaxDepth {
		return s.fail("nesting deeper than " + strconv.Itoa(MaxDepth))
	}
	switch c := s.Peek(); {
	case c == '{':
		return s.Object(depth, func(string) error { return s.Skip(depth + 1) })
	case c == '[':
		return s.Array(depth, func(int) error { return s.Skip(depth + 1) })
	case c == '"':
		_, err := s.ReadString()
		return err
	case c == '-' || (c >= '0' && c <= '9'):
		_, err := s.ReadNumber()
		return err
	case c == 't':
		return s.literal("true")
	case c == 'f':
		return s.literal("false")
	case c == 'n':
		return s.literal("null")
	case s.i >= len(s.data):
		return s.fail("unexpected end of JSON")
	default:
		return s.fail("invalid character " + strconv.QuoteRune(rune(c)))
	}
}

// SkipRaw reads any value as Skip does and returns its text, a view of
// the data (for a value kept whole, such as a document in another
// schema).
func (s *Scanner) SkipRaw(depth int) ([]byte, error) {
	s.ws()
	start := s.i
	if err := s.Skip(depth); err != nil {
		return nil, err
	}
	return s.data[start:s.i], nil
}

// Objects and arrays are read step by step, without a callback:
//
//	if err := s.OpenObject(depth); err != nil { ... }
//	for first := true; ; first = false {
//		key, done, err := s.NextKey(first)
//		if err != nil || done { ... }
//		// read or Skip the member's value
//	}
//
// and likewise OpenArray and NextElement. Object and Array wrap them for
// callers that prefer a callback.

// OpenObject reads the '{' that opens an object at nesting depth.
func (s *Scanner) OpenObject(depth int) error {
	if depth > MaxDepth {
		return s.fail("nesting deeper than " + strconv.Itoa(MaxDepth))
	}
	if s.Peek() != '{' {
		return s.fail("expected an object")
	}
	s.i++
	return nil
}

// NextKey reads what precedes the next member's value: the ',' (unless
// first), the key and the ':'. done is true, and the closing '}' read,
// when the object ends instead.
func (s *Scanner) NextKey(first bool) (key string, done bool, err error) {
	c := s.Peek()
	if c == '}' {
		s.i++
		return "", true, nil
	}
	if !first {
		if c != ',' {
			return "", false, s.fail("expected ',' or '}'")
		}
		s.i++
		c = s.Peek()
	}
	if c != '"' {
		return "", false, s.fail("expected a field name")
	}
	if key, err = s.ReadString(); err != nil {
		return "", false, err
	}
	if s.Peek() != ':' {
		return "", false, s.fail("expected ':'")
	}
	s.i++
	s.ws()
	return key, false, nil
}

// OpenArray reads the '[' that opens an array at nesting depth.
func (s *Scanner) OpenArray(depth int) error {
	if depth > MaxDepth {
		return s.fail("nesting deeper than " + strconv.Itoa(MaxDepth))
	}
	if s.Peek() != '[' {
		return s.fail("expected an array")
	}
	s.i++
	return nil
}

// NextElement reads what precedes the next element: the ',' unless
// first. done is true, and the closing ']' read, when the array ends
// instead.
func (s *Scanner) NextElement(first bool) (done bool, err error) {
	c := s.Peek()
	if c == ']' {
		s.i++
		return true, nil
	}
	if !first {
		if c != ',' {
			return false, s.fail("expected ',' or ']'")
		}
		s.i++
		s.ws()
	}
	return false, nil
}

// Object reads an object at s.i, calling field for each member with the
// scanner at the member's value; field must consume the value.
func (s *Scanner) Object(depth int, field func(key string) error) error {
	if err := s.OpenObject(depth); err != nil {
		return err
	}
	for first := true; ; first = false {
		key, done, err := s.NextKey(first)
		if err != nil || done {
			return err
		}
		if err := field(key); err != nil {
			return err
		}
	}
}

// Array reads an array, calling elem with the scanner at each element.
func (s *Scanner) Array(depth int, elem func(i int) error) error {
	if err := s.OpenArray(depth); err != nil {
		return err
	}
	for n := 0; ; n++ {
		done, err := s.NextElement(n == 0)
		if err != nil || done {
			return err
		}
		if err := elem(n); err != nil {
			return err
		}
	}
}

// PlainObject reads, when the text at s.i is exactly such an object, an
// object whose members are keys, each once and in any order, with no
// white space anywhere, and whose keys and values are strings without
// escapes or control characters: {"a":"x","b":"°F"}. It sets vals[i] to
// the value of keys[i] (views of the data, as ReadString's) and reports
// true. Otherwise it reads nothing and reports false, and the caller reads
// the object the general way. It is a shortcut for the common shape of a
// small object (at most 64 keys), checking everything the general path
// checks of that shape.
func (s *Scanner) PlainObject(keys []string, vals []string) bool {
	d, i := s.data, s.i
	if i >= len(d) || d[i] != '{' || len(keys) > 64 {
		return false
	}
	i++
	var seen uint64
	for m := range keys {
		if m > 0 {
			if i >= len(d) || d[i] != ',' {
				return false
			}
			i++
		}
		k := matchKey(d, i, keys)
		if k < 0 || seen&(1<<k) != 0 {
			return false
		}
		seen |= 1 << k
		var ok bool
		if vals[k], i, ok = plainString(d, i+len(keys[k])+3); !ok { // past "key":
			return false
		}
	}
	if i >= len(d) || d[i] != '}' {
		return false
	}
	s.i = i + 1
	return true
}

// matchKey returns the index of the key of keys that d[i:] opens with, as
// "key":, or -1. Keys are compared by their first byte before the rest.
func matchKey(d []byte, i int, keys []string) int {
	if i+1 >= len(d) || d[i] != '"' {
		return -1
	}
	first := d[i+1]
	for k, key := range keys {
		if end := i + 1 + len(key); len(key) > 0 && key[0] == first && end+1 < len(d) &&
			d[end] == '"' && d[end+1] == ':' && string(d[i+1:end]) == key {
			return k
		}
	}
	return -1
}

// plainString reads a string of valid UTF-8 without escapes or control
// characters at d[i], returning it (a view of d) and the offset after its
// closing quote.
func plainString(d []byte, i int) (v string, next int, ok bool) {
	if i >= len(d) || d[i] != '"' {
		return "", 0, false
	}
	i++
	start := i
	for i < len(d) && plainASCII[d[i]] {
		i++
	}
	if i < len(d) && d[i] >= utf8.RuneSelf {
		if i, ok = skipUTF8(d, i); !ok {
			return "", 0, false
		}
	}
	if i >= len(d) || d[i] != '"' {
		return "", 0, false
	}
	if i > start {
		v = unsafe.String(&d[start], i-start)
	}
	return v, i + 1, true
}

// skipUTF8 reads on from d[i] over plain ASCII and valid UTF-8, up to the
// first other byte; ok is false at invalid UTF-8.
func skipUTF8(d []byte, i int) (next int, ok bool) {
	for i < len(d) {
		if c := d[i]; plainASCII[c] {
			i++
			continue
		} else if c < utf8.RuneSelf {
			break
		}
		r, size := utf8.DecodeRune(d[i:])
		if r == utf8.RuneError && size == 1 {
			return i, false
		}
		i += size
	}
	return i, true
}

// End checks that nothing but white space follows the top-level value.
func (s *Scanner) End() error {
	if s.ws(); s.i < len(s.data) {
		return s.fail("unexpected data after the top-level value")
	}
	return nil
}
