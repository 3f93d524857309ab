package mesher

import (
	"sync"
	"testing"

	"snowtools/levelset"
	"snowtools/levelset/geom"
)

// benchSphere is a level set of a sphere of radius 115 voxels with a band of 3
// voxels each side: about 10^6 active voxels.
var benchSphere = sync.OnceValue(func() *levelset.FloatGrid {
	tr := levelset.Transform{VoxelSize: 0.01}
	s := geom.Sphere{Center: geom.Vec3{0.003, -0.002, 0.001}, Radius: 1.15}
	return levelSetOf(tr, s, s.Bounds(), halfWidth)
})

// BenchmarkMeshSphere meshes the sphere on every CPU (-cpu sets how many) and
// reports triangles per second.
func BenchmarkMeshSphere(b *testing.B) {
	g := benchSphere()
	b.ReportAllocs()
	triangles := 0
	for b.Loop() {
		m, err := Mesh(g, Options{})
		if err != nil {
			b.Fatal(err)
		}
		triangles = len(m.Triangles)
	}
	b.ReportMetric(float64(g.ActiveVoxelCount()), "active-voxels")
	b.ReportMetric(float64(triangles), "triangles")
	b.ReportMetric(float64(triangles)*float64(b.N)/b.Elapsed().Seconds(), "triangles/s")
}
