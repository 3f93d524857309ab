package main

import (
	"io"
	"math"

	"snowtools/formats/prt"
	"snowtools/simcore"
)

// frameInfo is what a PRT frame records besides the particles.
type frameInfo struct {
	Frame int
	Time  float64 // s
	FPS   float64
	H     float64 // grid spacing, so that export can rasterize on the simulation grid
}

// The channels snowsim writes. Krakatoa multiplies its render density by Density, so
// Density is the packing ratio rho_p / rho_p^0 = 1 / det F: 1 for snow as it was
// seeded, above 1 where it has been packed. The physical density, the mass and J_P are
// written too, and the grid spacing goes into the metadata, so that export can rebuild
// physical densities.
type prtLayout struct {
	header                                                      prt.Header
	position, velocity, density, id, mass, physDensity, plastic prt.Channel
}

func newLayout(n int, info frameInfo, bounds [6]float32) prtLayout {
	var l prtLayout
	h := &l.header
	l.position = h.AddChannel("Position", prt.Float32, 3)
	l.velocity = h.AddChannel("Velocity", prt.Float32, 3)
	l.density = h.AddChannel("Density", prt.Float32, 1)
	l.id = h.AddChannel("ID", prt.Int32, 1)
	l.mass = h.AddChannel("Mass", prt.Float32, 1)
	l.physDensity = h.AddChannel("PhysicalDensity", prt.Float32, 1)
	l.plastic = h.AddChannel("PlasticJ", prt.Float32, 1)
	h.Count = int64(n)
	h.Meta = frameMeta(info, bounds)
	return l
}

// frameMeta is the metadata of a frame snowsim writes: the particles' box, the
// axes, units and frame rate Krakatoa reads, and what export needs.
func frameMeta(info frameInfo, bounds [6]float32) []prt.Meta {
	num, den := frameRate(info.FPS)
	return []prt.Meta{
		prt.MetaFloat32("", "BoundBox", bounds[:]...),
		prt.MetaInt32("", "CoordSys", 1), // right-handed, Y up
		prt.MetaFloat64("", "LengthUnitInMeters", 1),
		prt.MetaUint32("", "FrameRate", num, den),
		prt.MetaString("", "Creator", "snowsim"),
		prt.MetaInt32("", "Frame", int32(info.Frame)),
		prt.MetaFloat64("", "Time", info.Time),
		prt.MetaFloat64("", "GridSpacing", info.H),
		prt.MetaInt32("Position", "Interpretation", 1), // point
		prt.MetaInt32("Velocity", "Interpretation", 2), // vector
	}
}

// frameRate writes fps as a ratio: integers exactly, others to 1/1000.
func frameRate(fps float64) (num, den uint32) {
	if fps == math.Trunc(fps) {
		return uint32(fps), 1
	}
	return uint32(math.Round(fps * 1000)), 1000
}

// writePRT writes the particles as one PRT frame.
func writePRT(w io.Writer, p *simcore.Particles, info frameInfo) error {
	n := p.Len()
	bounds := [6]float32{}
	if n > 0 {
		lo, hi := p.X[0], p.X[0]
		for _, x := range p.X {
			lo, hi = lo.Min(x), hi.Max(x)
		}
		bounds = [6]float32{float32(lo[0]), float32(lo[1]), float32(lo[2]), float32(hi[0]), float32(hi[1]), float32(hi[2])}
	}
	l := newLayout(n, info, bounds)
	pw, err := prt.NewWriter(w, l.header)
	if err != nil {
		return err
	}
	rec := make([]byte, l.header.ParticleSize())
	for i := 0; i < n; i++ {
		x, v := p.X[i], p.V[i]
		l.position.PutFloat32s(rec, float32(x[0]), float32(x[1]), float32(x[2]))
		l.velocity.PutFloat32s(rec, float32(v[0]), float32(v[1]), float32(v[2]))
		rho := p.Density(i)
		rho0 := 0.0
		if p.Vol0[i] > 0 {
			rho0 = float64(p.Mass[i]) / float64(p.Vol0[i])
		}
		ratio := float32(1)
		if rho0 > 0 {
			ratio = float32(rho / rho0)
		}
		l.density.PutFloat32s(rec, ratio)
		l.id.PutInt32s(rec, p.ID[i])
		l.mass.PutFloat32s(rec, p.Mass[i])
		l.physDensity.PutFloat32s(rec, float32(rho))
		l.plastic.PutFloat32s(rec, p.JP[i])
		if err := pw.WriteParticle(rec); err != nil {
			return err
		}
	}
	return pw.Close()
}
