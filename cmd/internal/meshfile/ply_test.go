package meshfile

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"snowtools/formats/ply"
	"snowtools/levelset/geom"
)

// plyMesh describes a PLY mesh file to write: vertices and faces as records of
// the given properties.
type plyMesh struct {
	format       ply.Format
	vertexProps  []ply.Property
	faceProps    []ply.Property // nil: no face element
	vertices     [][]float64    // one value per vertex property
	faces        [][]int64      // the index list of each face
	extraElement bool           // an "edge" element after the faces
}

// write writes the mesh to dir/name with formats/ply's writer and returns the path.
func (pm plyMesh) write(t testing.TB, dir, name string) string {
	t.Helper()
	h := ply.Header{Format: pm.format, Elements: []ply.Element{{Name: "vertex", Count: int64(len(pm.vertices)), Properties: pm.vertexProps}}}
	if pm.faceProps != nil {
		h.Elements = append(h.Elements, ply.Element{Name: "face", Count: int64(len(pm.faces)), Properties: pm.faceProps})
	}
	if pm.extraElement {
		h.Elements = append(h.Elements, ply.Element{Name: "edge", Count: 1,
			Properties: []ply.Property{ply.Scalar("vertex1", ply.Int), ply.Scalar("vertex2", ply.Int)}})
	}
	var buf bytes.Buffer
	w, err := ply.NewWriter(&buf, h)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range pm.vertices {
		var rec []byte
		for k, p := range pm.vertexProps {
			rec = p.Type.AppendFloat(rec, v[k])
		}
		if err := w.WriteRecord(rec); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range pm.faces {
		p := pm.faceProps[0]
		rec := p.CountType.AppendInt(nil, int64(len(f)))
		for _, i := range f {
			rec = p.Type.AppendInt(rec, i)
		}
		if err := w.WriteRecord(rec); err != nil {
			t.Fatal(err)
		}
	}
	if pm.extraElement {
		if err := w.WriteRecord(ply.Int.AppendInt(ply.Int.AppendInt(nil, 0), 1)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

var (
	xyzFloat     = []ply.Property{ply.Scalar("x", ply.Float), ply.Scalar("y", ply.Float), ply.Scalar("z", ply.Float)}
	faceIndices  = []ply.Property{ply.List("vertex_indices", ply.Uchar, ply.Int)}
	unitSquare   = [][]float64{{0, 0, 0}, {0, 0, 1}, {1, 0, 1}, {1, 0, 0}, {0.5, 1, 0.5}}
	squareAndTip = [][]int64{{0, 1, 2, 3}, {0, 4, 1}} // a quad, counter-clockwise from above, and a triangle
)

// A binary PLY mesh of float vertices with a quad and a triangle: the quad is
// fanned into two triangles that keep its winding, and Bounds agrees.
func TestReadPLY(t *testing.T) {
	dir := t.TempDir()
	path := plyMesh{format: ply.BinaryLittleEndian, vertexProps: xyzFloat, faceProps: faceIndices,
		vertices: unitSquare, faces: squareAndTip, extraElement: true}.write(t, dir, "ground.0001.PLY")
	m, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	want := [][3]int32{{0, 1, 2}, {0, 2, 3}, {0, 4, 1}}
	if len(m.Positions) != 5 || m.Positions[4] != (geom.Vec3{0.5, 1, 0.5}) || !equalTriangles(m.Triangles, want) {
		t.Fatalf("got %d vertices (%v), triangles %v; want 5, %v", len(m.Positions), m.Positions, m.Triangles, want)
	}
	a, b, c := m.Positions[0], m.Positions[1], m.Positions[2]
	if n := b.Sub(a).Cross(c.Sub(a)); n[1] <= 0 {
		t.Errorf("the quad's first triangle has normal %v: the winding is lost", n)
	}
	lo, hi, err := Bounds(path)
	if err != nil || lo != (geom.Vec3{}) || hi != (geom.Vec3{1, 1, 1}) {
		t.Errorf("Bounds: %v %v %v", lo, hi, err)
	}
}

// Vertices of any numeric type, faces in vertex_index lists of other integer
// types, ASCII: the same mesh.
func TestReadPLYTypes(t *testing.T) {
	dir := t.TempDir()
	path := plyMesh{
		format:      ply.ASCII,
		vertexProps: []ply.Property{ply.Scalar("x", ply.Double), ply.Scalar("nx", ply.Float), ply.Scalar("y", ply.Short), ply.Scalar("z", ply.Uchar)},
		faceProps:   []ply.Property{ply.List("vertex_index", ply.Int, ply.Ushort)},
		vertices:    [][]float64{{0.25, 9, 0, 0}, {0, 9, -2, 1}, {1, 9, 0, 1}},
		faces:       [][]int64{{0, 1, 2}},
	}.write(t, dir, "tri.ply")
	m, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if m.Positions[0] != (geom.Vec3{0.25, 0, 0}) || m.Positions[1] != (geom.Vec3{0, -2, 1}) || !equalTriangles(m.Triangles, [][3]int32{{0, 1, 2}}) {
		t.Errorf("got %v, %v", m.Positions, m.Triangles)
	}
}

// A face element without records is an empty mesh, not an error: the ground of
// a frame the simulation has not touched.
func TestReadPLYEmpty(t *testing.T) {
	path := plyMesh{format: ply.BinaryLittleEndian, vertexProps: xyzFloat, faceProps: faceIndices}.write(t, t.TempDir(), "empty.ply")
	m, err := Read(path)
	if err != nil || len(m.Positions) != 0 || len(m.Triangles) != 0 {
		t.Errorf("empty mesh: %v, %+v", err, m)
	}
	if lo, hi, err := Bounds(path); err != nil || lo[0] <= hi[0] {
		t.Errorf("empty mesh bounds %v %v %v", lo, hi, err)
	}
}

// Bad meshes fail with the file and the element and record at fault.
func TestReadPLYErrors(t *testing.T) {
	dir := t.TempDir()
	good := plyMesh{format: ply.BinaryLittleEndian, vertexProps: xyzFloat, faceProps: faceIndices, vertices: unitSquare, faces: squareAndTip}
	for _, c := range []struct {
		name string
		mesh func() plyMesh
		want string
	}{
		{"index.ply", func() plyMesh { m := good; m.faces = [][]int64{{0, 1, 2}, {0, 1, 7}}; return m },
			"element face record 1: vertex index 7 is outside 0..4"},
		{"negative.ply", func() plyMesh { m := good; m.faces = [][]int64{{0, -1, 2}}; return m }, "vertex index -1"},
		{"two.ply", func() plyMesh { m := good; m.faces = [][]int64{{0, 1, 2}, {0, 1}}; return m },
			"element face record 1: 2 vertex indices: a face needs at least 3"},
		{"cloud.ply", func() plyMesh { m := good; m.faceProps, m.faces = nil, nil; return m }, "no face element: a point cloud"},
		{"noz.ply", func() plyMesh {
			m := good
			m.vertexProps = xyzFloat[:2]
			m.vertices = [][]float64{{0, 0}, {1, 0}, {0, 1}}
			m.faces = [][]int64{{0, 1, 2}}
			return m
		}, "no scalar property z"},
		{"floatlist.ply", func() plyMesh {
			m := good
			m.faceProps = []ply.Property{ply.List("vertex_indices", ply.Uchar, ply.Float)}
			return m
		}, "want a list of integers"},
		{"otherlist.ply", func() plyMesh {
			m := good
			m.faceProps = []ply.Property{ply.List("corners", ply.Uchar, ply.Int)}
			return m
		}, "no list vertex_indices or vertex_index"},
		{"nan.ply", func() plyMesh {
			m := good
			m.vertices = [][]float64{{0, 0, 0}, {0, 0, 1}, {1, 0, 1}, {1, math.NaN(), 0}, {0.5, 1, 0.5}}
			return m
		}, "element vertex record 3: position (1, NaN, 0) is not finite"},
	} {
		path := c.mesh().write(t, dir, c.name)
		_, err := Read(path)
		if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q and the path", c.name, err, c.want)
		}
	}
	// A truncated file: formats/ply names the element and record.
	path := good.write(t, dir, "cut.ply")
	data, _ := os.ReadFile(path)
	os.WriteFile(path, data[:len(data)-3], 0o644)
	if _, err := Read(path); err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "element face record 1") {
		t.Errorf("truncated: %v", err)
	}
	// Bounds stops after the vertices, so the cut faces do not matter to it.
	if _, hi, err := Bounds(path); err != nil || hi != (geom.Vec3{1, 1, 1}) {
		t.Errorf("Bounds of a file cut in its faces: %v %v", hi, err)
	}
	if _, err := ReadAt(path, "", 1); err == nil || !strings.Contains(err.Error(), "only glTF") {
		t.Errorf("a time for a PLY: %v", err)
	}
}

func equalTriangles(a, b [][3]int32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
