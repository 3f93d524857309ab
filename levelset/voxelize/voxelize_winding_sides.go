package voxelize

import (
	"math"
	"slices"

	"snowtools/levelset"
	"snowtools/levelset/geom"
	"snowtools/levelset/parallel"
)

// Stage 3b, for the winding-number sign: each band voxel goes to the side w >= 1/2
// says, where stage 3 gave it the side of its closest feature.
//
// The generalized winding number w is continuous (harmonic) off the surface and jumps
// by an integer across it. Two voxels p and q at distances d(p) and d(q) from the
// surface are linked when d(p) + d(q) > |p - q|: a surface point x on the segment pq
// would give d(p) + d(q) <= |p - x| + |x - q| = |p - q|, so no surface lies between
// them and w changes continuously from one to the other. Along a path of linked
// voxels, w changes by at most the path's length times a bound G on |grad w| (see
// rimSlope): one evaluation of w at a voxel decides every voxel that such a path of
// length L reaches when G L < |w - 1/2|. A closed mesh has G = 0, and one evaluation
// decides all the voxels linked to it, exactly.
//
// The links are what the sides of closest features cannot give: two neighbours both
// on the outer side of their closest features may still lie on either side of a
// surface (where a spout pierces a body, the voxel inside the body next to the spout
// and the voxel outside the body next to its wall), and a voxel centre on a face is
// on neither side.
//
// In each leaf, the voxels farther than h/2 from the surface are linked to all their
// face neighbours among them, which makes face-connected groups. A group is decided
// from evaluations at its voxels farthest from the surface, never at one on it,
// where w jumps and its value is the round-off of a solid angle: each evaluation
// decides the voxels within the number of face steps its certificate allows, and
// the group's farthest undecided voxel is evaluated next. Then each voxel nearer than
// h/2 takes the side of a linked voxel among its 26 neighbours that was decided with
// a step to spare, or of one linked to it through a point a voxel away from the
// surface (sideThroughStep), or is evaluated itself; one on the surface keeps its
// feature's side, which does not matter there.
//
// Two certificates bound how far an evaluation reaches: the slope of w (rimSlope),
// and, stronger near small holes, how far w is from a whole number W that only the
// mesh can change (rimPatches): where that bound holds around a voxel, one
// evaluation decides all such voxels of its group. A leaf near a few small holes
// is decided whole from W and the exact winding number of the holes' patches
// (decideNearHoles, voxelize_winding_holes.go).

// surfaceTolerance is the distance, in voxels, within which a voxel is on the
// surface: its phi stores as at most 1e-6 h, so its side does not matter, and the
// winding number, which jumps there, is not evaluated.
const surfaceTolerance = 1e-6

// linkSlack widens |p - q| in the link test d(p) + d(q) > |p - q| for the rounding
// of the distances, stored as float32 (the test only meets distances below 3 h, so
// their errors stay under 2e-7 h), and of the voxel centres.
const linkSlack = 1 + 1e-5

// windingTolerance is how far the hierarchical winding number may be from the exact
// one: at most 4.1e-3 measured (see WindingBeta). An evaluation within it of 1/2
// decides only its own voxel.
const windingTolerance = 0.01

// unlimitedSteps marks a certificate that covers the whole group: more face steps
// than a leaf has voxels.
const unlimitedSteps = levelset.LeafVoxels

// leafSides is what stage 3b keeps of a leaf between its two passes.
type leafSides struct {
	far levelset.Mask512 // band voxels farther than h/2 from the surface
	// settled are far voxels whose evaluation certified their side with two face
	// steps to spare (settledFace, one): a voxel linked to one among its 26
	// neighbours (its 6 face neighbours) is on the same side.
	settled, settledFace levelset.Mask512
	// decided are the voxels the first pass decided: the far ones, or all of them
	// near small holes (decideNearHoles).
	decided levelset.Mask512
	holes   *holeSides // W near small holes (decideNearHoles), or nil
}

// windingSides is stage 3b: the groups of far voxels in every leaf, then the near
// voxels, which may look at the settled voxels of neighbouring leaves.
func (v *voxelizer) windingSides() {
	parallel.For(v.opt.Threads, len(v.leaves), func(_, i int) {
		v.decideGroups(v.leaves[i])
	})
	parallel.For(v.opt.Threads, len(v.leaves), func(_, i int) {
		v.decideNearVoxels(v.leaves[i])
	})
	for _, l := range v.leaves {
		l.sides = nil
	}
}

