package gltf

import (
	"fmt"
	"strings"
)

// A FormatError reports that a glTF file cannot be turned into a mesh, and where.
//
// File is the name given to Open or Decode. Where is the JSON location of the
// object at fault, such as "accessors[3]" or "animations[0].samplers[1]", or ""
// for the container itself. Err is the underlying error, if any (a JSON syntax
// error, a file-system error for an external buffer); errors.Is and errors.As see
// it through Unwrap.
type FormatError struct {
	File  string
	Where string
	Msg   string
	Err   error
}

func (e *FormatError) Error() string {
	var b strings.Builder
	b.WriteString("gltf: ")
	if e.File != "" {
		b.WriteString(e.File)
		b.WriteString(": ")
	}
	if e.Where != "" {
		b.WriteString(e.Where)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	if e.Err != nil {
		b.WriteString(": ")
		// The library prefixes its own messages with "gltf: "; one is enough.
		b.WriteString(strings.TrimPrefix(e.Err.Error(), "gltf: "))
	}
	return b.String()
}

func (e *FormatError) Unwrap() error { return e.Err }

// errorf returns a FormatError about the object at where in file.
func errorf(file, where, format string, args ...any) *FormatError {
	return &FormatError{File: file, Where: where, Msg: fmt.Sprintf(format, args...)}
}
