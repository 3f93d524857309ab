package voxelize

import (
	"math"
	"math/rand/v2"
	"testing"

	"snowtools/levelset/geom"
)

// On a closed mesh the pseudonormal of the closest feature tells the side exactly,
// corners and edges included: points around a box, many of them nearest to an edge
// or corner, against the box's own inside test.
func TestPseudonormalsInsideBox(t *testing.T) {
	box := geom.BoxMesh(geom.Vec3{-1, -1, -1}, geom.Vec3{1, 1, 1})
	pn := NewPseudonormals(box, geom.NewTopology(box.Triangles))
	bvh := NewBVH(box)
	rng := rand.New(rand.NewPCG(3, 4))
	for range 5000 {
		p := geom.Vec3{3*rng.Float64() - 1.5, 3*rng.Float64() - 1.5, 3*rng.Float64() - 1.5}
		tri, cp, _ := bvh.Nearest(p, 10)
		want := max(math.Abs(p[0]), math.Abs(p[1]), math.Abs(p[2])) < 1
		if cp.Dist2 > 1e-20 && pn.Inside(p, tri, cp) != want {
			t.Fatalf("%v: inside %v, want %v (feature %d of triangle %d)", p, !want, want, cp.Feature, tri)
		}
	}
}
