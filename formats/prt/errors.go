package prt

import "strconv"

// A FormatError reports that the input is not a valid PRT file, and where.
//
// Offset is the byte offset, from the start of the file, of the header
// field at fault, or -1. Particle is the index of the particle at fault
// (errors in the compressed particle data), or -1. Err is the underlying
// error, if any, such as io.ErrUnexpectedEOF or a zlib error; errors.Is and
// errors.As see it through Unwrap.
type FormatError struct {
	Offset   int64
	Particle int64
	Msg      string
	Err      error
}

func (e *FormatError) Error() string {
	s := "prt: "
	switch {
	case e.Particle >= 0:
		s += "particle " + strconv.FormatInt(e.Particle, 10) + ": "
	case e.Offset >= 0:
		s += "byte " + strconv.FormatInt(e.Offset, 10) + ": "
	}
	s += e.Msg
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

func (e *FormatError) Unwrap() error { return e.Err }

// headerError returns a FormatError about the header field at byte off.
func headerError(off int64, msg string) *FormatError {
	return &FormatError{Offset: off, Particle: -1, Msg: msg}
}

// particleError returns a FormatError about particle i.
func particleError(i int64, msg string, err error) *FormatError {
	return &FormatError{Offset: -1, Particle: i, Msg: msg, Err: err}
}
