package particles

import (
	"fmt"
	"math"
	"slices"
)

// The shape measures by which two runs of one scene are compared (export -to compare
// -differences; simcore's TestAutoIntegrator holds the auto integrator to the explicit
// one by the same three), in cells of one size h:
//
//   - centroid: the distance between the runs' centroids, weighted by mass (the plain
//     mean of the positions when either frame has no masses);
//   - cells shared: the occupied cells (floor(x/h), floor(y/h), floor(z/h)) that both
//     runs have, divided by those that either has (Jaccard);
//   - heights: in the columns of h x h in x and z (y is up) that both runs occupy, the
//     absolute difference of their top heights (the highest particle's y), sorted; the
//     median is the difference at index len/2, the 90th percentile the one at
//     len*9/10, the mean their sum over len, the largest the last.
//
// Particles with a coordinate that is not finite have no cell, column or share of the
// centroid. A Shape keeps no positions: the centroids, the occupied cells as sorted
// packed keys and the columns' tops, so that many frames can be summarised in parallel
// and compared later by merging sorted keys.

// shapeCellBias shifts a cell index into the 21 bits that a packed key gives each
// axis: indices from -shapeCellBias to shapeCellBias-1 (a million cells either side of
// the origin: 10 km at h = 1 cm).
const shapeCellBias = 1 << 20

// A Shape is what ShapeDifference needs of one frame.
type Shape struct {
	H         float64 // the cell size
	Particles int     // summarised, finite or not
	finite    int     // with finite positions: those measured
	mean      [3]float64
	massMean  [3]float64 // valid when hasMass
	hasMass   bool
	// cells are the occupied cells, packed by shapeKey, sorted and distinct; their
	// order (x, z, y) puts each column's cells together.
	cells []uint64
	// columns are the occupied columns (shapeKey >> 21: x and z), sorted, and tops
	// the highest particle's y in each.
	columns []uint64
	tops    []float32
}

// shapeKey packs cell indices (each within ±shapeCellBias) into x, z, y from the high
// bits.
func shapeKey(ix, iy, iz int64) uint64 {
	return uint64(ix+shapeCellBias)<<42 | uint64(iz+shapeCellBias)<<21 | uint64(iy+shapeCellBias)
}

// SummariseShape returns the Shape of particles at pos (x y z each) with masses mass
// (nil: none; then the centroid is the plain mean) in cells of size h. A particle more
// than a million cells from the origin is an error. Its transient memory is 8 bytes a
// particle; the Shape holds 8 bytes per occupied cell and 12 per occupied column.
func SummariseShape(pos, mass []float32, h float64) (*Shape, error) {
	if !(h > 0) || math.IsInf(h, 0) {
		return nil, fmt.Errorf("shape cells of %g m: want a positive size", h)
	}
	n := len(pos) / 3
	sh := &Shape{H: h, Particles: n, hasMass: mass != nil && len(mass) == n}
	keys := make([]uint64, 0, n)
	var sum, massSum [3]float64
	totalMass := 0.0
	for i := range n {
		x, finite := position(pos, i)
		if !finite {
			continue
		}
		key, ok := cellKey(x, h)
		if !ok {
			return nil, fmt.Errorf("particle %d at (%.4g, %.4g, %.4g) is more than %d cells of %g m from the origin",
				i, x[0], x[1], x[2], shapeCellBias, h)
		}
		keys = append(keys, key)
		sh.finite++
		for a := range 3 {
			sum[a] += x[a]
		}
		if sh.hasMass {
			m := float64(mass[i])
			totalMass += m
			for a := range 3 {
				massSum[a] += m * x[a]
			}
		}
	}
	sh.hasMass = sh.hasMass && totalMass > 0
	for a := range 3 {
		sh.mean[a] = sum[a] / float64(sh.finite)
		if sh.hasMass {
			sh.massMean[a] = massSum[a] / totalMass
		}
	}
	slices.Sort(keys)
	sh.cells = slices.Clone(slices.Compact(keys)) // the exact size: keys is as long as the frame

	columns := 0
	for i, k := range sh.cells {
		if i == 0 || k>>21 != sh.cells[i-1]>>21 {
			columns++
		}
	}
	sh.columns = make([]uint64, 0, columns)
	for _, k := range sh.cells {
		if len(sh.columns) == 0 || k>>21 != sh.columns[len(sh.columns)-1] {
			sh.columns = append(sh.columns, k>>21)
		}
	}
	sh.tops = make([]float32, len(sh.columns))
	for i := range sh.tops {
		sh.tops[i] = float32(math.Inf(-1))
	}
	for i := range n { // every finite particle has a key: the first pass checked
		if x, finite := position(pos, i); finite {
			key, _ := cellKey(x, h)
			c, _ := slices.BinarySearch(sh.columns, key>>21)
			sh.tops[c] = max(sh.tops[c], pos[3*i+1])
		}
	}
	return sh, nil
}

