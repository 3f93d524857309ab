package particles

import (
	"fmt"
	"math"
	"slices"

	"snowtools/levelset"
	"snowtools/levelset/parallel"
)

// Step 1 of SurfaceLevelSet: the union of spheres phi(x) = min_p |x - x_p| - R_p near
// the particles, with R_p = s r_p + D. A particle writes only the voxels within
// R_p + unionMargin of its centre; elsewhere phi is at least unionMargin voxels, so
// the grid holds min(phi, unionMargin dx) (to within a float32 rounding, see splat),
// enough for Redistance to place the surface and measure its slope.
//
// The work is gathered a leaf at a time: particles are binned by the leaf that holds
// them, and a leaf reads the bins within reach, so each leaf is written by one worker
// in an order fixed by the particles, and the values never depend on the threads.
// Leaves of snow whose 26 neighbours are all inside too hold no surface and become
// tiles, and leaves no sphere comes near are not made, so memory follows the surface
// rather than the volume or the particles' bounding boxes.

// unionMargin is how far beyond a sphere its distance is computed, in voxels: the
// interface voxels and their neighbours, which Redistance reads.
const unionMargin = 2

// sphereBins holds the particles sorted by the leaf that holds their centre.
type sphereBins struct {
	dx      float64
	ring    int32 // a particle reaches the leaves up to ring leaves from its own
	bins    map[levelset.Coord]int32
	origins []levelset.Coord // the bins' leaf origins
	// reach[b] is the box of voxels that the particles of bin b write: those within
	// R_p + unionMargin of some particle, along each axis.
	reach []voxelRange
	start []int32 // bin b holds records start[b] to start[b+1]-1
	// records holds x, y, z (voxels, relative to the bin's origin) and R (voxels) per
	// particle, in bin order.
	records []float32
}

// newSphereBins checks the particles and bins them; radii are scaled by scale and grown
// by closing voxels.
func newSphereBins(pos, radius []float32, dx, scale, closing float64) (*sphereBins, error) {
	n := len(radius)
	b := &sphereBins{dx: dx, bins: map[levelset.Coord]int32{}}
	binOf := make([]int32, n)
	var count []int32
	last, lastBin := levelset.Coord{1, 1, 1}, int32(-1) // sorted input repeats bins
	maxR := 0.0
	for p := range n {
		var c levelset.Coord
		for a := range 3 {
			x := float64(pos[3*p+a]) / dx
			if !(math.Abs(x) < maxVoxelIndex) {
				return nil, b.particleError(pos, radius, p, "the position is not finite or too far out for the grid")
			}
			c[a] = int32(math.Floor(x))
		}
		R := scale*float64(radius[p])/dx + closing
		if !(radius[p] > 0) || math.IsInf(float64(radius[p]), 0) {
			return nil, b.particleError(pos, radius, p, "the radius must be finite and positive")
		}
		if R > MaxRadiusVoxels {
			return nil, b.particleError(pos, radius, p, fmt.Sprintf(
				"the grown radius (radius scale %g times the radius, plus the closing, %g voxels) is %.4g voxels, more than %d: use larger voxels (VoxelSize), or a smaller RadiusScale or Closing",
				scale, closing, R, MaxRadiusVoxels))
		}
		maxR = max(maxR, R)
		c = c.AlignDown(levelset.LeafLog2)
		if c != last {
			bin, ok := b.bins[c]
			if !ok {
				bin = int32(len(b.origins))
				b.bins[c] = bin
				b.origins = append(b.origins, c)
				b.reach = append(b.reach, emptyRange)
				count = append(count, 0)
			}
			last, lastBin = c, bin
		}
		binOf[p] = lastBin
		count[lastBin]++
		// (A hundredth of a voxel more covers the float32 rounding of the records.)
		b.reach[lastBin].add(pos[3*p:3*p+3], dx, R+unionMargin+0.01)
	}
	b.ring = int32((maxR+unionMargin)/levelset.LeafDim) + 1
	b.start = make([]int32, len(count)+1)
	for i, c := range count {
		b.start[i+1] = b.start[i] + c
	}
	b.records = make([]float32, 4*n)
	next := slices.Clone(b.start[:len(count)])
	for p, bin := range binOf {
		rec := b.records[4*next[bin]:]
		next[bin]++
		o := b.origins[bin]
		for a := range 3 {
			rec[a] = float32(float64(pos[3*p+a])/dx - float64(o[a]))
		}
		rec[3] = float32(scale*float64(radius[p])/dx + closing)
	}
	return b, nil
}

