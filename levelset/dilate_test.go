package levelset

import (
	"maps"
	"slices"
	"testing"
)

// activeSet returns the active voxels of g.
func activeSet[T Value](g *Grid[T]) map[Coord]bool {
	s := map[Coord]bool{}
	g.ForEachActive(func(c Coord, _ T) { s[c] = true })
	return s
}

// dilateReference is the definition of one face dilation, voxel by voxel.
func dilateReference(s map[Coord]bool) map[Coord]bool {
	out := maps.Clone(s)
	for c := range s {
		for _, e := range faceSteps {
			out[c.Add(e)] = true
		}
	}
	return out
}

func TestDilateASingleVoxel(t *testing.T) {
	for _, c := range []Coord{{3, 3, 3}, {0, 0, 0}, {-1, -8, 7}} { // inside a leaf, on its corners
		for it, want := range []int64{1, 7, 25, 63} { // 1 + 6, + 18, + 38
			g := NewGrid[float32](unitTransform, 0)
			g.Set(c, 1)
			g.Dilate(it)
			if n := g.ActiveVoxelCount(); n != want {
				t.Errorf("voxel %v dilated %d times: %d active voxels, want %d", c, it, n, want)
			}
		}
	}
}

// A voxel on a leaf face activates a voxel of the neighbouring leaf, which is created.
func TestDilateCreatesTheNeighbouringLeaf(t *testing.T) {
	g := NewGrid[float32](unitTransform, 5)
	g.Set(Coord{7, 0, 3}, 1)
	g.Dilate(1)
	if g.LeafCount() != 3 { // its own, +x and -y
		t.Fatalf("%d leaves, want 3", g.LeafCount())
	}
	for _, c := range []Coord{{8, 0, 3}, {7, -1, 3}} {
		if v, on := g.Probe(c); !on || v != 5 {
			t.Errorf("voxel %v across the leaf face: %g, %v; want the background 5, active", c, v, on)
		}
	}
}

// Voxels next to an active tile become active, with the values they had; a voxel
// next to an active voxel inside an inactive tile splits the tile and takes its value.
func TestDilateAroundTiles(t *testing.T) {
	g := NewGrid[float32](unitTransform, 0)
	g.SetTile(Tile[float32]{Origin: Coord{0, 0, 0}, Log2: Internal1Log2, Value: 1, Active: true})
	g.SetTile(Tile[float32]{Origin: Coord{128, 0, 0}, Log2: Internal1Log2, Value: 2}) // inactive, on +x
	g.SetValue(Coord{-1, 5, 5}, 3, false)                                             // inactive voxel in a leaf on -x
	g.Dilate(1)
	if n, want := g.ActiveVoxelCount(), int64(128*128*128+6*128*128); n != want {
		t.Errorf("%d active voxels, want %d", n, want)
	}
	for _, c := range []struct {
		c Coord
		v float32
	}{{Coord{128, 0, 0}, 2}, {Coord{128, 127, 127}, 2}, {Coord{-1, 5, 5}, 3}, {Coord{-1, 6, 5}, 0}, {Coord{5, 128, 5}, 0}, {Coord{5, 5, -1}, 0}} {
		if v, on := g.Probe(c.c); !on || v != c.v {
			t.Errorf("voxel %v next to the active tile: %g, %v; want %g, active", c.c, v, on, c.v)
		}
	}
	if v, on := g.Probe(Coord{129, 0, 0}); on || v != 2 {
		t.Errorf("a voxel two steps from the tile: %g, %v", v, on)
	}
	if ts := g.Tiles(); ts[0] != (Tile[float32]{Origin: Coord{0, 0, 0}, Log2: Internal1Log2, Value: 1, Active: true}) {
		t.Errorf("the active tile should stay whole: %v", ts[0])
	}
}

// Dilate agrees with the voxel-by-voxel definition on a random set with tiles
// around, and changes no value.
func TestDilateMatchesTheDefinition(t *testing.T) {
	rng := testRand()
	for trial := range 6 {
		g := NewGrid[float32](unitTransform, -1)
		for range 60 + 40*trial {
			g.SetValue(randCoord(rng, 24), rng.Float32(), rng.IntN(3) != 0)
		}
		g.SetTile(Tile[float32]{Origin: Coord{-32, 0, 8}, Log2: LeafLog2, Value: 4, Active: true})
		g.SetTile(Tile[float32]{Origin: Coord{24, -8, 0}, Log2: LeafLog2, Value: 5})
		g.SetTile(Tile[float32]{Origin: Coord{-128, -128, -128}, Log2: Internal1Log2, Value: 6})

		want := activeSet(g)
		iterations := 1 + trial%3
		for range iterations {
			want = dilateReference(want)
		}
		// Compare values at the voxels that will be active and at random ones around.
		probes := slices.Collect(maps.Keys(want))
		for range 20000 {
			probes = append(probes, randCoord(rng, 40))
		}
		before := make([]float32, len(probes))
		for i, c := range probes {
			before[i] = g.Get(c)
		}
		g.Dilate(iterations)
		got := activeSet(g)
		if !maps.Equal(got, want) {
			for c := range want {
				if !got[c] {
					t.Fatalf("trial %d: voxel %v should be active", trial, c)
				}
			}
			for c := range got {
				if !want[c] {
					t.Fatalf("trial %d: voxel %v should not be active", trial, c)
				}
			}
		}
		for i, c := range probes {
			if v := g.Get(c); v != before[i] {
				t.Fatalf("trial %d: voxel %v changed value from %g to %g", trial, c, before[i], v)
			}
		}
	}
}

// The same grid dilated twice gives the same leaves in the same order.
func TestDilateIsDeterministic(t *testing.T) {
	build := func() *FloatGrid {
		g := NewGrid[float32](unitTransform, 0)
		rng := testRand()
		for range 500 {
			g.Set(randCoord(rng, 50), 1)
		}
		g.Dilate(2)
		return g
	}
	a, b := build(), build()
	var ca, cb []Coord
	a.ForEachActive(func(c Coord, _ float32) { ca = append(ca, c) })
	b.ForEachActive(func(c Coord, _ float32) { cb = append(cb, c) })
	if !slices.Equal(ca, cb) {
		t.Error("two dilations of the same grid differ")
	}
}

// Each single bit dilates to itself and its neighbours inside the leaf, and
// spills exactly across the faces it lies on.
func TestDilateWithinAndSpillOfOneBit(t *testing.T) {
	for n := range LeafVoxels {
		var m Mask512
		m.Set(n, true)
		d := DilateMask(&m)
		c := LeafCoord(Coord{}, n)
		want := 1
		for dir, e := range faceSteps {
			nb := c.Add(e)
			inside := nb.AlignDown(LeafLog2) == Coord{}
			if inside {
				want++
				if !d.IsOn(LeafOffset(nb)) {
					t.Fatalf("bit %d: neighbour %v not set", n, nb)
				}
			}
			s := spill(&m, dir)
			if inside != s.IsEmpty() || !inside && (s.Count() != 1 || !s.IsOn(LeafOffset(nb))) {
				t.Fatalf("bit %d: spill across face %v is wrong", n, e)
			}
		}
		if d.Count() != want {
			t.Fatalf("bit %d dilates to %d bits, want %d", n, d.Count(), want)
		}
	}
}
