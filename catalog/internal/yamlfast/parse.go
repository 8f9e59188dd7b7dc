// Package yamlfast parses the plain subset of YAML that catalog files are
// written in into the very tree yaml.v3 (go.yaml.in/yaml/v3) builds for
// the same bytes, or declines, so that the caller parses with yaml.v3.
// It is an accelerator of yaml.v3 and nothing else: whatever it is not
// sure of, it leaves to yaml.v3, so every error, and every position in
// one, stays yaml.v3's.
//
// The subset: one document of block mappings and sequences (a sequence may
// sit at the indentation of the key it is the value of, and a sequence's
// item may be a mapping starting on the item's line), single-line plain,
// single-quoted and double-quoted scalars, literal and folded block
// scalars with clip or strip chomping, single-line flow sequences and
// mappings of scalars and flow collections, and comments. Anything else
// is declined: anchors, aliases, tags, directives, document markers,
// complex keys, scalars or flow collections over more than one line, a
// tab or carriage return anywhere, a byte order mark, characters YAML
// does not allow or reads as line breaks, empty documents, and every
// syntax error.
//
// The tree equals yaml.v3's in Kind, Style, Tag (yaml.v3's resolution of
// plain scalars included), Value, Anchor, Alias, Line, Column and Content.
// Comments are skipped: the HeadComment, LineComment and FootComment of
// every node are empty.
//
// It is fast by doing little: one pass over the bytes, no tokens or
// events, the nodes and their Content allocated in slabs, and values
// that need no unescaping are substrings of one copy of the input (which
// the tree keeps alive).
package yamlfast

