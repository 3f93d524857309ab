package meshfile

import (
	"fmt"
	"io"
	"math"
	"strings"

	"snowtools/formats/ply"
	"snowtools/levelset/geom"
)

// A PLY mesh is an element "vertex" with scalar properties x, y and z of any
// numeric type, and an element "face" with a list of integer vertex indices
// named vertex_indices (what Blender and most tools write) or vertex_index
// (what some scanners write). Other properties and elements are read and
// ignored. A face of k vertices (v0, v1, ..., v(k-1)) becomes the fan of
// triangles (v0, vi, v(i+1)) for i = 1 .. k-2, which keeps its winding; a
// convex polygon, as DCCs write them, is covered exactly. A face element
// without records is an empty mesh (the ground of a frame that a simulation
// has not touched yet); a file without a face element is a point cloud, not a
// mesh, and an error.

// faceListNames are the names a face element's index list goes by.
var faceListNames = []string{"vertex_indices", "vertex_index"}

// decodePLY reads a PLY mesh from r; with faces false it stops after the vertex
// element and returns the vertices only.
func decodePLY(r io.Reader, faces bool) (*geom.Mesh, error) {
	rd, err := ply.NewReader(r)
	if err != nil {
		return nil, err
	}
	h := rd.Header()
	vertex, vi := h.Element("vertex")
	if vi < 0 {
		return nil, fmt.Errorf("no vertex element (elements: %s)", elementNames(h))
	}
	xyz, err := coordinateFields(vertex)
	if err != nil {
		return nil, err
	}
	face, fi := h.Element("face")
	list := -1
	if faces {
		if fi < 0 {
			return nil, fmt.Errorf("no face element: a point cloud, not a mesh (elements: %s)", elementNames(h))
		}
		if list, err = faceIndexField(face); err != nil {
			return nil, err
		}
	}
	m := &geom.Mesh{}
	var faceData []byte
	for {
		e, _ := rd.Pos()
		if !faces && e > vi {
			break // the vertices are read; the rest is not wanted
		}
		data, err := rd.ReadElement(nil)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		switch e {
		case vi:
			if m.Positions, err = decodeVertices(vertex, xyz, data); err != nil {
				return nil, err
			}
		case fi:
			faceData = data
		}
	}
	if faces {
		if m.Triangles, err = decodeFaces(face, list, faceData, len(m.Positions)); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// elementNames lists a header's elements for messages.
func elementNames(h ply.Header) string {
	names := make([]string, len(h.Elements))
	for i, e := range h.Elements {
		names[i] = e.Name
	}
	return strings.Join(names, ", ")
}

// propertyNames lists an element's properties for messages.
func propertyNames(e ply.Element) string {
	names := make([]string, len(e.Properties))
	for i, p := range e.Properties {
		names[i] = p.String()
	}
	return strings.Join(names, ", ")
}

// coordinateFields returns the indices of the scalar properties x, y and z.
func coordinateFields(e ply.Element) ([3]int, error) {
	var xyz [3]int
	for k, name := range []string{"x", "y", "z"} {
		xyz[k] = e.Index(name)
		if xyz[k] < 0 || e.Properties[xyz[k]].IsList {
			return xyz, fmt.Errorf("element vertex has no scalar property %s (properties: %s)", name, propertyNames(e))
		}
	}
	return xyz, nil
}

// faceIndexField returns the index of the face element's list of vertex indices.
func faceIndexField(e ply.Element) (int, error) {
	for _, name := range faceListNames {
		i := e.Index(name)
		if i < 0 {
			continue
		}
		if p := e.Properties[i]; !p.IsList || !p.Type.IsInt() {
			return 0, fmt.Errorf("element face: property %s is %q, want a list of integers", name, p.String())
		}
		return i, nil
	}
	return 0, fmt.Errorf("element face has no list vertex_indices or vertex_index (properties: %s)", propertyNames(e))
}

// decodeVertices returns the positions of the packed vertex records in data.
// Records of fixed size (no lists, the usual case) are decoded at fixed offsets.
func decodeVertices(e ply.Element, xyz [3]int, data []byte) ([]geom.Vec3, error) {
	var types [3]ply.Type
	for k, f := range xyz {
		types[k] = e.Properties[f].Type
	}
	position := func(i int, x, y, z []byte) (geom.Vec3, error) {
		p := geom.Vec3{types[0].Float64(x), types[1].Float64(y), types[2].Float64(z)}
		if !p.IsFinite() {
			return p, recordError(e, i, fmt.Sprintf("position (%g, %g, %g) is not finite", p[0], p[1], p[2]))
		}
		return p, nil
	}
	if size := e.RecordSize(); size > 0 {
		ox, oy, oz := e.Offset("x"), e.Offset("y"), e.Offset("z")
		positions := make([]geom.Vec3, len(data)/size) // the records are in data: the count is real
		for i := range positions {
			rec := data[i*size : (i+1)*size]
			var err error
			if positions[i], err = position(i, rec[ox:], rec[oy:], rec[oz:]); err != nil {
				return nil, err
			}
		}
		return positions, nil
	}
	var positions []geom.Vec3
	err := eachRecord(e, data, func(i int, fields [][]byte) error {
		p, err := position(i, fields[xyz[0]], fields[xyz[1]], fields[xyz[2]])
		positions = append(positions, p)
		return err
	})
	return positions, err
}

// decodeFaces returns the triangles of the packed face records in data, each
// polygon fanned from its first vertex, with every index checked against the
// vertices.
func decodeFaces(e ply.Element, list int, data []byte, vertices int) ([][3]int32, error) {
	if vertices > maxPLYVertices {
		return nil, fmt.Errorf("element vertex: %d vertices, more than a 32-bit index can reach", vertices)
	}
	t := e.Properties[list].Type
	size := t.Size()
	triangles := make([][3]int32, 0, min(e.Count, int64(len(data)))) // one per face for a triangle mesh
	err := eachRecord(e, data, func(i int, fields [][]byte) error {
		items := fields[list]
		k := len(items) / size
		if k < 3 {
			return recordError(e, i, fmt.Sprintf("%d vertex indices: a face needs at least 3", k))
		}
		var fan [3]int32
		for j := range k {
			v := t.Int64(items[j*size:])
			if v < 0 || v >= int64(vertices) {
				return recordError(e, i, fmt.Sprintf("vertex index %d is outside 0..%d", v, vertices-1))
			}
			if j < 2 {
				fan[j] = int32(v)
				continue
			}
			fan[2] = int32(v)
			triangles = append(triangles, fan)
			fan[1] = fan[2]
		}
		return nil
	})
	return triangles, err
}

// eachRecord calls do with the index and the fields of every packed record of e
// in data: for a scalar its value's bytes, for a list its items' bytes (as
// ply.Element.Fields gives them).
func eachRecord(e ply.Element, data []byte, do func(i int, fields [][]byte) error) error {
	fields := make([][]byte, len(e.Properties))
	for i := 0; len(data) > 0; i++ {
		n := 0
		for k, p := range e.Properties {
			start := n
			if p.IsList {
				cs := p.CountType.Size()
				if n+cs > len(data) {
					return recordError(e, i, "the data ends inside list "+p.Name)
				}
				count := p.CountType.Int64(data[n:])
				start = n + cs
				if count < 0 || count > int64(len(data)-start)/int64(p.Type.Size()) {
					return recordError(e, i, fmt.Sprintf("list %s of %d items does not fit the data", p.Name, count))
				}
				n = start + int(count)*p.Type.Size()
			} else {
				if n += p.Type.Size(); n > len(data) {
					return recordError(e, i, "the data ends inside property "+p.Name)
				}
			}
			fields[k] = data[start:n]
		}
		if err := do(i, fields); err != nil {
			return err
		}
		data = data[n:]
	}
	return nil
}

// recordError reports a problem with record i (from 0) of element e.
func recordError(e ply.Element, i int, msg string) error {
	return fmt.Errorf("element %s record %d: %s", e.Name, i, msg)
}

// vertexBounds returns the box of the vertices of the PLY mesh in r, reading
// the file only up to the end of its vertex element.
func vertexBounds(r io.Reader) (lo, hi geom.Vec3, err error) {
	m, err := decodePLY(r, false)
	if err != nil {
		return lo, hi, err
	}
	lo, hi = m.Bounds()
	return lo, hi, nil
}

// maxPLYVertices is the largest vertex count whose indices fit the int32 of
// geom.Mesh.
const maxPLYVertices = math.MaxInt32
