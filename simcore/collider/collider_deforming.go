package collider

import (
	"errors"
	"fmt"
	"math"
	"sync"
	"sync/atomic"

	"snowtools/levelset"
	"snowtools/levelset/geom"
)

// Keyframe is one frame of a deforming collider, as voxelize.Mesh makes it and
// cmd/voxelize writes it: grids in world space, each with its own transform. (The
// normal grid is not needed: see Interpolate.)
type Keyframe struct {
	// Surface is phi: signed distances in a band (negative inside), +background beyond
	// it outside and -background in the inside tiles, so that far-outside points never
	// collide and deep-inside ones always do.
	Surface *levelset.FloatGrid
	// Velocity is the velocity of the closest surface point on the band, zero (the
	// background) beyond it. nil means at rest.
	Velocity *levelset.Vec3Grid
}

// DeformingLevelSet is the deforming collider of section 8: level-set keyframes at
// times t0 and t1 = t0 + dt, interpolated after Selle et al. 2008. With
// gamma = (t - t0)/dt clamped to [0, 1],
//
//	v_co(x)   = (1 - gamma) v(x, t0) + gamma v(x, t1)
//	phi(x, t) = (1 - gamma) phi(x - gamma dt v_co, t0) + gamma phi(x + (1 - gamma) dt v_co, t1)
//
// The velocity is the paper's blend of the keyframes' velocities at x, not the
// average velocity (phi(x, t1) - phi(x, t0))/dt of Selle et al. Each keyframe's phi is
// looked up where the surface point now at x was at that keyframe (to first order), so
// the formula is exact for a translation, and a thin plate moving several voxels per
// frame does not fade out half-way as it would with a plain blend of the two fields.
// That needs v(x) at every point the surface sweeps: the band must be at least as wide
// as the largest displacement per frame plus the solver's kernel reach (two cells).
//
// The caller sets the segment between steps with SetKeyframes (a Sequence does it for
// a run of keyframes); Sample is safe for concurrent use during a step.
// Outside [t0, t1] the collider holds at the nearer keyframe, still with its velocity.
// The zero value is ready to use (no collider until SetKeyframes); do not copy one.
type DeformingLevelSet struct {
	Contact Surface

	seg  atomic.Pointer[segment]
	pool sync.Pool // *keyframeSamplers: each goroutine's own, since samplers cache a leaf
}

// segment is the interval between two keyframes. It never changes once set, so that a
// Sample running while SetKeyframes replaces it sees one consistent segment.
type segment struct {
	a, b   *Keyframe
	t0, dt float64
	// vmax and interp bound how far phi may drop between two points beyond their
	// distance: see Sample.
	vmax   float64  // the largest speed either velocity grid can interpolate to
	interp float64  // sqrt(3) h, the trilinear term, for the coarser of the two grids
	bounds geom.Box // see Bounds
	// bounded: both surface grids have a positive background, so that no lookup
	// beyond bounds is inside (Bounds says nothing otherwise); farEmpty: also both
	// velocity grids have a zero background, so that none beyond bounds moves either,
	// and Sample need look nothing up there.
	bounded, farEmpty bool
	// solid holds each keyframe's solid cells (see Clear); nil for both unless the
	// segment is bounded, with finite backgrounds and speeds, and both keyframes have
	// them.
	solid [2]*solidCells
}

// gamma returns (t - t0)/dt clamped to [0, 1]: keyframe b's weight at time t.
func (s *segment) gamma(t float64) float64 { return math.Min(math.Max((t-s.t0)/s.dt, 0), 1) }

// keyframeSamplers are one goroutine's samplers of a segment's grids (index 0 for a,
// 1 for b); nil where a keyframe has no such grid.
type keyframeSamplers struct {
	seg *segment
	phi [2]*levelset.FloatSampler
	vel [2]*levelset.Vec3Sampler
}

