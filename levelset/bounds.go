package levelset

import "math"

// Bounded is a shape that can say where its solid is: Bounds holds every point with
// phi <= 0. Shapes without such a box (a half-space) do not implement it.
type Bounded interface {
	Bounds() Bounds
}

// Union returns the smallest box holding b and c.
func (b Bounds) Union(c Bounds) Bounds { return Bounds{Min: b.Min.Min(c.Min), Max: b.Max.Max(c.Max)} }

// Expand returns b grown by r on every side.
func (b Bounds) Expand(r float64) Bounds {
	return Bounds{Min: b.Min.Sub(Vec3{r, r, r}), Max: b.Max.Add(Vec3{r, r, r})}
}

// Bounds implements Bounded.
func (s Sphere) Bounds() Bounds {
	r := Vec3{s.Radius, s.Radius, s.Radius}
	return Bounds{Min: s.Center.Sub(r), Max: s.Center.Add(r)}
}

// Bounds implements Bounded.
func (b Box) Bounds() Bounds { return Bounds{Min: b.Min, Max: b.Max} }

// Bounds implements Bounded: the box around the two end discs. A disc of radius r
// around the unit axis u reaches r sqrt(1 - u_a^2) along axis a.
func (c Cylinder) Bounds() Bounds {
	u := c.B.Sub(c.A).Unit()
	var reach Vec3
	for a := range 3 {
		reach[a] = c.Radius * math.Sqrt(max(0, 1-u[a]*u[a]))
	}
	return Bounds{Min: c.A.Min(c.B).Sub(reach), Max: c.A.Max(c.B).Add(reach)}
}

// Bounds implements Bounded: the box of the level set's leaves and tiles, one voxel
// wider. Beyond them every voxel is the positive background, and the trilinear
// interpolant can only be negative within a voxel of a negative sample.
func (s *GridShape) Bounds() Bounds { return s.bounds }

// WorldBounds returns the world box of every leaf and tile of g, one voxel wider on
// each side; ok is false for an empty grid.
func (g *Grid[T]) WorldBounds() (b Bounds, ok bool) {
	grow := func(lo Coord, side int32) {
		lw := g.IndexToWorld(lo)
		hw := g.IndexToWorld(lo.Add(Coord{side - 1, side - 1, side - 1}))
		if !ok {
			b, ok = Bounds{Min: lw, Max: hw}, true
			return
		}
		b = b.Union(Bounds{Min: lw, Max: hw})
	}
	for _, l := range g.leaves {
		grow(l.Origin, 1<<LeafLog2)
	}
	for _, t := range g.tiles {
		grow(t.Origin, 1<<t.Log2)
	}
	if !ok {
		return Bounds{}, false
	}
	return b.Expand(g.VoxelSize), true
}
