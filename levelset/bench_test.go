package levelset

import (
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"snowtools/levelset/geom"
)

// The benchmarks run on the narrow band (|phi| < 3h) of a sphere of radius 115
// voxels: about 1e6 active voxels, the size of a collider in a production shot.
var benchBand = sync.OnceValue(func() *FloatGrid {
	tr := Transform{VoxelSize: 0.01, Origin: geom.Vec3{-0.013, 0.021, 0.004}}
	return narrowBandSphere(tr, geom.Sphere{Center: geom.Vec3{0.2, 1, -0.3}, Radius: 1.15}, 3)
})

// benchCoords returns the band's active voxels in the order ForEachActive visits
// them (walk) and shuffled (random).
var benchCoords = sync.OnceValues(func() (walk, random []Coord) {
	benchBand().ForEachActive(func(c Coord, _ float32) { walk = append(walk, c) })
	random = slices.Clone(walk)
	rng := testRand()
	rng.Shuffle(len(random), func(i, j int) { random[i], random[j] = random[j], random[i] })
	return walk, random
})

// benchPoints returns world points near the band's voxels, jittered by up to a
// voxel, in walk and in random order.
var benchPoints = sync.OnceValues(func() (walk, random []geom.Vec3) {
	g := benchBand()
	w, r := benchCoords()
	rng := rand.New(rand.NewPCG(3, 4))
	jitter := func(c Coord) geom.Vec3 {
		d := geom.Vec3{rng.Float64(), rng.Float64(), rng.Float64()}.Sub(geom.Vec3{0.5, 0.5, 0.5})
		return g.IndexToWorld(c).Add(d.Scale(g.VoxelSize))
	}
	for i := range w {
		walk = append(walk, jitter(w[i]))
		random = append(random, jitter(r[i]))
	}
	return walk, random
})

var sink float64 // keeps the compiler from dropping the work

func BenchmarkGet(b *testing.B) {
	g := benchBand()
	walk, random := benchCoords()
	b.Logf("%d active voxels in %d leaves, %.1f MB", len(walk), g.LeafCount(), float64(g.MemoryBytes())/1e6)
	for _, order := range []struct {
		name string
		cs   []Coord
	}{{"walk", walk}, {"random", random}} {
		b.Run("Grid/"+order.name, func(b *testing.B) {
			var s float32
			for i := range b.N {
				s += g.Get(order.cs[i%len(order.cs)])
			}
			sink = float64(s)
		})
		b.Run("Accessor/"+order.name, func(b *testing.B) {
			a := g.Accessor()
			var s float32
			for i := range b.N {
				s += a.Get(order.cs[i%len(order.cs)])
			}
			sink = float64(s)
		})
	}
}

func BenchmarkFloatSampler(b *testing.B) {
	s := NewFloatSampler(benchBand())
	walk, random := benchPoints()
	for _, order := range []struct {
		name string
		ps   []geom.Vec3
	}{{"walk", walk}, {"random", random}} {
		b.Run("Sample/"+order.name, func(b *testing.B) {
			f := 0.0
			for i := range b.N {
				f += s.Sample(order.ps[i%len(order.ps)])
			}
			sink = f
		})
		b.Run("SampleAndGradient/"+order.name, func(b *testing.B) {
			f := 0.0
			for i := range b.N {
				v, g := s.SampleAndGradient(order.ps[i%len(order.ps)])
				f += v + g[0]
			}
			sink = f
		})
	}
}

// BenchmarkDilate dilates a copy of the band once per op.
func BenchmarkDilate(b *testing.B) {
	band := benchBand()
	voxels := band.ActiveVoxelCount()
	for range b.N {
		b.StopTimer()
		g := NewGrid(band.Transform, band.Background)
		for _, l := range band.Leaves() {
			c := *l
			g.AddLeaf(&c)
		}
		b.StartTimer()
		g.Dilate(1)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(voxels), "ns/voxel")
}
