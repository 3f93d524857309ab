package stl

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/hschendel/stl"

	"snowtools/levelset/geom"
)

// The binary layout: an 80-byte header, a uint32 triangle count, then 50 bytes
// per triangle (normal, three corners, a uint16 attribute).
const (
	headerSize   = 84
	triangleSize = 50
)

// binaryOffset returns the byte offset of binary triangle i.
func binaryOffset(i int64) int64 { return headerSize + triangleSize*i }

// Read reads a binary or ASCII STL file from the start of r and returns its
// triangles as a welded mesh (see the package documentation). Errors in the file
// are *FormatError; errors of r are returned wrapped.
func Read(r io.ReadSeeker) (*geom.Mesh, error) {
	size, err := r.Seek(0, io.SeekEnd)
	if err != nil {
		return nil, fmt.Errorf("stl: finding the file size: %w", err)
	}
	if size == 0 {
		return nil, fileError("empty file: no triangles")
	}
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("stl: %w", err)
	}
	var head [512]byte
	n, err := io.ReadFull(r, head[:min(size, int64(len(head)))])
	if err != nil {
		return nil, fmt.Errorf("stl: reading the header: %w", err)
	}
	if err := checkLayout(head[:n], size); err != nil {
		return nil, err
	}
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("stl: %w", err)
	}

	w := newWelder()
	err = stl.CopyAll(r, w)
	if w.err != nil {
		return nil, w.err
	}
	if err != nil {
		if w.binary {
			// The size was checked, so this is the reader failing, not the file.
			return nil, fmt.Errorf("stl: %w", err)
		}
		return nil, asciiError(err)
	}
	if len(w.mesh.Triangles) == 0 {
		return nil, fileError("no triangles")
	}
	return &w.mesh, nil
}

// checkLayout decides, from the first bytes of the file and its size, whether
// the library will read it as binary or ASCII, and rejects a binary file whose
// size does not match its triangle count before anything trusts that count.
func checkLayout(head []byte, size int64) error {
	if size >= headerSize {
		count := int64(binary.LittleEndian.Uint32(head[headerSize-4:]))
		want := binaryOffset(count)
		if want == size {
			if count == 0 {
				return fileError("binary file with no triangles")
			}
			return nil
		}
		if looksASCII(head) {
			return nil
		}
		switch {
		case size < want:
			k := (size - headerSize) / triangleSize
			where := "inside"
			if binaryOffset(k) == size {
				where = "before"
			}
			return &FormatError{Triangle: k, Offset: binaryOffset(k), Msg: fmt.Sprintf(
				"truncated: the header says %d triangles (%d bytes) but the file has %d bytes, ending %s triangle %d",
				count, want, size, where, k)}
		default:
			return &FormatError{Triangle: -1, Offset: headerSize - 4, Msg: fmt.Sprintf(
				"the header says %d triangles (%d bytes) but the file has %d bytes: %d bytes too many",
				count, want, size, size-want)}
		}
	}
	if looksASCII(head) {
		return nil
	}
	return fileError(fmt.Sprintf("%d bytes: too short for a binary STL (84-byte header) and does not start with \"solid\"", size))
}

// looksASCII reports whether the file's first bytes look like ASCII STL. Binary
// headers may start with "solid" too, but triangle data nearly always has zero
// bytes (the attribute word is usually zero).
func looksASCII(head []byte) bool {
	return bytes.HasPrefix(bytes.TrimLeft(head, " \t\r\n"), []byte("solid")) && bytes.IndexByte(head, 0) < 0
}

// asciiError turns the library's ASCII parse report, lines of "N: message", into
// a FormatError naming the first line at fault.
func asciiError(err error) error {
	text := strings.TrimSpace(err.Error())
	for _, l := range strings.Split(text, "\n") {
		num, msg, ok := strings.Cut(l, ": ")
		if n, err := strconv.Atoi(num); ok && err == nil {
			return &FormatError{Triangle: -1, Offset: -1, Line: n, Msg: "ASCII STL: " + msg}
		}
	}
	return fileError("ASCII STL: " + strings.ReplaceAll(text, "\n", "; "))
}
