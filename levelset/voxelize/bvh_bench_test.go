package voxelize

import (
	"math"
	"math/rand/v2"
	"strconv"
	"sync"
	"testing"

	"snowtools/levelset/geom"
)

// Benchmarks of the BVH and the winding numbers. Run them with
//
//	go test -run XXX -bench 'BVH|Nearest|Winding' ./levelset
//
// "near" points are within 0.01 of the surface (spot is about 1.5 units long),
// "far" points are uniform in the bounding box grown by a quarter on each side.

// benchOpenMesh is an open mesh of about 16k triangles: a sphere of radius 0.5
// with a hole around +Y.
var benchOpenMesh = sync.OnceValue(func() *geom.Mesh { return geom.OpenSphereMesh(geom.Vec3{0.1, -0.2, 0.3}, 0.5, 64, 128, 6) })

// benchQueryPoints returns 4096 near and 4096 far points for m.
func benchQueryPoints(m *geom.Mesh) (near, far []geom.Vec3) {
	rng := rand.New(rand.NewPCG(91, 92))
	return surfacePoints(rng, m, 4096, 0.01), boxPoints(rng, m, 4096, 0.25)
}

func BenchmarkBVHBuild(b *testing.B) {
	b.Run("spot", func(b *testing.B) {
		m := loadSpot(b)
		for b.Loop() {
			NewBVH(m)
		}
	})
	b.Run("sphere1M", func(b *testing.B) {
		m := geom.OpenSphereMesh(geom.Vec3{}, 1, 500, 1000, 0) // 998,000 triangles
		b.ResetTimer()
		for b.Loop() {
			NewBVH(m)
		}
	})
	b.Run("spot+winding", func(b *testing.B) {
		m := loadSpot(b)
		for b.Loop() {
			bv := NewBVH(m)
			bv.windOnce.Do(bv.buildWinding)
		}
	})
}

func BenchmarkNearest(b *testing.B) {
	m := loadSpot(b)
	bv := NewBVH(m)
	near, far := benchQueryPoints(m)
	for _, set := range []struct {
		name string
		pts  []geom.Vec3
	}{{"near", near}, {"far", far}} {
		b.Run(set.name, func(b *testing.B) {
			i := 0
			for b.Loop() {
				bv.Nearest(set.pts[i%len(set.pts)], math.Inf(1))
				i++
			}
		})
		b.Run(set.name+"/brute", func(b *testing.B) {
			i := 0
			for b.Loop() {
				bruteNearest(m, set.pts[i%len(set.pts)], math.Inf(1))
				i++
			}
		})
	}
	b.Run("near/maxDist0.03", func(b *testing.B) {
		i := 0
		for b.Loop() {
			bv.Nearest(near[i%len(near)], 0.03)
			i++
		}
	})
}

func BenchmarkWindingNumber(b *testing.B) {
	meshes := []struct {
		name string
		m    func(testing.TB) *geom.Mesh
	}{
		{"spot", loadSpot},
		{"open16k", func(testing.TB) *geom.Mesh { return benchOpenMesh() }},
	}
	for _, mm := range meshes {
		b.Run(mm.name, func(b *testing.B) {
			m := mm.m(b)
			bv := NewBVH(m)
			bv.WindingNumber(geom.Vec3{}) // build the expansion data outside the timing
			near, far := benchQueryPoints(m)
			for _, set := range []struct {
				name string
				pts  []geom.Vec3
			}{{"near", near}, {"far", far}} {
				for _, beta := range []float64{1.5, WindingBeta, 3} {
					b.Run(set.name+"/fast/beta="+strconv.FormatFloat(beta, 'g', -1, 64), func(b *testing.B) {
						i := 0
						for b.Loop() {
							bv.windingNumber(set.pts[i%len(set.pts)], beta*beta)
							i++
						}
					})
				}
				b.Run(set.name+"/exact", func(b *testing.B) {
					i := 0
					for b.Loop() {
						ExactWindingNumber(m, set.pts[i%len(set.pts)])
						i++
					}
				})
			}
		})
	}
}
