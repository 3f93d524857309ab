package voxelize

import (
	"math"
	"slices"

	"snowtools/levelset"
	"snowtools/levelset/geom"
	"snowtools/levelset/parallel"
)

// voxelizer holds one Mesh call's state between its stages.
type voxelizer struct {
	mesh   *geom.Mesh
	opt    Options
	h      float64 // voxel size
	radius float64 // band half-width in metres, HalfWidth h
	tris   []bandTriangle
	leaves []*bandLeaf // sorted by origin; after stage 2 only those with band voxels
	pn     *Pseudonormals
	bvh    *BVH
	sign   SignMethod // resolved: SignPseudonormal or SignWinding
	// rim bounds the slope of the winding number, for SignWinding; nil when the
	// mesh has no rim.
	rim *rimSlope
	// patches bound how far the winding number is from a whole number, for
	// SignWinding; nil when the mesh has no rim.
	patches *rimPatches
	inside  []levelset.Coord // origins of the leaf-sized blocks inside the mesh below the band
	// insideOut is set for a mesh of negative volume: its triangles wind clockwise
	// seen from outside, so every inside test is turned around.
	insideOut bool
}

// bandTriangle is what the distance scan needs of a triangle, computed once.
type bandTriangle struct {
	triangle
	normal   geom.Vec3 // unit; zero for a flat triangle, which turns the plane test off
	centroid geom.Vec3
	boxLo    geom.Vec3      // the triangle's bounding box
	boxHi    geom.Vec3      //
	lo, hi   levelset.Coord // the voxels within the band radius of the triangle's bounding box
}

func newBandTriangle(a, b, c geom.Vec3) bandTriangle {
	bt := bandTriangle{triangle: newTriangle(a, b, c), centroid: a.Add(b).Add(c).Scale(1.0 / 3),
		boxLo: minVec(minVec(a, b), c), boxHi: maxVec(maxVec(a, b), c)}
	if !bt.flat {
		bt.normal = bt.ab.Cross(bt.ac).Unit()
	}
	return bt
}

// outside returns how far c is beyond the interval [lo, hi], squared (zero inside):
// one axis's share of the squared distance to a box.
func outside(c, lo, hi float64) float64 {
	if c < lo {
		return (lo - c) * (lo - c)
	}
	if c > hi {
		return (c - hi) * (c - hi)
	}
	return 0
}

// dist2 returns the squared distance from p to the triangle, given its closest
// point's region and coordinates (region) and p's signed distance to the
// triangle's plane, which is the answer in the face region.
func (bt *bandTriangle) dist2(x, y, z, plane float64, f Feature, v, w float64) float64 {
	if f == FeatureFace {
		return plane * plane
	}
	dx := x - (bt.a[0] + v*bt.ab[0] + w*bt.ac[0])
	dy := y - (bt.a[1] + v*bt.ab[1] + w*bt.ac[1])
	dz := z - (bt.a[2] + v*bt.ab[2] + w*bt.ac[2])
	return dx*dx + dy*dy + dz*dz
}

// bandLeaf is one 8x8x8 block that the band reaches, and its results.
type bandLeaf struct {
	origin levelset.Coord
	tris   []int32 // triangles whose band reaches the block
	// The results, allocated by the parallel stages (nil for a block that holds no
	// band voxel): binning is sequential, and clearing 16 kB a leaf there would
	// cost a tenth of the whole.
	phi      *levelset.Leaf[float32]        // stage 3 and 4
	velocity *levelset.Leaf[levelset.Vec3f] // stage 3
	normal   *levelset.Leaf[levelset.Vec3f] // stage 3, or the 26-neighbour sum
	sides    *leafSides                     // stage 3b, for winding numbers
}

