package stl

import "strconv"

// A FormatError reports that the input is not a usable STL file, and where.
//
// Triangle is the 0-based index of the triangle at fault, or -1. Offset is the
// byte offset in a binary file of the triangle or header field at fault, or -1.
// Line is the line of an ASCII file at which the parser gave up, or 0.
type FormatError struct {
	Triangle int64
	Offset   int64
	Line     int
	Msg      string
}

func (e *FormatError) Error() string {
	s := "stl: "
	switch {
	case e.Line > 0:
		s += "line " + strconv.Itoa(e.Line) + ": "
	case e.Triangle >= 0 && e.Offset >= 0:
		s += "triangle " + strconv.FormatInt(e.Triangle, 10) + " (byte " + strconv.FormatInt(e.Offset, 10) + "): "
	case e.Triangle >= 0:
		s += "triangle " + strconv.FormatInt(e.Triangle, 10) + ": "
	case e.Offset >= 0:
		s += "byte " + strconv.FormatInt(e.Offset, 10) + ": "
	}
	return s + e.Msg
}

// fileError returns a FormatError about the file as a whole.
func fileError(msg string) *FormatError {
	return &FormatError{Triangle: -1, Offset: -1, Msg: msg}
}
