package obj

import "strconv"

// A FormatError reports that the input is not a usable OBJ file, and where.
//
// Line is the 1-based number of the line at fault (for a statement continued
// with a backslash, its first line), or 0 when the fault is the file as a whole,
// such as a file without faces.
type FormatError struct {
	Line int
	Msg  string
}

func (e *FormatError) Error() string {
	if e.Line <= 0 {
		return "obj: " + e.Msg
	}
	return "obj: line " + strconv.Itoa(e.Line) + ": " + e.Msg
}
