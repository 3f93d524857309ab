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
