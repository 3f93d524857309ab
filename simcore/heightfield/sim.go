package heightfield

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"snowtools/levelset/geom"
	"snowtools/levelset/parallel"
	"snowtools/simcore/collider"
)

// Config describes a ground simulation.
type Config struct {
	Grid
	// Bottom is the height of the column bottoms, where the collision rays start:
	// below the deepest print an object can make.
	Bottom   float64
	Terrain  Terrain
	Material Material
	Spray    Spray
	Gravity  geom.Vec3
	// Colliders press into the ground. Those that are collider.BoundedCollider
	// activate only the columns under their box; any other activates the whole
	// virtual grid.
	Colliders []collider.Collider
	// Margin is how far (m) the active area reaches beyond an object's box: room for
	// the rim and for erosion, which stay inside the active area.
	Margin float64
	// Dt is the time step (s).
	Dt      float64
	Threads int // 0: all cores
}

// DefaultConfig returns a 1 cm grid of flat sand at height 0, columns 0.5 m deep,
// 5 cm of margin and 2 ms steps. The caller sets the extent and the colliders.
func DefaultConfig() Config {
	return Config{Grid: Grid{Cell: 0.01}, Bottom: -0.5, Terrain: Flat(0), Material: Sand,
		Spray: DefaultSpray, Gravity: geom.Vec3{0, -9.81, 0}, Margin: 0.05, Dt: 0.002}
}

// Validate reports a configuration that cannot run.
func (c *Config) Validate() error {
	switch {
	case !(c.Cell > 0) || !finite(c.Cell):
		return fmt.Errorf("ground cell %g: must be > 0 (m)", c.Cell)
	case !finite(c.OriginX) || !finite(c.OriginZ):
		return fmt.Errorf("ground origin (%g, %g): must be finite", c.OriginX, c.OriginZ)
	case c.Extent.Empty():
		return fmt.Errorf("ground extent %v: holds no column", c.Extent)
	case c.Extent.I0 < -1<<30 || c.Extent.J0 < -1<<30 || c.Extent.I1 > 1<<30 || c.Extent.J1 > 1<<30:
		return fmt.Errorf("ground extent %v: more than 2^30 columns from the origin", c.Extent)
	case c.Terrain == nil:
		return fmt.Errorf("ground: no terrain")
	case !finite(c.Bottom) || c.Bottom >= c.Terrain.Top():
		return fmt.Errorf("ground bottom %g: must be finite and below the terrain's top %g", c.Bottom, c.Terrain.Top())
	case !c.Gravity.IsFinite():
		return fmt.Errorf("gravity %v: must be finite", c.Gravity)
	case !(c.Margin >= 0) || !finite(c.Margin):
		return fmt.Errorf("ground margin %g: must be >= 0 (m)", c.Margin)
	case !(c.Dt > 0) || !finite(c.Dt):
		return fmt.Errorf("ground time step %g: must be > 0 (s)", c.Dt)
	}
	if err := c.Material.Validate(); err != nil {
		return err
	}
	return c.Spray.Validate()
}

// finite reports whether v is neither NaN nor infinite.
func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// Stats are running totals of a simulation. Volumes are in m^3.
type Stats struct {
	Steps      int
	Pushed     float64 // material the objects pushed down
	Compressed float64 // (1 - alpha) of it, and what could not move out
	Lost       float64 // spray that left the virtual grid
	Landed     int     // spray particles that fell back into the columns

	ErosionPasses int // over all steps and windows
	MostPasses    int // in one window in one step
	PassLimitHits int // windows that stopped at the limit of passes, not at theta_stop

	ActiveColumns int // in the last step
}

// Sim is a ground of columns that objects press prints into: the height-field model
// of Sumner, O'Brien and Hodgins, "Animating sand, mud, and snow" (GI 1998).
type Sim struct {
	cfg   Config
	Time  float64
	P     Particles // the spray in the air
	field *Field

	carriers []carrier
	settling []Rect // windows whose erosion still moved material in the last step
	rng      *rand.Rand
	nextID   uint64
	top      float64 // no column is higher than this before the simulation raises it
	stats    Stats
}

// New returns a simulation at time 0 with no column created yet.
func New(cfg Config) (*Sim, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg.Colliders = slices.Clone(cfg.Colliders)
	return &Sim{cfg: cfg, field: NewField(cfg.Grid, cfg.Terrain), top: cfg.Terrain.Top(),
		rng: rand.New(rand.NewPCG(cfg.Spray.Seed, 0x5350_5241_5900_0000))}, nil
}

// Config returns the configuration.
func (s *Sim) Config() Config { return s.cfg }

// Field returns the columns.
func (s *Sim) Field() *Field { return s.field }

// Stats returns the running totals.
func (s *Sim) Stats() Stats { return s.stats }

// Adhered returns the volume of material on the objects.
func (s *Sim) Adhered() float64 {
	sum := 0.0
	for _, c := range s.carriers {
		sum += c.load
	}
	return sum
}

// Airborne returns the volume of the spray in the air.
func (s *Sim) Airborne() float64 { return float64(s.P.Len()) * s.cfg.Spray.ParticleVolume }

