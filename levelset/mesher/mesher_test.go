package mesher

import (
	"math"
	"slices"
	"testing"

	"snowtools/levelset"
	"snowtools/levelset/geom"
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

// Values exactly on the isovalue count as outside everywhere: a sphere whose
// distances are rounded to multiples of h/2 and meshed at iso = h/2 has many of
// them and must still close, with distinct vertices and no zero-length edge, and
// enclose the ball of radius r + h/2 that iso = h/2 describes.
func TestValuesOnTheIsovalue(t *testing.T) {
	h := testTransform.VoxelSize
	s := geom.Sphere{Center: geom.Vec3{0.02, 0.01, -0.03}, Radius: 12 * h}
	g := levelSetOf(testTransform, s, s.Bounds(), halfWidth)
	ties := 0
	for _, leaf := range g.Leaves() {
		for n, v := range leaf.Values {
			leaf.Values[n] = float32(math.Round(float64(v)/(h/2)) * (h / 2))
			if float64(leaf.Values[n]) == float64(float32(h/2)) {
				ties++
			}
		}
	}
	iso := float64(float32(h / 2))
	m, err := Mesh(g, Options{Isovalue: iso})
	if err != nil {
		t.Fatal(err)
	}
	got := checkSurface(t, m)
	r := s.Radius + iso
	vol := relErr(got.volume, 4*math.Pi*r*r*r/3)
	t.Logf("%d voxels on the isovalue: %d triangles, volume error %+.2f%%, shortest edge %.2g h", ties, got.triangles, 100*vol, got.shortestEdge/h)
	if ties < 500 {
		t.Errorf("only %d voxels on the isovalue: the test does not test ties", ties)
	}
	if got.euler != 2 || math.Abs(vol) > 0.03 {
		t.Errorf("Euler characteristic %d (want 2), volume error %.2f%%", got.euler, 100*vol)
	}
}

// No crossing, no mesh: an empty grid, grids of one value, and a sign change
// between inactive voxels only, which is not in the band.
func TestNothingToMesh(t *testing.T) {
	tr := levelset.Transform{VoxelSize: 0.1}
	empty := levelset.NewGrid(tr, float32(1))
	outside := levelset.NewGrid(tr, float32(1))
	inside := levelset.NewGrid(tr, float32(-1))
	inactive := levelset.NewGrid(tr, float32(1))
	for x := range int32(20) {
		for y := range int32(20) {
			for z := range int32(20) {
				c := levelset.Coord{x, y, z}
				outside.Set(c, 0.5)
				inside.Set(c, -0.5)
				inactive.SetValue(c, float32(x-10), false)
			}
		}
	}
	inside.SetTile(levelset.Tile[float32]{Origin: levelset.Coord{128, 0, 0}, Log2: levelset.Internal1Log2, Value: -1, Active: true})
	for name, g := range map[string]*levelset.FloatGrid{"empty": empty, "outside": outside, "inside": inside, "inactive": inactive} {
		m, err := Mesh(g, Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(m.Positions) != 0 || len(m.Triangles) != 0 {
			t.Errorf("%s: %d vertices, %d triangles, want none", name, len(m.Positions), len(m.Triangles))
		}
	}
}

func TestBadOptions(t *testing.T) {
	g := levelset.NewGrid(testTransform, float32(1))
	if _, err := Mesh(g, Options{Isovalue: math.NaN()}); err == nil {
		t.Error("NaN isovalue: no error")
	}
	g.Transform.VoxelSize = 0
	if _, err := Mesh(g, Options{}); err == nil {
		t.Error("zero voxel size: no error")
	}
	far := levelset.NewGrid(testTransform, float32(1))
	far.Set(levelset.Coord{math.MaxInt32, 0, 0}, -1)
	if _, err := Mesh(far, Options{}); err == nil {
		t.Error("a voxel at the end of the index range: no error")
	}
}

// The mesh is the same, vertex for vertex and triangle for triangle, whatever
// the number of threads.
func TestSameMeshForAnyThreads(t *testing.T) {
	h := testTransform.VoxelSize
	tor := torus{Center: geom.Vec3{0.05, -0.1, 0.02}, Ring: 16 * h, Tube: 5 * h}
	b := geom.Box{Min: geom.Vec3{-1.1, -0.4, -1.1}, Max: geom.Vec3{1.1, 0.4, 1.1}}
	g := levelSetOf(testTransform, tor, b, halfWidth)
	want, err := Mesh(g, Options{Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, threads := range []int{2, 4, 4, 7} {
		got, err := Mesh(g, Options{Threads: threads})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.Positions, want.Positions) || !slices.Equal(got.Triangles, want.Triangles) {
			t.Errorf("%d threads: a different mesh from 1 thread's", threads)
		}
	}
}

// SampleVelocities interpolates a linear velocity field exactly.
func TestSampleVelocities(t *testing.T) {
	h := testTransform.VoxelSize
	s := geom.Sphere{Center: geom.Vec3{0.1, 0, 0}, Radius: 8 * h}
	g := levelSetOf(testTransform, s, s.Bounds(), halfWidth)
	m, err := Mesh(g, Options{})
	if err != nil {
		t.Fatal(err)
	}
	field := func(p geom.Vec3) geom.Vec3 { return geom.Vec3{1 + 2*p[1], -p[0], 0.5 * p[2]} }
	v := levelset.NewGrid(testTransform, levelset.Vec3f{})
	g.ForEachActive(func(c levelset.Coord, _ float32) {
		for n := range 8 { // the band and a voxel beyond, so every vertex's cell is filled
			d := levelset.Coord{int32(n >> 2), int32(n >> 1 & 1), int32(n & 1)}
			v.Set(c.Add(d), levelset.Vec3fOf(field(testTransform.IndexToWorld(c.Add(d)))))
		}
	})
	m.Velocities = SampleVelocities(m, v, 3)
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	worst := 0.0
	for i, p := range m.Positions {
		worst = max(worst, m.Velocities[i].Sub(field(p)).Norm())
	}
	if worst > 1e-6 {
		t.Errorf("velocity off the linear field by up to %g m/s", worst)
	}
}
