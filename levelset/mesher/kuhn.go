package mesher

// The Kuhn (Freudenthal) split of a cell and its case table.
//
// A cell is the cube between 8 voxel centres. Corner n of the cell is the voxel
// base + (n>>2, n>>1&1, n&1), the corner order of levelset's trilinear sampling; read
// as a bit set, bit 2 is the x step, bit 1 the y step and bit 0 the z step.
//
// The split cuts the cube into 6 tetrahedra, one for each order in which the three
// axes can be stepped to walk from corner 0 to corner 7: the tetrahedron of the
// order (x, y, z) is {0, 4, 6, 7}. Its edges join corners A and B with A a strict
// subset of B, 19 in all: the 12 cube edges, the 6 face diagonals from each face's
// lowest corner to its highest, and the main diagonal 0-7. Every cell is split the
// same way, so two cells that share a face cut it along the same diagonal and the
// split of the whole grid is one simplicial complex. On it the linear interpolant
// of the corner values is continuous, and its level set is a closed 2-manifold
// made of one triangle or one quadrilateral per tetrahedron it crosses: no
// ambiguous case exists.

// cellEdge is an edge of the split: from corner lo to corner hi, lo a strict subset
// of hi. The surface vertex on it lies at lo + t (hi - lo), 0 < t < 1.
type cellEdge struct{ lo, hi uint8 }

// polygon is the piece of surface in one tetrahedron: 3 or 4 cell edges (indices
// into the tables' edges), counter-clockwise seen from outside.
type polygon struct {
	n     uint8
	edges [4]uint8
}

// caseTables are the split's edges and, for each of the 256 ways the 8 corners can
// be inside or outside, the polygons of the cell.
type caseTables struct {
	edges    [19]cellEdge
	edgeOf   [8][8]uint8 // edgeOf[lo][hi]: the index of edge lo-hi
	polygons [256][]polygon
}

// tables are built once, from the rules below rather than typed in, so that each
// entry follows from the geometry.
var tables = newCaseTables()

func newCaseTables() *caseTables {
	t := &caseTables{}
	n := uint8(0)
	for lo := range uint8(8) {
		for hi := range uint8(8) {
			if lo != hi && lo&hi == lo {
				t.edges[n] = cellEdge{lo, hi}
				t.edgeOf[lo][hi] = n
				n++
			}
		}
	}
	tets := kuhnTetrahedra()
	for inside := range 256 {
		for _, tet := range tets {
			if p, ok := t.tetPolygon(tet, inside); ok {
				t.polygons[inside] = append(t.polygons[inside], p)
			}
		}
	}
	return t
}

// kuhnTetrahedra returns the 6 tetrahedra of the split, each listed in positive
// orientation: det(v1 - v0, v2 - v0, v3 - v0) > 0.
func kuhnTetrahedra() [6][4]uint8 {
	axes := [3]uint8{4, 2, 1} // x, y, z as corner bits
	var tets [6][4]uint8
	i := 0
	for _, a := range axes {
		for _, b := range axes {
			if b == a {
				continue
			}
			tet := [4]uint8{0, a, a | b, 7}
			if orientation(tet) < 0 {
				tet[2], tet[3] = tet[3], tet[2]
			}
			tets[i] = tet
			i++
		}
	}
	return tets
}

// orientation returns det(v1 - v0, v2 - v0, v3 - v0) of the corners' offsets.
func orientation(tet [4]uint8) int {
	var d [3][3]int
	for r := range 3 {
		for a := range 3 {
			d[r][a] = int(tet[r+1]>>(2-a)&1) - int(tet[0]>>(2-a)&1)
		}
	}
	return d[0][0]*(d[1][1]*d[2][2]-d[1][2]*d[2][1]) -
		d[0][1]*(d[1][0]*d[2][2]-d[1][2]*d[2][0]) +
		d[0][2]*(d[1][0]*d[2][1]-d[1][1]*d[2][0])
}

// tetPolygon returns the surface in a positively oriented tetrahedron, given which
// cell corners are inside (bit n of inside for corner n).
//
// The orientation follows from one fact: in a positive tetrahedron (p, q, r, s),
// the face (q, r, s) winds counter-clockwise seen from outside the tetrahedron, away
// from p. Relabelling the corners by an even permutation keeps the orientation, so:
//
//   - one corner i inside: with (i, j, k, l) even, the triangle on edges ij, ik, il
//     is a small copy of face (j, k, l) seen from i's side, and faces away from i:
//     out of the solid;
//   - one corner o outside: the triangle on oj, ok, ol faces away from o, into the
//     solid, so it is listed the other way round;
//   - i, j inside and k, l outside, (i, j, k, l) even: the quadrilateral on ik, il,
//     jl, jk (each edge shares a corner with the next) faces out of the solid, which
//     one checks on the tetrahedron (0,0,0), (1,0,0), (0,1,0), (0,0,1).
func (t *caseTables) tetPolygon(tet [4]uint8, inside int) (polygon, bool) {
	var in, out []int // positions in tet, in tet order
	for pos, corner := range tet {
		if inside>>corner&1 == 1 {
			in = append(in, pos)
		} else {
			out = append(out, pos)
		}
	}
	edge := func(p, q int) uint8 {
		a, b := tet[p], tet[q]
		if a&b != a {
			a, b = b, a
		}
		return t.edgeOf[a][b]
	}
	switch len(in) {
	case 1:
		i, j, k, l := evenOrder(in[0], out[0], out[1], out[2])
		return polygon{n: 3, edges: [4]uint8{edge(i, j), edge(i, k), edge(i, l)}}, true
	case 3:
		o, j, k, l := evenOrder(out[0], in[0], in[1], in[2])
		return polygon{n: 3, edges: [4]uint8{edge(o, j), edge(o, l), edge(o, k)}}, true
	case 2:
		i, j, k, l := evenOrder(in[0], in[1], out[0], out[1])
		return polygon{n: 4, edges: [4]uint8{edge(i, k), edge(i, l), edge(j, l), edge(j, k)}}, true
	}
	return polygon{}, false
}

// evenOrder returns the positions (p, q, r, s), a permutation of 0..3, with r and s
// swapped if needed to make it an even permutation.
func evenOrder(p, q, r, s int) (int, int, int, int) {
	perm := [4]int{p, q, r, s}
	inversions := 0
	for a := range 4 {
		for b := a + 1; b < 4; b++ {
			if perm[a] > perm[b] {
				inversions++
			}
		}
	}
	if inversions%2 == 1 {
		r, s = s, r
	}
	return p, q, r, s
}
