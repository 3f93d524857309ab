package particles

import (
	"math"
	"math/rand/v2"

	"snowtools/levelset"
	"snowtools/levelset/geom"
)

// seedJittered fills the region inside(p) as the solver's jittered seeding does, with
// perCell = 8 particles per cell of size h: one uniform point in every sub-cell of side
// h/2 whose centre is inside, within the box [lo, hi]. Every particle has the mass of
// its sub-cell at density rho, so N m / rho is the volume of the sub-cells.
func seedJittered(lo, hi geom.Vec3, h, rho float64, seed uint64, inside func(geom.Vec3) bool) (pos, radius []float32, volume float64) {
	rng := rand.New(rand.NewPCG(seed, 3))
	d := h / 2
	m := rho * d * d * d
	r := float32(SphereRadius(m, rho))
	var n [3]int
	for a := range 3 {
		n[a] = int(math.Ceil((hi[a] - lo[a]) / d))
	}
	for i := range n[0] {
		for j := range n[1] {
			for k := range n[2] {
				corner := lo.Add(geom.Vec3{float64(i), float64(j), float64(k)}.Scale(d))
				if !inside(corner.Add(geom.Vec3{d / 2, d / 2, d / 2})) {
					continue
				}
				for a := range 3 {
					pos = append(pos, float32(corner[a]+rng.Float64()*d))
				}
				radius = append(radius, r)
				volume += m / rho
			}
		}
	}
	return pos, radius, volume
}

// smoothHeaviside is 1 inside (phi <= -eps), 0 outside (phi >= eps) and the usual
// sine ramp between.
func smoothHeaviside(phi, eps float64) float64 {
	s := -phi
	switch {
	case s <= -eps:
		return 0
	case s >= eps:
		return 1
	}
	return 0.5 * (1 + s/eps + math.Sin(math.Pi*s/eps)/math.Pi)
}

// enclosedVolume integrates the smoothed Heaviside of -phi over every voxel of g: its
// leaves, active or not, and its inside tiles.
func enclosedVolume(g *levelset.FloatGrid) float64 {
	h := g.VoxelSize
	cell := h * h * h
	v := 0.0
	for _, l := range g.Leaves() {
		for _, phi := range l.Values {
			v += smoothHeaviside(float64(phi), h) * cell
		}
	}
	for _, t := range g.Tiles() {
		if t.Value < 0 {
			v += float64(t.Voxels()) * cell
		}
	}
	return v
}

// zeroCrossings returns the points where phi changes sign between an active voxel and
// its + neighbour along an axis, by linear interpolation.
func zeroCrossings(g *levelset.FloatGrid) []geom.Vec3 {
	var pts []geom.Vec3
	acc := g.Accessor()
	g.ForEachActive(func(c levelset.Coord, v float32) {
		for axis := range 3 {
			n := c
			n[axis]++
			if w := acc.Get(n); (v < 0) != (w < 0) {
				p := g.IndexToWorld(c)
				p[axis] += float64(v) / float64(v-w) * g.VoxelSize
				pts = append(pts, p)
			}
		}
	})
	return pts
}

// meanAndSpread returns the mean and the standard deviation of f over pts.
func meanAndSpread(pts []geom.Vec3, f func(geom.Vec3) float64) (mean, spread float64) {
	for _, p := range pts {
		mean += f(p)
	}
	mean /= float64(len(pts))
	for _, p := range pts {
		spread += (f(p) - mean) * (f(p) - mean)
	}
	return mean, math.Sqrt(spread / float64(len(pts)))
}
