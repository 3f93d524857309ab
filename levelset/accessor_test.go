package levelset

import "testing"

// An accessor answers as the grid does, whatever the order of the lookups: in
// leaves, in tiles of each size, in the background, jumping about or walking.
func TestAccessorAgreesWithTheGrid(t *testing.T) {
	g := NewGrid[float32](unitTransform, -2)
	rng := testRand()
	for range 3000 {
		g.SetValue(randCoord(rng, 40), rng.Float32(), rng.IntN(4) != 0)
	}
	a := g.Accessor()
	check := func(c Coord) {
		v, on := a.Probe(c)
		w, won := g.Probe(c)
		if v != w || on != won || a.Get(c) != w || a.IsActive(c) != won || a.ProbeLeaf(c) != g.ProbeLeaf(c) {
			t.Fatalf("at %v the accessor reads %g, %v; the grid %g, %v", c, v, on, w, won)
		}
	}
	for range 5000 { // without tiles
		check(randCoord(rng, 60))
	}

	g.SetTile(Tile[float32]{Origin: Coord{-48, -48, -48}, Log2: LeafLog2, Value: 1, Active: true})
	g.SetTile(Tile[float32]{Origin: Coord{128, 0, 0}, Log2: Internal1Log2, Value: 2})
	g.SetTile(Tile[float32]{Origin: Coord{-4096, 4096, 0}, Log2: Internal2Log2, Value: 3, Active: true})
	g.TouchLeaf(Coord{-4000, 5000, 17}).Values[0] = 4
	a = g.Accessor()  // the grid changed: a new accessor
	for range 20000 { // random jumps
		check(randCoord(rng, 60))
	}
	for _, start := range []Coord{{-50, -50, -50}, {120, 0, 0}, {-4010, 4990, 0}} { // walks
		for i := range int32(30) {
			for j := range int32(30) {
				for k := range int32(30) {
					check(start.Add(Coord{i, j, k}))
				}
			}
		}
	}
	if a.Grid() != g {
		t.Error("Grid")
	}
}

// Values written into a cached leaf are seen at once: the accessor holds the leaf.
func TestAccessorSeesValuesWrittenIntoItsLeaf(t *testing.T) {
	g := NewGrid[Vec3f](unitTransform, Vec3f{})
	c := Coord{-3, 2, 9}
	g.Set(c, Vec3f{1, 2, 3})
	a := g.Accessor()
	if a.Get(c) != (Vec3f{1, 2, 3}) {
		t.Fatal("first read")
	}
	g.Set(c, Vec3f{4, 5, 6})
	if a.Get(c) != (Vec3f{4, 5, 6}) {
		t.Error("a write into the cached leaf is not seen")
	}
}
