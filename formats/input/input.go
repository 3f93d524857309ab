// Package input opens the files the tools read, and only regular files. A FIFO
// blocks its reader until a writer comes (forever, if none does), a device such as
// /dev/zero or /dev/urandom never ends, and a folder is no input at all; each of
// them reached through a path on the command line, a scene key or a glTF buffer URI
// would hang the tool or grow its memory without bound. Open and CheckFS look at the
// file's type first (following symbolic links, as opening does), and refuse anything
// but a regular file with an error that names the path and what it is.
//
// The package imports only the standard library, so that every formats package and
// the tools' shared packages may use it.
package input

import (
	"io"
	"io/fs"
	"os"
	"strconv"
)

// A NotRegularError is a path that names something other than a regular file.
type NotRegularError struct {
	Path string
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string {
	return e.Path + " is " + Kind(e.Mode) + ", not a regular file"
}

// Kind names the type of file that mode describes, with its article: "a folder",
// "a named pipe (FIFO)", "a character device".
func Kind(mode fs.FileMode) string {
	switch {
	case mode.IsRegular():
		return "a regular file"
	case mode.IsDir():
		return "a folder"
	case mode&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case mode&fs.ModeSocket != 0:
		return "a socket"
	case mode&fs.ModeCharDevice != 0:
		return "a character device"
	case mode&fs.ModeDevice != 0:
		return "a block device"
	case mode&fs.ModeSymlink != 0:
		return "a symbolic link"
	case mode&fs.ModeIrregular != 0:
		return "a file of unknown type"
	}
	return "not a regular file (mode " + mode.String() + ")"
}

// Open opens path for reading if it is a regular file. It checks the type before
// opening, because opening a FIFO for reading blocks until a writer opens it, and
// again on the open file, so that a path swapped between the two is caught too.
// Errors are *fs.PathError (a missing file, no permission) or *NotRegularError.
func Open(path string) (*os.File, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, &NotRegularError{Path: path, Mode: info.Mode()}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	if info, err = f.Stat(); err != nil || !info.Mode().IsRegular() {
		f.Close()
		if err != nil {
			return nil, err
		}
		return nil, &NotRegularError{Path: path, Mode: info.Mode()}
	}
	return f, nil
}

// ReadFile reads the whole regular file at path, refusing one of more than
// maxBytes bytes by its size, before reading it, with a *TooLargeError. It reads
// at most maxBytes+1 bytes, so a file that grows while being read is refused too.
func ReadFile(path string, maxBytes int64) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if info.Size() > maxBytes {
		return nil, &TooLargeError{Path: path, Size: info.Size(), Limit: maxBytes}
	}
	b, err := io.ReadAll(io.LimitReader(f, maxBytes+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > maxBytes {
		return nil, &TooLargeError{Path: path, Size: int64(len(b)), Limit: maxBytes}
	}
	return b, nil
}

// A TooLargeError is an input file over a size limit.
type TooLargeError struct {
	Path        string
	Size, Limit int64 // bytes; Size is at least what was seen
}

func (e *TooLargeError) Error() string {
	return e.Path + " is " + strconv.FormatInt(e.Size, 10) + " bytes, more than the limit of " +
		strconv.FormatInt(e.Limit, 10)
}

// CheckFS returns a *NotRegularError if name in fsys is not a regular file, the
// error of fs.Stat if it cannot be examined, and nil for a regular file. Call it
// before fsys.Open: an os.Root's FS opens a FIFO as os.Open does, blocking.
func CheckFS(fsys fs.FS, name string) error {
	info, err := fs.Stat(fsys, name)
	if err != nil {
		return err
	}
	if !info.Mode().IsRegular() {
		return &NotRegularError{Path: name, Mode: info.Mode()}
	}
	return nil
}
