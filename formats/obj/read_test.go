package obj

import (
	"strings"
	"testing"

	"snowtools/levelset/geom"
)

const square = `# a unit square as one quad
v 0 0 0
v 1 0 0
v 1 1 0
v 0 1 0
f 1 2 3 4
`

func TestTriangle(t *testing.T) {
	m := mustRead(t, "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n")
	want := []geom.Vec3{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}
	if len(m.Positions) != 3 || m.Positions[0] != want[0] || m.Positions[1] != want[1] || m.Positions[2] != want[2] {
		t.Errorf("positions %v", m.Positions)
	}
	if len(m.Triangles) != 1 || m.Triangles[0] != [3]int32{0, 1, 2} {
		t.Errorf("triangles %v", m.Triangles)
	}
}

func TestVertexExtras(t *testing.T) {
	// w, and the r g b of the vertex-colour extension, are ignored.
	m := mustRead(t, "v 1.5 -2e-3 +3E2 1.0\nv 1 2 3 0.5 0.25 1\nv\t4\t5\t6 1 0 0 1\nf 1 2 3\n")
	want := []geom.Vec3{{1.5, -0.002, 300}, {1, 2, 3}, {4, 5, 6}}
	for i, p := range want {
		if m.Positions[i] != p {
			t.Errorf("vertex %d: %v, want %v", i, m.Positions[i], p)
		}
	}
}

func TestFaceForms(t *testing.T) {
	head := "v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvt 1 0\nvt 0 1\nvn 0 0 1\n"
	for _, f := range []string{"f 1 2 3", "f 1/1 2/2 3/3", "f 1//1 2//1 3//1", "f 1/1/1 2/2/1 3/3/1", "f 1/1 2//1 3/3/1"} {
		m := mustRead(t, head+f+"\n")
		if len(m.Triangles) != 1 || m.Triangles[0] != [3]int32{0, 1, 2} {
			t.Errorf("%q: triangles %v", f, m.Triangles)
		}
	}
}

func TestNegativeIndices(t *testing.T) {
	// -1 is the last vertex read so far, not the last of the file.
	m := mustRead(t, "v 0 0 0\nv 1 0 0\nv 0 1 0\nf -3 -2 -1\nv 0 0 1\nf -4/-1 -1/-1 -3/-1\n")
	want := [][3]int32{{0, 1, 2}, {0, 3, 1}}
	if len(m.Triangles) != 2 || m.Triangles[0] != want[0] || m.Triangles[1] != want[1] {
		t.Errorf("triangles %v, want %v", m.Triangles, want)
	}
}

func TestFan(t *testing.T) {
	m := mustRead(t, square)
	want := [][3]int32{{0, 1, 2}, {0, 2, 3}}
	if len(m.Triangles) != 2 || m.Triangles[0] != want[0] || m.Triangles[1] != want[1] {
		t.Fatalf("triangles %v, want %v", m.Triangles, want)
	}
	// Every triangle keeps the quad's counter-clockwise winding: normal +z.
	for _, tri := range m.Triangles {
		a, b, c := m.Positions[tri[0]], m.Positions[tri[1]], m.Positions[tri[2]]
		if n := b.Sub(a).Cross(c.Sub(a)); n[2] <= 0 {
			t.Errorf("triangle %v has normal %v", tri, n)
		}
	}
	// A pentagon gives 3 triangles, all around the first vertex.
	m = mustRead(t, "v 1 0 0\nv 2 0 0\nv 3 1 0\nv 2 2 0\nv 1 2 0\nf 1 2 3 4 5\n")
	if len(m.Triangles) != 3 {
		t.Fatalf("%d triangles", len(m.Triangles))
	}
	for k, tri := range m.Triangles {
		if tri != [3]int32{0, int32(k + 1), int32(k + 2)} {
			t.Errorf("triangle %d: %v", k, tri)
		}
	}
}

func TestContinuation(t *testing.T) {
	m := mustRead(t, "v 0 0 \\\n 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 \\\n3 \\\r\n 4\n")
	if len(m.Positions) != 4 || m.Positions[0] != (geom.Vec3{}) || len(m.Triangles) != 2 {
		t.Fatalf("positions %v, triangles %v", m.Positions, m.Triangles)
	}
	// A backslash on the last line continues into nothing.
	m = mustRead(t, "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3 \\")
	if len(m.Triangles) != 1 {
		t.Fatalf("triangles %v", m.Triangles)
	}
	// Errors name the first line of a continued statement, and count the
	// continued lines afterwards.
	if e := readError(t, "v 0 0 0\nf 1 \\\n 2 \\\n 3\nv x 0 0\n"); e.Line != 5 {
		t.Errorf("error on line %d, want 5: %v", e.Line, e)
	}
	if e := readError(t, "v 0 0 0\nv 1 \\\n 2 \\\n x\n"); e.Line != 2 {
		t.Errorf("error on line %d, want 2: %v", e.Line, e)
	}
}

