package voxelize

import (
	"fmt"
	"math"
	"testing"

	"snowtools/levelset"
	"snowtools/levelset/geom"
)

// voxelizeSpot voxelizes the spot mesh with the smooth velocity field on a grid of
// res voxels across its longest side.
func voxelizeSpot(tb testing.TB, res, halfWidth int, normals NormalMethod) (*geom.Mesh, *Volumes) {
	tb.Helper()
	spot := loadSpot(tb)
	m := &geom.Mesh{Positions: spot.Positions, Triangles: spot.Triangles}
	smoothVelocities(m)
	lo, hi := m.Bounds()
	span := hi.Sub(lo)
	h := max(span[0], span[1], span[2]) / float64(res)
	c, err := Mesh(m, Options{VoxelSize: h, HalfWidth: halfWidth, Normals: normals})
	if err != nil {
		tb.Fatal(err)
	}
	return m, c
}

func TestVoxelizeSpotAgainstOracle(t *testing.T) {
	res, samples := 128, 3000
	if testing.Short() {
		res, samples = 64, 800
	}
	m, c := voxelizeSpot(t, res, 3, NormalGradient)
	if c.Sign != SignPseudonormal {
		t.Errorf("spot is closed but the sign came from method %d", c.Sign)
	}
	s := scoreCollider(t, m, c, 3, samples, true)
	s.log(t, "spot")
	s.checkTargets(t)
	if s.maxNormalDeg > 1e-3 {
		t.Errorf("gradient normals are up to %.3g degrees off the exact direction", s.maxNormalDeg)
	}
}

// Open meshes: spheres with holes from a small cap to more than a hemisphere. The
// sign must be the winding number's wherever w < 0.1 or w > 0.9.
func TestVoxelizeSphereWithHoleAgainstOracle(t *testing.T) {
	samples := 1500
	if testing.Short() {
		samples = 500
	}
	for _, removed := range []int{1, 5, 12, 17} {
		m := geom.OpenSphereMesh(geom.Vec3{0.1, -0.2, 0.3}, 1, 24, 48, removed)
		smoothVelocities(m)
		h := 2.0 / 64
		c, err := Mesh(m, Options{VoxelSize: h, HalfWidth: 3})
		if err != nil {
			t.Fatal(err)
		}
		if c.Sign != SignWinding {
			t.Errorf("an open mesh got sign method %d", c.Sign)
		}
		s := scoreCollider(t, m, c, 3, samples, false)
		s.log(t, fmt.Sprintf("sphere without %d of 24 rings", removed))
		s.checkTargets(t)
		// The inside below the band reads as inside, far from the hole (for a
		// small hole), and outside in the bowl's open side (for a large one).
		below := levelset.Coord{int32(math.Round(0.1 / h)), int32(math.Round(-0.7 / h)), int32(math.Round(0.3 / h))}
		if phi := c.Surface.Get(below); (phi < 0) != (removed <= 12) {
			t.Errorf("%d rings removed: phi = %g half a radius below the centre", removed, phi)
		}
	}
}

// The 26-neighbour normals of the paper are coarse (the yardstick expects about 12
// degrees where the sum is used) but must point out of the surface.
func TestVoxelizeSum26Normals(t *testing.T) {
	m, c := voxelizeSpot(t, 64, 3, NormalSum26)
	s := scoreCollider(t, m, c, 3, 800, true)
	s.log(t, "spot, sum26 normals")
	if s.meanNormalDeg > 15 || s.maxNormalDeg > 90 {
		t.Errorf("26-neighbour normals are %.3g degrees off on average, %.3g at most", s.meanNormalDeg, s.maxNormalDeg)
	}
}

// A mesh inside a box: the far inside must be an inside tile, the outside the
// background, and the band leaves' voxels beyond the band carry their side's sign.
func TestVoxelizeInsideBelowTheBand(t *testing.T) {
	m := geom.BoxMesh(geom.Vec3{-1, -1, -1}, geom.Vec3{1, 1, 1})
	h := 0.02
	c, err := Mesh(m, Options{VoxelSize: h, HalfWidth: 2})
	if err != nil {
		t.Fatal(err)
	}
	bg := float32(2 * h)
	for _, tc := range []struct {
		p    geom.Vec3
		want float32
	}{
		{geom.Vec3{0, 0, 0}, -bg},
		{geom.Vec3{0.5, -0.3, 0.2}, -bg},
		{geom.Vec3{0, 0, 0.9}, -bg},
		{geom.Vec3{0, 0, 1.1}, bg},
		{geom.Vec3{3, 0, 0}, bg},
		{geom.Vec3{0, 0, 1}, 0},
		{geom.Vec3{0.5, 0.5, 1.02}, float32(h)},
		{geom.Vec3{0.5, 0.5, 0.98}, -float32(h)},
	} {
		idx := c.Surface.Transform.WorldToIndex(tc.p)
		co := levelset.Coord{int32(math.Round(idx[0])), int32(math.Round(idx[1])), int32(math.Round(idx[2]))}
		if got := c.Surface.Get(co); math.Abs(float64(got-tc.want)) > 1e-6 {
			t.Errorf("phi at %v = %g, want %g", tc.p, got, tc.want)
		}
	}
	if n := len(c.Surface.Tiles()); n == 0 {
		t.Error("no inside tiles")
	}
}