// newVoxelizer prepares the voxelization of m; sheets tells that m holds faces in
// both windings (see coincident.go), which have no inside for pseudonormals to find.
func newVoxelizer(m *geom.Mesh, opt Options, sheets bool) *voxelizer {
	v := &voxelizer{mesh: m, opt: opt, h: opt.VoxelSize, radius: float64(opt.HalfWidth) * opt.VoxelSize}
	v.sign = opt.Sign
	if v.sign == SignAuto {
		v.sign = SignWinding
		if opt.Topology.Closed && !sheets {
			v.sign = SignPseudonormal
		}
	}
	// The mesh's structures do not depend on each other: built at the same time,
	// after the rim that two of them share.
	rim := findRim(m.Triangles, opt.Topology)
	parallel.For(opt.Threads, 4, func(_, part int) {
		switch part {
		case 0:
			v.bvh = NewBVH(m)
		case 1:
			v.pn = NewPseudonormals(m, opt.Topology)
		case 2:
			if v.sign == SignWinding {
				v.rim = newRimSlope(m, rim)
			}
		case 3:
			// The fans close the mesh for its volume, whatever the sign method.
			patches := newRimPatches(m, rim)
			v.insideOut = enclosedVolume(m, patches) < 0
			if v.sign == SignWinding {
				v.patches = patches
			}
		}
	})
	return v
}

// voxelCentre returns the centre of voxel c: h c.
func (v *voxelizer) voxelCentre(c levelset.Coord) geom.Vec3 {
	return geom.Vec3{v.h * float64(c[0]), v.h * float64(c[1]), v.h * float64(c[2])}
}

// leafHalf is the distance from a leaf's first voxel centre to its middle, in voxels,
// and leafHalfDiagonal the distance from the middle to its farthest voxel centre.
const (
	leafHalf         = (levelset.LeafDim - 1) / 2.0
	sqrt3            = 1.7320508075688772
	leafHalfDiagonal = leafHalf * sqrt3
)

// bin is stage 1: every triangle goes into the list of each leaf within the band
// radius of it (binBlock). A voxel within the band of its closest triangle is then
// certain to find that triangle in its own leaf's list.
//
// Both halves run in parallel: chunks of triangles find the leaves they reach, then
// each worker gathers the leaves of its own share (by a hash of the origin), going
// through the chunks in order, so that every leaf lists its triangles in index
// order whoever gathers it.
func (v *voxelizer) bin() {
	m := v.mesh
	v.tris = make([]bandTriangle, len(m.Triangles))
	const chunk = 1024
	reached := make([][]binEntry, (len(m.Triangles)+chunk-1)/chunk)
	parallel.Ranges(v.opt.Threads, len(m.Triangles), chunk, func(_, lo, hi int) {
		var entries []binEntry
		for t := lo; t < hi; t++ {
			entries = v.binTriangle(t, entries)
		}
		reached[lo/chunk] = entries
	})
	shares := make([][]*bandLeaf, v.opt.Threads)
	parallel.For(v.opt.Threads, len(shares), func(_, share int) {
		byOrigin := make(map[levelset.Coord]*bandLeaf)
		for _, entries := range reached {
			for _, e := range entries {
				if binShare(e.origin, len(shares)) != share {
					continue
				}
				l := byOrigin[e.origin]
				if l == nil {
					l = &bandLeaf{origin: e.origin}
					byOrigin[e.origin] = l
					shares[share] = append(shares[share], l)
				}
				l.tris = append(l.tris, e.tri)
			}
		}
	})
	v.leaves = slices.Concat(shares...)
	slices.SortFunc(v.leaves, func(a, b *bandLeaf) int { return levelset.CompareCoords(a.origin, b.origin) })
}

// binEntry is a leaf that a triangle's band reaches.
type binEntry struct {
	origin levelset.Coord
	tri    int32
}

