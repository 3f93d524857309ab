package ply

import "strconv"

// A FormatError reports that the input is not a valid PLY file, and where.
//
// Line is the 1-based number of the line at fault, in the header or in the
// body of an ASCII file, or 0. Offset is the byte offset from the start of
// the file of that line (ASCII) or of the value at fault (binary), or -1.
// Element and Record name the record at fault (Record counts from 0 within
// the element), or are "" and -1 for errors in the header or after the
// last element. Err is the underlying error, if any: io.ErrUnexpectedEOF
// for a file that ends too early, a *strconv.NumError for an ASCII value
// out of range; errors.Is and errors.As see it through Unwrap.
type FormatError struct {
	Line    int
	Offset  int64
	Element string
	Record  int64
	Msg     string
	Err     error
}

func (e *FormatError) Error() string {
	s := "ply: "
	switch {
	case e.Line > 0:
		s += "line " + strconv.Itoa(e.Line) + ": "
	case e.Offset >= 0:
		s += "byte " + strconv.FormatInt(e.Offset, 10) + ": "
	}
	if e.Element != "" {
		s += "element " + e.Element
		if e.Record >= 0 {
			s += " record " + strconv.FormatInt(e.Record, 10)
		}
		s += ": "
	}
	s += e.Msg
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

func (e *FormatError) Unwrap() error { return e.Err }

// headerError returns a FormatError about header line n starting at byte
// off.
func headerError(n int, off int64, msg string) *FormatError {
	return &FormatError{Line: n, Offset: off, Record: -1, Msg: msg}
}
