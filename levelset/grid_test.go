package levelset

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// testRand returns a generator with a fixed seed, so that failures reproduce.
func testRand() *rand.Rand { return rand.New(rand.NewPCG(1, 2)) }

// randCoord returns a coordinate with components in [-r, r).
func randCoord(rng *rand.Rand, r int32) Coord {
	return Coord{rng.Int32N(2*r) - r, rng.Int32N(2*r) - r, rng.Int32N(2*r) - r}
}

var unitTransform = Transform{VoxelSize: 1}

func TestAlignDownRoundsTowardsMinusInfinity(t *testing.T) {
	cases := []struct {
		c    Coord
		log2 uint
		want Coord
	}{
		{Coord{-1, 0, 7}, LeafLog2, Coord{-8, 0, 0}},
		{Coord{-8, -9, 8}, LeafLog2, Coord{-8, -16, 8}},
		{Coord{-1, 127, 128}, Internal1Log2, Coord{-128, 0, 128}},
		{Coord{-1, 4095, 4096}, Internal2Log2, Coord{-4096, 0, 4096}},
	}
	for _, c := range cases {
		if got := c.c.AlignDown(c.log2); got != c.want {
			t.Errorf("%v.AlignDown(%d) = %v, want %v", c.c, c.log2, got, c.want)
		}
	}
}

func TestLeafOffsetAndLeafCoordAreInverse(t *testing.T) {
	for _, origin := range []Coord{{0, 0, 0}, {-8, 16, -4096}, {-8, -8, -8}, {800, -24, 8}} {
		for n := range LeafVoxels {
			c := LeafCoord(origin, n)
			if c.AlignDown(LeafLog2) != origin || LeafOffset(c) != n {
				t.Fatalf("LeafCoord(%v, %d) = %v: in leaf %v at offset %d", origin, n, c, c.AlignDown(LeafLog2), LeafOffset(c))
			}
		}
	}
	// LeafOffset is x-major, z fastest, so offset order within a leaf is Coord order.
	if LeafOffset(Coord{-1, -8, -7}) != 7<<6|0<<3|1 {
		t.Errorf("LeafOffset(-1, -8, -7) = %d", LeafOffset(Coord{-1, -8, -7}))
	}
}

func TestGetSetProbeOnBothSidesOfZero(t *testing.T) {
	g := NewGrid[float32](unitTransform, 3)
	want := map[Coord]float32{}
	rng := testRand()
	for i := range 2000 {
		c := randCoord(rng, 40)
		want[c] = float32(i)
		g.Set(c, float32(i))
	}
	g.SetValue(Coord{-1, -1, -1}, -5, false)
	want[Coord{-1, -1, -1}] = -5
	for range 20000 {
		c := randCoord(rng, 48)
		v, on := g.Probe(c)
		w, set := want[c]
		switch {
		case c == Coord{-1, -1, -1}:
			if v != -5 || on {
				t.Fatalf("inactive voxel %v: Probe = %g, %v", c, v, on)
			}
		case set:
			if v != w || !on || g.Get(c) != w || !g.IsActive(c) {
				t.Fatalf("voxel %v: Probe = %g, %v; want %g, active", c, v, on, w)
			}
		default:
			if v != 3 || on {
				t.Fatalf("untouched voxel %v: Probe = %g, %v; want the background 3, inactive", c, v, on)
			}
		}
	}
	if l := g.ProbeLeaf(Coord{-1, -1, -1}); l == nil || l.Origin != (Coord{-8, -8, -8}) {
		t.Errorf("the leaf of (-1,-1,-1) should have origin (-8,-8,-8), got %v", l)
	}
	if got := g.ActiveVoxelCount(); got != int64(len(want)-1) {
		t.Errorf("ActiveVoxelCount = %d, want %d", got, len(want)-1)
	}
}

func TestSetActiveKeepsTheValue(t *testing.T) {
	g := NewGrid[float32](unitTransform, 1)
	c := Coord{-3, 5, -9}
	g.SetActive(c, true)
	if v, on := g.Probe(c); v != 1 || !on {
		t.Errorf("activated background voxel: %g, %v", v, on)
	}
	g.Set(c, 4)
	g.SetActive(c, false)
	if v, on := g.Probe(c); v != 4 || on {
		t.Errorf("deactivated voxel: %g, %v", v, on)
	}
	g2 := NewGrid[float32](unitTransform, 1)
	g2.SetActive(c, false)
	if g2.LeafCount() != 0 {
		t.Error("deactivating an inactive voxel should create no leaf")
	}
}

