package ply

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// Limits on the header. Real headers have a few dozen lines of a few dozen
// bytes; the limits make a file that is not PLY, or a hostile one, fail
// after a bounded amount of reading and memory. The writer enforces them
// too, so that everything it writes can be read back.
const (
	MaxHeaderLines      = 10000 // lines from "ply" to "end_header", both included
	MaxHeaderLineLength = 4096  // bytes in one header line, without the line break
)

// MaxLineLength is the longest line of an ASCII body the reader accepts,
// in bytes without the line break. Only records with long lists come near
// it; the limit stops a file without line breaks from growing the line
// buffer without bound. The writer refuses to write a longer line.
const MaxLineLength = 1 << 20

// Validate reports whether h can be written: a valid format; comments and
// obj_info lines without control characters (tabs are allowed); element
// and property names that are non-empty and hold no blanks or control
// characters; element names unique in the header and property names
// unique in their element; valid types, and integer count types for lists;
// non-negative counts, and properties for every element with records; and
// no more than MaxHeaderLines lines of at most MaxHeaderLineLength bytes.
// The reader accepts exactly the headers that Validate accepts.
func (h Header) Validate() error {
	if !h.Format.Valid() {
		return errors.New("ply: invalid format " + h.Format.String())
	}
	for _, c := range h.Comments {
		if err := checkText("comment", c); err != nil {
			return err
		}
	}
	for _, c := range h.ObjInfo {
		if err := checkText("obj_info", c); err != nil {
			return err
		}
	}
	lines := 3 + len(h.Comments) + len(h.ObjInfo) // ply, format, end_header
	for i, e := range h.Elements {
		if p := nameProblem(e.Name); p != "" {
			return fmt.Errorf("ply: element %d: %s", i, p)
		}
		for _, f := range h.Elements[:i] {
			if f.Name == e.Name {
				return errors.New("ply: two elements named " + strconv.Quote(e.Name))
			}
		}
		if p := countProblem(e); p != "" {
			return errors.New("ply: element " + e.Name + ": " + p)
		}
		for j, p := range e.Properties {
			if msg := propertyProblem(e.Properties[:j], p); msg != "" {
				return fmt.Errorf("ply: element %s, property %d: %s", e.Name, j, msg)
			}
		}
		lines += 1 + len(e.Properties)
	}
	if lines > MaxHeaderLines {
		return fmt.Errorf("ply: the header would have %d lines, more than the limit of %d", lines, MaxHeaderLines)
	}
	return nil
}

// checkText checks the text of a comment or obj_info line.
func checkText(keyword, s string) error {
	for i := 0; i < len(s); i++ {
		if c := s[i]; isControl(c) {
			return fmt.Errorf("ply: %s %q holds control character %#02x", keyword, s, c)
		}
	}
	if len(keyword)+1+len(s) > MaxHeaderLineLength {
		return fmt.Errorf("ply: %s of %d bytes is longer than a header line may be (%d bytes)", keyword, len(s), MaxHeaderLineLength)
	}
	return nil
}

// isControl reports whether c may not occur in a header line: the C0
// control characters other than tab, and DEL.
func isControl(c byte) bool { return (c < 0x20 && c != '\t') || c == 0x7f }

// isBlank reports whether c separates the words of a header line or the
// values of an ASCII record.
func isBlank(c byte) bool { return c == ' ' || c == '\t' }

// nameProblem explains why s is not a valid element or property name, or
// returns "". A name is one word of a header line: any bytes but blanks
// and control characters, and no longer than a header line.
func nameProblem(s string) string {
	if s == "" {
		return "empty name"
	}
	if len(s) > MaxHeaderLineLength/2 {
		return "name of " + strconv.Itoa(len(s)) + " bytes is too long"
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; isBlank(c) || isControl(c) {
			return "name " + strconv.Quote(s) + " holds a blank or control character"
		}
	}
	return ""
}