// binTriangle prepares triangle t and appends the leaves its band reaches.
func (v *voxelizer) binTriangle(t int, entries []binEntry) []binEntry {
	tri := v.mesh.Triangles[t]
	a, b, c := v.mesh.Positions[tri[0]], v.mesh.Positions[tri[1]], v.mesh.Positions[tri[2]]
	bt := newBandTriangle(a, b, c)
	for k := range 3 {
		bt.lo[k] = int32(math.Ceil((bt.boxLo[k] - v.radius) / v.h))
		bt.hi[k] = int32(math.Floor((bt.boxHi[k] + v.radius) / v.h))
	}
	v.tris[t] = bt
	first, last := bt.lo.AlignDown(levelset.LeafLog2), bt.hi.AlignDown(levelset.LeafLog2)
	return v.binBlock(&bt, int32(t), first, last, entries)
}

// binBlock appends the leaves from first to last (origins, inclusive) that the band
// of triangle t may reach: it drops a block of leaves whose centre is farther from
// the triangle than the band radius plus the block's half diagonal, and splits the
// others in two across their longest side, down to single leaves. A triangle so
// reaches the leaves near it, not every leaf of its bounding box: a needle or a
// sliver across a mesh, whose box holds (length/leaf)^2 or ^3 leaves, reaches
// about length/leaf of them, and the time to find them grows as that many times
// the log of the box's size. Dropping a leaf where no voxel is within the band of
// the triangle changes nothing: stage 2 would find no voxel there for it.
func (v *voxelizer) binBlock(bt *bandTriangle, t int32, first, last levelset.Coord, entries []binEntry) []binEntry {
	var centre, half geom.Vec3 // of the block's voxel centres, in metres
	longest, span := 0, int32(0)
	for k := range 3 {
		lo, hi := float64(first[k]), float64(last[k]+levelset.LeafDim-1)
		centre[k], half[k] = v.h*(lo+hi)/2, v.h*(hi-lo)/2
		if s := last[k] - first[k]; s > span {
			longest, span = k, s
		}
	}
	// The slack keeps rounding from dropping a leaf with a voxel at exactly the radius.
	reach := (v.radius + half.Norm()) * (1 + 1e-9)
	if bt.closest(centre).Dist2 > reach*reach {
		return entries
	}
	if span == 0 {
		return append(entries, binEntry{first, t})
	}
	leaves := span/levelset.LeafDim + 1
	mid := first[longest] + (leaves/2-1)*levelset.LeafDim // the last leaf of the lower half
	lower, upper := last, first
	lower[longest], upper[longest] = mid, mid+levelset.LeafDim
	entries = v.binBlock(bt, t, first, lower, entries)
	return v.binBlock(bt, t, upper, last, entries)
}

// binShare returns which of n workers gathers the leaf at origin: the high bits of
// a multiplicative hash, since the low bits of origins, multiples of 8, are all zero
// (a hash of those bits modulo 2 or 4 sent every leaf to one worker).
func binShare(origin levelset.Coord, n int) int {
	h := uint64(uint32(origin[0]))*0x9E3779B97F4A7C15 ^ uint64(uint32(origin[1]))*0xC2B2AE3D27D4EB4F ^
		uint64(uint32(origin[2]))*0x165667B19E3779F9
	return int((h >> 32) % uint64(n))
}

// bandLeaves is stages 2 and 3, leaf by leaf in parallel: the closest triangle of
// every voxel within the band radius (scanLeaf), then the band values from it
// (leafValues). Leaves left without band voxels are dropped.
func (v *voxelizer) bandLeaves() {
	scratch := make([]leafScan, v.opt.Threads)
	parallel.For(v.opt.Threads, len(v.leaves), func(worker, i int) {
		l, scan := v.leaves[i], &scratch[worker]
		if v.scanLeaf(l, scan) {
			v.leafValues(l, scan)
		}
	})
	v.leaves = slices.DeleteFunc(v.leaves, func(l *bandLeaf) bool { return l.phi == nil })
}

