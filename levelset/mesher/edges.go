package mesher

import (
	"math"
	"math/bits"

	"snowtools/levelset"
	"snowtools/levelset/geom"
)

// Surface vertices are welded by the grid edge they lie on. An edge of the split
// runs from a voxel a to a + D, where D is a nonzero set of axes (bit 2 x, bit 1 y,
// bit 0 z, as for cell corners): 7 directions per voxel. The edge belongs to the
// leaf-sized region (8x8x8 voxels, aligned like a leaf) that holds a, and inside
// that region it is named by a 12-bit key, LeafOffset(a) << 3 | D.
//
// A cell whose lower corner lies in region R has its corners in R and in the 7
// regions R + 8d, d in {0,1}^3 \ {0}, where d names the axes along which the corner
// leaves R. A triangle's vertex is stored as a vertexRef: d << 12 | key, 15 bits.

const keysPerRegion = levelset.LeafVoxels << 3 // 4096

// vertexRef names an edge from the cell's region: the region offset d and the key.
type vertexRef uint16

func makeRef(d int, key int) vertexRef { return vertexRef(d<<12 | key) }

func (r vertexRef) offset() int { return int(r >> 12) }
func (r vertexRef) key() int    { return int(r & (keysPerRegion - 1)) }

// regionStep returns the origin offset of region offset d: 8 voxels along each
// axis of d.
func regionStep(d int) levelset.Coord {
	return levelset.Coord{int32(d>>2) * levelset.LeafDim, int32(d>>1&1) * levelset.LeafDim, int32(d&1) * levelset.LeafDim}
}

// axisStep returns the voxel offset of a corner or direction bit set.
func axisStep(d uint8) levelset.Coord {
	return levelset.Coord{int32(d >> 2), int32(d >> 1 & 1), int32(d & 1)}
}

// edgeSet is one bit per key of a region: the edges of that region that carry a
// vertex.
type edgeSet [keysPerRegion / 64]uint64

func (s *edgeSet) add(key int) { s[key>>6] |= 1 << (key & 63) }

func (s *edgeSet) or(o *edgeSet) {
	for w := range s {
		s[w] |= o[w]
	}
}

// rankTable numbers the keys of an edge set in increasing order: the number of
// keys before key is before[key>>6] plus the keys below it in its own word.
type rankTable struct {
	set    edgeSet
	before [keysPerRegion / 64]int32
	count  int32
}

func (r *rankTable) build() {
	n := int32(0)
	for w, word := range r.set {
		r.before[w] = n
		n += int32(bits.OnesCount64(word))
	}
	r.count = n
}

func (r *rankTable) rank(key int) int32 {
	w := key >> 6
	below := r.set[w] & (1<<(key&63) - 1)
	return r.before[w] + int32(bits.OnesCount64(below))
}

// forEach calls fn with every key of the set in increasing order.
func (s *edgeSet) forEach(fn func(key int)) {
	for w, word := range s {
		for word != 0 {
			fn(w<<6 | bits.TrailingZeros64(word))
			word &= word - 1
		}
	}
}

// vertexMargin keeps a vertex at least this fraction of an edge away from the
// edge's ends. A value equal to the isovalue counts as outside, so the exact
// crossing would sit on that voxel, and every edge from it to an inside voxel would
// put a vertex at the same point: zero-length edges and zero-area triangles. With
// the margin they stay apart by about vertexMargin h, enough for single precision
// at 10^4 voxels from the origin, while moving the surface by at most that much.
const vertexMargin = 1e-3

// crossing returns t such that the edge from a value va to vb (one inside, one
// outside) crosses iso at a + t (b - a): linear interpolation, kept within
// [vertexMargin, 1 - vertexMargin]. A value that is not finite gives no slope to
// interpolate, and the vertex goes to the middle.
func crossing(va, vb float32, iso float64) float64 {
	a, b := float64(va), float64(vb)
	t := (iso - a) / (b - a)
	if math.IsNaN(t) || math.IsInf(t, 0) {
		return 0.5
	}
	return min(max(t, vertexMargin), 1-vertexMargin)
}

// edgePoint returns the crossing on the edge from voxel a along direction dir, in
// index space, where voxel centres are integer points.
func edgePoint(a levelset.Coord, dir uint8, va, vb float32, iso float64) geom.Vec3 {
	t := crossing(va, vb, iso)
	d := axisStep(dir)
	return geom.Vec3{
		float64(a[0]) + t*float64(d[0]),
		float64(a[1]) + t*float64(d[1]),
		float64(a[2]) + t*float64(d[2]),
	}
}

// toWorld maps a point of index space to world space: Origin + h x.
func toWorld(tr *levelset.Transform, x geom.Vec3) geom.Vec3 {
	return tr.Origin.Add(x.Scale(tr.VoxelSize))
}
