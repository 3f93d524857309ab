package geom

import "math"

// Shape is a solid given by its signed distance: negative inside, positive outside,
// zero on the surface. Distance returns phi at p and the outward unit normal grad phi.
type Shape interface {
	Distance(p Vec3) (phi float64, normal Vec3)
}

// HalfSpace is the solid {x : (x - Point) . Normal <= 0}: everything below a plane
// whose unit Normal points out of the solid.
type HalfSpace struct {
	Point  Vec3
	Normal Vec3 // unit length
}

// Distance implements Shape: phi = (p - Point) . Normal.
func (h HalfSpace) Distance(p Vec3) (float64, Vec3) {
	return p.Sub(h.Point).Dot(h.Normal), h.Normal
}

// Sphere is the solid ball |x - Center| <= Radius.
type Sphere struct {
	Center Vec3
	Radius float64
}

// Distance implements Shape: phi = |p - Center| - Radius.
func (s Sphere) Distance(p Vec3) (float64, Vec3) {
	d := p.Sub(s.Center)
	r := d.Norm()
	if r == 0 {
		return -s.Radius, Vec3{0, 1, 0} // any direction is the way out from the centre
	}
	return r - s.Radius, d.Scale(1 / r)
}

// Box is the solid axis-aligned box Min <= x <= Max: a Shape, and the region of
// space that domains, seeding and bounds are given in.
type Box struct {
	Min, Max Vec3
}

// Distance implements Shape with the exact Euclidean signed distance. Outside, the
// normal points from the nearest point of the box; inside, along the axis of the
// nearest face.
func (b Box) Distance(p Vec3) (float64, Vec3) {
	var q Vec3 // per axis: distance outside the slab (positive) or minus the depth inside
	var sign Vec3
	for a := 0; a < 3; a++ {
		c := 0.5 * (b.Min[a] + b.Max[a])
		half := 0.5 * (b.Max[a] - b.Min[a])
		d := p[a] - c
		sign[a] = 1
		if d < 0 {
			sign[a] = -1
		}
		q[a] = math.Abs(d) - half
	}
	outside := Vec3{math.Max(q[0], 0), math.Max(q[1], 0), math.Max(q[2], 0)}
	if r := outside.Norm(); r > 0 {
		n := Vec3{outside[0] * sign[0], outside[1] * sign[1], outside[2] * sign[2]}
		return r, n.Scale(1 / r)
	}
	// Inside: the nearest face is on the axis with the largest (least negative) q.
	a := 0
	if q[1] > q[a] {
		a = 1
	}
	if q[2] > q[a] {
		a = 2
	}
	var n Vec3
	n[a] = sign[a]
	return q[a], n
}

// Contains reports whether p lies in the closed box.
func (b Box) Contains(p Vec3) bool {
	for a := 0; a < 3; a++ {
		if p[a] < b.Min[a] || p[a] > b.Max[a] {
			return false
		}
	}
	return true
}

// Size returns Max - Min.
func (b Box) Size() Vec3 { return b.Max.Sub(b.Min) }

// Cylinder is the solid capped cylinder of the given Radius around the segment from
// A to B: the points whose projection onto the line AB falls between A and B and whose
// distance from that line is at most Radius. A and B must differ.
type Cylinder struct {
	A, B   Vec3
	Radius float64
}

// Distance implements Shape with the exact Euclidean signed distance, the same way as
// Box: in the plane through the axis and p the cylinder is the rectangle
// [0, Radius] x [-L/2, L/2] of radial distance rho and axial offset y from the axis's
// midpoint, so with q = (rho - Radius, |y| - L/2), phi = |max(q, 0)| outside and
// max(q_r, q_y) inside. Outside, the normal points from the nearest point of the
// cylinder (the side, a cap or the rim); inside, it is that of the nearest of the side
// and the caps, the side on a tie. On the axis, where the radial direction is not
// defined, any direction perpendicular to it is taken.
func (c Cylinder) Distance(p Vec3) (float64, Vec3) {
	axis := c.B.Sub(c.A)
	half := 0.5 * axis.Norm()
	u := axis.Unit()
	d := p.Sub(c.A.Add(c.B).Scale(0.5))
	y := d.Dot(u)
	radial := d.Sub(u.Scale(y))
	rho := radial.Norm()
	var e Vec3 // unit radial direction
	if rho > 0 {
		e = radial.Scale(1 / rho)
	} else {
		e = perpendicular(u)
	}
	sy := 1.0 // the side of the midpoint p is on, along the axis
	if y < 0 {
		sy = -1
	}
	qr, qy := rho-c.Radius, math.Abs(y)-half
	if qr > 0 || qy > 0 {
		or, oy := math.Max(qr, 0), math.Max(qy, 0)
		r := math.Hypot(or, oy)
		return r, e.Scale(or / r).Add(u.Scale(sy * oy / r))
	}
	if qr >= qy {
		return qr, e
	}
	return qy, u.Scale(sy)
}

// perpendicular returns a unit vector perpendicular to the unit vector u.
func perpendicular(u Vec3) Vec3 {
	// Cross with the coordinate axis least aligned with u, which keeps the result far
	// from zero.
	var e Vec3
	a := 0
	if math.Abs(u[1]) < math.Abs(u[a]) {
		a = 1
	}
	if math.Abs(u[2]) < math.Abs(u[a]) {
		a = 2
	}
	e[a] = 1
	return u.Cross(e).Unit()
}