// countProblem checks the record count of e.
func countProblem(e Element) string {
	switch {
	case e.Count < 0:
		return "negative count " + strconv.FormatInt(e.Count, 10)
	case e.Count > 0 && len(e.Properties) == 0:
		return strconv.FormatInt(e.Count, 10) + " records but no properties"
	}
	return ""
}

// propertyProblem checks property p, declared after the properties prev of
// the same element.
func propertyProblem(prev []Property, p Property) string {
	if msg := nameProblem(p.Name); msg != "" {
		return msg
	}
	for _, q := range prev {
		if q.Name == p.Name {
			return "two properties named " + strconv.Quote(p.Name)
		}
	}
	if !p.Type.Valid() {
		return "property " + p.Name + " has invalid " + p.Type.String()
	}
	if p.IsList && !p.CountType.IsInt() {
		return "list " + p.Name + " has count type " + p.CountType.String() + ", want an integer type"
	}
	return ""
}

// appendHeader appends the header h, which has been validated, to b.
func appendHeader(b []byte, h Header) []byte {
	b = append(b, "ply\nformat "...)
	b = append(b, h.Format.String()...)
	b = append(b, " 1.0\n"...)
	for _, c := range h.Comments {
		b = appendText(b, "comment", c)
	}
	for _, c := range h.ObjInfo {
		b = appendText(b, "obj_info", c)
	}
	for _, e := range h.Elements {
		b = append(b, "element "...)
		b = append(b, e.Name...)
		b = append(b, ' ')
		b = strconv.AppendInt(b, e.Count, 10)
		b = append(b, '\n')
		for _, p := range e.Properties {
			b = append(b, "property "...)
			b = append(b, p.String()...)
			b = append(b, '\n')
		}
	}
	return append(b, "end_header\n"...)
}

// appendText appends a comment or obj_info line. An empty text gives the
// bare keyword, without a trailing blank.
func appendText(b []byte, keyword, s string) []byte {
	b = append(b, keyword...)
	if s != "" {
		b = append(b, ' ')
		b = append(b, s...)
	}
	return append(b, '\n')
}

// headerParser reads the header line by line.
type headerParser struct {
	br    *bufio.Reader
	off   int64 // bytes consumed: the offset of the next line
	n     int   // number of the last line read
	line  []byte
	at    int64    // offset of the last line read
	words [][]byte // the words of line, reused

	elemLine int   // line of the last element declaration
	elemAt   int64 // and its offset
}

// next reads the next header line into p.line, without its line break
// ("\n" or "\r\n"), and checks its length and characters.
func (p *headerParser) next() error {
	p.at = p.off
	b, err := p.br.ReadSlice('\n')
	p.off += int64(len(b))
	p.n++
	switch {
	case err == nil:
	case errors.Is(err, bufio.ErrBufferFull):
		return headerError(p.n, p.at, "header line longer than "+strconv.Itoa(MaxHeaderLineLength)+" bytes (is this a PLY file?)")
	case err == io.EOF:
		return &FormatError{Line: p.n, Offset: p.off, Record: -1, Err: io.ErrUnexpectedEOF,
			Msg: "the file ends in the header, before end_header"}
	default:
		return fmt.Errorf("ply: reading header line %d: %w", p.n, err)
	}
	if p.n > MaxHeaderLines {
		return headerError(p.n, p.at, "more than "+strconv.Itoa(MaxHeaderLines)+" header lines without end_header")
	}
	b = b[:len(b)-1]
	if len(b) > 0 && b[len(b)-1] == '\r' {
		b = b[:len(b)-1]
	}
	if len(b) > MaxHeaderLineLength {
		return headerError(p.n, p.at, "header line of "+strconv.Itoa(len(b))+" bytes is longer than the limit of "+
			strconv.Itoa(MaxHeaderLineLength))
	}
	for _, c := range b {
		if isControl(c) {
			return headerError(p.n, p.at, fmt.Sprintf("control character %#02x in a header line", c))
		}
	}
	p.line = b
	return nil
}

