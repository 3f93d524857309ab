package filter

import (
	"fmt"
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
// monotonically to the solution. An iteration relaxes every region (solve says in what
// order and why the result depends on neither the order nor the threads), sweeping its
// voxels in place in the 8 orders of fast sweeping in turn (each axis up or down,
// sweepOrders). A sweep carries distances across a whole leaf along the directions
// whose components all agree with its order, and one voxel per sweep along the others,
// so a band of w voxels takes about w + 6 sweeps (14, 11 and 9 for the three
// Redistances of export's slab, whose bands are 7.4, 5.4 and 3 voxels; 15, 12 and 9
// when alternating only all-up and all-down).

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

// sweepOrders are the sweep directions of fast sweeping as masks on a leaf offset
// x<<6 | y<<3 | z that flip the axes they sweep down: all up, all down, then the other
// three pairs of opposites.
var sweepOrders = [8]int{0, 0x1ff, 0x007, 0x1f8, 0x038, 0x1c7, 0x1c0, 0x03f}

// maxSweeps bounds the iterations for a band of half-width w voxels: far more
// than the sqrt(3) w + 2 they take; a guard, not a tolerance. The iteration ends by
// itself (every value only goes down, and each iteration but the last lowers one of
// finitely many float32 values), but no bound on how many iterations a band twisting
// through the grid may need is proved here, so reaching this one is an error
// (ConvergenceError) rather than a silent cut, whose distances would be too large.
func maxSweeps(w float64) int { return 4*int(math.Ceil(w)) + 16 }

// A ConvergenceError says that Redistance's eikonal iteration still changed values
// after maxSweeps iterations.
type ConvergenceError struct {
	HalfWidth  float64 // the band's half-width, voxels
	Iterations int
}

func (e *ConvergenceError) Error() string {
	return fmt.Sprintf("redistance: the distances in a band of %g voxels still changed after %d iterations", e.HalfWidth, e.Iterations)
}

// solve is step 2 of Redistance: the distances of the voxels beyond the interface, up
// to halfWidth (those further stay unknown), in at most iterations iterations
// (maxSweeps), or a ConvergenceError.
//
// The regions are coloured like a checkerboard by the parity of their leaf coordinates'
// sum, so that face neighbours differ in colour. An iteration relaxes the regions of
// colour 0, in place and in parallel, then those of colour 1, which read the new values
// of colour 0 (red-black Gauss-Seidel between leaves): two regions relaxed at once
// never read each other, so the values do not depend on the threads, and distances
// cross two leaves per iteration rather than one. A region is recomputed only when it
// or a face neighbour changed since its last relaxation.
func (r *redistancer) solve(threads, iterations int) error {
	count := len(r.dist)
	var colours [2][]int
	for i, o := range r.band.origins {
		c := (o[0] + o[1] + o[2]) / levelset.LeafDim & 1
		colours[c] = append(colours[c], i)
	}
	// Half-steps count the colour passes; lastChange[i] is the last one that lowered a
	// value of region i, lastRelax[i] the last one that relaxed it.
	lastChange := make([]int, count)
	lastRelax := make([]int, count)
	for i := range lastRelax {
		lastRelax[i] = -1
	}
	pads := make([]*paddedRegion, threads)
	for w := range pads {
		pads[w] = new(paddedRegion)
	}
	step := 0
	for it := range iterations {
		any := false
		for _, regions := range colours {
			relaxed, changed := make([]bool, len(regions)), make([]bool, len(regions))
			parallel.For(threads, len(regions), func(w, k int) {
				i := regions[k]
				if relaxed[k] = r.stale(i, lastChange, lastRelax); relaxed[k] {
					changed[k] = r.relax(i, pads[w], it)
				}
			})
			for k, i := range regions {
				if relaxed[k] {
					lastRelax[i] = step
				}
				if changed[k] {
					lastChange[i] = step
					any = true
				}
			}
			step++
		}
		if !any {
			return nil
		}
	}
	return &ConvergenceError{HalfWidth: r.halfWidth, Iterations: iterations}
}

// stale reports whether region i or a face neighbour changed since i was last relaxed.
func (r *redistancer) stale(i int, lastChange, lastRelax []int) bool {
	if lastChange[i] >= lastRelax[i] {
		return true
	}
	for _, j := range r.band.nbr[i] {
		if j >= 0 && lastChange[j] >= lastRelax[i] {
			return true
		}
	}
	return false
}

// sweepsPerRelax bounds the sweeps of one relaxation. A second sweep, in the next
// order, while the first changed something, cut the iterations of export's slab from
// 14, 11 and 9 to 8, 7 and 5, and the time by 6%; more sweeps cost more than the
// iterations they save.
const sweepsPerRelax = 2

// relax updates region i in place, with up to sweepsPerRelax sweeps in the orders
// sweepOrders[first], sweepOrders[first+1], ... (sweep order o visits voxel k ^ o at
// step k: it flips the axes whose bits it sets), stopping after a sweep that changes
// nothing; it reports whether a value went down. p is the worker's scratch.
func (r *redistancer) relax(i int, p *paddedRegion, first int) bool {
	if r.allUnknown(i) {
		return false // no value to start from
	}
	r.band.pad(p, r.dist, i)
	changed := false
	fixed := &r.fixed[i]
	for sweep := range sweepsPerRelax {
		order := sweepOrders[(first+sweep)%len(sweepOrders)]
		swept := false
		for k := range levelset.LeafVoxels {
			n := k ^ order
			if fixed.IsOn(n) {
				continue
			}
			c := padIndex(n)
			var a [3]float64
			for axis, s := range padStride {
				a[axis] = float64(min(p[c+s], p[c-s]))
			}
			// The solution exceeds the smallest neighbour by at least 1/sqrt(3)
			// (three equal ones): skip the voxels it cannot lower.
			if lo := min(a[0], a[1], a[2]); lo >= float64(p[c]) || lo+0.5 >= r.halfWidth {
				continue
			}
			if d := godunov(a); d < r.halfWidth && float32(d) < p[c] {
				p[c] = float32(d)
				swept = true
			}
		}
		if !swept {
			break
		}
		changed = true
	}
	if !changed {
		return false
	}
	out := r.known(i)
	for row := 0; row < levelset.LeafVoxels; row += levelset.LeafDim {
		copy(out[row:row+levelset.LeafDim], p[padIndex(row):padIndex(row)+levelset.LeafDim])
	}
	return true
}

// allUnknown reports whether region i and its face neighbours have no known distance.
func (r *redistancer) allUnknown(i int) bool {
	if r.dist[i] != &unknownRegion {
		return false
	}
	for _, j := range r.band.nbr[i] {
		if j >= 0 && r.dist[j] != &unknownRegion {
			return false
		}
	}
	return true
}
