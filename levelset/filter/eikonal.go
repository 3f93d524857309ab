package filter

import (
	"math"

	"snowtools/levelset"
	"snowtools/levelset/parallel"
)

// The eikonal equation |grad d| = 1, in voxel units, by the Godunov upwind scheme: with
// a_k the smaller of the two neighbours' distances along axis k, d solves
//
//	sum_k max(d - a_k, 0)^2 = 1,
//
// whose solution, with a_1 <= a_2 <= a_3, uses the axes whose a_k lies below it:
//
//	d = a_1 + 1                                            if that is <= a_2,
//	d = (a_1 + a_2 + sqrt(2 - (a_1 - a_2)^2)) / 2          if that is <= a_3,
//	d = (s + sqrt(s^2 - 3 (q - 1))) / 3, s = sum a_k, q = sum a_k^2, otherwise.
//
// Each voxel depends only on smaller neighbours, so iterating the update from the fixed
// interface values, every other voxel starting unknown (+Inf), decreases every value
// monotonically to the solution. A Jacobi iteration (every voxel from the values of the
// step before) is independent of the order and the number of threads; it settles in
// about sqrt(3) halfWidth steps, the longest chain of face steps across the band.

// godunov returns the upwind solution d for the smaller neighbours a (any order).
func godunov(a [3]float64) float64 {
	if a[0] > a[1] {
		a[0], a[1] = a[1], a[0]
	}
	if a[1] > a[2] {
		a[1], a[2] = a[2], a[1]
	}
	if a[0] > a[1] {
		a[0], a[1] = a[1], a[0]
	}
	d := a[0] + 1
	if d <= a[1] {
		return d
	}
	diff := a[0] - a[1]
	d = (a[0] + a[1] + math.Sqrt(2-diff*diff)) / 2
	if d <= a[2] {
		return d
	}
	s := a[0] + a[1] + a[2]
	q := a[0]*a[0] + a[1]*a[1] + a[2]*a[2]
	return (s + math.Sqrt(max(s*s-3*(q-1), 0))) / 3
}

// maxSweeps bounds the Jacobi iterations for a band of half-width w voxels: far more
// than the sqrt(3) w + 2 they take; a guard, not a tolerance.
func maxSweeps(w float64) int { return 4*int(math.Ceil(w)) + 16 }

// solve is step 2 of Redistance: the distances of the voxels beyond the interface, up
// to halfWidth (those further stay unknown). A region is recomputed only when it or a
// face neighbour changed in the step before.
func (r *redistancer) solve(threads int) {
	count := len(r.dist)
	next := make([]*[levelset.LeafVoxels]float32, count)
	for i := range next {
		next[i] = new([levelset.LeafVoxels]float32)
	}
	dirty := make([]bool, count)
	changed := make([]bool, count)
	for i := range dirty {
		dirty[i] = true
	}
	for range maxSweeps(r.halfWidth) {
		parallel.For(threads, count, func(_, i int) {
			changed[i] = false
			if dirty[i] || r.neighbourDirty(dirty, i) {
				changed[i] = r.relax(i, next[i])
			}
		})
		any := false
		for i, c := range changed {
			if c {
				*r.dist[i] = *next[i]
				any = true
			}
		}
		if !any {
			return
		}
		dirty, changed = changed, dirty
	}
}

func (r *redistancer) neighbourDirty(dirty []bool, i int) bool {
	for _, j := range r.band.nbr[i] {
		if j >= 0 && dirty[j] {
			return true
		}
	}
	return false
}

// relax writes into out one Jacobi update of region i and reports whether a value
// went down.
func (r *redistancer) relax(i int, out *[levelset.LeafVoxels]float32) bool {
	cur := r.dist[i]
	*out = *cur
	changed := false
	fixed := &r.fixed[i]
	for n := range cur {
		if fixed.IsOn(n) {
			continue
		}
		var a [3]float64
		for axis := range 3 {
			a[axis] = float64(min(r.band.neighbour(r.dist, i, n, 2*axis), r.band.neighbour(r.dist, i, n, 2*axis+1)))
		}
		if d := godunov(a); d < r.halfWidth && float32(d) < cur[n] {
			out[n] = float32(d)
			changed = true
		}
	}
	return changed
}
