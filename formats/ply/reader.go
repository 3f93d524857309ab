package ply

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"slices"
	"strconv"
)

// A Reader reads a PLY file: NewReader parses and checks the header, then
// ReadRecord, AppendRecord or ReadElement return the records of each
// element in turn, in the packed layout (see Element) whatever the file's
// format, so that callers handle one layout only.
//
// The reader is strict, because a file that a lenient reader misreads
// shows up as a broken picture much later: the body must hold exactly the
// records the header declares. In binary files nothing may follow the
// last record. In ASCII files every record is one line with exactly the
// values its properties call for, separated by blanks (spaces or tabs),
// and only blanks and line breaks may follow the last record; lines may
// end in "\r\n" and hold at most MaxLineLength bytes. An ASCII integer is
// decimal with an optional sign and must fit its type: 256 is not a uchar
// and 2.0 is not an int. An ASCII float is what C's strtod reads (decimal
// or hexadecimal with a p exponent; nan, inf and infinity in any case,
// with an optional sign) within the range of its type: 1e39 is not a
// float, but 1e-50 is (zero). A NaN reads as the quiet NaN of its sign.
//
// Malformed input yields a *FormatError naming the header line, or the
// element, record and line (ASCII) or byte offset (binary) at fault; an
// error of the underlying reader is wrapped. Both are returned again by
// every later call. No allocation is sized from a count in the file:
// buffers grow only as the bytes they hold arrive.
type Reader struct {
	br      *bufio.Reader
	h       Header
	plans   []plan
	format  Format
	off     int64 // bytes consumed from the start of the file
	line    int   // number of the last line read, in the header or an ASCII body
	cur     int   // the element being read: the first with records left, or len(plans)
	n       int64 // records of plans[cur] read
	lineBuf []byte
	size    int64 // bytes the source held when NewReader was called, or -1 if unknown
	err     error // sticky: a FormatError, an I/O error, or io.EOF after the end is checked
}

// chunkSize bounds a single read of binary data, so that a list or an
// element grows its buffer by at most this much before the bytes arrive.
const chunkSize = 64 << 10

// NewReader reads and validates the header of a PLY file from r. The
// returned Reader is positioned at the first record. Errors in the file
// are *FormatError values.
func NewReader(r io.Reader) (*Reader, error) {
	size := sourceSize(r)
	// A small source gets a small buffer, which must still hold a whole
	// header line and its line break for parseHeader's length check.
	bufSize := 64 << 10
	if size >= 0 && size < int64(bufSize) {
		bufSize = max(int(size), 2*MaxHeaderLineLength)
	}
	br := bufio.NewReaderSize(r, bufSize)
	h, off, lines, err := parseHeader(br)
	if err != nil {
		return nil, err
	}
	rd := &Reader{br: br, h: h, plans: newPlans(h), format: h.Format, off: off, line: lines, size: size}
	rd.advance()
	return rd, nil
}

// Header returns a copy of the file's header.
func (r *Reader) Header() Header { return r.h.Clone() }

// Pos returns the index in the header of the element the next record
// belongs to (len(Elements) after the last record) and the index of that
// record within the element. Elements without records are skipped.
func (r *Reader) Pos() (element int, record int64) { return r.cur, r.n }

func (r *Reader) advance() {
	for r.cur < len(r.plans) && r.n == r.plans[r.cur].count {
		r.cur++
		r.n = 0
	}
}

// ReadRecord reads the next record into rec, which must hold at least
// RecordSize bytes of its element; the element must have no lists (use
// AppendRecord for those). After the last record of the last element it
// checks that nothing but what the format allows follows, and returns
// io.EOF.
func (r *Reader) ReadRecord(rec []byte) error {
	if r.err != nil {
		return r.err
	}
	if r.cur == len(r.plans) {
		return r.end()
	}
	p := &r.plans[r.cur]
	if p.size < 0 {
		return errors.New("ply: ReadRecord: element " + p.name + " has list properties; use AppendRecord")
	}
	if len(rec) < p.size {
		return errors.New("ply: ReadRecord: record of " + strconv.Itoa(len(rec)) + " bytes, element " +
			p.name + " has records of " + strconv.Itoa(p.size))
	}
	_, err := r.AppendRecord(rec[:0])
	return err
}

