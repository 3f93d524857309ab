package collider

import (
	"math"

	"snowtools/levelset/geom"
)

// A Collider is a collision body of section 8: anything that gives, at a point and a
// time, the signed distance phi (negative inside), the outward unit normal n = grad phi
// and the body's velocity v_co, together with how snow behaves on its surface.
//
// phi must change no faster than the distance does (|phi(x) - phi(y)| <= |x - y|), as an
// exact distance or one clamped to a narrow band does: the solver relies on it to skip
// colliders that are out of reach of a whole block of particles.
type Collider interface {
	Sample(x geom.Vec3, t float64) (phi float64, n, vco geom.Vec3)
	Surface() Surface
}

// A BoundedCollider also says where its solid is: Bounds(t) holds every point with
// phi <= 0 at time t. ok is false when it cannot say (a half-space, or a body whose
// shape is not geom.Bounded): the solid may then be anywhere.
type BoundedCollider interface {
	Collider
	Bounds(t float64) (b geom.Box, ok bool)
}

// A SparseCollider knows where its solid is more closely than a box: Clear(c, r, t)
// reports that phi > 0 (and not NaN) at every point within r of c at time t, without a
// sample. false says only that it cannot tell.
type SparseCollider interface {
	Collider
	Clear(c geom.Vec3, r, t float64) bool
}

// knownClear reports whether c says, without a sample, that phi > 0 within r of x at
// time t (SparseCollider). Nearby, the contact test and Touching ask it before they
// sample: a voxelized collider's box holds much snow that its solid is far from, and
// its test is cheaper than a sample.
func knownClear(c Collider, x geom.Vec3, r, t float64) bool {
	s, ok := c.(SparseCollider)
	return ok && s.Clear(x, r, t)
}

// emptyBox holds no point: Min > Max, and a Union with it gives the other box.
var emptyBox = geom.Box{
	Min: geom.Vec3{math.Inf(1), math.Inf(1), math.Inf(1)},
	Max: geom.Vec3{math.Inf(-1), math.Inf(-1), math.Inf(-1)},
}

// Surface says how a collider treats snow that touches it.
type Surface struct {
	Mode     ContactMode
	Friction float64 // Coulomb coefficient mu (Separate mode)
}

// ContactMode selects the collision response of section 8.
type ContactMode int

const (
	// Separate is the paper's default: no change when separating, otherwise sticking or
	// dynamic Coulomb friction in the collider's frame.
	Separate ContactMode = iota
	// Slip is Separate without friction: only the approaching normal velocity is removed.
	Slip
	// Sticky sets the relative velocity to zero unconditionally, so snow clings to
	// vertical and overhanging surfaces.
	Sticky
)

func (m ContactMode) String() string {
	switch m {
	case Separate:
		return "separate"
	case Slip:
		return "slip"
	case Sticky:
		return "sticky"
	}
	return "unknown"
}

// Collide applies section 8 to a velocity v of a point at x moving for dt, at time t
// (the end of the step): for every collider with phi <= 0 where the point would end,
// x + dt v, the velocity relative to the collider is made non-penetrating. A sticky
// collider also holds a point that touches it now (phi(x) <= 0) but would leave it:
// snow under an overhang, which gravity alone would pull free before it is tested.
// The particle collisions (stage 9) use it, and the grid collisions (stage 5) where
// snow touches a collider; elsewhere these use CollideReceding.
func Collide(colliders []Collider, x, v geom.Vec3, dt, t float64) geom.Vec3 {
	end := geom.Vec3{x[0] + dt*v[0], x[1] + dt*v[1], x[2] + dt*v[2]}
	for _, c := range colliders {
		if n, vco, ok := acting(c, x, end, t); ok {
			v = response(v, n, vco, c.Surface())
		}
	}
	return v
}

