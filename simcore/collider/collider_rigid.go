package collider

import (
	"fmt"
	"math"
	"sort"
	"sync/atomic"

	"snowtools/levelset/geom"
)

// RigidBody is the rigid collider of section 8: a stationary level set, the body,
// given in its own frame, and a keyframed rigid motion x = R(t) p + T(t) that carries
// body point p to world point x. At time t,
//
//	phi(x, t) = phi_body(R(t)^T (x - T(t)))
//	n(x, t)   = R(t) n_body(R(t)^T (x - T(t)))
//	v_co(x,t) = dT/dt + omega x (x - T(t))
//
// The last line is the time derivative of R p + T with p held: dR/dt p = omega x R p,
// omega the angular velocity in world axes, and R p = x - T. A rigid motion keeps
// distances, so phi changes no faster than distance if phi_body does not.
//
// The motion interpolates keys: T linearly between translation keys, R along the
// shortest arc between rotation keys (slerp). On the segment from key k to key k+1,
// with gamma = (t - t_k)/(t_{k+1} - t_k),
//
//	T(t) = (1 - gamma) T_k + gamma T_{k+1},   dT/dt = (T_{k+1} - T_k)/(t_{k+1} - t_k)
//	q(t) = slerp(q_k, q_{k+1}, gamma) = (cos(gamma theta/2), sin(gamma theta/2) u) q_k
//
// where (cos(theta/2), sin(theta/2) u) = q_{k+1} q_k^{-1}, the rotation from key k to key
// k+1 in world axes, with q_{k+1} negated if need be so that theta <= pi (q and -q are
// the same rotation). The rotation turns at the constant rate omega = theta u /
// (t_{k+1} - t_k): both velocities are exact for this motion, not finite differences.
// Before the first key and after the last the body holds still (zero velocity); a time
// on a key belongs to the segment that ends there, so the step that ends on a keyframe
// sees that segment's velocity. Without translation keys T = 0; without rotation keys
// R = I.
type RigidBody struct {
	body    geom.Shape
	slack   float64 // the body's Slack, for a level-set grid body; see Sample
	trans   []TranslationKey
	rot     []RotationKey
	omega   []geom.Vec3 // per rotation segment, world axes
	contact Surface
	// posed is the pose at the time last sampled: a step samples the body at one time
	// for every particle and node near it, so Sample poses it once per step, not per
	// point. Workers share it; a stale one is replaced.
	posed atomic.Pointer[pose]
}

// pose is the motion at time t, as Pose returns it.
type pose struct {
	t                      float64
	q                      Quat
	origin, omega, vOrigin geom.Vec3
}

// TranslationKey places the body's origin at P at time T.
type TranslationKey struct {
	T float64
	P geom.Vec3
}

// RotationKey orients the body by the rotation Q at time T.
type RotationKey struct {
	T float64
	Q Quat
}

// NewRigidBody returns a rigid collider moving body by the keys, which must have
// finite, strictly increasing times. Rotation keys are normalised; the slices are copied.
func NewRigidBody(body geom.Shape, trans []TranslationKey, rot []RotationKey, contact Surface) (*RigidBody, error) {
	if body == nil {
		return nil, fmt.Errorf("rigid collider: no body shape")
	}
	r := &RigidBody{body: body, contact: contact,
		trans: append([]TranslationKey(nil), trans...), rot: append([]RotationKey(nil), rot...)}
	if sb, ok := body.(interface{ Slack() float64 }); ok {
		r.slack = sb.Slack()
	}
	for i, k := range r.trans {
		if err := checkKeyTime("translation", i, k.T, r.trans[max(i-1, 0)].T); err != nil {
			return nil, err
		}
		if !k.P.IsFinite() {
			return nil, fmt.Errorf("rigid collider: translation key %d: position %v is not finite", i, k.P)
		}
	}
	for i := range r.rot {
		k := &r.rot[i]
		if err := checkKeyTime("rotation", i, k.T, r.rot[max(i-1, 0)].T); err != nil {
			return nil, err
		}
		n := k.Q.norm()
		if !(n > 0) || math.IsInf(n, 0) {
			return nil, fmt.Errorf("rigid collider: rotation key %d: quaternion %v is not a rotation", i, k.Q)
		}
		k.Q = k.Q.scale(1 / n)
		if i > 0 {
			// The rotation from key i-1 to key i, along the shorter arc.
			prev := r.rot[i-1].Q
			if prev.dot(k.Q) < 0 {
				k.Q = k.Q.scale(-1)
			}
			rel := k.Q.Mul(prev.Conj())
			s := geom.Vec3{rel.X, rel.Y, rel.Z}
			theta := 2 * math.Atan2(s.Norm(), rel.W)
			r.omega = append(r.omega, s.Unit().Scale(theta/(k.T-r.rot[i-1].T)))
		}
	}
	return r, nil
}

func checkKeyTime(kind string, i int, t, prev float64) error {
	if math.IsNaN(t) || math.IsInf(t, 0) {
		return fmt.Errorf("rigid collider: %s key %d: time %g is not finite", kind, i, t)
	}
	if i > 0 && !(t > prev) {
		return fmt.Errorf("rigid collider: %s key %d: time %g does not follow %g", kind, i, t, prev)
	}
	return nil
}

// segmentAt returns the key segment [k, k+1] that time t falls in, with gamma in
// [0, 1] along it; ok is false outside the keys' span (or with fewer than two keys),
// where k is the key to hold: the first or the last.
func segmentAt(n int, time func(int) float64, t float64) (k int, gamma float64, ok bool) {
	switch {
	case n < 2 || t < time(0):
		return 0, 0, false
	case t > time(n-1):
		return n - 1, 0, false
	}
	// The first key with time >= t ends the segment (key 0 when t is on it).
	k = max(sort.Search(n, func(i int) bool { return time(i) >= t })-1, 0)
	return k, (t - time(k)) / (time(k+1) - time(k)), true
}

