package obj

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"snowtools/levelset/geom"
)

// A polygon of more than geom.FanCorners vertices gets geom.TriangulatePolygon's
// triangles, in file order with the faces around it, whether its vertices come
// before the face or after it.
func TestLargePolygons(t *testing.T) {
	// A comb: concave, so that a fan around its first vertex would cover the gaps.
	var vertices strings.Builder
	comb := []geom.Vec3{{0, 0, 0}, {4, 0, 0}, {4, 2, 0}, {3, 2, 0}, {3, 1, 0}, {2, 1, 0}, {2, 2, 0}, {1, 2, 0}, {1, 1, 0}, {0.5, 1, 0}, {0.5, 2, 0}, {0, 2, 0}}
	for _, p := range comb {
		fmt.Fprintf(&vertices, "v %g %g %g\n", p[0], p[1], p[2])
	}
	face := "f 4 5 6 7 8 9 10 11 12 1 2 3\n"
	tri := "f 1 2 3\n"
	corners := []int32{3, 4, 5, 6, 7, 8, 9, 10, 11, 0, 1, 2}
	want := slices.Concat([][3]int32{{0, 1, 2}}, geom.TriangulatePolygon(comb, corners, nil), [][3]int32{{0, 1, 2}})
	for name, text := range map[string]string{
		"vertices first": vertices.String() + tri + face + tri,
		"vertices after": tri + face + tri + vertices.String(),
	} {
		m := mustRead(t, text)
		if !slices.Equal(m.Triangles, want) {
			t.Errorf("%s: triangles %v, want %v", name, m.Triangles, want)
		}
	}
	// No triangle of the comb turns backwards, and their areas add up to its 6.5.
	area := 0.0
	for _, tr := range want[1 : len(want)-1] {
		a, b, c := comb[tr[0]], comb[tr[1]], comb[tr[2]]
		n := b.Sub(a).Cross(c.Sub(a))[2] / 2
		if n < 0 {
			t.Errorf("triangle %v turns backwards", tr)
		}
		area += n
	}
	if area != 6.5 {
		t.Errorf("the comb's triangles cover %g, want 6.5", area)
	}
}

// A face of 450,000 vertices fits in a line (3.2 MB), and its triangles are local.
func TestHugePolygonLine(t *testing.T) {
	n := 450_000
	if testing.Short() {
		n = 45_000
	}
	// A convex polygon: n points on a parabola, closed by its chord.
	var b strings.Builder
	for i := range n {
		x := float64(i) / float64(n)
		fmt.Fprintf(&b, "v %.9g %.9g 0\n", x, x*(x-1))
	}
	b.WriteString("f")
	for i := range n {
		fmt.Fprintf(&b, " %d", i+1)
	}
	b.WriteString("\n")
	m := mustRead(t, b.String())
	if len(m.Triangles) != n-2 {
		t.Fatalf("%d triangles for %d corners", len(m.Triangles), n)
	}
	longest := 0.0
	for _, tr := range m.Triangles {
		a, b, c := m.Positions[tr[0]], m.Positions[tr[1]], m.Positions[tr[2]]
		longest += max(b.Sub(a).Norm(), c.Sub(b).Norm(), a.Sub(c).Norm())
	}
	// A fan's longest edges add up to about n/2 (half the chord each); ears in
	// rounds to the perimeter (about 2.3) times the rounds, at most 19.
	if longest > 2.3*19 {
		t.Errorf("the triangles' longest edges add up to %.3g", longest)
	}
	t.Logf("longest edges add up to %.3g", longest)
}