func TestComments(t *testing.T) {
	src := "# header\n" +
		"v 0 0 0 # origin\n" +
		"  # indented comment\n" +
		"v 1 0 0#no blank before the comment\n" +
		"# C:\\a\\windows\\path\\\n" + // a comment's backslash does not continue it
		"v 0 1 0\n" +
		"f 1 2 3 # the face\n"
	m := mustRead(t, src)
	if len(m.Positions) != 3 || len(m.Triangles) != 1 {
		t.Fatalf("positions %v, triangles %v", m.Positions, m.Triangles)
	}
}

func TestIgnoredStatements(t *testing.T) {
	src := "mtllib spot.mtl\no Spot\ng body head\ns 1\nusemtl fur\n" +
		"v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nvt 0.5 0.5\nvn 0 0 1\nvp 0.1 0.2\n" +
		"l 1 2 3\np 1 2\ncstype bspline\ndeg 3\ncurv 0 1 1 2 3 4\nparm u 0 1\nend\n" +
		"fo 1 2 3\n" + // old keyword for f; also ignored
		"f 1 2 3\n" +
		"\n\n   \n\t\n" +
		"f 1 3 4\n"
	m := mustRead(t, src)
	if len(m.Positions) != 4 || len(m.Triangles) != 2 {
		t.Fatalf("%d positions, triangles %v", len(m.Positions), m.Triangles)
	}
}

func TestLineEndings(t *testing.T) {
	for _, src := range []string{
		"v 0 0 0\r\nv 1 0 0\r\nv 0 1 0\r\nf 1 2 3\r\n",
		"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3", // no final line break
		"v 0 0 0  \nv 1 0 0\t\nv 0 1 0\nf 1 2 3 \n",
	} {
		m := mustRead(t, src)
		if len(m.Positions) != 3 || len(m.Triangles) != 1 || m.Triangles[0] != [3]int32{0, 1, 2} {
			t.Errorf("%q: positions %v, triangles %v", src, m.Positions, m.Triangles)
		}
	}
}

func TestForwardReferences(t *testing.T) {
	// Faces before their vertices are legal as long as the vertices come.
	m := mustRead(t, "f 1 2 3\nf 3 2 4\nv 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\n")
	if len(m.Triangles) != 2 || m.Triangles[1] != [3]int32{2, 1, 3} {
		t.Fatalf("triangles %v", m.Triangles)
	}
}

func TestMultipleObjects(t *testing.T) {
	// Objects and groups are merged; indices stay global, as OBJ defines them.
	src := "o a\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\no b\nv 5 0 0\nv 6 0 0\nv 5 1 0\nf 4 5 6\nf -3 -2 -1\n"
	m := mustRead(t, src)
	if len(m.Positions) != 6 || len(m.Triangles) != 3 || m.Triangles[1] != [3]int32{3, 4, 5} || m.Triangles[2] != m.Triangles[1] {
		t.Fatalf("positions %v, triangles %v", m.Positions, m.Triangles)
	}
}

func TestLongLines(t *testing.T) {
	// Lines longer than the bufio buffer but within the limit are fine.
	long := "v 0 0 0" + strings.Repeat(" ", 200<<10) + "\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"
	if m := mustRead(t, long); len(m.Positions) != 3 {
		t.Fatalf("positions %v", m.Positions)
	}
	comment := "#" + strings.Repeat("x", MaxLineLength-1) + "\n" + "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"
	mustRead(t, comment)
}

func TestRoundTrip(t *testing.T) {
	m := mustRead(t, "v 0.1 -1e-300 3.141592653589793\nv 1e300 0 -0\nv 5e-324 2 1\nf 1 2 3\nf 3 2 1\n")
	m2 := mustRead(t, string(writeOBJ(m)))
	if !sameMesh(m, m2) {
		t.Fatalf("round trip changed the mesh:\n%v\n%v", m, m2)
	}
}
