package vdb

import "strconv"

// A FormatError reports that the input is not a valid .vdb file that this package
// can read, and where.
//
// Offset is the byte offset, from the start of the file, of the field at fault, or
// -1. Grid is the name of the grid being read, or "" for the file header. Err is the
// underlying error, if any (io.ErrUnexpectedEOF, a zlib error); errors.Is and
// errors.As see it through Unwrap.
type FormatError struct {
	Offset int64
	Grid   string
	Msg    string
	Err    error
}

func (e *FormatError) Error() string {
	s := "vdb: "
	if e.Grid != "" {
		s += "grid " + strconv.Quote(e.Grid) + ": "
	}
	if e.Offset >= 0 {
		s += "byte " + strconv.FormatInt(e.Offset, 10) + ": "
	}
	s += e.Msg
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

func (e *FormatError) Unwrap() error { return e.Err }
