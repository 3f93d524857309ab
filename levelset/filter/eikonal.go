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
// monotonically to the solution. An iteration updates each region in place, sweeping
// its voxels in increasing offset order on even iterations and decreasing on odd ones
// (fast sweeping inside a leaf), but reads the other regions' values as the iteration
// before left them (Jacobi between leaves): so the result depends neither on the order
// in which regions are visited nor on the number of threads, and an iteration carries
// distances across a whole leaf.

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
	pads := make([]*paddedRegion, threads)
	for w := range pads {
		pads[w] = newPaddedRegion()
	}
	for it := range maxSweeps(r.halfWidth) {
		parallel.For(threads, count, func(w, i int) {
			changed[i] = false
			if dirty[i] || r.neighbourDirty(dirty, i) {
				changed[i] = r.relax(i, pads[w], next[i], it%2 == 1)
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

// A paddedRegion is a region's distances with a one-voxel layer around it holding its
// face neighbours' values, so that relax reads any face neighbour as one array access
// at a fixed stride (padStride), with no branch at the region's faces. The edges and
// corners of the layer are never read.
type paddedRegion [padDim * padDim * padDim]float32

const padDim = levelset.LeafDim + 2

// padStride are the index steps of paddedRegion along x, y and z.
var padStride = [3]int{padDim * padDim, padDim, 1}

// padIndex returns the index in a paddedRegion of voxel n of the region.
func padIndex(n int) int {
	return (n>>6+1)*padDim*padDim + (n>>3&7+1)*padDim + n&7 + 1
}

// newPaddedRegion returns a padded region whose layer is unknown until load fills it.
func newPaddedRegion() *paddedRegion {
	p := new(paddedRegion)
	for n := range p {
		p[n] = unknown
	}
	return p
}

// load fills p with region i's distances and the layer with its face neighbours' values
// (unknown beyond the band).
func (r *redistancer) load(p *paddedRegion, i int) {
	d := r.dist[i]
	for row := 0; row < levelset.LeafVoxels; row += levelset.LeafDim {
		copy(p[padIndex(row):padIndex(row)+levelset.LeafDim], d[row:row+levelset.LeafDim])
	}
	for f, j := range r.band.nbr[i] {
		axis := f / 2
		shift, s1, s2 := axisShift[axis], axisShift[(axis+1)%3], axisShift[(axis+2)%3]
		// Face f holds the voxels at position own along the axis; across it, the
		// neighbour's voxels at position theirs, one padStride further out.
		own, theirs, step := levelset.LeafDim-1, 0, padStride[axis]
		if f&1 == 1 {
			own, theirs, step = 0, levelset.LeafDim-1, -step
		}
		for u := range levelset.LeafDim {
			for v := range levelset.LeafDim {
				base := u<<s1 | v<<s2
				value := unknown
				if j >= 0 {
					value = r.dist[j][base|theirs<<shift]
				}
				p[padIndex(base|own<<shift)+step] = value
			}
		}
	}
}

// relax writes into out one update of region i, sweeping down the offsets when
// backwards, and reports whether a value went down. p is the worker's scratch.
func (r *redistancer) relax(i int, p *paddedRegion, out *[levelset.LeafVoxels]float32, backwards bool) bool {
	r.load(p, i)
	changed := false
	fixed := &r.fixed[i]
	for k := range levelset.LeafVoxels {
		n := k
		if backwards {
			n = levelset.LeafVoxels - 1 - k
		}
		if fixed.IsOn(n) {
			continue
		}
		c := padIndex(n)
		var a [3]float64
		for axis, s := range padStride {
			a[axis] = float64(min(p[c+s], p[c-s]))
		}
		// The solution exceeds the smallest neighbour by at least 1/sqrt(3) (three
		// equal ones): skip the voxels it cannot lower, most of them once converged.
		if lo := min(a[0], a[1], a[2]); lo >= float64(p[c]) || lo+0.5 >= r.halfWidth {
			continue
		}
		if d := godunov(a); d < r.halfWidth && float32(d) < p[c] {
			p[c] = float32(d)
			changed = true
		}
	}
	for row := 0; row < levelset.LeafVoxels; row += levelset.LeafDim {
		copy(out[row:row+levelset.LeafDim], p[padIndex(row):padIndex(row)+levelset.LeafDim])
	}
	return changed
}
