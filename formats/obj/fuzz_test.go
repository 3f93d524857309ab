package obj

import (
	"bytes"
	"errors"
	"testing"
)

// FuzzRead feeds arbitrary bytes to Read. It must never panic; every error must
// be a *FormatError with a line inside the input (the input is in memory, so
// there are no I/O errors); a mesh it accepts must validate, and written back as
// plain OBJ it must read back the same.
func FuzzRead(f *testing.F) {
	for _, s := range []string{
		square,
		"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n",
		"v 0 0 0 1 0.5 0.5 0.5\nv 1 0 0\nv 0 1 0\nvt 0 0\nvn 0 0 1\nf 1/1/1 2//1 3/1\n",
		"f 1 2 3\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf -3 -2 -1\n",
		"o a\r\ng b\r\nv 0 0 \\\r\n0\r\nv 1 0 0 # c\r\nv 0 1 0\r\nf 1 2 \\\n 3 \\",
		"v 1e400 nan inf\nf 0 -9 99999999999\nf 1\n",
		"#\\\nv 0x1p-2 1_0 .5e\nl 1 2\n\\\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Read(bytes.NewReader(data))
		if err != nil {
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("error %v (%T) is not a *FormatError", err, err)
			}
			if lines := bytes.Count(data, []byte("\n")) + 1; fe.Line < 0 || fe.Line > lines {
				t.Fatalf("error on line %d of %d: %v", fe.Line, lines, err)
			}
			return
		}
		if err := m.Validate(); err != nil {
			t.Fatalf("accepted an invalid mesh: %v", err)
		}
		m2, err := Read(bytes.NewReader(writeOBJ(m)))
		if err != nil {
			t.Fatalf("reading back: %v", err)
		}
		if !sameMesh(m, m2) {
			t.Fatal("write/read round trip changed the mesh")
		}
	})
}