func (b *sphereBins) particleError(pos, radius []float32, p int, reason string) error {
	return &ParticleError{Index: p, Position: [3]float32{pos[3*p], pos[3*p+1], pos[3*p+2]}, Radius: radius[p], Reason: reason}
}

// unionLevelSet returns min(phi, unionMargin dx) on the leaves where it is below
// unionMargin dx, with inside tiles where the 26 neighbours are inside too and
// unionMargin dx as the background.
func (b *sphereBins) unionLevelSet(threads int) *levelset.FloatGrid {
	cap := float32(unionMargin * b.dx)
	grid := levelset.NewGrid(levelset.Transform{VoxelSize: b.dx}, cap)
	leaves := b.reachedLeaves()
	index := make(map[levelset.Coord]int, len(leaves))
	for i, o := range leaves {
		index[o] = i
	}
	values := make([]*levelset.Leaf[float32], len(leaves))
	allInside := make([]bool, len(leaves))
	scratch := make([][levelset.LeafVoxels]float32, threads)
	// Pass 1 finds the leaves wholly inside: a voxel is inside when some particle is
	// within R_p of it, so splatting the balls alone (no margin, a few voxels a
	// particle) gives the signs, and the values of the inside voxels exactly (the
	// particle nearest to an inside voxel holds it in its ball). The other leaves keep
	// these values. Pass 2 completes the leaves that are not surrounded by inside
	// leaves: the margin lowers only outside voxels, so only the particles that reach
	// the box around the leaf's outside voxels splat, and only into that box (half the
	// work of splatting every particle with its margin, on a flat surface); a leaf
	// wholly inside is pass 1 again.
	parallel.For(threads, len(leaves), func(w, i int) {
		buf := &scratch[w]
		b.gather(leaves[i], 0, wholeLeaf, buf)
		if allInside[i] = !slices.ContainsFunc(buf[:], func(v float32) bool { return v >= 0 }); !allInside[i] {
			values[i] = &levelset.Leaf[float32]{Origin: leaves[i], Values: *buf}
		}
	})
	// A leaf that no particle comes within R_p + unionMargin of keeps unionMargin
	// throughout: it is the background, and stays out of the grid (the corners of the
	// reach boxes of sparse particles are mostly such leaves).
	parallel.For(threads, len(leaves), func(_, i int) {
		switch {
		case values[i] != nil:
			if box, ok := outsideBox(&values[i].Values); ok {
				b.gather(leaves[i], unionMargin, box, &values[i].Values)
			}
			if !slices.ContainsFunc(values[i].Values[:], func(v float32) bool { return v < unionMargin }) {
				values[i] = nil
				return
			}
		case !b.surrounded(leaves[i], index, allInside):
			values[i] = &levelset.Leaf[float32]{Origin: leaves[i]}
			b.gather(leaves[i], 0, wholeLeaf, &values[i].Values)
		default:
			return
		}
		b.toMetres(values[i])
	})
	for i, o := range leaves {
		switch {
		case values[i] != nil:
			grid.AddLeaf(values[i])
		case allInside[i]:
			grid.AddTile(levelset.Tile[float32]{Origin: o, Log2: levelset.LeafLog2, Value: -cap})
		}
	}
	return grid
}