import (
	"bytes"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// Parse returns the document node yaml.Unmarshal would fill for src, and
// true; or nil and false when src is outside the subset the package reads.
func Parse(src []byte) (doc *yaml.Node, ok bool) {
	return new(Parser).Parse(src)
}

// A Parser parses one file after another into the same memory, so that a
// program reading many files allocates nodes for the largest of them
// rather than for all: the tree Parse returns lives until the next call
// of Parse or Release, which clear it, and must not be kept past that.
// The values of its scalars are ordinary strings and may be kept. A
// Parser is for one goroutine at a time; its zero value is ready.
type Parser struct {
	nodes []yaml.Node  // the slab the nodes are allocated from first
	kids  []*yaml.Node // the slab their Content is allocated from first
	used  int          // nodes of the slab the last tree holds
	kidsN int          // Content entries of the slab the last tree holds
	stack []*yaml.Node // scratch, kept empty
	buf   []byte       // scratch
}

// Parse is the package's Parse, into r's memory.
func (r *Parser) Parse(src []byte) (doc *yaml.Node, ok bool) {
	doc, d := r.parse(src)
	return doc, d == nil
}

// Release clears the tree of the last Parse, which must no longer be
// used, so that the memory it holds keeps nothing else alive.
func (r *Parser) Release() {
	clear(r.nodes[:r.used])
	clear(r.kids[:r.kidsN])
	r.used, r.kidsN = 0, 0
}

// parse is Parse that says where and why it declined.
func parse(src []byte) (doc *yaml.Node, d *decline) {
	return new(Parser).parse(src)
}

// parse is Parser.Parse that says where and why it declined.
func (r *Parser) parse(src []byte) (doc *yaml.Node, d *decline) {
	r.Release()
	if !allowed(src) {
		return nil, &decline{why: "a character outside the subset"}
	}
	// Allocate most of the nodes, and of their Content, at once: a
	// mapping's entry has a ':' and two nodes, a sequence's item a "- ",
	// a flow collection's item a ',' or its last a bracket. Those
	// characters in text overcount by about a third: start with three
	// quarters of the count, at most a slab's worth (input that is all
	// colons is no reason to allocate much), and go on in slabs. A slab
	// too small for the estimate is replaced by one a quarter larger, so
	// that files of growing sizes replace it seldom.
	n := 2*bytes.Count(src, []byte(":")) + bytes.Count(src, []byte("- ")) + bytes.Count(src, []byte(",")) +
		bytes.Count(src, []byte("[")) + bytes.Count(src, []byte("{"))
	n = min(n*3/4+2, maxSlab)
	if len(r.nodes) < n {
		r.nodes = make([]yaml.Node, n+n/4)
	}
	if len(r.kids) < n {
		r.kids = make([]*yaml.Node, n+n/4)
	}
	p := &parser{src: string(src), nodes: r.nodes, kids: r.kids, stack: r.stack[:0], buf: r.buf[:0]}
	defer func() {
		// What the tree holds of r's slabs, for Release: all of a slab
		// once the parser went on to another.
		r.used, r.kidsN = len(r.nodes), len(r.kids)
		if !p.moreNodes {
			r.used -= len(p.nodes)
		}
		if !p.moreKids {
			r.kidsN -= len(p.kids)
		}
		clear(p.stack) // left full by a decline
		r.stack, r.buf = p.stack[:0], p.buf[:0]
		if rec := recover(); rec != nil {
			dr, ok := rec.(decline)
			if !ok {
				// A fault of the parser itself, never of the input: the
				// file is read by yaml.v3 instead, and the tests fail on
				// such a decline (internal).
				dr = decline{why: fmt.Sprintf("%s %v", internal, rec)}
			}
			doc, d = nil, &dr
			r.Release() // the nodes of a tree no one gets
		}
	}()
	return p.document(), nil
}

// internal starts the reason of a decline that a fault of the parser
// caused (a runtime error), not the input.
const internal = "internal:"

// decline is what the parser panics with, and parse recovers, when the
// input leaves the subset: the parse unwinds from any depth in one step.
type decline struct {
	line, column int    // where
	why          string // the parser's line that declined
}

// allowed reports whether src is valid UTF-8 made only of characters the
// parser reads as yaml.v3 does: no tab, no carriage return, no other
// control character, none of YAML's other line breaks (U+0085, U+2028,
// U+2029), no byte order mark, and no character YAML does not allow.
func allowed(src []byte) bool {
	for i := 0; i < len(src); {
		c := src[i]
		if c < utf8.RuneSelf {
			if c < ' ' && c != '\n' || c == 0x7f {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(src[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			return false
		case r < 0xa0, r == 0x2028, r == 0x2029, r == 0xfeff, r >= 0xd800 && r < 0xe000, r == 0xfffe, r == 0xffff:
			return false
		}
		i += size
	}
	return true
}

// parser reads src from pos, which is on line line (counted from 1),
// starting at offset lineStart.
type parser struct {
	src       string
	pos       int
	line      int
	lineStart int

	nodes []yaml.Node  // a slab the nodes are allocated from
	kids  []*yaml.Node // a slab the nodes' Content is allocated from
	// Whether the parser went on from the Parser's slabs to slabs of its
	// own.
	moreNodes, moreKids bool
	stack               []*yaml.Node // the children of the collections being read
	depth               int          // collections open
	buf                 []byte       // scratch for scalars that are not a slice of src
	block               strings.Builder

	// The last column given: col, at offset colAt of the line starting
	// at colLine; 0 for none.
	colLine, colAt, col int
}

// fail declines the input.
func (p *parser) fail() {
	_, file, line, _ := runtime.Caller(1)
	panic(decline{line: p.line, column: p.column(min(p.pos, len(p.src))), why: fmt.Sprintf("%s:%d", filepath.Base(file), line)})
}

// node allocates a node at offset at of the current line.
func (p *parser) node(kind yaml.Kind, tag string, at int) *yaml.Node {
	n := p.alloc()
	n.Kind, n.Tag = kind, tag
	n.Line, n.Column = p.line, p.column(at)
	return n
}

// Nodes, and their Content, are allocated in slabs of at most maxSlab,
// after the first in slabs of slab.
const (
	maxSlab = 16384
	slab    = 256
)

// alloc returns a new zero node.
func (p *parser) alloc() *yaml.Node {
	if len(p.nodes) == 0 {
		p.nodes, p.moreNodes = make([]yaml.Node, slab), true
	}
	n := &p.nodes[0]
	p.nodes = p.nodes[1:]
	return n
}

// column is yaml.v3's column, counted in characters from 1, of offset at
// of the current line. It counts on from the last column it gave on the
// line, so that a long line costs its length once.
func (p *parser) column(at int) int {
	if p.col == 0 || p.colLine != p.lineStart || p.colAt > at {
		p.colLine, p.colAt, p.col = p.lineStart, p.lineStart, 1
	}
	s := p.src[p.colAt:at]
	n := len(s)
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			n = utf8.RuneCountInString(s)
			break
		}
	}
	p.colAt, p.col = at, p.col+n
	return p.col
}

// maxDepth bounds the nesting of collections, far below the 10,000 at
// which yaml.v3 refuses a document.
const maxDepth = 1000

// open starts a collection, and returns the mark of its children on the
// stack for content.
func (p *parser) open() (mark int) {
	if p.depth++; p.depth > maxDepth {
		p.fail()
	}
	return len(p.stack)
}

// content gives n the children pushed on the stack since mark, and ends
// the collection.
func (p *parser) content(n *yaml.Node, mark int) {
	p.depth--
	kids := p.stack[mark:]
	if len(kids) > len(p.kids) {
		p.kids, p.moreKids = make([]*yaml.Node, max(slab, len(kids))), true
	}
	n.Content = p.kids[:len(kids):len(kids)]
	p.kids = p.kids[len(kids):]
	copy(n.Content, kids)
	clear(kids)
	p.stack = p.stack[:mark]
}

// document reads the whole of src as one document whose content is a
// block mapping or sequence starting at the first column.
func (p *parser) document() *yaml.Node {
	p.line = 1
	indent, ok := p.nextLine()
	if !ok || indent != 0 {
		p.fail()
	}
	doc := p.node(yaml.DocumentNode, "", p.pos)
	mark := p.open()
	root := p.blockNode()
	if _, ok := p.nextLine(); ok {
		p.fail()
	}
	p.stack = append(p.stack, root)
	p.content(doc, mark)
	return doc
}

// nextLine moves from the end of a line (or the start of one) past blank
// and comment lines to the first character of the next line with content,
// and returns that line's indentation; false at the end of src.
func (p *parser) nextLine() (indent int, ok bool) {
	for {
		if p.pos < len(p.src) && p.src[p.pos] == '\n' {
			p.newline()
		}
		if p.pos > p.lineStart && strings.TrimLeft(p.src[p.lineStart:p.pos], " ") == "" &&
			p.pos < len(p.src) && p.src[p.pos] != '#' && p.src[p.pos] != '\n' {
			// Already at a line's first character: the line that ended
			// an inner collection.
			return p.pos - p.lineStart, true
		}
		if p.pos > p.lineStart {
			// Not at the start of a line: only spaces and a comment may
			// end it.
			p.spaces()
			if p.pos < len(p.src) && p.src[p.pos] == '#' && p.src[p.pos-1] == ' ' {
				p.toEOL()
			}
			if p.pos < len(p.src) && p.src[p.pos] != '\n' {
				p.fail()
			}
			if p.pos == len(p.src) {
				return 0, false
			}
			continue
		}
		p.spaces()
		if p.pos == len(p.src) {
			return 0, false
		}
		switch p.src[p.pos] {
		case '\n':
			continue
		case '#':
			p.toEOL()
			continue
		}
		indent = p.pos - p.lineStart
		if indent == 0 && (strings.HasPrefix(p.src[p.pos:], "---") || strings.HasPrefix(p.src[p.pos:], "...")) && p.blankAt(p.pos+3) {
			p.fail() // a document marker
		}
		return indent, true
	}
}

func (p *parser) newline() {
	p.pos++
	p.line++
	p.lineStart = p.pos
}

func (p *parser) spaces() {
	for p.pos < len(p.src) && p.src[p.pos] == ' ' {
		p.pos++
	}
}

func (p *parser) toEOL() {
	if i := strings.IndexByte(p.src[p.pos:], '\n'); i >= 0 {
		p.pos += i
	} else {
		p.pos = len(p.src)
	}
}

// blankAt reports whether offset i is a space, a line break or the end.
func (p *parser) blankAt(i int) bool {
	return i >= len(p.src) || p.src[i] == ' ' || p.src[i] == '\n'
}

// endOfLine reports whether only spaces and perhaps a comment are left on
// the line.
func (p *parser) endOfLine() bool {
	i := p.pos
	for i < len(p.src) && p.src[i] == ' ' {
		i++
	}
	return i == len(p.src) || p.src[i] == '\n' || p.src[i] == '#' && i > 0 && p.src[i-1] == ' '
}

// blockNode reads the block collection starting at pos, the first
// character of its line: a sequence or a mapping.
func (p *parser) blockNode() *yaml.Node {
	indent := p.pos - p.lineStart
	if p.src[p.pos] == '-' && p.blankAt(p.pos+1) {
		return p.sequence(indent, false)
	}
	if key := p.key(); key != nil {
		return p.mapping(indent, key)
	}
	p.fail()
	return nil
}

// key reads a mapping's key at pos, and the ':' after it, or returns nil
// with pos unmoved when there is no key there.
func (p *parser) key() *yaml.Node {
	start := p.pos
	var key *yaml.Node
	switch c := p.src[p.pos]; c {
	case '\'', '"':
		key = p.quoted()
		p.spaces()
		if p.pos >= len(p.src) || p.src[p.pos] != ':' || !p.blankAt(p.pos+1) {
			p.pos = start
			return nil
		}
	default:
		end, colon := p.plainEnd(false)
		if !colon {
			return nil
		}
		key = p.plain(start, end)
		p.pos = end
		p.spaces()
	}
	// yaml.v3 looks for a simple key's ':' at most 1024 characters on.
	if utf8.RuneCountInString(p.src[start:p.pos]) > 1000 {
		p.fail()
	}
	p.pos++ // ':'
	return key
}

// plainEnd scans the single-line plain scalar starting at pos, in block
// context, and returns the offset past its last non-space character, and
// whether it stops at a ': ' (it is a key). It fails for a scalar that
// may not start a plain scalar.
func (p *parser) plainEnd(flow bool) (end int, colon bool) {
	s := p.src
	i := p.pos
	if i >= len(s) {
		p.fail()
	}
	switch c := s[i]; c {
	case '-', '?', ':':
		if p.blankAt(i+1) || flow && c != '-' {
			p.fail()
		}
	case ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
		p.fail()
	}
	end = i
	for ; i < len(s); i++ {
		switch s[i] {
		case '\n':
			return end, false
		case ' ':
			continue
		case ':':
			if p.blankAt(i + 1) {
				return end, true
			}
			if flow && strings.IndexByte(",?[]{}", s[i+1]) >= 0 {
				p.fail()
			}
		case '#':
			if s[i-1] == ' ' {
				return end, false
			}
		case '?':
			if flow {
				p.fail()
			}
		case ',', '[', ']', '{', '}':
			if flow {
				return end, false
			}
		}
		end = i + 1
	}
	return end, false
}

// plain makes the plain scalar src[start:end], tagged as yaml.v3 tags it.
func (p *parser) plain(start, end int) *yaml.Node {
	v := p.src[start:end]
	if v == "<<" {
		p.fail() // a merge key
	}
	n := p.node(yaml.ScalarNode, resolve(v), start)
	n.Value = v
	return n
}

// mapping reads a block mapping indented by indent whose first key has
// been read.
func (p *parser) mapping(indent int, key *yaml.Node) *yaml.Node {
	m := p.alloc()
	m.Kind, m.Tag, m.Line, m.Column = yaml.MappingNode, "!!map", key.Line, key.Column
	mark := p.open()
	for {
		p.stack = append(p.stack, key)
		p.stack = append(p.stack, p.value(indent, true))
		next, ok := p.nextLine()
		if !ok || next < indent {
			break
		}
		if next > indent {
			p.fail()
		}
		if key = p.key(); key == nil {
			p.fail()
		}
	}
	p.content(m, mark)
	return m
}

// sequence reads a block sequence indented by indent; an indentless one
// is the value of a key indented as much, and ends at the next key.
func (p *parser) sequence(indent int, indentless bool) *yaml.Node {
	s := p.node(yaml.SequenceNode, "!!seq", p.pos)
	mark := p.open()
	for {
		p.pos++ // '-'
		p.stack = append(p.stack, p.value(indent, false))
		next, ok := p.nextLine()
		if !ok || next < indent {
			break
		}
		if next > indent {
			p.fail()
		}
		if p.src[p.pos] != '-' || !p.blankAt(p.pos+1) {
			if indentless {
				break
			}
			p.fail()
		}
	}
	p.content(s, mark)
	return s
}

// value reads what follows a mapping's ':' or a sequence's '-' at pos, in
// a collection indented by indent: the rest of the line and, when that is
// empty, the lines indented more (or, for a mapping, a sequence indented
// as much). It leaves pos at the end of the value's last line.
func (p *parser) value(indent int, inMapping bool) *yaml.Node {
	mark := p.pos // yaml.v3 puts an empty value just after its indicator
	markLine := p.line
	p.spaces()
	if p.endOfLine() {
		p.toEOL()
		next, ok := p.nextLine()
		if ok && next > indent {
			return p.blockNode()
		}
		if ok && inMapping && next == indent && p.src[p.pos] == '-' && p.blankAt(p.pos+1) {
			return p.sequence(indent, true)
		}
		// An empty value: back to the end of its line.
		p.rewind(mark, markLine)
		n := p.node(yaml.ScalarNode, "!!null", mark)
		p.toEOL()
		return n
	}
	start := p.pos
	switch p.src[p.pos] {
	case '[', '{':
		n := p.flow()
		if !p.endOfLine() {
			p.fail()
		}
		return n
	case '\'', '"':
		if !inMapping {
			if key := p.key(); key != nil {
				return p.mapping(start-p.lineStart, key)
			}
		}
		n := p.quoted()
		if !p.endOfLine() {
			p.fail()
		}
		return n
	case '|', '>':
		return p.blockScalar(indent)
	}
	if !inMapping {
		// A mapping may start on a sequence item's line.
		if key := p.key(); key != nil {
			return p.mapping(start-p.lineStart, key)
		}
	}
	end, colon := p.plainEnd(false)
	if colon {
		p.fail()
	}
	p.pos = end
	return p.plain(start, end)
}

// rewind moves back to offset pos of line line, which is before the
// current position.
func (p *parser) rewind(pos, line int) {
	p.pos, p.line = pos, line
	p.lineStart = strings.LastIndexByte(p.src[:pos], '\n') + 1
}
