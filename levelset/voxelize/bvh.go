package voxelize

import (
	"math"
	"slices"
	"sync"

	"snowtools/levelset/geom"
)

// BVH is a bounding-volume hierarchy of axis-aligned boxes over the triangles of a
// Mesh, for exact closest-triangle queries (Nearest) and fast generalized winding
// numbers (WindingNumber, in winding.go).
//
// The tree is a flat array of nodes in depth-first order: an inner node's left child
// is the node right after it and its right child is stored by index, so a node holds
// no pointers. Each leaf owns a contiguous range of "slots" (at most bvhLeafSize
// triangles); the slots keep a copy of their triangle's three corners, so a query
// reads memory in leaf order instead of hopping through Triangles and Positions.
// The copy also means that the BVH describes the mesh as it was when NewBVH ran:
// build a new one when the positions change.
//
// A BVH is immutable once built (the winding-number data is computed on first use
// under a sync.Once), so any number of goroutines may query it at the same time.
type BVH struct {
	nodes []bvhNode
	tri   []int32        // tri[s]: the mesh triangle held by slot s
	pos   [][3]geom.Vec3 // pos[s]: the corners a, b, c of that triangle
	scale float64        // largest |coordinate| of any vertex; sets the pruning margin

	windOnce sync.Once
	wind     []windNode // per node, same index as nodes; see winding.go
}

// bvhNode is one box of the hierarchy. A leaf has count > 0 and holds slots
// first .. first+count-1; an inner node has count == 0, its left child at the next
// index and its right child at index first.
type bvhNode struct {
	lo, hi geom.Vec3
	first  int32
	count  int32
}

const (
	// bvhLeafSize is the most triangles a leaf holds. Four keeps the exact work per
	// leaf small (four point-triangle distances or four solid angles) while the
	// tree stays about n/2 nodes.
	bvhLeafSize = 4
	// bvhBins is the number of buckets of the binned surface-area heuristic.
	bvhBins = 16
	// bvhMaxSAHDepth bounds the depth at which splits follow the SAH; deeper nodes
	// split at the median, so that the depth stays below bvhMaxSAHDepth + log2 n
	// on any input.
	bvhMaxSAHDepth = 40
)

// NewBVH builds the hierarchy of m's triangles. The build is deterministic (the
// same mesh gives the same tree, node for node) and takes O(n log n) time: each
// node splits its triangles on the longest axis of the bounding box of their box
// centres, at the best of 15 candidate planes of a 16-bin surface-area heuristic
// (cost = area(left) n(left) + area(right) n(right), as in Wald 2007, "On fast
// construction of SAH-based bounding volume hierarchies"), until at most
// bvhLeafSize triangles remain. The subtrees of large nodes near the root are
// built on separate goroutines (at most 8), which gives the same tree as a serial
// build. m must be valid (see Mesh.Validate). A mesh
// without triangles gives an empty BVH whose queries find nothing.
func NewBVH(m *geom.Mesh) *BVH {
	n := len(m.Triangles)
	b := &BVH{tri: make([]int32, n), pos: make([][3]geom.Vec3, n)}
	if n == 0 {
		return b
	}
	for _, p := range m.Positions {
		b.scale = max(b.scale, math.Abs(p[0]), math.Abs(p[1]), math.Abs(p[2]))
	}
	items := make([]bvhItem, n)
	for t, tr := range m.Triangles {
		a, bb, c := m.Positions[tr[0]], m.Positions[tr[1]], m.Positions[tr[2]]
		items[t] = bvhItem{lo: minVec(minVec(a, bb), c), hi: maxVec(maxVec(a, bb), c), tri: int32(t)}
	}
	bd := bvhBuilder{items: items, nodes: make([]bvhNode, 0, n/2+1)}
	bd.build(0, n, 0, bd.rangeBounds(0, n))
	b.nodes = bd.nodes
	for s, it := range items {
		tr := m.Triangles[it.tri]
		b.tri[s] = it.tri
		b.pos[s] = [3]geom.Vec3{m.Positions[tr[0]], m.Positions[tr[1]], m.Positions[tr[2]]}
	}
	return b
}

// bvhItem is a triangle during the build: its bounding box and index. The build
// sorts the items into leaf order; keeping them in one array (not indexed through
// a permutation) keeps every pass over a node's range sequential in memory.
type bvhItem struct {
	lo, hi geom.Vec3
	tri    int32
}