// decideGroups decides the far voxels of leaf l, a face-connected group at a time.
func (v *voxelizer) decideGroups(l *bandLeaf) {
	s := &leafSides{}
	l.sides = s
	reach := v.h * linkSlack
	l.phi.Active.ForEachOn(func(o int) {
		if distance(l, o) > reach/2 {
			s.far.Set(o, true)
		}
	})
	var lp leafPatches
	if v.patches != nil {
		middle := v.voxelCentre(l.origin).Add(geom.Vec3{leafHalf, leafHalf, leafHalf}.Scale(v.h))
		lp = v.patches.around(middle, (leafHalfDiagonal+2)*v.h, patchLimit)
		if lp.ok && lp.count > 0 && v.patches.fanCount(&lp) <= maxNearFans {
			v.decideNearHoles(l, &lp)
			return
		}
	}
	s.decided = s.far
	leafSlope := -1.0 // computed when first needed
	patched := v.patchCertified(l, &lp, &s.far)
	rest := s.far
	for o := rest.First(); o >= 0; o = rest.First() {
		var seed levelset.Mask512
		seed.Set(o, true)
		group := floodWithin(seed, &rest)
		rest = rest.AndNot(&group)
		for undecided := group; !undecided.IsEmpty(); {
			first := farthest(l, &undecided)
			w := v.winding(v.voxelCentre(levelset.LeafCoord(l.origin, first)))
			var decided, spare1, spare2 levelset.Mask512
			if patched.IsOn(first) {
				// W, the whole number nearest to w, holds at every patched voxel
				// that face steps through patched voxels reach.
				region := group.And(&patched)
				var seed levelset.Mask512
				seed.Set(first, true)
				decided = floodWithin(seed, &region)
				spare1, spare2 = decided, decided
			} else {
				steps := v.certifiedSteps(l, first, w, &leafSlope)
				decided, spare1, spare2 = growWithin(first, &group, steps)
			}
			decided = decided.And(&undecided)
			undecided = undecided.AndNot(&decided)
			s.settledFace = s.settledFace.Or(&spare1)
			s.settled = s.settled.Or(&spare2)
			decided.ForEachOn(func(o int) { setSide(l, o, w >= 0.5) })
		}
	}
}

// patchLimit is the most that P (see rimPatches) may be for its certificate: with
// windingTolerance, it keeps an evaluated winding number nearer to W than to any
// other whole number, and every point where P holds on W's side of 1/2.
const patchLimit = 0.5 - 5*windingTolerance

// patchCertified returns the voxels p of mask m in leaf l where P <= patchLimit
// over the ball of radius 2 h around p (see rimPatches; lp is for the leaf's ball
// grown by 2 h). The face step from p to a neighbour, the diagonal step to a near
// voxel and sideThroughStep's path stay in that ball, so W cannot change along
// them, and all the patched voxels that one evaluation reaches through patched
// voxels of its group are settled with it.
func (v *voxelizer) patchCertified(l *bandLeaf, lp *leafPatches, m *levelset.Mask512) levelset.Mask512 {
	var patched levelset.Mask512
	if !lp.ok {
		return patched
	}
	if lp.count == 0 {
		return *m // P <= patchLimit/2 over the whole ball
	}
	m.ForEachOn(func(o int) {
		if lp.bound(v.patches, v.voxelCentre(levelset.LeafCoord(l.origin, o)), 2*v.h) <= patchLimit {
			patched.Set(o, true)
		}
	})
	return patched
}

