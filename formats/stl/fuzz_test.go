package stl

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"testing"

	"github.com/hschendel/stl"
)

// FuzzRead feeds arbitrary bytes to Read. It must never panic or trust a count;
// every error must be a *FormatError (the input is in memory, so there are no
// I/O errors); a mesh it accepts must validate, have no two vertices at the same
// position, and written back as binary STL must read back the same.
func FuzzRead(f *testing.F) {
	tris := cubeSolid().Triangles
	one := encode(f, &stl.Solid{Name: "one", Triangles: tris[:1]}, false)
	two := encode(f, &stl.Solid{Name: "two", Triangles: tris[:2]}, false)
	f.Add(one)
	f.Add(two)
	f.Add(encode(f, &stl.Solid{Name: "one", Triangles: tris[:1]}, true))
	f.Add(encode(f, &stl.Solid{Triangles: tris[4:6]}, true))
	lying := bytes.Clone(one)
	binary.LittleEndian.PutUint32(lying[80:], math.MaxUint32)
	f.Add(lying)
	f.Add(two[:150])
	nan := bytes.Clone(one)
	binary.LittleEndian.PutUint32(nan[84+20:], math.Float32bits(float32(math.NaN())))
	f.Add(nan)
	f.Add([]byte("solid x\nfacet normal 0 0 0\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex nan 1 0\nendloop\nendfacet\nendsolid x\n"))
	f.Add([]byte("solid \n"))

	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Read(bytes.NewReader(data))
		if err != nil {
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("error %v (%T) is not a *FormatError", err, err)
			}
			return
		}
		if err := m.Validate(); err != nil {
			t.Fatalf("accepted an invalid mesh: %v", err)
		}
		seen := make(map[[3]float64]bool, len(m.Positions))
		for _, p := range m.Positions {
			if seen[p] {
				t.Fatalf("position %v is not welded", p)
			}
			seen[p] = true
		}
		var b bytes.Buffer
		if err := solidOf(m).WriteAll(&b); err != nil {
			t.Fatal(err)
		}
		m2, err := Read(bytes.NewReader(b.Bytes()))
		if err != nil {
			t.Fatalf("reading back: %v", err)
		}
		if !sameMesh(m, m2) {
			t.Fatal("write/read round trip changed the mesh")
		}
	})
}
