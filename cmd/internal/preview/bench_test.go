package preview

import (
	"math"
	"testing"

	"snowtools/levelset/geom"
)

// BenchmarkRender1M renders a heap of a million particles at 1280x720 with 2x2
// supersampling, the size of a typical preview of a production frame.
func BenchmarkRender1M(b *testing.B) {
	pts := snowHeap(1_000_000)
	lo, hi, _ := pts.Bounds()
	cam := Frame(lo, hi, 1280.0/720, DefaultAzimuth, DefaultElevation, DefaultFov)
	opt := Options{Width: 1280, Height: 720, Supersample: 2}
	b.ResetTimer()
	for b.Loop() {
		Render(pts, cam, opt)
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/frame")
}

// footprintField returns a height field of 200 x 200 cells of 1 cm (80,000
// triangles) with a trail of six oval prints 3 cm deep, each with a raised rim:
// the ground of a height-field simulation after a few steps.
func footprintField() *geom.Mesh {
	return heightField(200, 200, 0.01, -1, -1, func(x, z float64) float64 {
		y := 0.0
		for k := range 6 {
			cx, cz := -0.75+0.3*float64(k), 0.12*float64(k%2*2-1)
			d := math.Hypot((x-cx)/0.06, (z-cz)/0.13) // 1 on the print's edge
			y += -0.03*math.Exp(-math.Pow(d, 6)) + 0.008*math.Exp(-8*(d-1.1)*(d-1.1))
		}
		return y
	})
}

// BenchmarkMesh80k prepares (NewMesh: normals and footprint) and renders a
// height-field ground of 80,000 triangles at 960x540 with 2x2 supersampling,
// without particles: what the ground mesh adds to a preview frame.
func BenchmarkMesh80k(b *testing.B) {
	m := footprintField()
	b.Run("prepare", func(b *testing.B) {
		for b.Loop() {
			if _, err := NewMesh(m); err != nil {
				b.Fatal(err)
			}
		}
	})
	mesh, _ := NewMesh(m)
	lo, hi, _ := mesh.Bounds()
	cam := Frame(lo, hi, 960.0/540, DefaultAzimuth, DefaultElevation, DefaultFov)
	b.Run("render", func(b *testing.B) {
		for b.Loop() {
			Render(Points{}, cam, Options{Width: 960, Height: 540, Mesh: mesh})
		}
		b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/frame")
	})
}

// BenchmarkMesh80kWithObjects is BenchmarkMesh80k's render with objects on the
// ground: two feet (boxes) and a ball of 2,208 triangles, which Render joins to the
// ground mesh every frame; compare with BenchmarkMesh80k/render.
func BenchmarkMesh80kWithObjects(b *testing.B) {
	mesh, _ := NewMesh(footprintField())
	objects := &geom.Mesh{}
	for _, part := range []*geom.Mesh{
		geom.BoxMesh(geom.Vec3{-0.8, -0.03, 0.08}, geom.Vec3{-0.6, 0.05, 0.16}),
		geom.BoxMesh(geom.Vec3{-0.5, 0, -0.16}, geom.Vec3{-0.3, 0.08, -0.08}),
		geom.SphereMesh(geom.Vec3{0.3, 0.1, 0}, 0.1, 24, 48),
	} {
		base := int32(len(objects.Positions))
		objects.Positions = append(objects.Positions, part.Positions...)
		for _, t := range part.Triangles {
			objects.Triangles = append(objects.Triangles, [3]int32{t[0] + base, t[1] + base, t[2] + base})
		}
	}
	obj, _ := NewMesh(objects)
	lo, hi, _ := mesh.Bounds()
	cam := Frame(lo, hi, 960.0/540, DefaultAzimuth, DefaultElevation, DefaultFov)
	for b.Loop() {
		Render(Points{}, cam, Options{Width: 960, Height: 540, Mesh: mesh, Objects: obj})
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/frame")
}
