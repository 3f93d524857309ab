package obj

import (
	"bufio"
	"errors"
	"io"
)

// MaxLineLength is the longest logical line the reader accepts, in bytes,
// counting comments and the lines joined to it by backslashes. Real files have
// lines of tens of bytes, but a face may be a polygon of millions of vertices (a
// polygon of 450,000 vertices takes 3.2 MB); the limit only stops a file without
// line breaks from growing the line buffer without bound.
const MaxLineLength = 1 << 24

// lineReader splits its input into logical lines: comments removed, lines ending
// in a backslash joined to the next one.
type lineReader struct {
	br   *bufio.Reader
	buf  []byte // the logical line being built; reused between lines
	line int    // number of the last physical line read
}

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{br: bufio.NewReaderSize(r, 64<<10)}
}

// next returns the next logical line and the number of its first physical line,
// or io.EOF after the last one. The returned slice is valid until the next call.
func (lr *lineReader) next() ([]byte, int, error) {
	lr.buf = lr.buf[:0]
	first := lr.line + 1
	continued := false
	for {
		start := len(lr.buf)
		got, err := lr.appendPhysical(first)
		if err != nil && err != io.EOF {
			return nil, first, err
		}
		if !got {
			// End of input. A backslash on the last line continues into nothing;
			// what came before it still counts.
			if continued {
				return lr.buf, first, nil
			}
			return nil, first, io.EOF
		}
		lr.line++
		lr.buf = cleanPhysical(lr.buf, start)
		if n := len(lr.buf); n > start && lr.buf[n-1] == '\\' {
			lr.buf[n-1] = ' ' // a continuation separates fields like a blank
			continued = true
			if err == io.EOF {
				return lr.buf, first, nil
			}
			continue
		}
		return lr.buf, first, nil
	}
}

// appendPhysical appends the next physical line, without its line break, to
// lr.buf. got is false when the input had no more bytes; err is io.EOF when the
// input ended with this line.
func (lr *lineReader) appendPhysical(first int) (got bool, err error) {
	for {
		chunk, err := lr.br.ReadSlice('\n')
		if len(chunk) > 0 {
			got = true
			if len(lr.buf)+len(chunk) > MaxLineLength+1 { // +1: the '\n' itself
				return got, &FormatError{Line: first, Msg: "line longer than 16 MiB (is this an OBJ file?)"}
			}
			lr.buf = append(lr.buf, chunk...)
		}
		switch {
		case err == nil:
			lr.buf = lr.buf[:len(lr.buf)-1] // the '\n'
			return got, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		default:
			return got, err
		}
	}
}

// cleanPhysical removes the comment and the trailing blanks (including the
// '\r' of a CRLF line break) from the physical line buf[start:]. Comments go
// first so that a comment ending in a backslash, such as a Windows path, does
// not swallow the next line.
func cleanPhysical(buf []byte, start int) []byte {
	for i := start; i < len(buf); i++ {
		if buf[i] == '#' {
			buf = buf[:i]
			break
		}
	}
	for len(buf) > start && isBlank(buf[len(buf)-1]) {
		buf = buf[:len(buf)-1]
	}
	return buf
}

// isBlank reports whether c separates fields.
func isBlank(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'
}

// nextField splits the first blank-separated field off b. field is empty when
// b holds only blanks.
func nextField(b []byte) (field, rest []byte) {
	i := 0
	for i < len(b) && isBlank(b[i]) {
		i++
	}
	j := i
	for j < len(b) && !isBlank(b[j]) {
		j++
	}
	return b[i:j], b[j:]
}
