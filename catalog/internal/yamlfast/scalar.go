package yamlfast

import (
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// quoted reads the single- or double-quoted scalar at pos, which must end
// on its line.
func (p *parser) quoted() *yaml.Node {
	start := p.pos
	s := p.src
	q := s[start]
	n := p.node(yaml.ScalarNode, "!!str", start)
	if q == '\'' {
		n.Style = yaml.SingleQuotedStyle
	} else {
		n.Style = yaml.DoubleQuotedStyle
	}
	i := start + 1
	escaped := false
	p.buf = p.buf[:0]
	for {
		if i >= len(s) || s[i] == '\n' {
			p.fail() // unterminated, or folded over lines
		}
		c := s[i]
		switch {
		case c == q && q == '\'' && i+1 < len(s) && s[i+1] == '\'':
			p.buf = append(p.buf, s[i])
			i += 2
			escaped = true
			continue
		case c == q:
			if escaped {
				n.Value = string(p.buf)
			} else {
				n.Value = s[start+1 : i]
			}
			p.pos = i + 1
			return n
		case c == '\\' && q == '"':
			i = p.escape(i)
			escaped = true
			continue
		}
		p.buf = append(p.buf, c)
		i++
	}
}

// escape appends to buf what the escape sequence at offset i of a
// double-quoted scalar stands for, and returns the offset past it.
func (p *parser) escape(i int) int {
	s := p.src
	if i+1 >= len(s) {
		p.fail()
	}
	size := 0
	switch s[i+1] {
	case '0':
		p.buf = append(p.buf, 0)
	case 'a':
		p.buf = append(p.buf, '\a')
	case 'b':
		p.buf = append(p.buf, '\b')
	case 't':
		p.buf = append(p.buf, '\t')
	case 'n':
		p.buf = append(p.buf, '\n')
	case 'v':
		p.buf = append(p.buf, '\v')
	case 'f':
		p.buf = append(p.buf, '\f')
	case 'r':
		p.buf = append(p.buf, '\r')
	case 'e':
		p.buf = append(p.buf, 0x1b)
	case ' ', '"', '\'', '\\':
		p.buf = append(p.buf, s[i+1])
	case 'N':
		p.buf = utf8.AppendRune(p.buf, 0x85)
	case '_':
		p.buf = utf8.AppendRune(p.buf, 0xa0)
	case 'L':
		p.buf = utf8.AppendRune(p.buf, 0x2028)
	case 'P':
		p.buf = utf8.AppendRune(p.buf, 0x2029)
	case 'x':
		size = 2
	case 'u':
		size = 4
	case 'U':
		size = 8
	default:
		p.fail() // unknown, or a line break
	}
	i += 2
	if size == 0 {
		return i
	}
	if i+size > len(s) {
		p.fail()
	}
	r := rune(0)
	for _, c := range []byte(s[i : i+size]) {
		var d byte
		switch {
		case '0' <= c && c <= '9':
			d = c - '0'
		case 'a' <= c && c <= 'f':
			d = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			d = c - 'A' + 10
		default:
			p.fail()
		}
		r = r<<4 | rune(d)
	}
	if r >= 0xd800 && r <= 0xdfff || r > 0x10ffff {
		p.fail()
	}
	p.buf = utf8.AppendRune(p.buf, r)
	return i + size
}

// flow reads the flow sequence or mapping at pos, which must end on its
// line.
func (p *parser) flow() *yaml.Node {
	var n *yaml.Node
	var end byte
	if p.src[p.pos] == '[' {
		n, end = p.node(yaml.SequenceNode, "!!seq", p.pos), ']'
	} else {
		n, end = p.node(yaml.MappingNode, "!!map", p.pos), '}'
	}
	n.Style = yaml.FlowStyle
	p.pos++
	mark := p.open()
	p.spaces()
	if p.pos < len(p.src) && p.src[p.pos] == end {
		p.pos++
		p.content(n, mark)
		return n
	}
	for {
		if end == '}' {
			p.stack = append(p.stack, p.flowKey())
			p.spaces()
		}
		p.stack = append(p.stack, p.flowItem())
		p.spaces()
		if p.pos >= len(p.src) {
			p.fail()
		}
		switch p.src[p.pos] {
		case ',':
			p.pos++
			p.spaces()
			if p.pos >= len(p.src) || p.src[p.pos] == end {
				p.fail() // a trailing comma
			}
		case end:
			p.pos++
			p.content(n, mark)
			return n
		default:
			p.fail()
		}
	}
}

// flowKey reads a scalar key of a flow mapping and the ': ' after it.
func (p *parser) flowKey() *yaml.Node {
	var key *yaml.Node
	if p.pos >= len(p.src) {
		p.fail()
	}
	if c := p.src[p.pos]; c == '\'' || c == '"' {
		key = p.quoted()
		p.spaces()
	} else {
		start := p.pos
		end, colon := p.plainEnd(true)
		if !colon {
			p.fail()
		}
		key = p.plain(start, end)
		p.pos = end
		p.spaces()
	}
	if p.pos+1 >= len(p.src) || p.src[p.pos] != ':' || p.src[p.pos+1] != ' ' {
		p.fail()
	}
	p.pos += 2
	p.spaces()
	return key
}

// flowItem reads an item of a flow sequence or a value of a flow mapping.
func (p *parser) flowItem() *yaml.Node {
	if p.pos >= len(p.src) {
		p.fail()
	}
	switch p.src[p.pos] {
	case '[', '{':
		return p.flow()
	case '\'', '"':
		return p.quoted()
	}
	start := p.pos
	end, colon := p.plainEnd(true)
	if colon {
		p.fail() // a pair in a sequence, or a value that is a key
	}
	p.pos = end
	return p.plain(start, end)
}

// blockScalar reads the literal or folded scalar whose indicator is at
// pos, in a collection indented by parent, as yaml.v3's scanner does. It
// leaves pos at the start of the first line after it.
func (p *parser) blockScalar(parent int) *yaml.Node {
	s := p.src
	n := p.node(yaml.ScalarNode, "!!str", p.pos)
	literal := s[p.pos] == '|'
	if literal {
		n.Style = yaml.LiteralStyle
	} else {
		n.Style = yaml.FoldedStyle
	}
	p.pos++
	strip := false
	if p.pos < len(s) && s[p.pos] == '-' {
		strip = true
		p.pos++
	}
	// No indentation indicator, no keep chomping; then only a comment.
	if !p.endOfLine() || p.pos < len(s) && s[p.pos] != ' ' && s[p.pos] != '\n' {
		p.fail()
	}
	p.toEOL()
	if p.pos == len(s) {
		p.fail()
	}
	p.newline()

	b := &p.block
	b.Reset()
	indent := 0
	var leadingBreak, trailingBreaks int // counts of "\n"
	leadingBlank := false
	trailingBreaks = p.blockBreaks(&indent, parent)
	for p.pos-p.lineStart == indent && p.pos < len(s) {
		trailingBlank := s[p.pos] == ' '
		if !literal && !leadingBlank && !trailingBlank && leadingBreak > 0 {
			if trailingBreaks == 0 {
				b.WriteByte(' ')
			}
		} else {
			writeBreaks(b, leadingBreak)
		}
		leadingBreak = 0
		writeBreaks(b, trailingBreaks)
		trailingBreaks = 0
		leadingBlank = s[p.pos] == ' '
		eol := strings.IndexByte(s[p.pos:], '\n')
		if eol < 0 {
			b.WriteString(s[p.pos:])
			p.pos = len(s)
		} else {
			b.WriteString(s[p.pos : p.pos+eol])
			p.pos += eol
			leadingBreak = 1
			p.newline()
		}
		trailingBreaks = p.blockBreaks(&indent, parent)
	}
	if !strip {
		writeBreaks(b, leadingBreak)
	}
	if b.Len() == 0 {
		p.fail() // an empty block scalar: leave it to yaml.v3
	}
	n.Value = b.String()
	if p.pos < len(s) {
		p.pos = p.lineStart // the first line after the scalar, read again
	}
	return n
}

func writeBreaks(b *strings.Builder, n int) {
	for range n {
		b.WriteByte('\n')
	}
}

// blockBreaks eats the indentation and empty lines before a block
// scalar's next line, fixing the indentation from the first line that is
// not empty, and returns the number of line breaks eaten.
func (p *parser) blockBreaks(indent *int, parent int) (breaks int) {
	s := p.src
	maxIndent := 0
	for {
		for (*indent == 0 || p.pos-p.lineStart < *indent) && p.pos < len(s) && s[p.pos] == ' ' {
			p.pos++
		}
		maxIndent = max(maxIndent, p.pos-p.lineStart)
		if p.pos >= len(s) || s[p.pos] != '\n' {
			break
		}
		p.newline()
		breaks++
	}
	if *indent == 0 {
		*indent = max(maxIndent, parent+1, 1)
	}
	return breaks
}
