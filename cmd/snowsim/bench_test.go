package main

import (
	"io"
	"testing"

	"snowtools/cmd/internal/scene"
	"snowtools/levelset/geom"
	"snowtools/simcore"
)

// BenchmarkWritePRT writes a frame of a 0.2 m ball at h = 0.01 (about 270k
// particles) with the default columns and with those written on request too, whose
// Orientation takes a polar decomposition of F_E per particle (on 2 cores of an
// AMD EPYC: 0.41 and 0.59 s a frame; zlib compression is most of either).
func BenchmarkWritePRT(b *testing.B) {
	p := &simcore.Particles{}
	p.KeepRestPositions()
	c := geom.Vec3{0.5, 0.5, 0.5}
	ball := geom.Box{Min: c.Sub(geom.Vec3{0.2, 0.2, 0.2}), Max: c.Add(geom.Vec3{0.2, 0.2, 0.2})}
	src := simcore.Source{Shape: geom.Sphere{Center: c, Radius: 0.2}, Bounds: ball, Material: simcore.DefaultMaterial, PerCell: 8, Seed: 1}
	if _, err := simcore.Fill(p, src, 0.01); err != nil {
		b.Fatal(err)
	}
	for i := range p.FE { // a turned and stretched F_E, as in a moving ball, not the identity
		a := float32(i%100) / 50
		p.FE[i] = simcore.Mat3f{1.01, -a, 0.02, a, 0.98, 0, 0.01, 0, 1}
	}
	b.Logf("%d particles", p.Len())
	for _, bc := range []struct {
		name      string
		requested []string
	}{{"default", nil}, {"requested", scene.FrameChannels}} {
		b.Run(bc.name, func(b *testing.B) {
			cols := frameColumns(bc.requested)
			for b.Loop() {
				if err := writePRT(io.Discard, p, cols, frameInfo{Frame: 1, FPS: 24, H: 0.01}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