// SetKeyframes makes the collider interpolate from keyframe a at time t0 to keyframe b
// at t1 > t0. Call it between steps (a Sample running meanwhile would still see one
// segment or the other whole, never a mix). The grids must not change while in use.
func (c *DeformingLevelSet) SetKeyframes(a, b *Keyframe, t0, t1 float64) error {
	if a == nil || b == nil || a.Surface == nil || b.Surface == nil {
		return errors.New("deforming collider: both keyframes need a surface grid")
	}
	if math.IsNaN(t0) || math.IsInf(t0, 0) || !(t1 > t0) || math.IsInf(t1, 0) {
		return fmt.Errorf("deforming collider: keyframe times %g and %g: need finite t0 < t1", t0, t1)
	}
	s := &segment{a: a, b: b, t0: t0, dt: t1 - t0}
	for _, k := range [2]*Keyframe{a, b} {
		if err := k.Surface.Validate(); err != nil {
			return fmt.Errorf("deforming collider: surface grid: %v", err)
		}
		if k.Velocity != nil {
			if err := k.Velocity.Validate(); err != nil {
				return fmt.Errorf("deforming collider: velocity grid: %v", err)
			}
		}
		s.interp = math.Max(s.interp, math.Sqrt(3)*k.Surface.VoxelSize)
		s.vmax = math.Max(s.vmax, maxSpeed(k.Velocity))
	}
	s.bounds = emptyBox
	s.bounded, s.farEmpty = true, true
	for _, k := range [2]*Keyframe{a, b} {
		if kb, ok := k.Surface.WorldBounds(); ok {
			s.bounds = s.bounds.Union(kb)
		}
		s.bounded = s.bounded && k.Surface.Background > 0
		if k.Velocity != nil {
			if vb, ok := k.Velocity.WorldBounds(); ok {
				s.bounds = s.bounds.Union(vb)
			}
			s.farEmpty = s.farEmpty && k.Velocity.Background == levelset.Vec3f{}
		}
	}
	s.farEmpty = s.farEmpty && s.bounded
	// Between the keyframes phi is looked up at most dt v_max away from x.
	s.bounds = s.bounds.Expand(s.dt * s.vmax)
	// Clear needs a finite reach and backgrounds that a lookup reads as positive.
	if s.bounded && !math.IsInf(s.vmax, 0) && !math.IsNaN(s.vmax) &&
		!solidValue(a.Surface.Background) && !solidValue(b.Surface.Background) {
		s.solid = [2]*solidCells{newSolidCells(a.Surface), newSolidCells(b.Surface)}
		if s.solid[0] == nil || s.solid[1] == nil {
			s.solid = [2]*solidCells{}
		}
	}
	c.seg.Store(s)
	return nil
}

// maxSpeed returns the largest |v| over every value a trilinear lookup of g can blend:
// the leaves' values, active or not, the tiles' and the background.
func maxSpeed(g *levelset.Vec3Grid) float64 {
	if g == nil {
		return 0
	}
	m2 := 0.0
	add := func(v levelset.Vec3f) { m2 = math.Max(m2, v.Vec3().Dot(v.Vec3())) }
	add(g.Background)
	for _, l := range g.Leaves() {
		for _, v := range l.Values {
			add(v)
		}
	}
	for _, t := range g.Tiles() {
		add(t.Value)
	}
	return math.Sqrt(m2)
}

// samplers returns samplers of seg for the calling goroutine, from the pool when it
// holds some for this segment, else new ones. Give them back with c.pool.Put.
func (c *DeformingLevelSet) samplers(seg *segment) *keyframeSamplers {
	if s, _ := c.pool.Get().(*keyframeSamplers); s != nil && s.seg == seg {
		return s
	}
	s := &keyframeSamplers{seg: seg}
	for i, k := range [2]*Keyframe{seg.a, seg.b} {
		s.phi[i] = levelset.NewFloatSampler(k.Surface)
		if k.Velocity != nil {
			s.vel[i] = levelset.NewVec3Sampler(k.Velocity)
		}
	}
	return s
}

// Interpolate returns the interpolated field of section 8 at x and time t: phi, the
// unit normal n and v_co (see DeformingLevelSet). Before the first SetKeyframes there
// is no collider: phi = +Inf.
//
// The normal is the blend (1 - gamma) grad phi_a(x_a) + gamma grad phi_b(x_b) of the
// keyframes' gradients where they were looked up (x_a = x - gamma dt v_co,
// x_b = x + (1 - gamma) dt v_co), normalised. The exact gradient of phi(x, t) adds
// terms with the velocity's Jacobian, gamma (1 - gamma) dt grad v_co: they vanish for a
// translation, are small for a rotation, and are spurious where v_co falls to zero at
// the band's edge, so they are left out. The keyframes' normal grids are not used:
// across the medial surface of a thin part (a plate two voxels thick) they flip from
// one face's normal to the other's, and their trilinear blend points the wrong way
// there, while grad phi stays consistent with the phi that decides contact; it also
// comes with the value for no extra lookup. Where the blend vanishes (beyond the band,
// where phi is flat) n is zero.
func (c *DeformingLevelSet) Interpolate(x geom.Vec3, t float64) (phi float64, n, vco geom.Vec3) {
	seg := c.seg.Load()
	if seg == nil {
		return math.Inf(1), geom.Vec3{}, geom.Vec3{}
	}
	s := c.samplers(seg)
	phi, n, vco, _ = s.interpolate(x, t)
	c.pool.Put(s)
	return phi, n, vco
}

// interpolate is Interpolate with s's samplers; it also returns gamma.
func (s *keyframeSamplers) interpolate(x geom.Vec3, t float64) (phi float64, n, vco geom.Vec3, gamma float64) {
	seg := s.seg
	gamma = seg.gamma(t)
	w := [2]float64{1 - gamma, gamma}
	for i := range 2 {
		if w[i] != 0 && s.vel[i] != nil {
			vco = vco.Add(s.vel[i].Sample(x).Scale(w[i]))
		}
	}
	// Where each keyframe held the surface point that is at x now.
	at := [2]geom.Vec3{x.Sub(vco.Scale(gamma * seg.dt)), x.Add(vco.Scale((1 - gamma) * seg.dt))}
	var grad geom.Vec3
	for i := range 2 {
		if w[i] == 0 {
			continue
		}
		f, g := s.phi[i].SampleAndGradient(at[i])
		phi += w[i] * f
		grad = grad.Add(g.Scale(w[i]))
	}
	return phi, grad.Unit(), vco, gamma
}