// AppendRecord appends the next record, of any element, to dst and
// returns the extended slice; Pos, called before, tells its element.
// After the last record it returns dst and io.EOF once the end of the file
// is checked.
func (r *Reader) AppendRecord(dst []byte) ([]byte, error) {
	if r.err != nil {
		return dst, r.err
	}
	if r.cur == len(r.plans) {
		return dst, r.end()
	}
	p := &r.plans[r.cur]
	var err error
	if r.format == ASCII {
		dst, err = r.appendASCII(dst, p)
	} else {
		dst, err = r.appendBinary(dst, p)
	}
	if err != nil {
		r.err = err
		return dst, err
	}
	r.n++
	r.advance()
	return dst, nil
}

// ReadElement appends the remaining records of the current element (see
// Pos) to dst, back to back, and returns the extended slice. After the
// last element it returns dst and io.EOF once the end of the file is
// checked.
func (r *Reader) ReadElement(dst []byte) ([]byte, error) {
	if r.err != nil {
		return dst, r.err
	}
	if r.cur == len(r.plans) {
		return dst, r.end()
	}
	p := &r.plans[r.cur]
	if r.format == ASCII || p.size < 0 {
		for i := r.cur; r.cur == i; {
			var err error
			if dst, err = r.AppendRecord(dst); err != nil {
				return dst, err
			}
		}
		return dst, nil
	}
	// Binary records of fixed size: read as large blocks as the buffer
	// holds, growing it geometrically as the data arrives, or at once to
	// what the source holds if it says (a file, a bytes.Reader).
	for r.n < p.count {
		if cap(dst)-len(dst) < p.size {
			grow := max(len(dst), chunkSize)
			if avail := r.size - r.off; r.size >= 0 && avail > int64(grow) {
				grow = int(min(avail, math.MaxInt))
			}
			if left := p.count - r.n; left <= int64(grow/p.size) {
				grow = int(left) * p.size
			}
			dst = slices.Grow(dst, max(grow, p.size))
		}
		k := min(int64((cap(dst)-len(dst))/p.size), p.count-r.n)
		b := dst[len(dst) : len(dst)+int(k)*p.size]
		m, err := io.ReadFull(r.br, b)
		r.off += int64(m)
		if err != nil {
			r.n += int64(m / p.size)
			r.err = r.readError(p, err, m%p.size != 0)
			return dst[:len(dst)+m-m%p.size], r.err
		}
		if r.format == BinaryBigEndian {
			p.swapRecords(b)
		}
		dst = dst[:len(dst)+len(b)]
		r.n += k
	}
	r.advance()
	return dst, nil
}

// sourceSize returns the number of bytes left in r if r can tell: a
// bytes.Reader, strings.Reader or bytes.Buffer (Len), or a regular file
// (Stat and Seek); else -1. A file that grows meanwhile does no harm: the
// size only sets the first allocation of ReadElement, which grows as usual
// if more arrives, and never exceeds what the header declares.
func sourceSize(r io.Reader) int64 {
	switch s := r.(type) {
	case interface{ Len() int }:
		return int64(s.Len())
	case interface {
		io.Seeker
		Stat() (fs.FileInfo, error)
	}:
		fi, err := s.Stat()
		if err != nil || !fi.Mode().IsRegular() {
			return -1
		}
		pos, err := s.Seek(0, io.SeekCurrent)
		if err != nil || pos > fi.Size() {
			return -1
		}
		return fi.Size() - pos
	}
	return -1
}

// readError turns an error of the underlying reader, met while reading
// record r.n of p, into a FormatError if the file ended.
func (r *Reader) readError(p *plan, err error, inside bool) error {
	if err != io.EOF && err != io.ErrUnexpectedEOF {
		return fmt.Errorf("ply: reading element %s record %d at byte %d: %w", p.name, r.n, r.off, err)
	}
	msg := "the file ends after " + strconv.FormatInt(r.n, 10) + " of the " + strconv.FormatInt(p.count, 10) + " records"
	if inside {
		msg = "the file ends inside the record (of " + strconv.FormatInt(p.count, 10) + " declared)"
	}
	return &FormatError{Offset: r.off, Element: p.name, Record: r.n, Msg: msg, Err: io.ErrUnexpectedEOF}
}