// leafScan is one worker's scratch for a leaf: per voxel, the closest triangle
// found so far (-1 when none is within the band), its squared distance, and where
// on the triangle the closest point is (the Voronoi region and a + v ab + w ac), so
// that stage 3 does not search for it again.
type leafScan struct {
	best    [levelset.LeafVoxels]float64
	nearest [levelset.LeafVoxels]int32
	feature [levelset.LeafVoxels]Feature
	v, w    [levelset.LeafVoxels]float64
}

// scanLeaf is stage 2 for leaf l: the nearest of the leaf's triangles to every
// voxel within the band radius; ties go to the lower triangle index. It reports
// whether any voxel is within the band.
func (v *voxelizer) scanLeaf(l *bandLeaf, scan *leafScan) bool {
	r2 := math.Nextafter(v.radius*v.radius, math.Inf(1)) // |phi| <= radius is in the band
	for i := range scan.best {
		scan.best[i] = r2
		scan.nearest[i] = -1
	}
	// Nearest triangles first: the sooner a voxel's best distance shrinks, the more
	// triangles the plane test below rejects without a distance computation.
	centre := v.voxelCentre(l.origin.Add(levelset.Coord{levelset.LeafDim / 2, levelset.LeafDim / 2, levelset.LeafDim / 2}))
	slices.SortFunc(l.tris, func(s, t int32) int {
		ds, dt := geom.Dist2(centre, v.tris[s].centroid), geom.Dist2(centre, v.tris[t].centroid)
		if ds != dt {
			return cmpFloat(ds, dt)
		}
		return int(s - t)
	})
	// The plane test discards voxels farther than the radius from the triangle's
	// plane; the slack keeps it from discarding one at exactly the radius.
	slab := v.radius * (1 + 1e-9)
	end := l.origin.Add(levelset.Coord{levelset.LeafDim - 1, levelset.LeafDim - 1, levelset.LeafDim - 1})
	for _, t := range l.tris {
		bt := &v.tris[t]
		lo, hi := maxCoord(bt.lo, l.origin), minCoord(bt.hi, end)
		n, planeOffset := bt.normal, bt.normal.Dot(bt.a)
		for i := lo[0]; i <= hi[0]; i++ {
			x := v.h * float64(i)
			dx2 := outside(x, bt.boxLo[0], bt.boxHi[0])
			for j := lo[1]; j <= hi[1]; j++ {
				y := v.h * float64(j)
				// The distance to the triangle's box is a lower bound of the distance
				// to the triangle: this column's share of it, and the rest in z below.
				dxy2 := dx2 + outside(y, bt.boxLo[1], bt.boxHi[1])
				if dxy2 > r2 {
					continue
				}
				// The voxels of this column within slab of the plane: |c0 + n_z z| <= slab.
				c0 := n[0]*x + n[1]*y - planeOffset
				k0, k1 := lo[2], hi[2]
				if math.Abs(n[2]) > 1e-12 {
					za, zb := (-slab-c0)/n[2], (slab-c0)/n[2]
					if za > zb {
						za, zb = zb, za
					}
					k0 = max(k0, int32(max(math.Ceil(za/v.h), float64(math.MinInt32))))
					k1 = min(k1, int32(min(math.Floor(zb/v.h), float64(math.MaxInt32))))
				} else if math.Abs(c0) > slab {
					continue
				}
				column := levelset.LeafOffset(levelset.Coord{i, j, l.origin[2]}) - int(l.origin[2])
				for k := k0; k <= k1; k++ {
					// The distances to the plane and to the triangle's box are lower
					// bounds of the distance to the triangle: a triangle farther
					// than that from the best so far cannot win.
					z := v.h * float64(k)
					o := column + int(k)
					plane := c0 + n[2]*z
					if best := scan.best[o]; plane*plane > best || dxy2+outside(z, bt.boxLo[2], bt.boxHi[2]) > best {
						continue
					}
					f, vv, ww := bt.region(x, y, z)
					d2 := bt.dist2(x, y, z, plane, f, vv, ww)
					if d2 < scan.best[o] || d2 == scan.best[o] && t < scan.nearest[o] {
						scan.best[o], scan.nearest[o] = d2, t
						scan.feature[o], scan.v[o], scan.w[o] = f, vv, ww
					}
				}
			}
		}
	}
	l.tris = nil // no longer needed
	return slices.ContainsFunc(scan.nearest[:], func(t int32) bool { return t >= 0 })
}