// centre2 is twice the centre of the item's box on axis k. The SAH bins sort
// triangles by their box centre (exact to compute, unlike the centroid); the
// factor 2 saves a multiplication and changes nothing.
func (it *bvhItem) centre2(k int) float64 { return it.lo[k] + it.hi[k] }

const (
	// bvhParallelMin is the fewest triangles for which a node builds its two
	// subtrees on two goroutines; bvhParallelDepth bounds the goroutines to
	// 2^bvhParallelDepth. The tree is the same as a serial build's, node for
	// node: each subtree depends only on its own range of items.
	bvhParallelMin   = 1 << 15
	bvhParallelDepth = 3
)

// bvhBuilder appends the nodes of one subtree, in depth-first order, with node
// indices relative to the start of its own nodes slice.
type bvhBuilder struct {
	items []bvhItem // all of them; a subtree owns a range
	nodes []bvhNode
}

// bvhBounds are the box of a range of items and the box of their (doubled) centres.
type bvhBounds struct{ lo, hi, clo, chi geom.Vec3 }

// emptyBounds is the identity of bvhBounds.add.
func emptyBounds() bvhBounds {
	inf := math.Inf(1)
	lo, hi := geom.Vec3{inf, inf, inf}, geom.Vec3{-inf, -inf, -inf}
	return bvhBounds{lo, hi, lo, hi}
}

// add grows bb to hold the item.
func (bb *bvhBounds) add(it *bvhItem) {
	for k := range 3 {
		bb.lo[k], bb.hi[k] = min(bb.lo[k], it.lo[k]), max(bb.hi[k], it.hi[k])
		c := it.centre2(k)
		bb.clo[k], bb.chi[k] = min(bb.clo[k], c), max(bb.chi[k], c)
	}
}

// union grows bb to hold o.
func (bb *bvhBounds) union(o *bvhBounds) {
	bb.lo, bb.hi = minVec(bb.lo, o.lo), maxVec(bb.hi, o.hi)
	bb.clo, bb.chi = minVec(bb.clo, o.clo), maxVec(bb.chi, o.chi)
}

// rangeBounds returns the bounds of items[start:end].
func (bd *bvhBuilder) rangeBounds(start, end int) bvhBounds {
	bb := emptyBounds()
	for i := start; i < end; i++ {
		bb.add(&bd.items[i])
	}
	return bb
}

// build appends the subtree of items[start:end], whose bounds are bb, and returns
// its node index. The split that makes the children also gives their bounds, so
// that each level reads the items twice (binning and partitioning), not three
// times.
func (bd *bvhBuilder) build(start, end, depth int, bb bvhBounds) int32 {
	idx := int32(len(bd.nodes))
	bd.nodes = append(bd.nodes, bvhNode{lo: bb.lo, hi: bb.hi, first: int32(start), count: int32(end - start)})
	if end-start <= bvhLeafSize {
		return idx
	}
	ext := bb.chi.Sub(bb.clo)
	axis := 0
	if ext[1] > ext[axis] {
		axis = 1
	}
	if ext[2] > ext[axis] {
		axis = 2
	}
	mid := -1
	var lb, rb bvhBounds
	if depth < bvhMaxSAHDepth && ext[axis] > 0 {
		mid, lb, rb = bd.splitSAH(start, end, axis, bb.clo[axis], ext[axis])
	}
	if mid < 0 {
		mid = bd.splitMedian(start, end, axis)
		lb, rb = bd.rangeBounds(start, mid), bd.rangeBounds(mid, end)
	}
	bd.nodes[idx].count = 0
	if end-start < bvhParallelMin || depth >= bvhParallelDepth {
		bd.build(start, mid, depth+1, lb)
		bd.nodes[idx].first = bd.build(mid, end, depth+1, rb)
		return idx
	}
	left := bvhBuilder{items: bd.items, nodes: make([]bvhNode, 0, mid-start)}
	right := bvhBuilder{items: bd.items, nodes: make([]bvhNode, 0, end-mid)}
	done := make(chan struct{})
	go func() {
		left.build(start, mid, depth+1, lb)
		close(done)
	}()
	right.build(mid, end, depth+1, rb)
	<-done
	bd.appendShifted(left.nodes)
	bd.nodes[idx].first = int32(len(bd.nodes))
	bd.appendShifted(right.nodes)
	return idx
}