// appendBinary appends record r.n of p from a binary body.
func (r *Reader) appendBinary(dst []byte, p *plan) ([]byte, error) {
	if p.size >= 0 {
		dst = slices.Grow(dst, p.size)
		b := dst[len(dst) : len(dst)+p.size]
		m, err := io.ReadFull(r.br, b)
		r.off += int64(m)
		if err != nil {
			return dst, r.readError(p, err, m > 0)
		}
		if r.format == BinaryBigEndian {
			p.swapRecords(b)
		}
		return dst[:len(dst)+p.size], nil
	}
	start := len(dst)
	read := func(n int) error {
		for n > 0 {
			k := min(n, chunkSize)
			dst = slices.Grow(dst, k)
			b := dst[len(dst) : len(dst)+k]
			m, err := io.ReadFull(r.br, b)
			r.off += int64(m)
			if err != nil {
				return r.readError(p, err, len(dst)+m > start)
			}
			dst = dst[:len(dst)+k]
			n -= k
		}
		return nil
	}
	for _, q := range p.props {
		if !q.IsList {
			sz := q.Type.Size()
			if err := read(sz); err != nil {
				return dst, err
			}
			if r.format == BinaryBigEndian {
				swapValues(dst[len(dst)-sz:], sz)
			}
			continue
		}
		cs := q.CountType.Size()
		if err := read(cs); err != nil {
			return dst, err
		}
		if r.format == BinaryBigEndian {
			swapValues(dst[len(dst)-cs:], cs)
		}
		count := q.CountType.Int64(dst[len(dst)-cs:])
		if count < 0 {
			return dst, &FormatError{Offset: r.off - int64(cs), Element: p.name, Record: r.n,
				Msg: "list " + q.Name + " has a negative item count " + strconv.FormatInt(count, 10)}
		}
		sz := q.Type.Size()
		items := len(dst)
		if err := read(int(count) * sz); err != nil {
			return dst, err
		}
		if r.format == BinaryBigEndian {
			swapValues(dst[items:], sz)
		}
	}
	return dst, nil
}

// readLine reads the next line of an ASCII body, without its line break
// ("\n" or "\r\n"). It returns io.EOF at the end of the input; the last
// line need not end in a line break. The line is valid until the next
// read.
func (r *Reader) readLine() ([]byte, error) {
	b, err := r.br.ReadSlice('\n')
	r.off += int64(len(b))
	if errors.Is(err, bufio.ErrBufferFull) {
		r.lineBuf = append(r.lineBuf[:0], b...)
		for errors.Is(err, bufio.ErrBufferFull) {
			if len(r.lineBuf) > MaxLineLength+1 {
				return nil, &FormatError{Line: r.line + 1, Offset: r.off - int64(len(r.lineBuf)), Record: -1,
					Msg: "line of over " + strconv.Itoa(len(r.lineBuf)-1) + " bytes is longer than the limit of " + strconv.Itoa(MaxLineLength) + " bytes"}
			}
			b, err = r.br.ReadSlice('\n')
			r.off += int64(len(b))
			r.lineBuf = append(r.lineBuf, b...)
		}
		b = r.lineBuf
	}
	switch {
	case err == io.EOF && len(b) == 0:
		return nil, io.EOF
	case err != nil && err != io.EOF:
		return nil, err
	}
	r.line++
	if len(b) > 0 && b[len(b)-1] == '\n' {
		b = b[:len(b)-1]
	}
	if len(b) > 0 && b[len(b)-1] == '\r' {
		b = b[:len(b)-1]
	}
	if len(b) > MaxLineLength {
		return nil, &FormatError{Line: r.line, Offset: r.off - int64(len(b)), Record: -1,
			Msg: "line of " + strconv.Itoa(len(b)) + " bytes is longer than the limit of " + strconv.Itoa(MaxLineLength) + " bytes"}
	}
	return b, nil
}

