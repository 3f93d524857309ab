// Package geom is the geometry every other package speaks: vectors in R^3, axis-aligned
// boxes, analytic shapes with exact signed distances, and triangle meshes with their
// topology. It imports nothing else of this project.
package geom

import "math"

// Vec3 is a point or direction in R^3, in metres (or metres per second for
// velocities). Indexing by axis (v[0], v[1], v[2]) lets loops run over x, y, z.
type Vec3 [3]float64

// Add returns a + b.
func (a Vec3) Add(b Vec3) Vec3 { return Vec3{a[0] + b[0], a[1] + b[1], a[2] + b[2]} }

// Sub returns a - b.
func (a Vec3) Sub(b Vec3) Vec3 { return Vec3{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }

// Scale returns s a.
func (a Vec3) Scale(s float64) Vec3 { return Vec3{s * a[0], s * a[1], s * a[2]} }

// Dot returns a . b.
func (a Vec3) Dot(b Vec3) float64 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }

// Cross returns a x b.
func (a Vec3) Cross(b Vec3) Vec3 {
	return Vec3{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}

// Norm returns the Euclidean length |a|.
func (a Vec3) Norm() float64 { return math.Sqrt(a.Dot(a)) }

// Unit returns a / |a|, or the zero vector when a is zero.
func (a Vec3) Unit() Vec3 {
	n := a.Norm()
	if n == 0 {
		return Vec3{}
	}
	return a.Scale(1 / n)
}

// Min returns the component-wise minimum of a and b.
func (a Vec3) Min(b Vec3) Vec3 {
	return Vec3{math.Min(a[0], b[0]), math.Min(a[1], b[1]), math.Min(a[2], b[2])}
}

// Max returns the component-wise maximum of a and b.
func (a Vec3) Max(b Vec3) Vec3 {
	return Vec3{math.Max(a[0], b[0]), math.Max(a[1], b[1]), math.Max(a[2], b[2])}
}

// IsFinite reports whether no component is NaN or infinite.
func (a Vec3) IsFinite() bool {
	return !math.IsNaN(a[0]+a[1]+a[2]) && !math.IsInf(a[0]+a[1]+a[2], 0)
}

// Dist2 returns the squared distance |p - q|^2.
func Dist2(p, q Vec3) float64 {
	dx, dy, dz := p[0]-q[0], p[1]-q[1], p[2]-q[2]
	return dx*dx + dy*dy + dz*dz
}