// Sample implements Collider. It returns the interpolated field of Interpolate, except
// that a positive phi is lowered to a certified clearance, so that the solver's
// pruning (Collider: phi(c) > r rules out phi <= 0 within r of c) stays right: the
// interpolated field is not 1-Lipschitz. For points c and y,
//
//	phi(y) >= phi(c) - |y - c| - sqrt(3) h - 2 gamma (1 - gamma) dt (v_max + |v_co(c)|)
//
// because each keyframe's trilinear phi is within sqrt(3)/2 h of a 1-Lipschitz function
// (the band-clamped distance it samples: the trilinear weights w_d of the corners d
// give sum w_d |d - y| <= h sqrt(sum_a t_a (1 - t_a)) <= sqrt(3)/2 h), and the lookup
// points x_a, x_b of y and c differ by |y - c| plus gamma dt, respectively
// (1 - gamma) dt, times |v_co(y) - v_co(c)| <= v_max + |v_co(c)|. Sample reports phi(c)
// minus that margin, kept positive so that contact (phi <= 0) is decided exactly as by
// Interpolate. The margin is zero at the keyframes apart from the trilinear term.
//
// Outside Bounds, where the keyframes' grids hold nothing but their backgrounds (a
// positive phi, no velocity), Sample looks nothing up: it reports the distance to the
// box, a clearance that the solid inside the box cannot beat, no normal (as the flat
// background has none) and no velocity. Most snow lies there, far from the collider,
// and the lookups were most of a step's work.
func (c *DeformingLevelSet) Sample(x geom.Vec3, t float64) (float64, geom.Vec3, geom.Vec3) {
	seg := c.seg.Load()
	if seg == nil {
		return math.Inf(1), geom.Vec3{}, geom.Vec3{}
	}
	if seg.farEmpty {
		if d2 := boxDistance2(seg.bounds, x); d2 > 0 {
			return math.Max(math.Sqrt(d2), clearanceFloor*seg.interp), geom.Vec3{}, geom.Vec3{}
		}
	}
	s := c.samplers(seg)
	phi, n, vco, gamma := s.interpolate(x, t)
	c.pool.Put(s)
	if phi > 0 {
		margin := seg.interp + 2*gamma*(1-gamma)*seg.dt*(seg.vmax+vco.Norm())
		phi = math.Max(phi-margin, math.Min(phi, clearanceFloor*seg.interp))
	}
	return phi, n, vco
}

// Bounds implements BoundedCollider: the keyframes' grid boxes, grown by the farthest
// any lookup between them reaches (dt v_max). Before SetKeyframes it is empty; ok is
// false when a surface grid's background is not positive, so that phi may be <= 0
// anywhere.
func (c *DeformingLevelSet) Bounds(t float64) (geom.Box, bool) {
	if seg := c.seg.Load(); seg != nil {
		return seg.bounds, seg.bounded
	}
	return emptyBox, true
}

// Clear implements SparseCollider: it reports that Sample gives phi > 0 at every point
// within r of x at time t, because no solid cell (one that holds a voxel with phi <= 0)
// of a keyframe that time weighs lies within reach of a lookup from there. At a point
// y, keyframe a is read gamma dt |v_co| <= gamma dt v_max from y (where the surface now
// at y was then) and keyframe b (1 - gamma) dt v_max from it, and each lookup blends
// the corners of the voxel cell around that point, within sqrt(3) h of it; phi is a
// weighted mean of positive values wherever all it reads is positive. The test is exact about signs, so
// ruling a collider out where Clear holds changes no contact. A segment whose solid
// cells were not built (an unbounded surface, a background or a speed that is not
// finite, or a solid too large to hold cell by cell) is never clear. A negative r counts
// as 0.
func (c *DeformingLevelSet) Clear(x geom.Vec3, r, t float64) bool {
	seg := c.seg.Load()
	if seg == nil {
		return true // no collider yet: phi = +Inf
	}
	if seg.solid[0] == nil {
		return false
	}
	r = max(r, 0) // a ball, at least the point: a smaller reach would fall between cells
	gamma := seg.gamma(t)
	weight := [2]float64{1 - gamma, gamma}
	travel := [2]float64{gamma * seg.dt * seg.vmax, (1 - gamma) * seg.dt * seg.vmax}
	for i, s := range seg.solid {
		if weight[i] == 0 {
			continue // not looked up (interpolate)
		}
		reach := r + travel[i] + math.Sqrt(3)*s.tr.VoxelSize
		// Widened by a part in a million, for the rounding of the lookup points.
		if s.near(x, reach*(1+1e-6)+1e-6*s.tr.VoxelSize) {
			return false
		}
	}
	return true
}

// clearanceFloor, times sqrt(3) h, is the least positive phi Sample reports for a point
// outside: small enough to mean "touching", but positive, so that it is not a contact.
const clearanceFloor = 1e-9

// Surface implements Collider.
func (c *DeformingLevelSet) Surface() Surface { return c.Contact }