// position returns particle i of pos and whether all its coordinates are finite.
func position(pos []float32, i int) (x [3]float64, finite bool) {
	x = [3]float64{float64(pos[3*i]), float64(pos[3*i+1]), float64(pos[3*i+2])}
	for _, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return x, false
		}
	}
	return x, true
}

// cellKey returns the packed key of the cell of size h that holds x, or false when x
// is more than shapeCellBias cells from the origin on some axis.
func cellKey(x [3]float64, h float64) (uint64, bool) {
	var c [3]int64
	for a, v := range x {
		f := math.Floor(v / h)
		if !(f >= -shapeCellBias && f < shapeCellBias) {
			return 0, false
		}
		c[a] = int64(f)
	}
	return shapeKey(c[0], c[1], c[2]), true
}

// A ShapeDifference is how far one frame's shape is from another's; the lengths are in
// cells of h. Every measure is NaN when either frame has no finite particle to
// measure, and the heights' when no column has particles of both.
type ShapeDifference struct {
	Centroid          float64
	Shared            float64 // of the cells, 0 to 1
	Median, P90, Mean float64 // of the heights' differences
	Max               float64 // the largest height difference
}

// DifferenceFrom measures s against ref in cells of s.H (ref must be summarised in
// cells of the same size).
func (s *Shape) DifferenceFrom(ref *Shape) ShapeDifference {
	nan := math.NaN()
	d := ShapeDifference{Centroid: nan, Shared: nan, Median: nan, P90: nan, Mean: nan, Max: nan}
	if s.finite == 0 || ref.finite == 0 {
		return d
	}
	ca, cb := s.mean, ref.mean
	if s.hasMass && ref.hasMass {
		ca, cb = s.massMean, ref.massMean
	}
	d.Centroid = math.Sqrt((ca[0]-cb[0])*(ca[0]-cb[0])+(ca[1]-cb[1])*(ca[1]-cb[1])+(ca[2]-cb[2])*(ca[2]-cb[2])) / s.H

	both := 0
	mergeSorted(s.cells, ref.cells, func(int, int) { both++ })
	d.Shared = float64(both) / float64(len(s.cells)+len(ref.cells)-both)

	var heights []float64
	mergeSorted(s.columns, ref.columns, func(i, j int) {
		heights = append(heights, math.Abs(float64(s.tops[i])-float64(ref.tops[j])))
	})
	if len(heights) == 0 {
		return d
	}
	slices.Sort(heights)
	mean := 0.0
	for _, v := range heights {
		mean += v / float64(len(heights))
	}
	d.Median, d.P90, d.Mean = heights[len(heights)/2]/s.H, heights[len(heights)*9/10]/s.H, mean/s.H
	d.Max = heights[len(heights)-1] / s.H
	return d
}

// Measured reports whether s has particles with finite positions to measure.
func (s *Shape) Measured() bool { return s.finite > 0 }

// mergeSorted calls both(i, j) for every key that the sorted, distinct a and b share,
// at a[i] = b[j].
func mergeSorted(a, b []uint64, both func(i, j int)) {
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] < b[j]:
			i++
		case a[i] > b[j]:
			j++
		default:
			both(i, j)
			i, j = i+1, j+1
		}
	}
}