// CollideReceding is Collide for a point whose velocity was vIn before the step's
// forces made it v, against surfaces that recede from the point as fast as it already
// approached them: each collider's response takes receding(vco, vIn, n) for the
// collider's velocity. It removes only the part of the step's change v - vIn that would
// carry the point further into a collider than it was already going; a point at rest
// on a collider (vIn = vco) collides as by Collide.
func CollideReceding(colliders []Collider, x, vIn, v geom.Vec3, dt, t float64) geom.Vec3 {
	end := geom.Vec3{x[0] + dt*v[0], x[1] + dt*v[1], x[2] + dt*v[2]}
	for _, c := range colliders {
		if n, vco, ok := acting(c, x, end, t); ok {
			v = response(v, n, receding(vco, vIn, n), c.Surface())
		}
	}
	return v
}

// receding returns the velocity of a collider surface with velocity vco and normal n
// that recedes from a point at velocity vIn as fast as the point approaches it:
// vco + min(0, (vIn - vco).n) n.
func receding(vco, vIn, n geom.Vec3) geom.Vec3 {
	if a := vIn.Sub(vco).Dot(n); a < 0 {
		return vco.Add(n.Scale(a))
	}
	return vco
}

// acting reports whether collider c acts on a point at x that would end the step at end
// (time t): with phi(end) <= 0, or, for a sticky collider, phi(x) <= 0 (see Collide).
// It returns c's normal and velocity where it acts. A collider clear of both points
// (knownClear) does not act, and is not sampled.
func acting(c Collider, x, end geom.Vec3, t float64) (n, vco geom.Vec3, ok bool) {
	if knownClear(c, end, 0, t) && (c.Surface().Mode != Sticky || knownClear(c, x, 0, t)) {
		return n, vco, false
	}
	phi, n, vco := c.Sample(end, t)
	if phi > 0 {
		if c.Surface().Mode != Sticky {
			return n, vco, false
		}
		if phi, n, vco = c.Sample(x, t); phi > 0 {
			return n, vco, false
		}
	}
	return n, vco, true
}

// Touching reports whether the point x is within distance d of a collider at time t:
// phi(x) <= d for one of them. A Sample may report a positive phi lower than it is (a
// level-set body lowers it by its slack, see RigidBody.Sample and
// DeformingLevelSet.Sample) but never changes its sign, so a point with 0 < phi <= d
// is decided by the sign of phi at x - d n, the point d away toward the surface: inside
// exactly when phi(x) <= d for a plane. A collider clear of the ball of radius d
// around x (knownClear) has neither, and is not sampled.
func Touching(colliders []Collider, x geom.Vec3, t, d float64) bool {
	for _, c := range colliders {
		if knownClear(c, x, d, t) {
			continue
		}
		phi, n, _ := c.Sample(x, t)
		if phi <= 0 {
			return true
		}
		if phi <= d {
			if phi, _, _ = c.Sample(x.Sub(n.Scale(d)), t); phi <= 0 {
				return true
			}
		}
	}
	return false
}

// Nearby returns, in dst[:0], the colliders that may have phi <= 0 within distance r of
// the point c at time t. A BoundedCollider whose box lies farther than r is ruled out
// first, without a sample: a voxelized collider's phi is clamped to its narrow band far
// from its surface, so its phi alone keeps it near every point, and the samples that
// followed were most of the work of a step whose snow it touches nowhere near.
// A SparseCollider that is clear of the ball is ruled out next: the box of a voxelized
// body is wide against the body itself, and the snow within reach of the box but not of
// the body made most of the samples left. Otherwise, since phi changes no faster than
// distance, phi(c) > r rules a collider out for the whole ball.
func Nearby(dst, all []Collider, c geom.Vec3, r, t float64) []Collider {
	dst = dst[:0]
	for _, col := range all {
		if b, ok := col.(BoundedCollider); ok {
			if box, ok := b.Bounds(t); ok && beyond(box, c, r) {
				continue
			}
		}
		if knownClear(col, c, r, t) {
			continue
		}
		if phi, _, _ := col.Sample(c, t); phi <= r {
			dst = append(dst, col)
		}
	}
	return dst
}

