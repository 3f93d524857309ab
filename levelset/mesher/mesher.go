package mesher

import (
	"fmt"
	"math"
	"runtime"
	"slices"

	"snowtools/levelset"
	"snowtools/levelset/geom"
	"snowtools/levelset/parallel"
)

// Options are the settings of Mesh.
type Options struct {
	// Isovalue is the level contoured, in the grid's value units: 0 for the surface
	// of a level set. Voxels with phi < Isovalue are inside.
	Isovalue float64
	// Threads is the number of goroutines; 0 means one per CPU. The mesh does not
	// depend on it.
	Threads int
}

// Mesh returns the surface phi = opt.Isovalue of grid phi as a closed triangle mesh
// in world space, wound counter-clockwise seen from the side where phi > Isovalue
// (out of a level set), with one vertex per grid edge the surface crosses. A grid
// with no crossing gives an empty mesh (no vertices, no triangles).
//
// It meshes every cell (the cube between 8 voxel centres) that has an active corner,
// split into tetrahedra as kuhn.go explains, in three passes:
//
//  1. in parallel, each cell region (8x8x8 cells) finds its triangles, naming their
//     vertices by grid edge, and marks the edges it uses;
//  2. each leaf-sized region gathers the marks on its own edges and numbers them in
//     key order, the regions in the order they are first used; then, in parallel,
//     each region places its vertices;
//  3. in parallel, each cell region writes its triangles with the vertex numbers.
//
// Cost and memory follow the active voxels. The surface is closed when every cell
// it crosses has an active corner: true of a level set, whose band of active voxels
// encloses its zero crossing. Only the active voxels of leaves count: an active
// tile is constant, so the surface does not cross its inside, and the cells along
// its faces are meshed only where they touch an active voxel of a leaf.
func Mesh(phi *levelset.FloatGrid, opt Options) (*geom.Mesh, error) {
	if err := phi.Transform.Validate(); err != nil {
		return nil, err
	}
	if math.IsNaN(opt.Isovalue) || math.IsInf(opt.Isovalue, 0) {
		return nil, fmt.Errorf("isovalue %g: must be finite", opt.Isovalue)
	}
	if opt.Threads <= 0 {
		opt.Threads = runtime.GOMAXPROCS(0)
	}
	origins, err := cellRegionOrigins(phi)
	if err != nil {
		return nil, err
	}
	regions := meshCellRegions(phi, origins, opt)
	vertices := numberVertices(regions)
	m := &geom.Mesh{}
	if err := vertices.place(phi, opt, m); err != nil {
		return nil, err
	}
	writeTriangles(regions, vertices, opt, m)
	return m, nil
}

// cellRegionOrigins returns, in Coord order, the regions whose cells can have an
// active corner: those of the leaves with active voxels and the 7 regions below
// each, whose top cells reach into the leaf.
func cellRegionOrigins(phi *levelset.FloatGrid) ([]levelset.Coord, error) {
	const margin = 2 * levelset.LeafDim // a region below and a corner above must fit an int32
	var origins []levelset.Coord
	for _, leaf := range phi.Leaves() {
		if leaf.Active.IsEmpty() {
			continue
		}
		for _, c := range leaf.Origin {
			if c < math.MinInt32+margin || c > math.MaxInt32-margin {
				return nil, fmt.Errorf("leaf at %v: too close to the end of the index range to mesh", leaf.Origin)
			}
		}
		for d := range 8 {
			s := regionStep(d)
			origins = append(origins, levelset.Coord{leaf.Origin[0] - s[0], leaf.Origin[1] - s[1], leaf.Origin[2] - s[2]})
		}
	}
	slices.SortFunc(origins, levelset.CompareCoords)
	return slices.Compact(origins), nil
}

// meshCellRegions runs pass 1 and returns the cell regions that have triangles, in
// Coord order.
func meshCellRegions(phi *levelset.FloatGrid, origins []levelset.Coord, opt Options) []*cellRegion {
	found := make([]*cellRegion, len(origins))
	type scratch struct {
		acc   *levelset.Accessor[float32]
		block block
	}
	workers := make([]*scratch, opt.Threads)
	parallel.For(opt.Threads, len(origins), func(w, i int) {
		if workers[w] == nil {
			workers[w] = &scratch{acc: phi.Accessor()}
		}
		s := workers[w]
		if !s.block.load(s.acc, origins[i]) {
			return
		}
		r := &cellRegion{}
		r.mesh(&s.block, opt.Isovalue)
		if len(r.refs) > 0 {
			found[i] = r
		}
	})
	regions := found[:0]
	for _, r := range found {
		if r != nil {
			regions = append(regions, r)
		}
	}
	return regions
}

// vertexRegions are the leaf-sized regions that own vertices (pass 2).
type vertexRegions struct {
	origins []levelset.Coord
	ranks   []*rankTable
	bases   []int32 // the index of each region's first vertex
	total   int
}

// numberVertices collects, for every region, the edges that the cell regions use,
// numbers them, and tells each cell region where its references point.
func numberVertices(regions []*cellRegion) *vertexRegions {
	v := &vertexRegions{}
	index := map[levelset.Coord]int32{}
	for _, r := range regions {
		for d, used := range r.used {
			if used == nil {
				continue
			}
			o := r.origin.Add(regionStep(d))
			i, ok := index[o]
			if !ok {
				i = int32(len(v.origins))
				index[o] = i
				v.origins = append(v.origins, o)
				v.ranks = append(v.ranks, &rankTable{})
			}
			v.ranks[i].set.or(used)
			r.owner[d] = i
		}
	}
	v.bases = make([]int32, len(v.ranks))
	for i, rt := range v.ranks {
		rt.build()
		v.bases[i] = int32(min(v.total, math.MaxInt32))
		v.total += int(rt.count)
	}
	return v
}

// place fills m.Positions: each region's vertices in key order, in parallel.
func (v *vertexRegions) place(phi *levelset.FloatGrid, opt Options, m *geom.Mesh) error {
	if v.total > math.MaxInt32 {
		return fmt.Errorf("%d vertices: more than a 32-bit index can reach", v.total)
	}
	m.Positions = make([]geom.Vec3, v.total)
	accs := make([]*levelset.Accessor[float32], opt.Threads)
	parallel.For(opt.Threads, len(v.origins), func(w, i int) {
		if accs[w] == nil {
			accs[w] = phi.Accessor()
		}
		acc, next := accs[w], v.bases[i]
		v.ranks[i].set.forEach(func(key int) {
			dir := uint8(key & 7)
			a := levelset.LeafCoord(v.origins[i], key>>3)
			x := edgePoint(a, dir, acc.Get(a), acc.Get(a.Add(axisStep(dir))), opt.Isovalue)
			m.Positions[next] = toWorld(&phi.Transform, x)
			next++
		})
	})
	return nil
}

// writeTriangles runs pass 3: each cell region's triangles, in region order.
func writeTriangles(regions []*cellRegion, v *vertexRegions, opt Options, m *geom.Mesh) {
	n := 0
	for _, r := range regions {
		r.first = n
		n += len(r.refs) / 3
	}
	m.Triangles = make([][3]int32, n)
	parallel.For(opt.Threads, len(regions), func(_, i int) {
		r := regions[i]
		for j, ref := range r.refs {
			o := r.owner[ref.offset()]
			m.Triangles[r.first+j/3][j%3] = v.bases[o] + v.ranks[o].rank(ref.key())
		}
	})
}