// errorf returns a FormatError about the last line read.
func (p *headerParser) errorf(format string, args ...any) *FormatError {
	return headerError(p.n, p.at, fmt.Sprintf(format, args...))
}

// words splits a header line into its blank-separated words, appending
// them to dst.
func words(dst [][]byte, b []byte) [][]byte {
	for {
		i := 0
		for i < len(b) && isBlank(b[i]) {
			i++
		}
		if i == len(b) {
			return dst
		}
		j := i
		for j < len(b) && !isBlank(b[j]) {
			j++
		}
		dst = append(dst, b[i:j])
		b = b[j:]
	}
}

// parseHeader reads a header up to and including its end_header line.
//
// The first line must be exactly "ply" and the second the format line;
// then come comment, obj_info, element and property lines in any order
// (a property belongs to the last element declared), and end_header.
// Lines end in "\n"; "\r\n" is accepted too, since files copied through
// Windows tools have it, and the binary data then starts after the "\n".
func parseHeader(br *bufio.Reader) (h Header, off int64, lines int, err error) {
	if err := checkMagic(br); err != nil {
		return h, 0, 0, err
	}
	p := &headerParser{br: br}
	if err := p.next(); err != nil {
		return h, 0, 0, err
	}
	if err := p.next(); err != nil {
		return h, 0, 0, err
	}
	if h.Format, err = p.format(); err != nil {
		return h, 0, 0, err
	}
	for {
		if err := p.next(); err != nil {
			return h, 0, 0, err
		}
		end, err := p.declaration(&h)
		if err != nil {
			return h, 0, 0, err
		}
		if end {
			return h, p.off, p.n, nil
		}
	}
}

// checkMagic checks the magic before reading a line, so that a file that is not PLY
// at all fails on its first bytes.
func checkMagic(br *bufio.Reader) error {
	b, err := br.Peek(5)
	if bytes.HasPrefix(b, []byte("ply\n")) || bytes.HasPrefix(b, []byte("ply\r\n")) {
		return nil
	}
	if err != nil && err != io.EOF {
		return fmt.Errorf("ply: reading the header: %w", err)
	}
	if bytes.HasPrefix([]byte("ply\n"), b) || bytes.HasPrefix([]byte("ply\r\n"), b) {
		return &FormatError{Line: 1, Offset: int64(len(b)), Record: -1, Err: io.ErrUnexpectedEOF,
			Msg: "the file ends in the header, before end_header"}
	}
	return headerError(1, 0, fmt.Sprintf("not a PLY file: it starts with %q, not \"ply\\n\"", b))
}

// format parses the format line, the second of the header.
func (p *headerParser) format() (Format, error) {
	w := words(nil, p.line)
	if len(w) == 0 || string(w[0]) != "format" {
		return 0, p.errorf("the second line must be the format line, such as \"format binary_little_endian 1.0\"; it is %q", p.line)
	}
	if len(w) != 3 {
		return 0, p.errorf("format line %q: want \"format <ascii|binary_little_endian|binary_big_endian> 1.0\"", p.line)
	}
	var format Format
	for f := ASCII; f <= BinaryBigEndian; f++ {
		if string(w[1]) == f.String() {
			format = f
		}
	}
	if format == 0 {
		return 0, p.errorf("unknown format %q (want ascii, binary_little_endian or binary_big_endian)", w[1])
	}
	if string(w[2]) != "1.0" {
		return 0, p.errorf("unsupported version %q (want 1.0)", w[2])
	}
	return format, nil
}

