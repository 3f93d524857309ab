package collider

import (
	"math"

	"snowtools/levelset"
	"snowtools/levelset/geom"
)

// solidCells is where a level set's solid lies, more closely than its bounding box: the
// cubes of 4x4x4 voxels (cells) that hold a voxel that is not a finite positive phi
// (phi <= 0, or a NaN or an infinity, which a lookup's weights can turn into NaN), as a
// dense bit set over their bounding box. A voxelized collider's box holds its narrow
// band and, for a body that is not a box, much empty space beside it: the snow there is
// within reach of the box but not of the solid. A grid with no such voxel has an empty
// set (n = 0), near nothing.
type solidCells struct {
	tr   levelset.Transform
	lo   [3]int32 // the first cell on each axis; cell k holds voxels 4k to 4k+3
	n    [3]int   // cells along each axis
	bits []uint64 // cell (i, j, k) from lo is bit (i n1 + j) n2 + k
}

// solidCellLog2 is the cells' width, 2^2 voxels: finer cells would rule out more snow
// around the solid, but near would have more of them to test.
const solidCellLog2 = 2

// maxSolidCells caps the bit set (4 MiB): a solid whose cells span more, such as a
// terrain voxelized finely, gets none, and Clear never rules it out.
const maxSolidCells = 1 << 25

// maxNearCells caps the cells near tests: a ball that spans more (a fast collider's
// reach against fine voxels) is taken to be near without a look, as it would be without
// the cells. Contact tests ask once per particle, and a sample costs about 700 ns: an
// empty cell costs a nanosecond or two and the test stops at the first solid one within
// reach, so a few hundred cells stay cheaper than the sample (BenchmarkDeformingClear:
// 60-80 ns a particle's test, 300 ns a block's; the plough's and the kick's frames in
// docs/performance.md).
const maxNearCells = 512

// newSolidCells returns the solid cells of g, or nil when they span too many cells to
// hold. Tiles count whole: an inside tile's cells are solid.
func newSolidCells(g *levelset.FloatGrid) *solidCells {
	lo := [3]int32{math.MaxInt32, math.MaxInt32, math.MaxInt32}
	hi := [3]int32{math.MinInt32, math.MinInt32, math.MinInt32}
	grow := func(first, last levelset.Coord) {
		for a := range 3 {
			lo[a] = min(lo[a], first[a]>>solidCellLog2)
			hi[a] = max(hi[a], last[a]>>solidCellLog2)
		}
	}
	solidVoxels(g, grow)
	s := &solidCells{tr: g.Transform, lo: lo}
	if lo[0] > hi[0] {
		return s // empty
	}
	cells := 1
	for a := range 3 {
		s.n[a] = int(hi[a]) - int(lo[a]) + 1
		if s.n[a] > maxSolidCells/cells { // checked before the product, which could overflow an int
			return nil
		}
		cells *= s.n[a]
	}
	s.bits = make([]uint64, (cells+63)/64)
	solidVoxels(g, func(first, last levelset.Coord) {
		for i := first[0] >> solidCellLog2; i <= last[0]>>solidCellLog2; i++ {
			for j := first[1] >> solidCellLog2; j <= last[1]>>solidCellLog2; j++ {
				for k := first[2] >> solidCellLog2; k <= last[2]>>solidCellLog2; k++ {
					b := s.index(i, j, k)
					s.bits[b>>6] |= 1 << (b & 63)
				}
			}
		}
	})
	return s
}

// solidVoxels calls fn with the first and last voxel of every box of voxels of g that
// are solid (solidValue): single voxels of the leaves, and whole tiles.
func solidVoxels(g *levelset.FloatGrid, fn func(first, last levelset.Coord)) {
	for _, l := range g.Leaves() {
		for n, v := range l.Values {
			if solidValue(v) {
				c := levelset.LeafCoord(l.Origin, n)
				fn(c, c)
			}
		}
	}
	for _, t := range g.Tiles() {
		if solidValue(t.Value) {
			side := int32(1)<<t.Log2 - 1
			fn(t.Origin, t.Origin.Add(levelset.Coord{side, side, side}))
		}
	}
}

// solidValue reports whether a lookup that reads phi may come out not positive: phi <= 0,
// NaN, or +Inf, which a corner of weight 0 turns into NaN (0 Inf).
func solidValue(phi float32) bool { return !(phi > 0 && phi <= math.MaxFloat32) }

// index returns the bit of cell (i, j, k), which must lie in the set's box.
func (s *solidCells) index(i, j, k int32) int {
	return (int(i-s.lo[0])*s.n[1]+int(j-s.lo[1]))*s.n[2] + int(k-s.lo[2])
}

// near reports whether a solid cell comes within r of the world point x: whether the box
// of its voxel centres does, which holds every solid voxel of the cell, so that false
// means that no solid voxel lies within r of x.
func (s *solidCells) near(x geom.Vec3, r float64) bool {
	if !(r >= 0) {
		return true // a NaN reach (from a NaN speed) rules nothing out
	}
	h := s.tr.VoxelSize
	var first, last [3]int32
	cells := 1.0
	for a := range 3 {
		// The cells whose voxel centres may lie within r of x along axis a, clamped to
		// the set's box (in float64, so that a point far out cannot overflow).
		lo := math.Floor((x[a]-r-s.tr.Origin[a])/h) / (1 << solidCellLog2)
		hi := math.Floor((x[a]+r-s.tr.Origin[a])/h) / (1 << solidCellLog2)
		lo = max(math.Floor(lo), float64(s.lo[a]))
		hi = min(math.Floor(hi), float64(s.lo[a])+float64(s.n[a]-1))
		if !(lo <= hi) { // also false for NaN
			return false
		}
		first[a], last[a] = int32(lo), int32(hi)
		cells *= hi - lo + 1
	}
	if cells > maxNearCells {
		return true
	}
	const side = 1<<solidCellLog2 - 1 // the last voxel's offset in a cell
	r2 := r * r
	for i := first[0]; i <= last[0]; i++ {
		for j := first[1]; j <= last[1]; j++ {
			for k := first[2]; k <= last[2]; k++ {
				b := s.index(i, j, k)
				if s.bits[b>>6]&(1<<(b&63)) == 0 {
					continue
				}
				c := levelset.Coord{i << solidCellLog2, j << solidCellLog2, k << solidCellLog2}
				box := geom.Box{
					Min: s.tr.IndexToWorld(c),
					Max: s.tr.IndexToWorld(c.Add(levelset.Coord{side, side, side})),
				}
				if boxDistance2(box, x) <= r2 {
					return true
				}
			}
		}
	}
	return false
}