// reachedLeaves returns, in Coord order, the leaves that some bin's reach box
// overlaps: every leaf with a voxel within R_p + unionMargin of a particle. Elsewhere
// phi is at least unionMargin, the background. (All the leaves within ring of a bin,
// which this once returned, cost a 3 x 3 x 3 block of leaves per isolated particle,
// nearly all of them background.)
func (b *sphereBins) reachedLeaves() []levelset.Coord {
	seen := map[levelset.Coord]bool{}
	var out []levelset.Coord
	for _, r := range b.reach {
		lo, hi := r.lo.AlignDown(levelset.LeafLog2), r.hi.AlignDown(levelset.LeafLog2)
		for x := lo[0]; x <= hi[0]; x += levelset.LeafDim {
			for y := lo[1]; y <= hi[1]; y += levelset.LeafDim {
				for z := lo[2]; z <= hi[2]; z += levelset.LeafDim {
					if c := (levelset.Coord{x, y, z}); !seen[c] {
						seen[c] = true
						out = append(out, c)
					}
				}
			}
		}
	}
	slices.SortFunc(out, levelset.CompareCoords)
	return out
}

// A voxelRange is the box of voxels lo to hi (inclusive) along each axis.
type voxelRange struct{ lo, hi levelset.Coord }

// emptyRange holds no voxel; add grows it.
var emptyRange = voxelRange{
	lo: levelset.Coord{math.MaxInt32, math.MaxInt32, math.MaxInt32},
	hi: levelset.Coord{math.MinInt32, math.MinInt32, math.MinInt32},
}

// add grows r to hold the voxels within reach voxels of the point p (metres) along
// each axis. (|p / dx| < maxVoxelIndex and reach <= MaxRadiusVoxels + unionMargin, so
// the bounds fit an int32.)
func (r *voxelRange) add(p []float32, dx, reach float64) {
	for a := range 3 {
		x := float64(p[a]) / dx
		r.lo[a] = min(r.lo[a], int32(math.Ceil(x-reach)))
		r.hi[a] = max(r.hi[a], int32(math.Floor(x+reach)))
	}
}

// forRing calls fn with the leaf origins within ring leaves of o, o included.
func (b *sphereBins) forRing(o levelset.Coord, fn func(levelset.Coord)) {
	for x := -b.ring; x <= b.ring; x++ {
		for y := -b.ring; y <= b.ring; y++ {
			for z := -b.ring; z <= b.ring; z++ {
				fn(o.Add(levelset.Coord{x * levelset.LeafDim, y * levelset.LeafDim, z * levelset.LeafDim}))
			}
		}
	}
}

// surrounded reports whether the 26 neighbours of the leaf at o are all inside leaves:
// then no voxel of it, nor any neighbour a stencil reads, is at the surface.
func (b *sphereBins) surrounded(o levelset.Coord, index map[levelset.Coord]int, allInside []bool) bool {
	for x := int32(-1); x <= 1; x++ {
		for y := int32(-1); y <= 1; y++ {
			for z := int32(-1); z <= 1; z++ {
				j, ok := index[o.Add(levelset.Coord{x * levelset.LeafDim, y * levelset.LeafDim, z * levelset.LeafDim})]
				if !ok || !allInside[j] {
					return false
				}
			}
		}
	}
	return true
}

// A voxelBox is the voxels lo[a] to hi[a] of a leaf along each axis a.
type voxelBox struct{ lo, hi [3]int }

// wholeLeaf is the box of all the voxels of a leaf.
var wholeLeaf = voxelBox{hi: [3]int{levelset.LeafDim - 1, levelset.LeafDim - 1, levelset.LeafDim - 1}}

// outsideBox returns the bounding box of the voxels of buf that are not negative, and
// false if there are none.
func outsideBox(buf *[levelset.LeafVoxels]float32) (voxelBox, bool) {
	box := voxelBox{lo: [3]int{levelset.LeafDim, levelset.LeafDim, levelset.LeafDim}, hi: [3]int{-1, -1, -1}}
	for n, v := range buf {
		if v >= 0 {
			for a, c := range [3]int{n >> 6, n >> 3 & 7, n & 7} {
				box.lo[a], box.hi[a] = min(box.lo[a], c), max(box.hi[a], c)
			}
		}
	}
	return box, box.hi[0] >= 0
}

