package preview

import (
	"math"
	"math/rand/v2"

	"snowtools/levelset/geom"
)

// Test scenes: deterministic particle sets built from a seeded generator.

// randomBall returns n points uniformly distributed in the ball of radius
// radius around centre (rejection sampling from the enclosing cube).
func randomBall(seed uint64, n int, centre geom.Vec3, radius float64) []float32 {
	rng := rand.New(rand.NewPCG(seed, 1))
	pos := make([]float32, 0, 3*n)
	for len(pos) < 3*n {
		p := geom.Vec3{2*rng.Float64() - 1, 2*rng.Float64() - 1, 2*rng.Float64() - 1}
		if p.Dot(p) <= 1 {
			q := centre.Add(p.Scale(radius))
			pos = append(pos, float32(q[0]), float32(q[1]), float32(q[2]))
		}
	}
	return pos
}

// jitteredSolid returns the points of a grid of the given spacing, each moved
// by up to jitter spacings in every axis, that lie inside the shape (a
// function of the grid point) within the box [lo, hi].
func jitteredSolid(seed uint64, lo, hi geom.Vec3, spacing, jitter float64, inside func(p geom.Vec3) bool) []float32 {
	rng := rand.New(rand.NewPCG(seed, 2))
	var pos []float32
	for z := lo[2]; z <= hi[2]; z += spacing {
		for y := lo[1]; y <= hi[1]; y += spacing {
			for x := lo[0]; x <= hi[0]; x += spacing {
				p := geom.Vec3{x, y, z}
				if !inside(p) {
					continue
				}
				for k := range 3 {
					p[k] += jitter * spacing * (2*rng.Float64() - 1)
				}
				pos = append(pos, float32(p[0]), float32(p[1]), float32(p[2]))
			}
		}
	}
	return pos
}

// snowHeap returns a heap of about n particles resting on y = 0: a jittered
// grid filling the half ellipsoid (x^2 + z^2)/a^2 + y^2/b^2 <= 1, y >= 0, with
// a = 1 m and b = 0.6 m, and radius half the spacing.
func snowHeap(n int) Points {
	const a, b = 1.0, 0.6
	spacing := math.Cbrt(2.0 / 3 * math.Pi * a * a * b / float64(n))
	pos := jitteredSolid(7, geom.Vec3{-a, spacing / 2, -a}, geom.Vec3{a, b, a}, spacing, 0.45,
		func(p geom.Vec3) bool { return (p[0]*p[0]+p[2]*p[2])/(a*a)+p[1]*p[1]/(b*b) <= 1 })
	return Points{Pos: pos, Radius: float32(spacing / 2)}
}

// clumpAndPowder returns a dense clump (a jittered ball of 0.25 m radius) and
// a loose powder cloud of the same particles at a tenth of the density beside
// it, both resting on y = 0.
func clumpAndPowder() Points {
	const spacing, r = 0.012, 0.25
	clumpCentre := geom.Vec3{-0.35, r, 0}
	clump := jitteredSolid(11, clumpCentre.Sub(geom.Vec3{r, r, r}), clumpCentre.Add(geom.Vec3{r, r, r}), spacing, 0.45,
		func(p geom.Vec3) bool { return p.Sub(clumpCentre).Norm() <= r })
	n := len(clump) / 3 / 10
	powder := randomBall(12, n, geom.Vec3{0.35, r, 0}, r)
	return Points{Pos: append(clump, powder...), Radius: spacing / 2}
}
