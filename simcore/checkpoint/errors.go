package checkpoint

import "strconv"

// A FormatError reports that the input is not a valid checkpoint, and where.
//
// Offset is the byte offset of the field at fault from the start of the file (header
// fields, Header true) or from the start of the decompressed state (Header false), or
// -1 when the fault has no one place (a damaged compressed stream). Field names it.
// Err is the underlying error, if any, such as io.ErrUnexpectedEOF for a truncated
// file or a zstd error for damaged compressed data; errors.Is and errors.As see it
// through Unwrap.
type FormatError struct {
	Header bool
	Offset int64
	Field  string
	Msg    string
	Err    error
}

func (e *FormatError) Error() string {
	s := "checkpoint: "
	switch {
	case e.Offset >= 0 && e.Header:
		s += "byte " + strconv.FormatInt(e.Offset, 10) + " (" + e.Field + "): "
	case e.Offset >= 0:
		s += "state byte " + strconv.FormatInt(e.Offset, 10) + " (" + e.Field + "): "
	case e.Field != "":
		s += e.Field + ": "
	}
	s += e.Msg
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

func (e *FormatError) Unwrap() error { return e.Err }
