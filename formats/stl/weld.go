package stl

import (
	"fmt"
	"math"

	"github.com/hschendel/stl"

	"snowtools/levelset/geom"
)

// maxPrealloc caps the triangles reserved up front from a binary header's count
// (12 MiB of indices); larger meshes grow by appending as triangles arrive.
const maxPrealloc = 1 << 20

// welder is the stl.Writer that receives the library's triangles and builds the
// mesh, so that this package, not the library, decides what to allocate.
type welder struct {
	mesh   geom.Mesh
	index  map[[3]uint32]int32 // float32 bits of a position -> its vertex
	binary bool
	n      int64        // triangles received
	err    *FormatError // the first fault; later triangles are ignored
}

func newWelder() *welder {
	return &welder{index: make(map[[3]uint32]int32)}
}

func (w *welder) SetName(string)         {}
func (w *welder) SetBinaryHeader([]byte) {}
func (w *welder) SetASCII(ascii bool)    { w.binary = !ascii }

// SetTriangleCount reserves room for n triangles. Read calls the library only
// after checking n against the file size, and the reservation is capped anyway.
func (w *welder) SetTriangleCount(n uint32) {
	c := min(int(n), maxPrealloc)
	w.mesh.Triangles = make([][3]int32, 0, c)
	// A closed mesh has about half as many vertices as triangles.
	w.mesh.Positions = make([]geom.Vec3, 0, c/2)
	w.index = make(map[[3]uint32]int32, c/2)
}

// AppendTriangle welds the triangle's corners into the mesh.
func (w *welder) AppendTriangle(t stl.Triangle) {
	if w.err != nil {
		return
	}
	i := w.n
	w.n++
	var tri [3]int32
	for k, p := range t.Vertices {
		for _, x := range p {
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				w.fail(i, fmt.Sprintf("corner %d is (%g, %g, %g): not finite", k, p[0], p[1], p[2]))
				return
			}
		}
		// Adding zero turns -0 into +0, so that the two zeros, equal as
		// coordinates but not as bits, weld.
		q := [3]float32{p[0] + 0, p[1] + 0, p[2] + 0}
		key := [3]uint32{math.Float32bits(q[0]), math.Float32bits(q[1]), math.Float32bits(q[2])}
		v, ok := w.index[key]
		if !ok {
			if len(w.mesh.Positions) == math.MaxInt32 {
				w.fail(i, "more vertices than a 32-bit index can reach")
				return
			}
			v = int32(len(w.mesh.Positions))
			w.index[key] = v
			w.mesh.Positions = append(w.mesh.Positions, geom.Vec3{float64(q[0]), float64(q[1]), float64(q[2])})
		}
		tri[k] = v
	}
	w.mesh.Triangles = append(w.mesh.Triangles, tri)
}

// fail records the first fault, at triangle i.
func (w *welder) fail(i int64, msg string) {
	off := int64(-1)
	if w.binary {
		off = binaryOffset(i)
	}
	w.err = &FormatError{Triangle: i, Offset: off, Msg: msg}
}