func TestVoxelizeRejects(t *testing.T) {
	good := geom.BoxMesh(geom.Vec3{-1, -1, -1}, geom.Vec3{1, 1, 1})
	bad := *good
	bad.Positions = append([]geom.Vec3(nil), good.Positions...)
	bad.Positions[3][1] = math.NaN()
	for _, tc := range []struct {
		name string
		m    *geom.Mesh
		opt  Options
	}{
		{"empty", &geom.Mesh{}, Options{VoxelSize: 0.1, HalfWidth: 3}},
		{"NaN", &bad, Options{VoxelSize: 0.1, HalfWidth: 3}},
		{"zero voxel", good, Options{VoxelSize: 0, HalfWidth: 3}},
		{"no band", good, Options{VoxelSize: 0.1, HalfWidth: 0}},
		{"too many voxels", good, Options{VoxelSize: 1e-9, HalfWidth: 3}},
	} {
		if _, err := Mesh(tc.m, tc.opt); err == nil {
			t.Errorf("%s: no error", tc.name)
		} else {
			t.Logf("%s: %v", tc.name, err)
		}
	}
}

// The same mesh gives the same grids on 1 and 3 threads.
func TestVoxelizeDeterministic(t *testing.T) {
	m := geom.OpenSphereMesh(geom.Vec3{}, 1, 16, 32, 3)
	smoothVelocities(m)
	var grids [2]*Volumes
	for i, threads := range []int{1, 3} {
		c, err := Mesh(m, Options{VoxelSize: 0.05, HalfWidth: 3, Threads: threads})
		if err != nil {
			t.Fatal(err)
		}
		grids[i] = c
	}
	a, b := grids[0], grids[1]
	if a.Surface.LeafCount() != b.Surface.LeafCount() || len(a.Surface.Tiles()) != len(b.Surface.Tiles()) {
		t.Fatal("different trees")
	}
	for i, l := range a.Surface.Leaves() {
		if *l != *b.Surface.Leaves()[i] || *a.Velocity.Leaves()[i] != *b.Velocity.Leaves()[i] || *a.Normal.Leaves()[i] != *b.Normal.Leaves()[i] {
			t.Fatalf("leaf %v differs", l.Origin)
		}
	}
}

// A large slanted quad, whose bounding box holds many leaves far from it: the band
// must still be complete and exact (its sign is undecided, w = +-1/2, and not scored).
func TestVoxelizeLargeSlantedQuad(t *testing.T) {
	m := &geom.Mesh{
		Positions: []geom.Vec3{{-2, -1.5, -2}, {2, -1.2, -2}, {2, 1.5, 2}, {-2, 1.2, 2}},
		Triangles: [][3]int32{{0, 1, 2}, {0, 2, 3}},
	}
	smoothVelocities(m)
	c, err := Mesh(m, Options{VoxelSize: 0.05, HalfWidth: 2})
	if err != nil {
		t.Fatal(err)
	}
	s := scoreCollider(t, m, c, 2, 400, false)
	s.log(t, "slanted quad")
	s.checkTargets(t)
}

// A mesh turned inside out (clockwise triangles) still has its inside inside, with
// either sign method, and is reported.
func TestVoxelizeInsideOutMesh(t *testing.T) {
	right := geom.OpenSphereMesh(geom.Vec3{}, 1, 16, 32, 0)
	flipped := &geom.Mesh{Positions: right.Positions}
	for _, tri := range right.Triangles {
		flipped.Triangles = append(flipped.Triangles, [3]int32{tri[0], tri[2], tri[1]})
	}
	if v := flipped.SignedVolume(); !(v < 0) || math.Abs(v+right.SignedVolume()) > 1e-12 {
		t.Fatalf("signed volumes %g and %g", right.SignedVolume(), v)
	}
	for _, sign := range []SignMethod{SignPseudonormal, SignWinding} {
		opt := Options{VoxelSize: 0.04, HalfWidth: 2, Sign: sign}
		a, err := Mesh(right, opt)
		if err != nil {
			t.Fatal(err)
		}
		b, err := Mesh(flipped, opt)
		if err != nil {
			t.Fatal(err)
		}
		if a.InsideOut || !b.InsideOut {
			t.Errorf("sign %d: inside-out reported as %v and %v", sign, a.InsideOut, b.InsideOut)
		}
		for i, l := range a.Surface.Leaves() {
			if *l != *b.Surface.Leaves()[i] {
				t.Fatalf("sign %d: leaf %v differs", sign, l.Origin)
			}
		}
		if len(a.Surface.Tiles()) == 0 || len(a.Surface.Tiles()) != len(b.Surface.Tiles()) {
			t.Errorf("sign %d: %d and %d inside tiles", sign, len(a.Surface.Tiles()), len(b.Surface.Tiles()))
		}
	}
}

// TestBinShareBalance checks that the workers of stage 1 gather equal shares of the
// leaves: leaf origins are multiples of 8, and a hash whose low bits stayed zero
// once gave every leaf to one of 2 or 4 workers.
func TestBinShareBalance(t *testing.T) {
	for _, n := range []int{2, 3, 4, 8} {
		counts := make([]int, n)
		total := 0
		for x := int32(-96); x < 96; x += levelset.LeafDim {
			for y := int32(-96); y < 96; y += levelset.LeafDim {
				for z := int32(-96); z < 96; z += levelset.LeafDim {
					counts[binShare(levelset.Coord{x, y, z}, n)]++
					total++
				}
			}
		}
		for share, c := range counts {
			if f := float64(c) * float64(n) / float64(total); f < 0.8 || f > 1.2 {
				t.Errorf("%d workers: worker %d gathers %d of %d leaves (%.2f of an equal share)", n, share, c, total, f)
			}
		}
	}
}