// snapshot records Probe at the given coordinates.
type probed struct {
	v  float32
	on bool
}

func snapshot(g *FloatGrid, cs []Coord) []probed {
	out := make([]probed, len(cs))
	for i, c := range cs {
		out[i].v, out[i].on = g.Probe(c)
	}
	return out
}

func TestTilesOfEachSize(t *testing.T) {
	g := NewGrid[float32](unitTransform, -1)
	g.SetTile(Tile[float32]{Origin: Coord{-8, 0, 0}, Log2: LeafLog2, Value: 1, Active: true})
	g.SetTile(Tile[float32]{Origin: Coord{128, -128, 0}, Log2: Internal1Log2, Value: 2, Active: false})
	g.SetTile(Tile[float32]{Origin: Coord{-4096, -4096, -4096}, Log2: Internal2Log2, Value: 3, Active: true})
	cases := []struct {
		c  Coord
		v  float32
		on bool
	}{
		{Coord{-8, 0, 0}, 1, true}, {Coord{-1, 7, 7}, 1, true}, {Coord{0, 0, 0}, -1, false}, {Coord{-9, 0, 0}, -1, false},
		{Coord{128, -128, 0}, 2, false}, {Coord{255, -1, 127}, 2, false}, {Coord{256, -1, 127}, -1, false},
		{Coord{-4096, -4096, -4096}, 3, true}, {Coord{-1, -1, -1}, 3, true}, {Coord{-1, -1, 0}, -1, false},
	}
	for _, c := range cases {
		if v, on := g.Probe(c.c); v != c.v || on != c.on {
			t.Errorf("Probe(%v) = %g, %v; want %g, %v", c.c, v, on, c.v, c.on)
		}
	}
	if n, want := g.ActiveVoxelCount(), int64(512+4096*4096*4096); n != want {
		t.Errorf("ActiveVoxelCount = %d, want %d", n, want)
	}
	lo, hi, ok := g.ActiveBounds()
	if !ok || lo != (Coord{-4096, -4096, -4096}) || hi != (Coord{-1, 7, 7}) {
		t.Errorf("ActiveBounds = %v %v %v", lo, hi, ok)
	}
	if ts := g.Tiles(); len(ts) != 3 || ts[0].Log2 != Internal2Log2 || ts[1].Log2 != LeafLog2 || ts[2].Log2 != Internal1Log2 {
		t.Errorf("Tiles in Coord order: %v", ts)
	}
}

// Touching a leaf inside a 4096 tile splits it into 128 and 8 tiles around the new
// leaf, and no voxel anywhere changes value or active state.
func TestTouchLeafSplitsATileAndKeepsEveryValue(t *testing.T) {
	g := NewGrid[float32](unitTransform, 0)
	big := Tile[float32]{Origin: Coord{-4096, 0, -4096}, Log2: Internal2Log2, Value: 7, Active: true}
	g.SetTile(big)
	g.SetTile(Tile[float32]{Origin: Coord{0, 0, 0}, Log2: Internal1Log2, Value: 5}) // a neighbour
	g.Set(Coord{-4097, 0, 0}, 9)                                                    // a leaf outside
	rng := testRand()
	var cs []Coord
	for range 5000 { // mostly in or near the big tile
		cs = append(cs, Coord{rng.Int32N(4400) - 4200, rng.Int32N(4400) - 200, rng.Int32N(4400) - 4200})
	}
	for range 2000 { // and close to the leaf that will be touched
		cs = append(cs, Coord{-100, 1000, -10}.Add(randCoord(rng, 200)))
	}
	before := snapshot(g, cs)
	count := g.ActiveVoxelCount()

	l := g.TouchLeaf(Coord{-100, 1000, -10})
	if l.Origin != (Coord{-104, 1000, -16}) || l.Active.Count() != LeafVoxels || l.Values[77] != 7 {
		t.Fatalf("new leaf: origin %v, %d active, value %g", l.Origin, l.Active.Count(), l.Values[77])
	}
	if after := snapshot(g, cs); !slices.Equal(before, after) {
		for i := range cs {
			if before[i] != after[i] {
				t.Fatalf("voxel %v was %v, is %v after the split", cs[i], before[i], after[i])
			}
		}
	}
	if got := g.ActiveVoxelCount(); got != count {
		t.Errorf("ActiveVoxelCount %d after the split, %d before", got, count)
	}
	// 32^3 - 1 tiles of 128 and 16^3 - 1 of 8 replace the big tile; plus the neighbour.
	if n := len(g.Tiles()); n != 32*32*32-1+16*16*16-1+1 {
		t.Errorf("%d tiles after the split", n)
	}
	for _, tile := range g.Tiles() {
		if tile.Contains(l.Origin) {
			t.Fatalf("tile %v still covers the new leaf", tile)
		}
	}
}

