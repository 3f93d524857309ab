package simcore

import (
	"testing"

	"snowtools/levelset/geom"
)

// totalMass returns the sum of m_p.
func (p *Particles) totalMass() float64 {
	s := 0.0
	for _, m := range p.Mass {
		s += float64(m)
	}
	return s
}

// ballSource returns a Source that fills the sphere of centre c and radius r (bounded
// by its box) with 8 particles per cell of m, from seed, at rest: the snowball of many
// tests, which set its velocity or spin.
func ballSource(c geom.Vec3, r float64, m Material, seed uint64) Source {
	rr := geom.Vec3{r, r, r}
	return Source{Shape: geom.Sphere{Center: c, Radius: r}, Bounds: geom.Box{Min: c.Sub(rr), Max: c.Add(rr)},
		Material: m, PerCell: 8, Seed: seed}
}

// newSimOf returns a simulation of cfg whose particles fill srcs, in order.
func newSimOf(tb testing.TB, cfg Config, srcs ...Source) *Sim {
	tb.Helper()
	p := &Particles{}
	for _, src := range srcs {
		if _, err := Fill(p, src, cfg.H); err != nil {
			tb.Fatal(err)
		}
	}
	s, err := NewSim(cfg, p)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// momentum returns the total linear momentum sum m_p v_p.
func (p *Particles) momentum() geom.Vec3 {
	var s geom.Vec3
	for i, v := range p.V {
		s = s.Add(v.Scale(float64(p.Mass[i])))
	}
	return s
}
