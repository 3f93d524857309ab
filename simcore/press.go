package simcore

import (
	"math"
	"snowtools/levelset/geom"
)

// Press is an external force field that squeezes snow, as hands press a snowball or a
// press closes on a block (the red arrows of Ye and Sugimoto's Figure 4). From Start to
// End (s; End 0: no end) it pushes every particle within Radius of Center towards
// Center, or, with a non-zero Axis, towards the plane through Center normal to Axis,
// with the force density
//
//	f = Pressure / Radius (N/m^3)
//
// on the particle's initial volume V_p^0. A ball of that radius (or a slab of that
// half-thickness) held still by the press is then in hydrostatic equilibrium,
// dp/dr = -f, with pressure rising from 0 at its surface to Pressure at its centre. The
// force fades linearly to zero within one cell of the centre (plane), so that the
// field is continuous where its direction flips.
//
// The force is the |b| of the sintering laws (equations 2 and 9 of Ye and Sugimoto),
// per unit volume so that the laws do not depend on how finely the snow is sampled.
type Press struct {
	Center     geom.Vec3
	Axis       geom.Vec3 // zero: towards Center; else towards the plane normal to Axis
	Radius     float64
	Pressure   float64 // Pa
	Start, End float64 // s
}

// Validate reports a press that cannot work, as a *SettingError naming the field
// ("center", "axis", "radius", "pressure", "start" or "end").
func (p *Press) Validate() error {
	switch {
	case !p.Center.IsFinite():
		return badSetting("center", "%v: must be finite", p.Center)
	case !p.Axis.IsFinite():
		return badSetting("axis", "%v: must be finite", p.Axis)
	case !(p.Radius > 0) || math.IsInf(p.Radius, 0):
		return badSetting("radius", "%g: must be > 0", p.Radius)
	case !(p.Pressure >= 0) || math.IsInf(p.Pressure, 0):
		return badSetting("pressure", "%g Pa: must be >= 0", p.Pressure)
	case !(p.Start >= 0):
		return badSetting("start", "%g s: must be >= 0", p.Start)
	case !(p.End == 0 || p.End > p.Start):
		return badSetting("end", "%g s: must be after the start %g s (0: no end)", p.End, p.Start)
	}
	return nil
}

// active reports whether the press acts at time t.
func (p *Press) active(t float64) bool {
	return t >= p.Start && (p.End == 0 || t < p.End)
}

// forceDensity returns the press's force per unit volume at x (N/m^3), for grid
// spacing h: zero outside Radius.
func (p *Press) forceDensity(x geom.Vec3, h float64) geom.Vec3 {
	d := x.Sub(p.Center)
	if p.Axis != (geom.Vec3{}) {
		n := p.Axis.Unit()
		d = n.Scale(d.Dot(n))
	}
	r := d.Norm()
	if r == 0 || r > p.Radius {
		return geom.Vec3{}
	}
	fade := math.Min(1, r/h)
	return d.Scale(-p.Pressure / p.Radius * fade / r)
}

// pressing returns the presses active at time t, reusing dst.
func pressing(dst, presses []Press, t float64) []Press {
	dst = dst[:0]
	for _, p := range presses {
		if p.active(t) {
			dst = append(dst, p)
		}
	}
	return dst
}

// pressDensity returns the total force density at x of the presses that act in this
// step (Sim.pressed): the external force of the step per unit initial volume.
func (s *Sim) pressDensity(x geom.Vec3) geom.Vec3 {
	var f geom.Vec3
	for k := range s.pressed {
		f = f.Add(s.pressed[k].forceDensity(x, s.cfg.H))
	}
	return f
}

// pressAcceleration returns a bound on the acceleration (m/s^2) that the presses
// acting at time t give any particle, and the number (from 1) of the press with the
// largest force density, 0 when none acts. A press's force density is at most
// Pressure / Radius, on the particle's volume V_p^0, so particle p accelerates at most
// (sum_k P_k / R_k) V_p^0 / m_p: the bound takes the largest V_p^0 / m_p, the inverse
// of the lowest density that stage 2 measured.
func (s *Sim) pressAcceleration(t float64) (a float64, strongest int) {
	density, largest := 0.0, 0.0
	for k := range s.cfg.Presses {
		p := &s.cfg.Presses[k]
		if !p.active(t) {
			continue
		}
		f := p.Pressure / p.Radius
		density += f
		if f > largest {
			largest, strongest = f, k+1
		}
	}
	if density == 0 {
		return 0, strongest
	}
	volumePerMass := 0.0
	for i := range s.P.Mass {
		volumePerMass = max(volumePerMass, float64(s.P.Vol0[i])/float64(s.P.Mass[i]))
	}
	return density * volumePerMass, strongest
}
