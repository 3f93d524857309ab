package obj

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"

	"snowtools/levelset/geom"
)

// gridMesh returns a height-field-like mesh of side x side vertices and
// 2(side-1)^2 triangles, with coordinates that need all 17 digits.
func gridMesh(side int) *geom.Mesh {
	m := &geom.Mesh{}
	for r := range side {
		for c := range side {
			x, z := float64(c)/3, float64(r)/7
			m.Positions = append(m.Positions, geom.Vec3{x, math.Sin(x) * math.Cos(z) / 10, z})
		}
	}
	for r := 0; r+1 < side; r++ {
		for c := 0; c+1 < side; c++ {
			a := int32(r*side + c)
			b := a + int32(side)
			m.Triangles = append(m.Triangles, [3]int32{a, b, a + 1}, [3]int32{a + 1, b, b + 1})
		}
	}
	return m
}

func TestWriteRoundTrip(t *testing.T) {
	meshes := []*geom.Mesh{
		gridMesh(9),
		{ // extreme values, negative zero, and velocities that OBJ drops
			Positions: []geom.Vec3{
				{math.MaxFloat64, -math.SmallestNonzeroFloat64, math.Copysign(0, -1)},
				{1e-300, -1e300, 0.1},
				{1, 2, 3},
			},
			Velocities: []geom.Vec3{{1, 1, 1}, {2, 2, 2}, {3, 3, 3}},
			Triangles:  [][3]int32{{0, 1, 2}, {2, 1, 0}},
		},
	}
	for i, m := range meshes {
		var b bytes.Buffer
		if err := Write(&b, m); err != nil {
			t.Fatalf("mesh %d: Write: %v", i, err)
		}
		if !strings.HasPrefix(b.String(), "# snowtools\nv ") {
			t.Errorf("mesh %d: output starts %.30q", i, b.String())
		}
		got := mustRead(t, b.String())
		if !sameMesh(m, got) {
			t.Errorf("mesh %d: round trip changed the mesh", i)
		}
		for j, p := range got.Positions { // bit-identical, including the sign of zero
			for k := range p {
				if math.Float64bits(p[k]) != math.Float64bits(m.Positions[j][k]) {
					t.Errorf("mesh %d vertex %d: %v, want %v", i, j, p, m.Positions[j])
				}
			}
		}
	}
}

func TestWriteText(t *testing.T) {
	m := &geom.Mesh{
		Positions: []geom.Vec3{{0, 0, 0}, {1, 0, 0}, {0, 0.5, -2}},
		Triangles: [][3]int32{{0, 1, 2}},
	}
	var b bytes.Buffer
	if err := Write(&b, m); err != nil {
		t.Fatal(err)
	}
	want := "# snowtools\nv 0 0 0\nv 1 0 0\nv 0 0.5 -2\nf 1 2 3\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

// Comments follow the first line, each its own "# " line, and read back as
// nothing; a comment with a line break would start a statement, so it is refused.
func TestWriteComments(t *testing.T) {
	m := &geom.Mesh{Positions: []geom.Vec3{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, Triangles: [][3]int32{{0, 1, 2}}}
	var b bytes.Buffer
	if err := Write(&b, m, "frame 12 time 0.5", "metres, Y up"); err != nil {
		t.Fatal(err)
	}
	want := "# snowtools\n# frame 12 time 0.5\n# metres, Y up\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	if back, err := Read(bytes.NewReader(b.Bytes())); err != nil || len(back.Positions) != 3 || len(back.Triangles) != 1 {
		t.Errorf("read back: %v, %v", back, err)
	}
	b.Reset()
	if err := Write(&b, m, "two\nv 9 9 9"); err == nil || b.Len() != 0 {
		t.Errorf("a comment with a line break: %v, wrote %q", err, b.String())
	}
}

func TestWriteInvalid(t *testing.T) {
	ok := geom.Mesh{
		Positions: []geom.Vec3{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}},
		Triangles: [][3]int32{{0, 1, 2}},
	}
	bad := []*geom.Mesh{
		nil,
		{Positions: ok.Positions},
		{Positions: ok.Positions, Triangles: [][3]int32{{0, 1, 3}}},
		{Positions: ok.Positions, Triangles: [][3]int32{{-1, 1, 2}}},
		{Positions: []geom.Vec3{{0, 0, 0}, {math.NaN(), 0, 0}, {0, 1, 0}}, Triangles: ok.Triangles},
		{Positions: []geom.Vec3{{0, 0, 0}, {1, 0, 0}, {0, math.Inf(1), 0}}, Triangles: ok.Triangles},
		{Positions: ok.Positions, Triangles: ok.Triangles, Velocities: []geom.Vec3{{}}},
	}
	for i, m := range bad {
		var b bytes.Buffer
		err := Write(&b, m)
		if err == nil || !strings.HasPrefix(err.Error(), "obj: Write: ") {
			t.Errorf("mesh %d: error %v", i, err)
		}
		if b.Len() != 0 {
			t.Errorf("mesh %d: wrote %d bytes for an invalid mesh", i, b.Len())
		}
	}
}

// An empty mesh (the surface of a frame without snow) is a file with only the comment.
func TestWriteEmpty(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, &geom.Mesh{}); err != nil || b.String() != "# snowtools\n" {
		t.Errorf("empty mesh: %v, %q", err, b.String())
	}
}

func TestWriteFailure(t *testing.T) {
	boom := errors.New("disk full")
	m := gridMesh(200) // more than one buffer's worth
	w := &failWriter{n: 3, err: boom}
	if err := Write(w, m); !errors.Is(err, boom) {
		t.Errorf("error %v does not wrap %v", err, boom)
	}
}

// failWriter accepts n writes, then fails.
type failWriter struct {
	n   int
	err error
}

func (w *failWriter) Write(p []byte) (int, error) {
	if w.n == 0 {
		return 0, w.err
	}
	w.n--
	return len(p), nil
}

// BenchmarkWrite writes a grid mesh of about a million triangles. MB/s counts
// file bytes.
func BenchmarkWrite(b *testing.B) {
	m := gridMesh(708) // 2*707^2 = 999,698 triangles
	var buf bytes.Buffer
	if err := Write(&buf, m); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(buf.Len()))
	for b.Loop() {
		buf.Reset()
		if err := Write(&buf, m); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(m.Triangles))/1e6, "Mtri")
}