// beyond reports whether every point of box b is farther than r from c (an empty box,
// Min > Max, is beyond every point).
func beyond(b geom.Box, c geom.Vec3, r float64) bool { return boxDistance2(b, c) > r*r }

// boxDistance2 returns the squared distance from x to box b: 0 inside, positive
// outside (where a coordinate falls below Min or above Max the gap is exactly
// positive, though its square underflows to 0 below 1e-154), +Inf for an empty box.
func boxDistance2(b geom.Box, x geom.Vec3) float64 {
	d2 := 0.0
	for a := range 3 {
		gap := max(b.Min[a]-x[a], x[a]-b.Max[a], 0)
		d2 += gap * gap
	}
	return d2
}

// InReach returns the colliders to test for a point moving at v for dt: those that
// nearby found within its block's reach, which allows one cell of motion (|v| dt <= h),
// or all of them for a point that moves farther in the step. v goes by pointer and is
// read component by component: the solver's hot loops call it (inlined) on a velocity
// they have just written so, and a copy of the whole vector would wait for those stores.
func InReach(near, all []Collider, v *geom.Vec3, dt, h float64) []Collider {
	if dt*dt*(v[0]*v[0]+v[1]*v[1]+v[2]*v[2]) > h*h {
		return all
	}
	return near
}

// response is the velocity response of section 8 for one colliding body.
func response(v, n, vco geom.Vec3, s Surface) geom.Vec3 {
	if s.Mode == Sticky {
		return vco // v'_rel = 0 unconditionally
	}
	vrel := v.Sub(vco)
	vn := vrel.Dot(n)
	if vn >= 0 {
		return v // separating: no collision
	}
	mu := s.Friction
	if s.Mode == Slip {
		mu = 0
	}
	vt := vrel.Sub(n.Scale(vn))
	lt := vt.Norm()
	if lt <= -mu*vn {
		return vco // sticking: v'_rel = 0
	}
	// Dynamic friction: v'_rel = v_t + mu v_n v_t/|v_t|.
	return vt.Scale(1 + mu*vn/lt).Add(vco)
}

// MovingShape is an analytic collider: a shape at its t = 0 position moving at a constant
// velocity (zero for a static one). At time t, phi(x) = shape.phi(x - Velocity t).
type MovingShape struct {
	Shape    geom.Shape
	Velocity geom.Vec3
	Contact  Surface
}

// Sample implements Collider.
func (m *MovingShape) Sample(x geom.Vec3, t float64) (float64, geom.Vec3, geom.Vec3) {
	phi, n := m.Shape.Distance(x.Sub(m.Velocity.Scale(t)))
	return phi, n, m.Velocity
}

// Surface implements Collider.
func (m *MovingShape) Surface() Surface { return m.Contact }

// Bounds implements BoundedCollider: the shape's box, moved.
func (m *MovingShape) Bounds(t float64) (geom.Box, bool) {
	b, ok := m.Shape.(geom.Bounded)
	if !ok {
		return geom.Box{}, false
	}
	box := b.Bounds()
	d := m.Velocity.Scale(t)
	return geom.Box{Min: box.Min.Add(d), Max: box.Max.Add(d)}, true
}

// BoxWalls returns the six walls of the box b as half-space colliders whose solid
// side is outside the box: the wall at Min on axis a is {x_a <= Min_a} with normal +e_a,
// the wall at Max is {x_a >= Max_a} with normal -e_a.
func BoxWalls(b geom.Box, s Surface) []Collider {
	var walls []Collider
	for a := 0; a < 3; a++ {
		var e geom.Vec3
		e[a] = 1
		walls = append(walls,
			&MovingShape{Shape: geom.HalfSpace{Point: b.Min, Normal: e}, Contact: s},
			&MovingShape{Shape: geom.HalfSpace{Point: b.Max, Normal: e.Scale(-1)}, Contact: s},
		)
	}
	return walls
}
