package heightpng

import "strconv"

// A FormatError reports that the input is not a usable PNG height map, and
// where.
//
// Offset is the byte offset from the start of the file of the chunk, field
// or value at fault, or -1 when it is not known (as for most errors found by
// image/png while decoding the pixels). Err is the underlying error, if any,
// such as a png.FormatError or a *strconv.NumError; errors.Is and errors.As
// see it through Unwrap.
type FormatError struct {
	Offset int64
	Msg    string
	Err    error
}

func (e *FormatError) Error() string {
	s := "heightpng: "
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

// quote quotes b for an error message, shortened if long, so that garbage
// in a file cannot make a message of megabytes.
func quote(b []byte) string {
	const max = 40
	if len(b) > max {
		return strconv.Quote(string(b[:max])) + "..."
	}
	return strconv.Quote(string(b))
}
