package voxelize

import (
	"math"

	"snowtools/levelset"
)

// Stage 3b in a leaf near small holes, where the slope of w is too steep for a
// certificate to reach beyond a voxel or two.
//
// With the fans of rimPatches split into the few near the leaf (their winding
// number F_near, computed exactly) and the rest (|F_far| <= P_far over the leaf's
// ball, see leafPatches):
//
//	w(p) = W(p) + F_near(p) + F_far(p),   W(p) a whole number,
//
// and W changes only across the mesh or a fan. The far fans cannot change it
// inside the ball (|F_far| < 1/2 on both sides of one), so it is constant along
// every path that keeps away from the mesh and the near fans. Two voxels p and q
// are linked here when d(p) + d(q) > |p - q| for d the distance to the mesh and the
// near fans together: one evaluation of w at a voxel of a group of linked voxels
// gives W for them all, the whole number nearest to w - F_near (within
// P_far + windingTolerance < 1/2), and each voxel is then inside when
// W + F_near - 1/2 > P_far, outside when it is below -P_far. That decides the
// voxels around a hole exactly, however steep w is there, with one evaluation a
// group. The few left, too near 1/2 or linked to no group, are evaluated one by one
// (on the mesh, a voxel keeps its feature's side).

// maxNearFans is the most fan triangles a leaf evaluates at each of its voxels;
// beyond it the leaf is decided by certificates (decideGroups).
const maxNearFans = 48

// holeSides is what decideNearHoles keeps of a leaf for the second pass: W where
// it is known, and the clearance of the voxels, for links from neighbouring leaves,
// rounded down to a multiple of h/clearanceSteps (a lower bound still) in a byte.
type holeSides struct {
	patches   leafPatches
	known     levelset.Mask512
	whole     [levelset.LeafVoxels]int8
	clearance [levelset.LeafVoxels]uint8
	// contradicted counts the groups whose evaluation was farther from a whole
	// number than the bounds allow, which are then decided voxel by voxel: never,
	// unless a bound or the hierarchical evaluation's tolerance fails.
	contradicted int
}

// clearanceSteps is how finely holeSides keeps the clearance: in steps of h/64, up
// to 255/64 h, more than any link needs (sqrt 3 h).
const clearanceSteps = 64

// decideNearHoles decides the band voxels of leaf l whose W it finds, near the
// fans of lp; the second pass (decideNearVoxels) decides the rest.
func (v *voxelizer) decideNearHoles(l *bandLeaf, lp *leafPatches) {
	s := l.sides
	hs := &holeSides{patches: *lp}
	s.holes = hs
	var (
		fanWinding [levelset.LeafVoxels]float64 // F_near, of the fans computed exactly
		bound      [levelset.LeafVoxels]float64 // |w - W - F_near| at most
		clearance  [levelset.LeafVoxels]float64 // at most the distance to the mesh and the near fans
		clear      levelset.Mask512             // voxels farther than h/2 from both
	)
	reach := v.h * linkSlack
	l.phi.Active.ForEachOn(func(o int) {
		fanWinding[o], bound[o], clearance[o] = v.fansAt(l, o, lp)
		hs.clearance[o] = uint8(min(math.Floor(clearance[o]/v.h*clearanceSteps), math.MaxUint8))
		if clearance[o] > reach/2 {
			clear.Set(o, true)
		}
	})
	rest := clear
	for o := rest.First(); o >= 0; o = rest.First() {
		var seed levelset.Mask512
		seed.Set(o, true)
		group := floodWithin(seed, &rest)
		rest = rest.AndNot(&group)
		first := farthestBy(&clearance, &group)
		u := v.winding(v.voxelCentre(levelset.LeafCoord(l.origin, first))) - fanWinding[first]
		w := math.Round(u)
		if math.Abs(u-w) > bound[first]+windingTolerance || math.Abs(w) > math.MaxInt8 {
			hs.contradicted++ // its voxels are decided one by one
			continue
		}
		group.ForEachOn(func(o int) { hs.whole[o] = int8(w) })
		hs.known = hs.known.Or(&group)
	}
	// The other voxels take W from a linked neighbour in the leaf, if any.
	for grew := true; grew; {
		grew = false
		unknown := l.phi.Active.AndNot(&hs.known)
		unknown.ForEachOn(func(o int) {
			c := levelset.LeafCoord(l.origin, o)
			for i, step := range neighbours26 {
				q := c.Add(step)
				if q.AlignDown(levelset.LeafLog2) != l.origin {
					continue
				}
				n := levelset.LeafOffset(q)
				if hs.known.IsOn(n) && clearance[o]+clearance[n] > neighbourLength[i]*reach {
					hs.whole[o] = hs.whole[n]
					hs.known.Set(o, true)
					grew = true
					return
				}
			}
		})
	}
	hs.known.ForEachOn(func(o int) {
		if t := float64(hs.whole[o]) + fanWinding[o] - 0.5; math.Abs(t) > bound[o] {
			setSide(l, o, t > 0)
			s.decided.Set(o, true)
		}
	})
	// Far voxels where P over a ball of 2 h holds are on W's side with every voxel
	// linked to them in that ball, as in decideGroups.
	s.settled = v.patchCertified(l, lp, &s.far)
	s.settled = s.settled.And(&s.decided)
	s.settledFace = s.settled
}

// fansAt returns F_near at voxel o of leaf l, the bound on |w - W - F_near| there,
// and its clearance: at most its distance to the mesh and the near fans.
func (v *voxelizer) fansAt(l *bandLeaf, o int, lp *leafPatches) (f, bound, clearance float64) {
	f, bound, clearance = v.patches.fansAt(lp, v.voxelCentre(levelset.LeafCoord(l.origin, o)))
	return v.orientation() * f, bound, min(clearance, distance(l, o))
}

// sideFromWhole decides voxel o of leaf l, which decideNearHoles left undecided,
// from W at a linked voxel of a neighbouring leaf near holes. decided is false
// when there is none, or when W leaves o's side open.
func (v *voxelizer) sideFromWhole(l *bandLeaf, o int, around *leafNeighbourhood) (inside, decided bool) {
	f, bound, clearance := v.fansAt(l, o, &l.sides.holes.patches)
	c := levelset.LeafCoord(l.origin, o)
	for i, step := range neighbours26 {
		nl, q := around.voxel(c.Add(step))
		if nl == nil || nl.sides.holes == nil || !nl.sides.holes.known.IsOn(q) {
			continue
		}
		if clearance+float64(nl.sides.holes.clearance[q])*v.h/clearanceSteps > neighbourLength[i]*v.h*linkSlack {
			t := float64(nl.sides.holes.whole[q]) + f - 0.5
			return t > 0, math.Abs(t) > bound
		}
	}
	return false, false
}

// farthestBy returns the voxel of the non-empty mask with the largest distance,
// the lowest offset among equals.
func farthestBy(distances *[levelset.LeafVoxels]float64, m *levelset.Mask512) int {
	best := -1
	m.ForEachOn(func(o int) {
		if best < 0 || distances[o] > distances[best] {
			best = o
		}
	})
	return best
}
