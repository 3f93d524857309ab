package voxelize

import (
	"cmp"
	"slices"

	"snowtools/levelset/geom"
)

// Coincident triangles are copies of one triangle: the same three vertex indices,
// in any rotation, winding either way. Exporters write them by accident (a face
// duplicated in place, an object pasted onto itself, a huge polygon fanned over
// repeated corners), and they cost the voxelizer one distance computation each per
// voxel: no bound tells one copy from another, so the closest-triangle search
// cannot discard any. 200,000 copies of one triangle took 81 s.
//
// What they mean, and so what the voxelizer keeps of them:
//
//   - Distances, closest points and velocities: the surface is the triangle's, once.
//     Every copy is as close as any other, so the closest-triangle rule (the nearest,
//     ties to the lowest index) always picked the first copy, and keeping it alone
//     changes no distance, closest point or velocity (copies in another rotation
//     compute the same distances with other roundings: keeping the first one settles
//     those ties as if they were exact).
//   - Signs: the winding number adds the copies' solid angles, so copies winding
//     opposite ways cancel in pairs, and what is left is the net orientation
//     (copies one way minus copies the other), drawn once: a face drawn k times is
//     the surface it draws, not k surfaces (a closed mesh pasted onto itself keeps
//     its inside, and 200,000 copies of an open triangle would otherwise call most
//     of the half-space behind it inside, where 200,000 times its solid angle passes
//     2 pi). The first copy of the net orientation is kept.
//   - A face whose copies cancel exactly, as many one way as the other, is a sheet
//     of no thickness: it has a distance but no inside, so both sides are outside
//     (unless the rest of the mesh says otherwise). It keeps the first copy of each
//     winding, whose winding numbers cancel, and makes the mesh open for the sign:
//     with pseudonormals, the first copy's face normal would put one side inside.
//
// A triangle with a repeated vertex index has no area and no winding: its copies
// keep the first. Copies on different vertices at the same positions are not
// found: weld first (Welded), as the voxelize tool does.

// coincidence is what collapsing coincident triangles leaves of a triangle list.
type coincidence struct {
	kept    []int32 // the triangles kept, in ascending order; nil when every one is
	dropped int     // copies dropped
	sheets  int     // faces whose copies cancel (each keeps one copy of each winding)
}

// findCoincident finds the coincident triangles of triangles, whose topology is
// topo. Only triangles that may have a copy are sorted, so that a mesh without
// copies costs one pass: a copy shares all three edges, and such an edge has a
// neighbour across it (Across) only when the copy is the one triangle on the other
// side; so a triangle with a copy has no neighbour but that copy.
func findCoincident(triangles [][3]int32, topo *geom.Topology) coincidence {
	var candidates []int32
	for t, tri := range triangles {
		if degenerate(tri) || onlyNeighbour(topo.Across[t]) {
			candidates = append(candidates, int32(t))
		}
	}
	key := func(t int32) [3]int32 { return sortedCorners(triangles[t]) }
	slices.SortFunc(candidates, func(s, t int32) int {
		ks, kt := key(s), key(t)
		for k := range 3 {
			if c := cmp.Compare(ks[k], kt[k]); c != 0 {
				return c
			}
		}
		return cmp.Compare(s, t)
	})
	var c coincidence
	drop := make(map[int32]bool)
	for i := 0; i < len(candidates); {
		j := i + 1
		for j < len(candidates) && key(candidates[j]) == key(candidates[i]) {
			j++
		}
		if j-i > 1 {
			if sheet := c.collapse(triangles, candidates[i:j], drop); sheet {
				c.sheets++
			}
		}
		i = j
	}
	if c.dropped == 0 {
		return c
	}
	c.kept = make([]int32, 0, len(triangles)-c.dropped)
	for t := range triangles {
		if !drop[int32(t)] {
			c.kept = append(c.kept, int32(t))
		}
	}
	return c
}

// collapse marks in drop the copies of one face that are not kept (copies holds
// them all, in ascending order) and reports whether the face is a sheet.
func (c *coincidence) collapse(triangles [][3]int32, copies []int32, drop map[int32]bool) (sheet bool) {
	first := [2]int32{-1, -1} // the first copy winding each way: +1, -1
	net := 0
	for _, t := range copies {
		w := winding(triangles[t])
		net += w
		if w != 0 && first[(1-w)/2] < 0 {
			first[(1-w)/2] = t
		}
	}
	keep := func(t int32) bool { return t == copies[0] } // no winding: the first copy
	switch {
	case net > 0:
		keep = func(t int32) bool { return t == first[0] }
	case net < 0:
		keep = func(t int32) bool { return t == first[1] }
	case first[0] >= 0: // as many copies each way: a sheet
		sheet = true
		keep = func(t int32) bool { return t == first[0] || t == first[1] }
	}
	for _, t := range copies {
		if !keep(t) {
			drop[t] = true
			c.dropped++
		}
	}
	return sheet
}

// onlyNeighbour reports whether a triangle's neighbours across its edges (-1 for
// none) are one triangle or none.
func onlyNeighbour(across [3]int32) bool {
	n := int32(-1)
	for _, o := range across {
		if o >= 0 {
			if n >= 0 && o != n {
				return false
			}
			n = o
		}
	}
	return true
}

func degenerate(tri [3]int32) bool {
	return tri[0] == tri[1] || tri[1] == tri[2] || tri[2] == tri[0]
}

func sortedCorners(tri [3]int32) [3]int32 {
	a, b, c := tri[0], tri[1], tri[2]
	if a > b {
		a, b = b, a
	}
	if b > c {
		b, c = c, b
	}
	if a > b {
		a, b = b, a
	}
	return [3]int32{a, b, c}
}

// winding is +1 for a triangle that is a rotation of its corners in ascending
// order, -1 for one that winds the other way, and 0 for one with a repeated vertex.
func winding(tri [3]int32) int {
	if degenerate(tri) {
		return 0
	}
	// A rotation of (lo, mid, hi) has exactly one descent going round: the step from
	// hi back to lo. The other winding has two.
	descents := 0
	for k := range 3 {
		if tri[k] > tri[(k+1)%3] {
			descents++
		}
	}
	if descents == 1 {
		return 1
	}
	return -1
}

// withTriangles returns m with only the triangles kept (positions and velocities
// shared).
func withTriangles(m *geom.Mesh, kept []int32) *geom.Mesh {
	out := &geom.Mesh{Positions: m.Positions, Velocities: m.Velocities, Triangles: make([][3]int32, len(kept))}
	for i, t := range kept {
		out.Triangles[i] = m.Triangles[t]
	}
	return out
}
