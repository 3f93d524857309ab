package voxelize

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"snowtools/levelset/geom"
)

// The bound of rimSlope holds: the slope of the winding number, by central
// differences of ExactWindingNumber at random points around open meshes, never
// exceeds it. How loose it is goes to the log (it costs evaluations, not
// correctness).
func TestRimSlopeBoundsTheGradient(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, tc := range []struct {
		name string
		m    *geom.Mesh
	}{
		{"sphere with a hole", geom.OpenSphereMesh(geom.Vec3{0.1, 0, 0}, 1, 16, 32, 4)},
		{"L prism without a triangle", withoutTriangle(lPrism(0.5, 0.5, 2), 3)},
		{"pot", pot(24)},
	} {
		r := newRimSlope(tc.m, findRim(tc.m.Triangles, geom.NewTopology(tc.m.Triangles)))
		lo, hi := tc.m.Bounds()
		size := hi.Sub(lo).Norm()
		worst, ratioSum, n := 0.0, 0.0, 0
		for range 400 {
			p := geom.Vec3{}
			for k := range 3 {
				p[k] = lo[k] + (hi[k]-lo[k])*(1.2*rng.Float64()-0.1)
			}
			eps := 1e-5 * size
			var grad geom.Vec3
			for k := range 3 {
				a, b := p, p
				a[k] -= eps
				b[k] += eps
				grad[k] = (ExactWindingNumber(tc.m, b) - ExactWindingNumber(tc.m, a)) / (2 * eps)
			}
			g := grad.Norm()
			if g > 10/size {
				continue // a step across the surface
			}
			bound := r.bound(p, 2*eps, math.Inf(1))
			if g > bound*(1+1e-6) {
				t.Errorf("%s: |grad w| = %.6g at %v, above the bound %.6g", tc.name, g, p, bound)
			}
			if g > 0.1/size {
				worst = max(worst, bound/g)
				ratioSum += bound / g
				n++
			}
		}
		t.Logf("%s: bound / |grad w| mean %.3g, max %.3g over %d points", tc.name, ratioSum/float64(n), worst, n)
	}
}

// The rim is the boundary as a chain: nothing on a closed mesh, the edges of a hole
// once, an edge whose two triangles run the same way twice.
func TestRimEdges(t *testing.T) {
	box := geom.BoxMesh(geom.Vec3{0, 0, 0}, geom.Vec3{1, 1, 1})
	flipped := &geom.Mesh{Positions: box.Positions, Triangles: append([][3]int32(nil), box.Triangles...)}
	flipped.Triangles[5] = [3]int32{box.Triangles[5][0], box.Triangles[5][2], box.Triangles[5][1]}
	for _, tc := range []struct {
		name string
		m    *geom.Mesh
		want []int32 // the multiplicities, sorted by size
	}{
		{"closed box", box, nil},
		{"box without a triangle", withoutTriangle(box, 5), []int32{1, 1, 1}},
		{"box with a triangle turned over", flipped, []int32{2, 2, 2}},
	} {
		rim := findRim(tc.m.Triangles, geom.NewTopology(tc.m.Triangles))
		edges, mult := rim.edges, rim.mult
		var got []int32
		for _, k := range mult {
			got = append(got, max(k, -k))
		}
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%s: rim edges %v with multiplicities %v, want %v", tc.name, edges, mult, tc.want)
		}
		if r := newRimSlope(tc.m, findRim(tc.m.Triangles, geom.NewTopology(tc.m.Triangles))); (r == nil) != (tc.want == nil) {
			t.Errorf("%s: rimSlope %v", tc.name, r)
		}
	}
}
