package voxelize

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"snowtools/levelset/geom"
)

// Welded returns m with its triangles on welded vertices: each vertex within
// tolerance (metres; 0 for exactly the same position) of a vertex of lower index
// that was kept is replaced by the lowest such one. Positions and Velocities are m's
// own (the merged vertices stay there, unused), and the triangles keep their order,
// so with tolerance 0 the surface, its distances and its closest triangles are m's.
// merged counts the vertices replaced.
//
// Many exporters write each triangle's corners as vertices of their own, or split
// vertices where normals or texture coordinates change (glTF must, for a sharp edge):
// the topology of such a mesh is open along every split even when its surface is
// closed. Welded, it is closed, and Mesh can use pseudonormals. A tolerance also
// closes cracks narrower than it, moving the surface by at most that much; a
// triangle whose corners weld together is left without area, and the mesh open
// along its collapsed edge.
//
// The kept vertices are more than tolerance apart, and a vertex merges into a kept
// one, never into a chain, so no vertex moves farther than tolerance.
func Welded(m *geom.Mesh, tolerance float64) (welded *geom.Mesh, merged int, err error) {
	if !(tolerance >= 0) || math.IsInf(tolerance, 1) {
		return nil, 0, fmt.Errorf("weld tolerance %g: must be >= 0 and finite", tolerance)
	}
	var keep []int32
	if tolerance == 0 {
		keep = samePositions(m.Positions)
	} else if keep, err = withinTolerance(m.Positions, tolerance); err != nil {
		return nil, 0, err
	}
	welded = &geom.Mesh{Positions: m.Positions, Velocities: m.Velocities, Triangles: make([][3]int32, len(m.Triangles))}
	for t, tri := range m.Triangles {
		welded.Triangles[t] = [3]int32{keep[tri[0]], keep[tri[1]], keep[tri[2]]}
	}
	for v, k := range keep {
		if int(k) != v {
			merged++
		}
	}
	return welded, merged, nil
}

// samePositions returns, for each vertex, the lowest-index vertex at exactly its
// position: the vertices sorted by position (then index), each run of equal ones
// going to its first.
func samePositions(positions []geom.Vec3) []int32 {
	order := make([]int32, len(positions))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int {
		pa, pb := &positions[a], &positions[b]
		for k := range 3 {
			if c := cmp.Compare(pa[k], pb[k]); c != 0 {
				return c
			}
		}
		return cmp.Compare(a, b)
	})
	keep := make([]int32, len(positions))
	for i, v := range order {
		keep[v] = v
		if i > 0 && positions[order[i-1]] == positions[v] {
			keep[v] = keep[order[i-1]]
		}
	}
	return keep
}

// withinTolerance returns, for each vertex in index order, the lowest-index kept
// vertex within tolerance of it, or itself (kept) when there is none. The kept
// vertices are found through a hash of cells of side tolerance: any within tolerance
// is in one of the 27 cells around the vertex's.
func withinTolerance(positions []geom.Vec3, tolerance float64) ([]int32, error) {
	type cell [3]int64
	cellOf := func(p geom.Vec3) (cell, error) {
		var c cell
		for k := range 3 {
			x := math.Floor(p[k] / tolerance)
			if math.Abs(x) > 1<<53 {
				return c, fmt.Errorf("weld tolerance %g m: a vertex at %v is more than 2^53 tolerances from the origin", tolerance, p)
			}
			c[k] = int64(x)
		}
		return c, nil
	}
	cells := make(map[cell][]int32)
	keep := make([]int32, len(positions))
	tol2 := tolerance * tolerance
	for v, p := range positions {
		c, err := cellOf(p)
		if err != nil {
			return nil, err
		}
		keep[v] = int32(v)
		for dx := int64(-1); dx <= 1; dx++ {
			for dy := int64(-1); dy <= 1; dy++ {
				for dz := int64(-1); dz <= 1; dz++ {
					for _, k := range cells[cell{c[0] + dx, c[1] + dy, c[2] + dz}] {
						if k < keep[v] && geom.Dist2(p, positions[k]) <= tol2 {
							keep[v] = k
						}
					}
				}
			}
		}
		if keep[v] == int32(v) {
			cells[c] = append(cells[c], int32(v))
		}
	}
	return keep, nil
}
