package levelset

import (
	"math"
	"math/rand/v2"
	"testing"
)

// On a closed mesh the pseudonormal of the closest feature tells the side exactly,
// corners and edges included: points around a box, many of them nearest to an edge
// or corner, against the box's own inside test.
func TestPseudonormalsInsideBox(t *testing.T) {
	box := BoxMesh(Vec3{-1, -1, -1}, Vec3{1, 1, 1})
	pn := NewPseudonormals(box, NewTopology(box.Triangles))
	bvh := NewBVH(box)
	rng := rand.New(rand.NewPCG(3, 4))
	for range 5000 {
		p := Vec3{3*rng.Float64() - 1.5, 3*rng.Float64() - 1.5, 3*rng.Float64() - 1.5}
		tri, cp, _ := bvh.Nearest(p, 10)
		want := max(math.Abs(p[0]), math.Abs(p[1]), math.Abs(p[2])) < 1
		if cp.Dist2 > 1e-20 && pn.Inside(p, tri, cp) != want {
			t.Fatalf("%v: inside %v, want %v (feature %d of triangle %d)", p, !want, want, cp.Feature, tri)
		}
	}
}