// certifiedSteps returns how many face steps from voxel o of leaf l, where the
// winding number is w, certainly stay on w's side of 1/2: the most k with
// k h G < |w - 1/2| - windingTolerance, G a bound on |grad w| where a path of k
// steps can go. Such a path stays in the leaf, and within k h of o: G is first the
// bound over the ball around the leaf grown by two voxels (for the steps beyond it
// to a near voxel; cached in leafSlope), then over balls of 1, 2 and 4 voxels
// around o, as long as each allows its radius (k h G grows with k, so the first
// to fail ends the search).
func (v *voxelizer) certifiedSteps(l *bandLeaf, o int, w float64, leafSlope *float64) int {
	if v.rim == nil {
		return unlimitedSteps // w is constant between surfaces
	}
	slack := math.Abs(w-0.5) - windingTolerance
	if slack <= 0 {
		return 0
	}
	h := v.h
	if *leafSlope < 0 {
		middle := v.voxelCentre(l.origin).Add(geom.Vec3{leafHalf, leafHalf, leafHalf}.Scale(h))
		// Beyond 1/h, only a winding number beyond -1.5 or 2.5 would get the
		// two steps that make the leaf's bound worth having.
		*leafSlope = v.rim.bound(middle, (leafHalfDiagonal+2*sqrt3)*h, 1/h)
	}
	if k := slack / (h * *leafSlope); k >= 2 {
		return int(min(k, unlimitedSteps))
	}
	p := v.voxelCentre(levelset.LeafCoord(l.origin, o))
	steps := 0
	for _, k := range [3]int{1, 2, 4} {
		limit := slack / (float64(k) * h)
		if v.rim.bound(p, float64(k)*h, limit) >= limit {
			break
		}
		steps = k
	}
	return steps
}

// growWithin returns the voxels of allowed within steps face steps of voxel o
// through voxels of allowed (ball), and those within steps - 1 and steps - 2 (the
// spare ones: a voxel a face step from one of the first, or a diagonal step of at
// most sqrt 3 from one of the second, is still within steps).
func growWithin(o int, allowed *levelset.Mask512, steps int) (ball, spare1, spare2 levelset.Mask512) {
	ball.Set(o, true)
	for i := 0; ; i++ {
		if i <= steps-1 {
			spare1 = ball
		}
		if i <= steps-2 {
			spare2 = ball
		}
		if i == steps {
			return ball, spare1, spare2
		}
		grown := levelset.DilateMask(&ball)
		grown = grown.And(allowed)
		grown = grown.Or(&ball)
		if grown == ball {
			if steps >= 1 {
				spare1 = ball
			}
			if steps >= 2 {
				spare2 = ball
			}
			return ball, spare1, spare2
		}
		ball = grown
	}
}

// decideNearVoxels decides the voxels of leaf l within h/2 of the surface: each
// takes the side of the first linked settled voxel among its 26 neighbours (in any
// leaf), or of one reached through a point off the lattice (sideThroughStep), or is
// evaluated; on the surface, it keeps its closest feature's side.
func (v *voxelizer) decideNearVoxels(l *bandLeaf) {
	near := l.phi.Active.AndNot(&l.sides.decided)
	if near.IsEmpty() {
		return
	}
	around := v.leavesAround(l)
	near.ForEachOn(func(o int) {
		c := levelset.LeafCoord(l.origin, o)
		d := distance(l, o)
		if l.sides.holes != nil {
			if inside, ok := v.sideFromWhole(l, o, &around); ok {
				setSide(l, o, inside)
				return
			}
		}
		for i, step := range neighbours26 {
			nl, q := around.voxel(c.Add(step))
			if nl == nil {
				continue
			}
			settled := &nl.sides.settled
			if neighbourLength[i] == 1 {
				settled = &nl.sides.settledFace
			}
			if settled.IsOn(q) && d+distance(nl, q) > neighbourLength[i]*v.h*linkSlack {
				setSide(l, o, nl.phi.Values[q] < 0)
				return
			}
		}
		if d <= surfaceTolerance*v.h {
			return
		}
		if inside, ok := v.sideThroughStep(l, o, d, &around); ok {
			setSide(l, o, inside)
			return
		}
		setSide(l, o, v.winding(v.voxelCentre(c)) >= 0.5)
	})
}

// neighbourLength is the length of each offset of neighbours26, in voxels.
var neighbourLength = func() (n [26]float64) {
	for i, d := range neighbours26 {
		n[i] = math.Sqrt(float64(d[0]*d[0] + d[1]*d[1] + d[2]*d[2]))
	}
	return n
}()

// leafNeighbourhood is a leaf and the band leaves around it (nil where there is
// none), by offset (dx+1)*9 + (dy+1)*3 + dz+1 in leaves.
type leafNeighbourhood struct {
	centre levelset.Coord // the middle leaf's origin
	leaves [27]*bandLeaf
}