// gather lowers buf over the box of the leaf at origin L to |v - x_p| - R_p where a
// particle within R_p + margin is nearer: with margin 0 over a buf of unionMargin it
// gives the signs and the values of the inside voxels; then with margin unionMargin
// over the box of the outside voxels, min(phi, unionMargin) in voxels exactly.
func (b *sphereBins) gather(L levelset.Coord, margin float32, box voxelBox, buf *[levelset.LeafVoxels]float32) {
	if margin == 0 {
		for n := range buf {
			buf[n] = unionMargin
		}
	}
	b.forRing(L, func(o levelset.Coord) {
		bin, ok := b.bins[o]
		if !ok {
			return
		}
		shift := [3]float32{float32(o[0] - L[0]), float32(o[1] - L[1]), float32(o[2] - L[2])}
		lo := [3]float32{float32(box.lo[0]), float32(box.lo[1]), float32(box.lo[2])}
		hi := [3]float32{float32(box.hi[0]), float32(box.hi[1]), float32(box.hi[2])}
		for p := b.start[bin]; p < b.start[bin+1]; p++ {
			rec := b.records[4*p : 4*p+4]
			x := [3]float32{rec[0] + shift[0], rec[1] + shift[1], rec[2] + shift[2]}
			reach := rec[3] + margin
			// Most particles a leaf reads do not reach the box: test here, not in a call.
			if x[0]+reach < lo[0] || x[0]-reach > hi[0] || x[1]+reach < lo[1] || x[1]-reach > hi[1] ||
				x[2]+reach < lo[2] || x[2]-reach > hi[2] {
				continue
			}
			b.splat(x, rec[3], margin, box, buf)
		}
	})
}

// splat lowers the voxels of the box within R + margin of x (voxels, relative to
// the leaf's origin; the ball reaches the box) to |v - x| - R where that is lower. It
// visits only the voxels of that ball's bounding box, and takes a square root only
// where |v - x|^2 < (cur + R)^2 with cur + R > 0, which is |v - x| - R < cur in exact
// arithmetic: most voxels inside the snow are low already. In float32 the two tests
// may disagree within a rounding: the rounded distance is compared with cur again, so
// a value never goes up, but a particle whose distance lies within a rounding below
// cur may be passed over. A voxel thus ends as the min of the particles' distances to
// within a float32 rounding, and the same bits every run, because a leaf visits the
// particles in one order whatever the threads (bins in forRing's order, a bin's
// particles in input order).
func (b *sphereBins) splat(x [3]float32, R, margin float32, box voxelBox, buf *[levelset.LeafVoxels]float32) {
	reach := R + margin
	reach2 := reach * reach
	ilo, ihi := axisRange(x[0], reach, box.lo[0], box.hi[0])
	jlo, jhi := axisRange(x[1], reach, box.lo[1], box.hi[1])
	klo, khi := axisRange(x[2], reach, box.lo[2], box.hi[2])
	for i := ilo; i <= ihi; i++ {
		dx := float32(i) - x[0]
		for j := jlo; j <= jhi; j++ {
			dy := float32(j) - x[1]
			dxy := dx*dx + dy*dy
			if dxy >= reach2 {
				continue
			}
			row := buf[i<<6|j<<3 : i<<6|j<<3+levelset.LeafDim]
			for k := klo; k <= khi; k++ {
				dz := float32(k) - x[2]
				q := dxy + dz*dz
				if t := row[k] + R; t > 0 && q < t*t {
					row[k] = min(row[k], float32(math.Sqrt(float64(q)))-R)
				}
			}
		}
	}
}

// axisRange returns the voxels lo to hi, between first and last (within 0 to 7),
// that are within r of x along an axis; lo > hi when there are none.
// (int truncates towards zero, which is the floor and one less than the ceiling
// for the positive values that are not clamped.)
func axisRange(x, r float32, first, last int) (lo, hi int) {
	lo, hi = first, last
	if a := x - r; a > float32(first) {
		lo = int(a)
		if float32(lo) < a {
			lo++
		}
	}
	if b := x + r; b < float32(last) {
		hi = int(b)
		if b < 0 {
			hi = -1
		}
	}
	return lo, hi
}

// toMetres turns the values of a leaf from voxels into metres and activates every
// voxel (the active states are Redistance's to set).
func (b *sphereBins) toMetres(l *levelset.Leaf[float32]) {
	for n, v := range l.Values {
		l.Values[n] = float32(float64(v) * b.dx)
	}
	l.Active.SetAll(true)
}