// appendShifted appends the nodes of a subtree built on its own, moving the
// child indices of its inner nodes by where it lands (leaf ranges are slots,
// which do not move).
func (bd *bvhBuilder) appendShifted(sub []bvhNode) {
	off := int32(len(bd.nodes))
	for _, nd := range sub {
		if nd.count == 0 {
			nd.first += off
		}
		bd.nodes = append(bd.nodes, nd)
	}
}

// bvhBin returns the SAH bucket of a (doubled) centre coordinate c on an axis
// whose centres span [c0, c0 + ext]; scale is bvhBins / ext.
func bvhBin(c, c0, scale float64) int {
	i := int((c - c0) * scale)
	return min(max(i, 0), bvhBins-1)
}

// splitSAH partitions items[start:end] at the cheapest bin boundary on axis and
// returns the index of the first item of the right part and the bounds of both
// parts, or mid = -1 when no boundary separates the centres. Empty bins are
// skipped in the sweeps: in the many small nodes near the leaves most bins are
// empty, and the per-bin work would otherwise cost more than the items.
func (bd *bvhBuilder) splitSAH(start, end, axis int, c0, ext float64) (mid int, left, right bvhBounds) {
	scale := bvhBins / ext
	var bins [bvhBins]bvhBounds
	var binN [bvhBins]int
	for i := start; i < end; i++ {
		it := &bd.items[i]
		k := bvhBin(it.centre2(axis), c0, scale)
		if binN[k] == 0 {
			bins[k] = bvhBounds{it.lo, it.hi, geom.Vec3{}, geom.Vec3{}}
			for a := range 3 {
				bins[k].clo[a] = it.centre2(a)
			}
			bins[k].chi = bins[k].clo
		} else {
			bins[k].add(it)
		}
		binN[k]++
	}
	// Sweep from the right to get the cost of every right part, then from the
	// left to add the left parts. Only the boxes matter for the cost.
	var rightCost [bvhBins]float64
	inf := math.Inf(1)
	lo, hi, n := geom.Vec3{inf, inf, inf}, geom.Vec3{-inf, -inf, -inf}, 0
	for k := bvhBins - 1; k > 0; k-- {
		if binN[k] > 0 {
			lo, hi, n = minVec(lo, bins[k].lo), maxVec(hi, bins[k].hi), n+binN[k]
			rightCost[k] = boxHalfArea(lo, hi) * float64(n)
		} else {
			rightCost[k] = rightCost[(k+1)%bvhBins] // the same split as the next boundary
		}
	}
	lo, hi, n = geom.Vec3{inf, inf, inf}, geom.Vec3{-inf, -inf, -inf}, 0
	best, bestCost := -1, inf
	for k := 1; k < bvhBins; k++ {
		if binN[k-1] == 0 {
			continue // the same split as the boundary before
		}
		lo, hi, n = minVec(lo, bins[k-1].lo), maxVec(hi, bins[k-1].hi), n+binN[k-1]
		if n == end-start {
			break
		}
		if c := boxHalfArea(lo, hi)*float64(n) + rightCost[k]; c < bestCost {
			best, bestCost = k, c
		}
	}
	if best < 0 {
		return -1, left, right
	}
	left, right = emptyBounds(), emptyBounds()
	for k := range bins {
		switch {
		case binN[k] == 0:
		case k < best:
			left.union(&bins[k])
		default:
			right.union(&bins[k])
		}
	}
	// The swaps depend only on the order the items arrive in, so the result is
	// deterministic without a stable partition.
	i, j := start, end-1
	for i <= j {
		if bvhBin(bd.items[i].centre2(axis), c0, scale) < best {
			i++
		} else {
			bd.items[i], bd.items[j] = bd.items[j], bd.items[i]
			j--
		}
	}
	return i, left, right
}

// splitMedian sorts items[start:end] by centre on axis (ties by triangle index)
// and splits them in halves. It is the fallback for coincident centres and for
// very deep nodes, where it keeps the depth logarithmic.
func (bd *bvhBuilder) splitMedian(start, end, axis int) int {
	slices.SortFunc(bd.items[start:end], func(s, t bvhItem) int {
		cs, ct := s.centre2(axis), t.centre2(axis)
		switch {
		case cs < ct:
			return -1
		case cs > ct:
			return 1
		}
		return int(s.tri) - int(t.tri)
	})
	return (start + end) / 2
}

// minVec is the component-wise minimum of a and b for finite vectors. Unlike
// Vec3.Min it skips math.Min's NaN and signed-zero cases, which on amd64 cost a
// function call per component and made the build several times slower.
func minVec(a, b geom.Vec3) geom.Vec3 {
	for k := range 3 {
		if b[k] < a[k] {
			a[k] = b[k]
		}
	}
	return a
}