func cmpFloat(a, b float64) int {
	if a < b {
		return -1
	}
	return 1
}

func maxCoord(a, b levelset.Coord) levelset.Coord {
	return levelset.Coord{max(a[0], b[0]), max(a[1], b[1]), max(a[2], b[2])}
}
func minCoord(a, b levelset.Coord) levelset.Coord {
	return levelset.Coord{min(a[0], b[0]), min(a[1], b[1]), min(a[2], b[2])}
}

// leafValues is stage 3 for leaf l: each band voxel's closest point gives its
// distance, its barycentric velocity and its gradient normal. The side comes from
// the closest feature's pseudonormal; with winding numbers, windingSides corrects
// it next.
func (v *voxelizer) leafValues(l *bandLeaf, scan *leafScan) {
	l.phi, l.velocity, l.normal = &levelset.Leaf[float32]{Origin: l.origin}, &levelset.Leaf[levelset.Vec3f]{Origin: l.origin}, &levelset.Leaf[levelset.Vec3f]{Origin: l.origin}
	var band levelset.Mask512
	for o, t := range scan.nearest {
		if t < 0 {
			continue
		}
		band.Set(o, true)
		p := v.voxelCentre(levelset.LeafCoord(l.origin, o))
		tri := v.mesh.Triangles[t]
		cp := v.tris[t].closestAt(p, scan.feature[o], scan.v[o], scan.w[o])
		inside := v.pn.Inside(p, t, cp) != v.insideOut
		// The normal is the gradient of the signed distance, (p - cp)/phi, or on
		// the surface, where that direction is noise, the feature's pseudonormal.
		d := math.Sqrt(cp.Dist2)
		if inside {
			d = -d
		}
		var normal levelset.Vec3f
		if cp.Dist2 > 1e-12*v.h*v.h {
			for k := range 3 {
				normal[k] = float32((p[k] - cp.Point[k]) / d)
			}
		} else {
			normal = levelset.Vec3fOf(v.pn.At(t, cp.Feature).Scale(v.orientation()).Unit())
		}
		var vel geom.Vec3
		if vs := v.mesh.Velocities; vs != nil {
			va, vb, vc := &vs[tri[0]], &vs[tri[1]], &vs[tri[2]]
			for k := range 3 {
				vel[k] = cp.Bary[0]*va[k] + cp.Bary[1]*vb[k] + cp.Bary[2]*vc[k]
			}
		}
		l.phi.Values[o] = float32(d)
		l.velocity.Values[o] = levelset.Vec3fOf(vel)
		l.normal.Values[o] = normal
	}
	l.phi.Active, l.velocity.Active, l.normal.Active = band, band, band
}

// insideFar tells the side of a point p beyond the band.
func (v *voxelizer) insideFar(p geom.Vec3) bool {
	if v.sign == SignPseudonormal {
		t, cp, _ := v.bvh.Nearest(p, math.Inf(1))
		return v.pn.Inside(p, t, cp) != v.insideOut
	}
	return v.winding(p) >= 0.5
}

// winding returns the generalized winding number at p, of the mesh turned right side
// out: about 1 inside whichever way its triangles wind.
func (v *voxelizer) winding(p geom.Vec3) float64 {
	return v.orientation() * v.bvh.WindingNumber(p)
}

// orientation is -1 for a mesh whose triangles wind clockwise seen from outside.
func (v *voxelizer) orientation() float64 {
	if v.insideOut {
		return -1
	}
	return 1
}
