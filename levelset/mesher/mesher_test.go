package mesher

import (
	"testing"

	"snowtools/levelset"
)

// cellChains returns the Euler characteristic of the part of the Kuhn split of one
// cell spanned by the inside corners: its simplices are the chains A1 < A2 < ... of
// corners (as bit sets, each a strict subset of the next), all inside, and each
// counts (-1)^(dimension). It is computed from the split alone, not the tables.
func cellChains(inside int) int {
	euler := 0
	// grow counts the chains that go on from corner last, whose dimension is dim.
	var grow func(last, dim int)
	grow = func(last, dim int) {
		for next := range 8 {
			if inside>>next&1 == 1 && next != last && next&last == last {
				euler += 1 - 2*((dim+1)%2)
				grow(next, dim+1)
			}
		}
	}
	for corner := range 8 {
		if inside>>corner&1 == 1 {
			euler++
			grow(corner, 0)
		}
	}
	return euler
}

// Every one of the 256 inside/outside patterns of a cell's corners meshes to a
// closed, outward surface whose Euler characteristic is twice that of the inside
// (the boundary of a solid has chi = 2 chi(solid)), which the split alone gives.
// Outside corners hold the isovalue itself or a positive value by turns.
func TestEveryCellCase(t *testing.T) {
	tr := levelset.Transform{VoxelSize: 1}
	seen := map[int]int{} // patterns by Euler characteristic
	for inside := 1; inside < 256; inside++ {
		g := levelset.NewGrid(tr, float32(1))
		for n := range 8 {
			c := levelset.Coord{int32(n >> 2), int32(n >> 1 & 1), int32(n & 1)}
			switch {
			case inside>>n&1 == 1:
				g.Set(c, -0.3-0.1*float32(n))
			case n%2 == 0:
				g.Set(c, 0) // on the isovalue: outside
			default:
				g.Set(c, 0.7)
			}
		}
		m, err := Mesh(g, Options{})
		if err != nil {
			t.Fatal(err)
		}
		got := checkSurface(t, m)
		if want := 2 * cellChains(inside); got.euler != want {
			t.Errorf("inside corners %08b: Euler characteristic %d, want %d", inside, got.euler, want)
		}
		seen[got.euler]++
	}
	// Besides spheres (2), the patterns make several spheres (two or more
	// inside corners that no edge of the split joins) and a torus (the six
	// corners other than 0 and 7, a ring of edges around the main diagonal).
	t.Logf("patterns by Euler characteristic: %v", seen)
	if seen[0] == 0 || seen[4] == 0 {
		t.Errorf("no torus or no pair of spheres among the patterns: %v", seen)
	}
}