// maxVec is the component-wise maximum of a and b for finite vectors (see minVec).
func maxVec(a, b geom.Vec3) geom.Vec3 {
	for k := range 3 {
		if b[k] > a[k] {
			a[k] = b[k]
		}
	}
	return a
}

// boxHalfArea is half the surface area of the box [lo, hi].
func boxHalfArea(lo, hi geom.Vec3) float64 {
	d := hi.Sub(lo)
	return d[0]*d[1] + d[1]*d[2] + d[2]*d[0]
}

// boxDist2 is the squared distance from p to the box [lo, hi], zero inside.
// Each term is an exact difference of two floats rounded once, so it is within a
// few ulps of the true distance, which the pruning margin of Nearest covers.
func boxDist2(p, lo, hi geom.Vec3) float64 {
	var d2 float64
	for k := range 3 {
		if v := lo[k] - p[k]; v > 0 {
			d2 += v * v
		} else if v := p[k] - hi[k]; v > 0 {
			d2 += v * v
		}
	}
	return d2
}

// Len returns the number of triangles in the hierarchy.
func (b *BVH) Len() int { return len(b.tri) }

// Nearest returns the triangle of the mesh closest to p, among those within
// distance maxDist (pass math.Inf(1) for no limit), and the closest point on it
// as ClosestOnTriangle computes it; ok is false when no triangle is that close.
//
// The answer is the one of a brute-force loop over all triangles in index order:
// the smallest Dist2, and among triangles with exactly that Dist2 the lowest
// index (the voxelizer's yardstick requires this tie rule, so that the closest
// triangle does not depend on how the tree happened to split).
//
// The search visits children nearest box first and skips a box only when it is
// farther than the best distance so far by more than a margin: the computed box
// distance and the computed triangle distance both carry rounding errors of order
// 1e-16 times the coordinates, so a box at (computed) distance just above the best
// may still hold a triangle whose computed Dist2 ties or beats it. The margin,
// 2^-36 times the largest coordinate, is far above those errors and far below
// any distance that matters, so it costs nothing measurable.
func (b *BVH) Nearest(p geom.Vec3, maxDist float64) (tri int32, cp ClosestPoint, ok bool) {
	if len(b.nodes) == 0 || !(maxDist >= 0) {
		return -1, ClosestPoint{}, false
	}
	bestD2 := maxDist * maxDist
	bestTri := int32(math.MaxInt32)
	tri = -1
	margin := (b.scale + max(math.Abs(p[0]), math.Abs(p[1]), math.Abs(p[2]))) * 0x1p-36
	limit := pruneLimit(bestD2, margin)

	type entry struct {
		node int32
		d2   float64
	}
	var buf [64]entry
	stack := buf[:0]
	root := &b.nodes[0]
	stack = append(stack, entry{0, boxDist2(p, root.lo, root.hi)})
	for len(stack) > 0 {
		e := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if e.d2 > limit {
			continue
		}
		nd := &b.nodes[e.node]
		if nd.count > 0 {
			for s := nd.first; s < nd.first+nd.count; s++ {
				c := &b.pos[s]
				q := ClosestOnTriangle(p, c[0], c[1], c[2])
				t := b.tri[s]
				if q.Dist2 < bestD2 || (q.Dist2 == bestD2 && t < bestTri) {
					bestD2, bestTri, tri, cp, ok = q.Dist2, t, t, q, true
					limit = pruneLimit(bestD2, margin)
				}
			}
			continue
		}
		l, r := e.node+1, nd.first
		ln, rn := &b.nodes[l], &b.nodes[r]
		dl, dr := boxDist2(p, ln.lo, ln.hi), boxDist2(p, rn.lo, rn.hi)
		// Push the farther child first so that the nearer one is searched first
		// and shrinks the limit before the other is popped.
		if dl > dr {
			l, r, dl, dr = r, l, dr, dl
		}
		if dr <= limit {
			stack = append(stack, entry{r, dr})
		}
		if dl <= limit {
			stack = append(stack, entry{l, dl})
		}
	}
	return tri, cp, ok
}

// pruneLimit is the squared box distance beyond which no triangle can have a
// computed Dist2 <= best2: (sqrt(best2) + margin)^2.
func pruneLimit(best2, margin float64) float64 {
	if math.IsInf(best2, 1) {
		return best2
	}
	d := math.Sqrt(best2) + margin
	return d * d
}