// Pose returns the motion at time t: the body's rotation q and origin T, its angular
// velocity omega (world axes) and the velocity dT/dt of its origin.
func (r *RigidBody) Pose(t float64) (q Quat, origin, omega, vOrigin geom.Vec3) {
	q = Quat{W: 1}
	if n := len(r.trans); n > 0 {
		k, g, ok := segmentAt(n, func(i int) float64 { return r.trans[i].T }, t)
		origin = r.trans[k].P
		if ok {
			a, b := r.trans[k], r.trans[k+1]
			origin = a.P.Scale(1 - g).Add(b.P.Scale(g))
			vOrigin = b.P.Sub(a.P).Scale(1 / (b.T - a.T))
		}
	}
	if n := len(r.rot); n > 0 {
		k, g, ok := segmentAt(n, func(i int) float64 { return r.rot[i].T }, t)
		q = r.rot[k].Q
		if ok {
			// (cos(gamma theta/2), sin(gamma theta/2) u) q_k, with theta u = omega dt_k.
			omega = r.omega[k]
			half := 0.5 * g * omega.Norm() * (r.rot[k+1].T - r.rot[k].T)
			u := omega.Unit().Scale(math.Sin(half))
			q = Quat{W: math.Cos(half), X: u[0], Y: u[1], Z: u[2]}.Mul(q)
		}
	}
	return q, origin, omega, vOrigin
}

// Sample implements Collider. For a body whose phi may change faster than distance by
// a slack s (a level-set grid: levelset.GridShape.Slack), a positive phi is lowered by
// s but kept positive, so that the solver's pruning (phi(c) > r rules out contact
// within r of c) stays right while inside and outside are unchanged.
func (r *RigidBody) Sample(x geom.Vec3, t float64) (float64, geom.Vec3, geom.Vec3) {
	m := r.poseAt(t)
	arm := x.Sub(m.origin)
	phi, nb := r.body.Distance(m.q.Conj().Rotate(arm))
	if phi > 0 && r.slack > 0 {
		phi = math.Max(phi-r.slack, math.Min(phi, clearanceFloor*r.slack))
	}
	return phi, m.q.Rotate(nb), m.vOrigin.Add(m.omega.Cross(arm))
}

// poseAt returns the pose at time t, from the cache when the last time asked was t.
func (r *RigidBody) poseAt(t float64) *pose {
	m := r.posed.Load()
	if m == nil || m.t != t {
		m = &pose{t: t}
		m.q, m.origin, m.omega, m.vOrigin = r.Pose(t)
		r.posed.Store(m)
	}
	return m
}

// Surface implements Collider.
func (r *RigidBody) Surface() Surface { return r.contact }

// Bounds implements BoundedCollider: the box around the body's box, posed at t.
func (r *RigidBody) Bounds(t float64) (geom.Box, bool) {
	b, ok := r.body.(geom.Bounded)
	if !ok {
		return geom.Box{}, false
	}
	box := b.Bounds()
	m := r.poseAt(t)
	out := emptyBox
	for corner := range 8 {
		p := box.Min
		for a := range 3 {
			if corner>>a&1 == 1 {
				p[a] = box.Max[a]
			}
		}
		w := m.q.Rotate(p).Add(m.origin)
		out = out.Union(geom.Box{Min: w, Max: w})
	}
	return out, true
}

// Quat is a rotation as a unit quaternion W + X i + Y j + Z k.
type Quat struct{ W, X, Y, Z float64 }

// QuatAxisAngle returns the rotation by angle (radians, right-handed) about axis.
func QuatAxisAngle(axis geom.Vec3, angle float64) Quat {
	u := axis.Unit().Scale(math.Sin(angle / 2))
	return Quat{W: math.Cos(angle / 2), X: u[0], Y: u[1], Z: u[2]}
}

// Mul returns the product q r: the rotation r followed by q.
func (q Quat) Mul(r Quat) Quat {
	return Quat{
		W: q.W*r.W - q.X*r.X - q.Y*r.Y - q.Z*r.Z,
		X: q.W*r.X + q.X*r.W + q.Y*r.Z - q.Z*r.Y,
		Y: q.W*r.Y - q.X*r.Z + q.Y*r.W + q.Z*r.X,
		Z: q.W*r.Z + q.X*r.Y - q.Y*r.X + q.Z*r.W,
	}
}

// Conj returns the conjugate, the inverse rotation of a unit quaternion.
func (q Quat) Conj() Quat { return Quat{q.W, -q.X, -q.Y, -q.Z} }

// Rotate returns q v q^*: v rotated by the unit quaternion q, as
// v + 2 w (u x v) + 2 u x (u x v) with u = (X, Y, Z).
func (q Quat) Rotate(v geom.Vec3) geom.Vec3 {
	u := geom.Vec3{q.X, q.Y, q.Z}
	c := u.Cross(v)
	return v.Add(c.Scale(2 * q.W)).Add(u.Cross(c).Scale(2))
}

func (q Quat) dot(r Quat) float64   { return q.W*r.W + q.X*r.X + q.Y*r.Y + q.Z*r.Z }
func (q Quat) norm() float64        { return math.Sqrt(q.dot(q)) }
func (q Quat) scale(s float64) Quat { return Quat{s * q.W, s * q.X, s * q.Y, s * q.Z} }
func (q Quat) String() string       { return fmt.Sprintf("(%g, %g, %g, %g)", q.W, q.X, q.Y, q.Z) }
