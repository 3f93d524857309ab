package simcore

import (
	"testing"

	"snowtools/levelset"
	"snowtools/levelset/geom"
	"snowtools/levelset/voxelize"
)

// BenchmarkFillMesh fills a UV-sphere mesh of 16k triangles (radius 0.5 m) at h =
// 0.016 m with 8 particles per cell: about a million particles.
func BenchmarkFillMesh(b *testing.B) {
	m := geom.SphereMesh(geom.Vec3{0.5, 0.5, 0.5}, 0.5, 64, 128)
	for _, pattern := range Patterns() {
		b.Run(string(pattern), func(b *testing.B) {
			src := meshSource(b, m, pattern, 8, 1)
			n := 0
			for b.Loop() {
				p := &Particles{}
				var err error
				if n, err = Fill(p, src, 0.016); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(n), "particles")
		})
	}
}

// BenchmarkFillLevelSet fills the same sphere, voxelized at 1/128 m, as a GridShape.
func BenchmarkFillLevelSet(b *testing.B) {
	c, err := voxelize.Mesh(geom.SphereMesh(geom.Vec3{0.5, 0.5, 0.5}, 0.5, 64, 128), voxelize.Options{VoxelSize: 1.0 / 128, HalfWidth: 3})
	if err != nil {
		b.Fatal(err)
	}
	s, err := levelset.NewGridShape(c.Surface)
	if err != nil {
		b.Fatal(err)
	}
	src := Source{Shape: s, Bounds: geom.Box{Max: geom.Vec3{1, 1, 1}}, Material: DefaultMaterial, PerCell: 8, Seed: 1}
	n := 0
	for b.Loop() {
		if n, err = Fill(&Particles{}, src, 0.016); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n), "particles")
}