func (v *voxelizer) leavesAround(l *bandLeaf) leafNeighbourhood {
	nb := leafNeighbourhood{centre: l.origin}
	for i := range nb.leaves {
		d := levelset.Coord{int32(i/9 - 1), int32(i/3%3 - 1), int32(i%3 - 1)}
		nb.leaves[i] = v.leafAt(l.origin.Add(levelset.Coord{d[0] * levelset.LeafDim, d[1] * levelset.LeafDim, d[2] * levelset.LeafDim}))
	}
	return nb
}

// voxel returns the leaf that holds voxel c, which must be within one leaf of the
// middle one, and c's offset in it; nil when no band leaf holds it.
func (nb *leafNeighbourhood) voxel(c levelset.Coord) (*bandLeaf, int) {
	i := 0
	for k := range 3 {
		i = 3*i + int((c[k]-nb.centre[k])>>levelset.LeafLog2) + 1
	}
	return nb.leaves[i], levelset.LeafOffset(c)
}

// sideThroughStep links near voxel o of leaf l, at distance d from the surface, to
// a settled voxel through a point off the lattice: x = p + h u, a voxel straight
// away from p's closest point (u), whose distance to the surface a nearest-triangle
// query gives, and q, the neighbour of p nearest to x. It reports the side of q when
// both legs are linked (the path, of length at most h (1 + sqrt 3/2), needs two
// steps to spare), and ok = false otherwise. A nearest query costs a seventh of a
// winding number near the surface, and a voxel a hundredth of h from it links to
// no voxel centre.
func (v *voxelizer) sideThroughStep(l *bandLeaf, o int, d float64, around *leafNeighbourhood) (inside, ok bool) {
	n := l.normal.Values[o]
	u := geom.Vec3{float64(n[0]), float64(n[1]), float64(n[2])}
	if l.phi.Values[o] < 0 {
		u = u.Scale(-1) // the normal points out; u points away from the surface
	}
	c := levelset.LeafCoord(l.origin, o)
	p := v.voxelCentre(c)
	x := p.Add(u.Scale(v.h))
	_, cp, found := v.bvh.Nearest(x, 2*v.h)
	if !found {
		return false, false
	}
	dx := math.Sqrt(cp.Dist2)
	if d+dx <= x.Sub(p).Norm()*linkSlack {
		return false, false
	}
	qc := c.Add(levelset.Coord{int32(math.Round(u[0])), int32(math.Round(u[1])), int32(math.Round(u[2]))})
	ql, q := around.voxel(qc)
	if ql == nil || !ql.sides.settled.IsOn(q) || dx+distance(ql, q) <= x.Sub(v.voxelCentre(qc)).Norm()*linkSlack {
		return false, false
	}
	return ql.phi.Values[q] < 0, true
}

// leafAt returns the band leaf at origin, or nil.
func (v *voxelizer) leafAt(origin levelset.Coord) *bandLeaf {
	i, found := slices.BinarySearchFunc(v.leaves, origin, func(l *bandLeaf, o levelset.Coord) int {
		return levelset.CompareCoords(l.origin, o)
	})
	if !found {
		return nil
	}
	return v.leaves[i]
}

// distance returns |phi| at voxel o of leaf l.
func distance(l *bandLeaf, o int) float64 { return math.Abs(float64(l.phi.Values[o])) }

// setSide puts voxel o of leaf l inside or outside, turning its phi and normal
// around if stage 3 put it on the other side.
func setSide(l *bandLeaf, o int, inside bool) {
	if (l.phi.Values[o] < 0) == inside {
		return
	}
	l.phi.Values[o] = -l.phi.Values[o]
	n := l.normal.Values[o]
	l.normal.Values[o] = levelset.Vec3f{-n[0], -n[1], -n[2]}
}

// farthest returns the voxel of the non-empty mask farthest from the surface, the
// lowest offset among equals.
func farthest(l *bandLeaf, m *levelset.Mask512) int {
	best, bestD := -1, 0.0
	m.ForEachOn(func(o int) {
		if d := distance(l, o); best < 0 || d > bestD {
			best, bestD = o, d
		}
	})
	return best
}