// Advance steps to time t, with steps of Config.Dt (the last one shortened to end on
// t), and returns how many it took.
func (s *Sim) Advance(t float64) (int, error) {
	n := 0
	for s.Time < t {
		dt := min(s.cfg.Dt, t-s.Time)
		if t-(s.Time+dt) < 1e-9*s.cfg.Dt { // no sliver of a step at the end
			dt = t - s.Time
		}
		if err := s.Step(dt); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// Step advances the ground by dt: the objects, where they are at the end of the step,
// push into the columns (collision); the material they push out moves to the first
// ring of free columns (contour map, displacement); steep slopes crumble (erosion);
// then the spray falls and lands, and the objects pick up and drop more.
func (s *Sim) Step(dt float64) error {
	if !(dt > 0) || math.IsInf(dt, 0) {
		return fmt.Errorf("ground step %g: must be > 0", dt)
	}
	t1 := s.Time + dt
	boxes := s.boxes(t1)
	windows := s.windows(boxes)
	for _, w := range windows {
		s.field.load(w.r, w.h, w.settled)
	}
	g, m := s.cfg.Grid, s.cfg.Material
	e := newEroder(m)
	type outcome struct {
		pushed, compressed float64
		passes             int
		moved              bool
	}
	out := make([]outcome, len(windows))
	parallel.For(s.cfg.Threads, len(windows), func(_, k int) {
		w := windows[k]
		o := &out[k]
		o.pushed = w.collide(g, s.cfg.Bottom, t1)
		w.contour()
		o.compressed = w.displace(m.Compression)
		o.passes, o.moved = w.erode(e, g.Cell)
	})
	cells, touched := map[[2]int]contactCell{}, map[[2]int]bool{}
	s.stats.ActiveColumns = 0
	s.settling = s.settling[:0]
	d2 := g.Cell * g.Cell
	for k, w := range windows {
		s.field.store(w.r, w.h, w.settled)
		if s.cfg.Spray.Adhesion > 0 {
			w.contactCells(cells, touched)
		}
		o := out[k]
		s.stats.Pushed += o.pushed * d2
		s.stats.Compressed += o.compressed * d2
		s.stats.ErosionPasses += o.passes
		s.stats.MostPasses = max(s.stats.MostPasses, o.passes)
		if o.passes == maxErosionPasses {
			s.stats.PassLimitHits++
		}
		if o.moved {
			s.settling = append(s.settling, w.r)
		}
		s.stats.ActiveColumns += w.r.Columns()
	}
	s.fall(dt)
	if s.cfg.Spray.Adhesion > 0 {
		s.spray(cells, touched, s.Time, dt)
	}
	s.Time = t1
	s.stats.Steps++
	return nil
}

// boxes returns the colliders that may reach the ground at time t, with their boxes.
func (s *Sim) boxes(t float64) []boxed {
	reach := max(s.top, s.field.Highest()) + contactGap*s.cfg.Cell
	everywhere := geom.Box{Min: geom.Vec3{math.Inf(-1), math.Inf(-1), math.Inf(-1)}, Max: geom.Vec3{math.Inf(1), math.Inf(1), math.Inf(1)}}
	var out []boxed
	for k, c := range s.cfg.Colliders {
		box := everywhere
		if bc, ok := c.(collider.BoundedCollider); ok {
			if b, ok := bc.Bounds(t); ok {
				box = b
			}
		}
		if box.Min[1] > reach || box.Max[1] < s.cfg.Bottom || box.Min[0] > box.Max[0] {
			continue
		}
		out = append(out, boxed{index: k, c: c, box: box})
	}
	return out
}

// windows returns the active windows for the boxes: the columns under each box grown
// by the margin, clipped to the virtual grid, and the windows of the last step whose
// ground was still settling (erosion moved material), with windows that overlap or
// touch merged into their bounding rectangle until none do. (The paper's active area
// follows the objects only; a print then freezes as the object leaves. Here it
// settles first, at one step's worth of erosion at a time.)
func (s *Sim) windows(boxes []boxed) []*window {
	g := s.cfg.Grid
	rects := slices.Clone(s.settling)
	members := make([][]boxed, len(rects))
	for _, b := range boxes {
		r := g.Extent
		if !math.IsInf(b.box.Min[0], 0) {
			lo := func(v, o float64) int { return int(math.Floor((v - s.cfg.Margin - o) / g.Cell)) }
			hi := func(v, o float64) int { return int(math.Ceil((v+s.cfg.Margin-o)/g.Cell)) + 1 }
			r = Rect{lo(b.box.Min[0], g.OriginX), lo(b.box.Min[2], g.OriginZ), hi(b.box.Max[0], g.OriginX), hi(b.box.Max[2], g.OriginZ)}.Intersect(g.Extent)
		}
		if r.Empty() {
			continue
		}
		rects, members = append(rects, r), append(members, []boxed{b})
	}
	for merged := true; merged; {
		merged = false
		for a := 0; a < len(rects) && !merged; a++ {
			for b := a + 1; b < len(rects); b++ {
				if !rects[a].Grow(1).Intersect(rects[b]).Empty() {
					rects[a] = rects[a].Union(rects[b])
					members[a] = append(members[a], members[b]...)
					rects = slices.Delete(rects, b, b+1)
					members = slices.Delete(members, b, b+1)
					merged = true
					break
				}
			}
		}
	}
	out := make([]*window, len(rects))
	for k, r := range rects {
		out[k] = newWindow(r)
		out[k].colliders = members[k]
	}
	return out
}
