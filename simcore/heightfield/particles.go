package heightfield

import (
	"math"

	"snowtools/levelset/geom"
)

// Particles are the spray in the air, as structure of arrays. Every particle holds
// Spray.ParticleVolume of material.
type Particles struct {
	Pos, Vel []geom.Vec3
	ID       []uint64 // unique over the run, in order of creation
}

// Len returns the number of particles.
func (p *Particles) Len() int { return len(p.Pos) }

func (p *Particles) add(x, v geom.Vec3, id uint64) {
	p.Pos, p.Vel, p.ID = append(p.Pos, x), append(p.Vel, v), append(p.ID, id)
}

// fall moves the airborne particles for dt under gravity (symplectic Euler) and lands
// those that reach the ground: "When a particle hits the surface of a column, its
// volume is added to the column." A particle that leaves the virtual grid is lost
// (and counted in Stats.Lost).
func (s *Sim) fall(dt float64) {
	g := s.cfg.Grid
	vol := s.cfg.Spray.ParticleVolume
	p := &s.P
	kept := 0
	for k := range p.Pos {
		v := p.Vel[k].Add(s.cfg.Gravity.Scale(dt))
		x := p.Pos[k].Add(v.Scale(dt))
		i := int(math.Round((x[0] - g.OriginX) / g.Cell))
		j := int(math.Round((x[2] - g.OriginZ) / g.Cell))
		switch {
		case !s.field.inExtent(i, j):
			s.stats.Lost += vol
			continue
		case x[1] <= s.field.Height(i, j):
			s.field.Add(i, j, vol/(g.Cell*g.Cell))
			s.stats.Landed++
			continue
		}
		p.Pos[kept], p.Vel[kept], p.ID[kept] = x, v, p.ID[k]
		kept++
	}
	p.Pos, p.Vel, p.ID = p.Pos[:kept], p.Vel[:kept], p.ID[:kept]
}