func TestSetTileReplacesLeavesAndSplitsLargerTiles(t *testing.T) {
	g := NewGrid[float32](unitTransform, 0)
	g.Set(Coord{130, 1, 1}, 1)
	g.Set(Coord{250, 120, 127}, 1)
	g.Set(Coord{256, 0, 0}, 2) // outside the tile below
	g.SetTile(Tile[float32]{Origin: Coord{128, 0, 0}, Log2: Internal1Log2, Value: 4})
	if g.LeafCount() != 1 || g.Get(Coord{130, 1, 1}) != 4 || g.IsActive(Coord{130, 1, 1}) || g.Get(Coord{256, 0, 0}) != 2 {
		t.Errorf("SetTile over leaves: %d leaves, %g", g.LeafCount(), g.Get(Coord{130, 1, 1}))
	}
	// A leaf tile inside a larger tile splits it; the rest keeps the larger tile's value.
	g.SetTile(Tile[float32]{Origin: Coord{136, 8, 0}, Log2: LeafLog2, Value: 6, Active: true})
	if g.Get(Coord{136, 8, 0}) != 6 || !g.IsActive(Coord{143, 15, 7}) || g.Get(Coord{144, 8, 0}) != 4 || g.Get(Coord{255, 127, 127}) != 4 {
		t.Error("SetTile inside a larger tile")
	}
	if n := g.ActiveVoxelCount(); n != 512+1 {
		t.Errorf("ActiveVoxelCount = %d", n)
	}
}

// A leaf replaced by AddLeaf must also replace it in Leaves, which is cached.
func TestAddLeafReplacesTheLeafInLeaves(t *testing.T) {
	g := NewGrid[float32](unitTransform, 0)
	g.Set(Coord{1, 2, 3}, 1)
	_ = g.Leaves()
	l := &Leaf[float32]{Origin: Coord{0, 0, 0}}
	l.Values[LeafOffset(Coord{1, 2, 3})] = 2
	l.Active.Set(LeafOffset(Coord{1, 2, 3}), true)
	g.AddLeaf(l)
	if ls := g.Leaves(); len(ls) != 1 || ls[0] != l {
		t.Fatal("Leaves still holds the replaced leaf")
	}
	var got []float32
	g.ForEachActive(func(_ Coord, v float32) { got = append(got, v) })
	if !slices.Equal(got, []float32{2}) {
		t.Errorf("ForEachActive after AddLeaf: %v", got)
	}
}

// ForEachActive visits the leaves in Coord order of their origins, the voxels of a
// leaf in Coord order, then the tiles in Coord order; the same every time.
func TestForEachActiveOrder(t *testing.T) {
	g := NewGrid[float32](unitTransform, 0)
	rng := testRand()
	for range 3000 {
		g.Set(randCoord(rng, 60), 1)
	}
	g.SetTile(Tile[float32]{Origin: Coord{-256, 0, 0}, Log2: LeafLog2, Active: true})
	g.SetTile(Tile[float32]{Origin: Coord{-512, 0, 0}, Log2: LeafLog2, Active: true})
	g.SetTile(Tile[float32]{Origin: Coord{-768, 0, 0}, Log2: LeafLog2, Active: false})
	var first []Coord
	g.ForEachActive(func(c Coord, _ float32) { first = append(first, c) })
	if int64(len(first)) != g.ActiveVoxelCount() {
		t.Fatalf("%d voxels visited, %d active", len(first), g.ActiveVoxelCount())
	}
	inLeaves := len(first) - 2*LeafVoxels
	key := func(c Coord) [2]Coord { return [2]Coord{c.AlignDown(LeafLog2), c} }
	for i := 1; i < len(first); i++ {
		a, b := first[i-1], first[i]
		var ordered bool
		switch {
		case i < inLeaves: // leaves: by leaf origin, then by voxel
			ka, kb := key(a), key(b)
			ordered = ka[0].Less(kb[0]) || ka[0] == kb[0] && ka[1].Less(kb[1])
		case i == inLeaves: // the first tile voxel: anything may precede it
			ordered = b == Coord{-512, 0, 0}
		default: // tiles
			ordered = a.Less(b)
		}
		if !ordered {
			t.Fatalf("visit %d: %v after %v", i, b, a)
		}
	}
	var second []Coord
	g.ForEachActive(func(c Coord, _ float32) { second = append(second, c) })
	if !slices.Equal(first, second) {
		t.Error("ForEachActive visits in a different order the second time")
	}
}

