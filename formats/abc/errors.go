package abc

import (
	"strconv"
)

// A FormatError reports that the input is not a valid Ogawa Alembic archive, and where.
//
// Offset is the byte offset, from the start of the file, of the Ogawa group or data
// block at fault, or -1. Path is the object or property path at fault, such as
// "/pCube1/pCubeShape1/.geom/P", or "" for the container itself. Err is the
// underlying error, if any (io.ErrUnexpectedEOF, or the reader's own error); errors.Is
// and errors.As see it through Unwrap.
type FormatError struct {
	Offset int64
	Path   string
	Msg    string
	Err    error
}

func (e *FormatError) Error() string {
	s := "abc: "
	if e.Path != "" {
		s += e.Path + ": "
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

// formatError returns a FormatError about the block at byte off of the object or
// property at path.
func formatError(off int64, path, msg string) *FormatError {
	return &FormatError{Offset: off, Path: path, Msg: msg}
}
