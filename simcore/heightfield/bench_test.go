package heightfield

import (
	"fmt"
	"testing"

	"snowtools/levelset/geom"
	"snowtools/simcore/collider"
)

// stepper is a foot (a box scale times 26 x 9 cm) that walks along x in strides of
// 2.5 foot lengths, 3 cm deep, one stride a second, over a 10 m x 10 m virtual grid
// of 1 cm columns (10^6 columns, of which it touches a strip).
func stepper(b *testing.B, m Material, scale float64, strides int) *Sim {
	b.Helper()
	l, w := 0.26*scale, 0.09*scale
	foot := geom.Box{Min: geom.Vec3{-l / 2, 0, -w / 2}, Max: geom.Vec3{l / 2, 0.08, w / 2}}
	var keys []collider.TranslationKey
	for k := range strides {
		x := -4 + 2.5*l*float64(k)
		t := float64(k)
		keys = append(keys,
			collider.TranslationKey{T: t, P: geom.Vec3{x - 0.05, 0.04, 0}},
			collider.TranslationKey{T: t + 0.1, P: geom.Vec3{x, -0.03, 0}},
			collider.TranslationKey{T: t + 0.45, P: geom.Vec3{x, -0.03, 0}},
			collider.TranslationKey{T: t + 0.6, P: geom.Vec3{x + 0.1, 0.08, 0}})
	}
	c, err := collider.NewRigidBody(foot, keys, nil, collider.Surface{})
	if err != nil {
		b.Fatal(err)
	}
	cfg := DefaultConfig()
	cfg.Material = m
	cfg.OriginX, cfg.OriginZ = -5, -5
	cfg.Extent = Rect{0, 0, 1000, 1000}
	cfg.Colliders = []collider.Collider{c}
	s, err := New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// BenchmarkStep times one step of a walking foot against the active area: the foot
// at 1x, 2x and 4x size, in sand (erosion and spray) and snow (neither).
func BenchmarkStep(b *testing.B) {
	for _, name := range []string{"sand", "snow"} {
		m, _ := Preset(name)
		for _, scale := range []float64{1, 2, 4} {
			b.Run(fmt.Sprintf("%s/foot=%gx", name, scale), func(b *testing.B) {
				s := stepper(b, m, scale, 1000)
				active := 0
				b.ResetTimer()
				for range b.N {
					if err := s.Step(s.Config().Dt); err != nil {
						b.Fatal(err)
					}
					active += s.Stats().ActiveColumns
				}
				b.ReportMetric(float64(active)/float64(b.N), "columns/step")
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(max(active, 1)), "ns/column")
			})
		}
	}
}

// BenchmarkMemory walks the foot over 1, 4 and 16 strides and reports the columns
// it touched and the field's memory: it follows the touched strip, not the 10^6
// columns of the virtual grid.
func BenchmarkMemory(b *testing.B) {
	for _, strides := range []int{1, 4, 16} {
		b.Run(fmt.Sprintf("strides=%d", strides), func(b *testing.B) {
			var s *Sim
			for range b.N {
				s = stepper(b, Sand, 1, strides)
				if _, err := s.Advance(float64(strides)); err != nil {
					b.Fatal(err)
				}
			}
			f := s.Field()
			b.ReportMetric(float64(f.StoredColumns()), "columns")
			b.ReportMetric(float64(f.MemoryBytes())/float64(f.StoredColumns()), "bytes/column")
			b.ReportMetric(float64(f.MemoryBytes())/1e6, "MB")
		})
	}
}