// declaration adds the header line in p to h; end is true after end_header.
func (p *headerParser) declaration(h *Header) (end bool, err error) {
	p.words = words(p.words[:0], p.line)
	w := p.words
	if len(w) == 0 {
		return false, p.errorf("empty header line")
	}
	switch string(w[0]) {
	case "comment", "obj_info":
		h.addText(string(w[0]), p.line)
	case "element":
		return false, p.element(h, w)
	case "property":
		if len(h.Elements) == 0 {
			return false, p.errorf("property line before the first element line")
		}
		e := &h.Elements[len(h.Elements)-1]
		prop, msg := parseProperty(w)
		if msg == "" {
			msg = propertyProblem(e.Properties, prop)
		}
		if msg != "" {
			return false, p.errorf("element %s: %s", e.Name, msg)
		}
		e.Properties = append(e.Properties, prop)
	case "end_header":
		if len(w) != 1 {
			return false, p.errorf("end_header line %q has more words", p.line)
		}
		return true, p.endElement(h)
	case "format":
		return false, p.errorf("a second format line")
	case "ply":
		return false, p.errorf("a second \"ply\" line")
	default:
		return false, p.errorf("unknown keyword %q (want comment, obj_info, element, property or end_header)", w[0])
	}
	return false, nil
}

// element starts a new element from its declaration's words w, once the one before
// it is complete.
func (p *headerParser) element(h *Header, w [][]byte) error {
	if err := p.endElement(h); err != nil {
		return err
	}
	if len(w) != 3 {
		return p.errorf("element line %q: want \"element <name> <count>\"", p.line)
	}
	name := string(w[1])
	if msg := nameProblem(name); msg != "" {
		return p.errorf("element: %s", msg)
	}
	if _, i := h.Element(name); i >= 0 {
		return p.errorf("a second element named %q", name)
	}
	count, err := strconv.ParseInt(string(w[2]), 10, 64)
	if err != nil || count < 0 {
		return p.errorf("element %s: count %q is not a non-negative integer", name, w[2])
	}
	h.Elements = append(h.Elements, Element{Name: name, Count: count})
	p.elemLine, p.elemAt = p.n, p.at
	return nil
}

// endElement checks the last element declared, at the line that declared it.
func (p *headerParser) endElement(h *Header) error {
	if n := len(h.Elements); n > 0 {
		if msg := countProblem(h.Elements[n-1]); msg != "" {
			return headerError(p.elemLine, p.elemAt, "element "+h.Elements[n-1].Name+": "+msg)
		}
	}
	return nil
}

// addText adds a comment or obj_info line: the text is what follows the
// keyword and the one blank after it, byte for byte.
func (h *Header) addText(keyword string, line []byte) {
	i := 0
	for i < len(line) && isBlank(line[i]) {
		i++
	}
	i += len(keyword)
	if i < len(line) {
		i++ // the blank after the keyword
	}
	s := string(line[i:])
	if keyword == "comment" {
		h.Comments = append(h.Comments, s)
	} else {
		h.ObjInfo = append(h.ObjInfo, s)
	}
}

// parseProperty parses the words of a property line.
func parseProperty(w [][]byte) (Property, string) {
	const want = "want \"property <type> <name>\" or \"property list <count type> <item type> <name>\""
	if len(w) >= 2 && string(w[1]) == "list" {
		if len(w) != 5 {
			return Property{}, "list property line with " + strconv.Itoa(len(w)) + " words: " + want
		}
		ct, ok := parseType(w[2])
		if !ok {
			return Property{}, "list count type " + strconv.Quote(string(w[2])) + " is not one of " + typeNames
		}
		it, ok := parseType(w[3])
		if !ok {
			return Property{}, "list item type " + strconv.Quote(string(w[3])) + " is not one of " + typeNames
		}
		return List(string(w[4]), ct, it), ""
	}
	if len(w) != 3 {
		return Property{}, "property line with " + strconv.Itoa(len(w)) + " words: " + want
	}
	t, ok := parseType(w[1])
	if !ok {
		return Property{}, "type " + strconv.Quote(string(w[1])) + " is not one of " + typeNames
	}
	return Scalar(string(w[2]), t), ""
}