func TestActiveBounds(t *testing.T) {
	g := NewGrid[float32](unitTransform, 0)
	if _, _, ok := g.ActiveBounds(); ok {
		t.Error("an empty grid has no active bounds")
	}
	g.SetValue(Coord{-100, 100, 100}, 1, false) // inactive: does not count
	g.Set(Coord{-3, 4, -5}, 1)
	g.Set(Coord{6, -7, 8}, 1)
	lo, hi, ok := g.ActiveBounds()
	if !ok || lo != (Coord{-3, -7, -5}) || hi != (Coord{6, 4, 8}) {
		t.Errorf("ActiveBounds = %v %v %v", lo, hi, ok)
	}
}

func TestMask512(t *testing.T) {
	var m Mask512
	if !m.IsEmpty() || m.Count() != 0 {
		t.Error("zero mask")
	}
	on := []int{0, 1, 63, 64, 200, 511}
	for _, n := range on {
		m.Set(n, true)
	}
	m.Set(200, false)
	m.Set(300, false)
	want := []int{0, 1, 63, 64, 511}
	var got []int
	m.ForEachOn(func(n int) { got = append(got, n) })
	if !slices.Equal(got, want) || m.Count() != len(want) || m.IsEmpty() || !m.IsOn(63) || m.IsOn(200) {
		t.Errorf("mask bits %v, count %d", got, m.Count())
	}
	m.SetAll(true)
	if m.Count() != LeafVoxels || !m.IsOn(300) {
		t.Error("SetAll(true)")
	}
	m.SetAll(false)
	if !m.IsEmpty() {
		t.Error("SetAll(false)")
	}
}

// Mask512.Bounds is the box of the bits that are on, as LeafCoord finds them one by
// one, on random masks of 1 to 40 bits (and none).
func TestMask512Bounds(t *testing.T) {
	rng := testRand()
	var empty Mask512
	if _, _, ok := empty.Bounds(); ok {
		t.Error("an empty mask has bounds")
	}
	for range 500 {
		var m Mask512
		for range 1 + rng.IntN(40) {
			m.Set(rng.IntN(LeafVoxels), true)
		}
		want := [2]Coord{{8, 8, 8}, {-1, -1, -1}}
		m.ForEachOn(func(n int) {
			c := LeafCoord(Coord{}, n)
			for k := range 3 {
				want[0][k], want[1][k] = min(want[0][k], c[k]), max(want[1][k], c[k])
			}
		})
		if lo, hi, ok := m.Bounds(); !ok || [2]Coord{lo, hi} != want {
			t.Fatalf("Bounds = %v %v %v, want %v", lo, hi, ok, want)
		}
	}
}

// Memory follows the leaves, not the extent of the grid: N voxels far apart cost N
// leaves however far apart they are.
func TestMemoryFollowsTheActiveLeaves(t *testing.T) {
	grid := func(n int, spacing int32) *FloatGrid {
		g := NewGrid[float32](unitTransform, 0)
		for i := range int32(n) {
			g.Set(Coord{i * spacing, -i * spacing, i * spacing / 2}, 1)
		}
		return g
	}
	perLeaf := grid(1, 100).MemoryBytes()
	if perLeaf < 2048 || perLeaf > 2400 {
		t.Errorf("a float leaf costs %d bytes, want about 2.1 kB", perLeaf)
	}
	for _, n := range []int{10, 100, 1000} {
		for _, spacing := range []int32{100, 10000, 1000000} {
			g := grid(n, spacing)
			if g.LeafCount() != n || g.MemoryBytes() != int64(n)*perLeaf {
				t.Errorf("%d voxels %d apart: %d leaves, %d bytes; want %d leaves, %d bytes",
					n, spacing, g.LeafCount(), g.MemoryBytes(), n, int64(n)*perLeaf)
			}
		}
	}
}