// appendASCII appends record r.n of p, parsed from the next line.
func (r *Reader) appendASCII(dst []byte, p *plan) ([]byte, error) {
	start := r.off
	line, err := r.readLine()
	if err != nil {
		var fe *FormatError
		switch {
		case errors.As(err, &fe):
			fe.Element, fe.Record = p.name, r.n
			return dst, fe
		case err == io.EOF:
			return dst, &FormatError{Line: r.line + 1, Offset: r.off, Element: p.name, Record: r.n, Err: io.ErrUnexpectedEOF,
				Msg: "the file ends after " + strconv.FormatInt(r.n, 10) + " of the " + strconv.FormatInt(p.count, 10) + " records"}
		}
		return dst, fmt.Errorf("ply: reading line %d (element %s record %d): %w", r.line+1, p.name, r.n, err)
	}
	fail := func(msg string, err error) error {
		return &FormatError{Line: r.line, Offset: start, Element: p.name, Record: r.n, Msg: msg, Err: err}
	}
	rest := line
	values := 0
	var tok []byte
	for _, q := range p.props {
		if !q.IsList {
			if tok, rest = nextWord(rest); len(tok) == 0 {
				return dst, fail(strconv.Itoa(values)+" values on the line, but "+p.name+" has "+
					strconv.Itoa(len(p.props))+" properties: "+q.Name+" is missing", nil)
			}
			msg, err := "", error(nil)
			if dst, msg, err = appendParsed(dst, q.Type, tok); msg != "" {
				return dst, fail("property "+q.Name+": "+msg, err)
			}
			values++
			continue
		}
		if tok, rest = nextWord(rest); len(tok) == 0 {
			return dst, fail(strconv.Itoa(values)+" values on the line: the item count of list "+q.Name+" is missing", nil)
		}
		msg, err := "", error(nil)
		if dst, msg, err = appendParsed(dst, q.CountType, tok); msg != "" {
			return dst, fail("item count of list "+q.Name+": "+msg, err)
		}
		values++
		count := q.CountType.Int64(dst[len(dst)-q.CountType.Size():])
		if count < 0 {
			return dst, fail("list "+q.Name+" has a negative item count "+strconv.FormatInt(count, 10), nil)
		}
		for k := range count {
			if tok, rest = nextWord(rest); len(tok) == 0 {
				return dst, fail("list "+q.Name+" declares "+strconv.FormatInt(count, 10)+" items, the line holds "+
					strconv.FormatInt(k, 10), nil)
			}
			if dst, msg, err = appendParsed(dst, q.Type, tok); msg != "" {
				return dst, fail("list "+q.Name+" item "+strconv.FormatInt(k, 10)+": "+msg, err)
			}
			values++
		}
	}
	if tok, _ = nextWord(rest); len(tok) > 0 {
		return dst, fail("more values on the line than the "+strconv.Itoa(values)+" that the properties of "+p.name+
			" call for, starting with "+strconv.Quote(string(tok)), nil)
	}
	return dst, nil
}

// end checks, after the last record, that the rest of the file is empty
// (binary) or blank (ASCII), and sets r.err to io.EOF or the problem.
func (r *Reader) end() error {
	if r.err != nil {
		return r.err
	}
	if r.format != ASCII {
		switch _, err := r.br.Peek(1); {
		case err == nil:
			r.err = &FormatError{Offset: r.off, Record: -1, Msg: "data after the last record of the last element"}
		case err == io.EOF:
			r.err = io.EOF
		default:
			r.err = fmt.Errorf("ply: reading after the last record at byte %d: %w", r.off, err)
		}
		return r.err
	}
	line := r.line + 1
	for {
		b, err := r.br.ReadSlice('\n')
		for i, c := range b {
			if !isBlank(c) && c != '\r' && c != '\n' {
				r.err = &FormatError{Line: line, Offset: r.off + int64(i), Record: -1,
					Msg: fmt.Sprintf("data after the last record of the last element: %q", b[i:min(len(b), i+20)])}
				return r.err
			}
		}
		r.off += int64(len(b))
		if len(b) > 0 && b[len(b)-1] == '\n' {
			line++
		}
		switch {
		case err == nil, errors.Is(err, bufio.ErrBufferFull):
		case err == io.EOF:
			r.err = io.EOF
			return r.err
		default:
			r.err = fmt.Errorf("ply: reading after the last record at byte %d: %w", r.off, err)
			return r.err
		}
	}
}
