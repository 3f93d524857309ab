package simcore

import "snowtools/levelset/geom"

// totalMass returns the sum of m_p.
func (p *Particles) totalMass() float64 {
	s := 0.0
	for _, m := range p.Mass {
		s += float64(m)
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
