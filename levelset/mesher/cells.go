package mesher

import (
	"snowtools/levelset"
	"snowtools/levelset/geom"
)

// A cell region is the 8x8x8 cells whose lower corners lie in one leaf-sized
// region. Its cells reach one voxel into the regions above, so its corner values
// are a 9x9x9 block.
const blockDim = levelset.LeafDim + 1

// blockIndex returns the index of local voxel (x, y, z) in a block.
func blockIndex(x, y, z int) int { return (x*blockDim+y)*blockDim + z }

// cornerDelta[n] is the block index offset of cell corner n from the cell's lower
// corner.
var cornerDelta = func() (d [8]int) {
	for n := range d {
		s := axisStep(uint8(n))
		d[n] = blockIndex(int(s[0]), int(s[1]), int(s[2]))
	}
	return d
}()

// block is the corner values of a cell region and which of them are active.
type block struct {
	origin levelset.Coord
	value  [blockDim * blockDim * blockDim]float32
	active [blockDim * blockDim * blockDim]bool
}

// load reads the block of the cell region at origin from the 8 regions it spans:
// a leaf's voxels one by one, a region without a leaf as the one value the accessor
// gives its tile or the background. Only the voxels of leaves count as active: an
// active tile is constant, the surface does not cross it, and a level set has none.
// It reports whether any voxel is active.
func (b *block) load(acc *levelset.Accessor[float32], origin levelset.Coord) bool {
	b.origin = origin
	anyActive := false
	for d := range 8 {
		ro := origin.Add(regionStep(d))
		leaf := acc.ProbeLeaf(ro)
		fill := acc.Get(ro)
		// The block's voxels in region d: local 0..7 on the axes not in d, 8 on those in d.
		lo, hi := [3]int{}, [3]int{}
		for a := range 3 {
			if d>>(2-a)&1 == 1 {
				lo[a], hi[a] = levelset.LeafDim, levelset.LeafDim
			} else {
				lo[a], hi[a] = 0, levelset.LeafDim-1
			}
		}
		for x := lo[0]; x <= hi[0]; x++ {
			for y := lo[1]; y <= hi[1]; y++ {
				for z := lo[2]; z <= hi[2]; z++ {
					i := blockIndex(x, y, z)
					if leaf == nil {
						b.value[i], b.active[i] = fill, false
					} else {
						n := (x&7)<<6 | (y&7)<<3 | z&7
						b.value[i], b.active[i] = leaf.Values[n], leaf.Active.IsOn(n)
					}
					anyActive = anyActive || b.active[i]
				}
			}
		}
	}
	return anyActive
}

// cellRegion is what meshing one cell region yields.
type cellRegion struct {
	origin levelset.Coord
	refs   []vertexRef // three per triangle
	used   [8]*edgeSet // by region offset d: the edges of region origin + 8d that refs name
	owner  [8]int32    // by region offset d: that region's index among the vertex regions
	first  int         // the index of the region's first triangle in the mesh
}

// mesh finds the triangles of the cells of b that touch an active voxel, as
// vertex references. A cell is meshed when any of its 8 corners is active, so
// the surface is closed wherever every cell it crosses has an active corner: the
// case for a level set, whose band encloses its zero crossing.
func (r *cellRegion) mesh(b *block, iso float64) {
	r.origin = b.origin
	for x := range levelset.LeafDim {
		for y := range levelset.LeafDim {
			for z := range levelset.LeafDim {
				p := blockIndex(x, y, z)
				inside, active := 0, false
				for n, d := range cornerDelta {
					if float64(b.value[p+d]) < iso {
						inside |= 1 << n
					}
					active = active || b.active[p+d]
				}
				if inside == 0 || inside == 255 || !active {
					continue
				}
				r.meshCell(b, [3]int{x, y, z}, inside, iso)
			}
		}
	}
}

// meshCell adds the polygons of the cell at local position q, split into triangles.
func (r *cellRegion) meshCell(b *block, q [3]int, inside int, iso float64) {
	var c cellVertices
	for _, poly := range tables.polygons[inside] {
		e := &poly.edges
		if poly.n == 3 {
			r.refs = append(r.refs, r.ref(&c, b, q, e[0]), r.ref(&c, b, q, e[1]), r.ref(&c, b, q, e[2]))
			continue
		}
		// A quadrilateral is cut along its shorter diagonal (02 on a tie), which
		// gives better-shaped triangles; the diagonal lies inside the tetrahedron,
		// so the choice does not affect any other polygon.
		var refs [4]vertexRef
		for v := range refs {
			refs[v] = r.ref(&c, b, q, e[v])
		}
		d02 := geom.Dist2(c.point(b, q, e[0], iso), c.point(b, q, e[2], iso))
		d13 := geom.Dist2(c.point(b, q, e[1], iso), c.point(b, q, e[3], iso))
		if d02 <= d13 {
			r.refs = append(r.refs, refs[0], refs[1], refs[2], refs[0], refs[2], refs[3])
		} else {
			r.refs = append(r.refs, refs[0], refs[1], refs[3], refs[1], refs[2], refs[3])
		}
	}
}

// cellVertices caches, per edge of one cell, the vertex reference and the
// crossing point, which several of its tetrahedra share.
type cellVertices struct {
	haveRef, havePoint uint32 // bit e: refs[e] or points[e] is set
	refs               [19]vertexRef
	points             [19]geom.Vec3
}

// ref returns the reference of the vertex on edge e of the cell at local position
// q, and marks the edge used the first time.
func (r *cellRegion) ref(c *cellVertices, b *block, q [3]int, e uint8) vertexRef {
	if c.haveRef>>e&1 == 1 {
		return c.refs[e]
	}
	a, d := edgeStart(q, tables.edges[e])
	dir := tables.edges[e].hi &^ tables.edges[e].lo
	key := ((a[0]&7)<<6|(a[1]&7)<<3|a[2]&7)<<3 | int(dir)
	if r.used[d] == nil {
		r.used[d] = new(edgeSet)
	}
	r.used[d].add(key)
	c.haveRef |= 1 << e
	c.refs[e] = makeRef(d, key)
	return c.refs[e]
}

// point returns the crossing on edge e of the cell at local position q, in block
// index space.
func (c *cellVertices) point(b *block, q [3]int, e uint8, iso float64) geom.Vec3 {
	if c.havePoint>>e&1 == 0 {
		a, _ := edgeStart(q, tables.edges[e])
		dir := tables.edges[e].hi &^ tables.edges[e].lo
		i := blockIndex(a[0], a[1], a[2])
		va, vb := b.value[i], b.value[i+cornerDelta[dir]]
		c.points[e] = edgePoint(levelset.Coord{int32(a[0]), int32(a[1]), int32(a[2])}, dir, va, vb, iso)
		c.havePoint |= 1 << e
	}
	return c.points[e]
}

// edgeStart returns the lower voxel of edge e of the cell at local position q, in
// block coordinates 0..8, and the offset d of the region that holds it.
func edgeStart(q [3]int, e cellEdge) (a [3]int, d int) {
	lo := axisStep(e.lo)
	for axis := range 3 {
		a[axis] = q[axis] + int(lo[axis])
		if a[axis] == levelset.LeafDim {
			d |= 4 >> axis
		}
	}
	return a, d
}
