package geom

import "math"

// Bounded is a shape that can say where its solid is: Bounds holds every point with
// phi <= 0. Shapes without such a box (a half-space) do not implement it.
type Bounded interface {
	Bounds() Box
}

// Union returns the smallest box holding b and c.
func (b Box) Union(c Box) Box { return Box{Min: b.Min.Min(c.Min), Max: b.Max.Max(c.Max)} }

// Expand returns b grown by r on every side.
func (b Box) Expand(r float64) Box {
	return Box{Min: b.Min.Sub(Vec3{r, r, r}), Max: b.Max.Add(Vec3{r, r, r})}
}

// Bounds implements Bounded.
func (s Sphere) Bounds() Box {
	r := Vec3{s.Radius, s.Radius, s.Radius}
	return Box{Min: s.Center.Sub(r), Max: s.Center.Add(r)}
}

// Bounds implements Bounded.
func (b Box) Bounds() Box { return b }

// Bounds implements Bounded: the box around the two end discs. A disc of radius r
// around the unit axis u reaches r sqrt(1 - u_a^2) along axis a.
func (c Cylinder) Bounds() Box {
	u := c.B.Sub(c.A).Unit()
	var reach Vec3
	for a := range 3 {
		reach[a] = c.Radius * math.Sqrt(max(0, 1-u[a]*u[a]))
	}
	return Box{Min: c.A.Min(c.B).Sub(reach), Max: c.A.Max(c.B).Add(reach)}
}
