package geom

import (
	"fmt"
	"math"
)

// Mesh is a triangle mesh in world space with an optional velocity per vertex: what
// one frame of an animated mesh cache becomes once it is read. Triangles list vertex
// indices counter-clockwise seen from outside, so that (b - a) x (c - a) points out.
type Mesh struct {
	Positions  []Vec3     // metres
	Velocities []Vec3     // metres per second, one per position; nil means at rest
	Triangles  [][3]int32 // indices into Positions
}

// Validate reports an empty mesh, a triangle index out of range, a position or
// velocity that is not finite, or a velocity list of the wrong length.
func (m *Mesh) Validate() error {
	if len(m.Positions) == 0 || len(m.Triangles) == 0 {
		return fmt.Errorf("empty mesh: %d vertices, %d triangles", len(m.Positions), len(m.Triangles))
	}
	if len(m.Positions) > math.MaxInt32 {
		return fmt.Errorf("%d vertices: more than a 32-bit index can reach", len(m.Positions))
	}
	for i, p := range m.Positions {
		if !p.IsFinite() {
			return fmt.Errorf("vertex %d: position %v is not finite", i, p)
		}
	}
	if m.Velocities != nil {
		if len(m.Velocities) != len(m.Positions) {
			return fmt.Errorf("%d velocities for %d vertices", len(m.Velocities), len(m.Positions))
		}
		for i, v := range m.Velocities {
			if !v.IsFinite() {
				return fmt.Errorf("vertex %d: velocity %v is not finite", i, v)
			}
		}
	}
	n := int32(len(m.Positions))
	for t, tri := range m.Triangles {
		for _, v := range tri {
			if v < 0 || v >= n {
				return fmt.Errorf("triangle %d: vertex index %d is outside 0..%d", t, v, n-1)
			}
		}
	}
	return nil
}

// Bounds returns the smallest box holding every vertex. It is empty (lo > hi) for a
// mesh without vertices.
func (m *Mesh) Bounds() (lo, hi Vec3) {
	inf := math.Inf(1)
	lo, hi = Vec3{inf, inf, inf}, Vec3{-inf, -inf, -inf}
	for _, p := range m.Positions {
		lo, hi = lo.Min(p), hi.Max(p)
	}
	return lo, hi
}

// SameTopology reports whether b has the vertex count and triangle list of a, which
// is what pairing vertices across frames needs. The error says what differs.
func SameTopology(a, b *Mesh) error {
	if len(a.Positions) != len(b.Positions) {
		return fmt.Errorf("%d vertices become %d", len(a.Positions), len(b.Positions))
	}
	if len(a.Triangles) != len(b.Triangles) {
		return fmt.Errorf("%d triangles become %d", len(a.Triangles), len(b.Triangles))
	}
	for t := range a.Triangles {
		if a.Triangles[t] != b.Triangles[t] {
			return fmt.Errorf("triangle %d changes from %v to %v", t, a.Triangles[t], b.Triangles[t])
		}
	}
	return nil
}

// VelocitiesBetween returns the vertex velocities (to - from) / seconds of a mesh
// whose vertices move from positions from to positions to in that time: the central
// difference of a frame's neighbours, or a one-sided difference at the ends of a
// sequence. Both lists must have the same length (see SameTopology).
func VelocitiesBetween(from, to []Vec3, seconds float64) []Vec3 {
	v := make([]Vec3, len(from))
	for i := range v {
		v[i] = to[i].Sub(from[i]).Scale(1 / seconds)
	}
	return v
}

// MaxDisplacement returns the largest distance any vertex moves from positions a
// to positions b (which must have the same length).
func MaxDisplacement(a, b []Vec3) float64 {
	d2 := 0.0
	for i := range a {
		d2 = max(d2, Dist2(a[i], b[i]))
	}
	return math.Sqrt(d2)
}

// SignedVolume returns the volume the mesh encloses, sum over triangles of
// a . (b x c) / 6 (the divergence theorem): positive when the triangles wind
// counter-clockwise seen from outside, negative for a mesh turned inside out.
// It is exact for a closed mesh and indicative for an open one.
func (m *Mesh) SignedVolume() float64 {
	v := 0.0
	for _, t := range m.Triangles {
		a, b, c := m.Positions[t[0]], m.Positions[t[1]], m.Positions[t[2]]
		v += a.Dot(b.Cross(c))
	}
	return v / 6
}
