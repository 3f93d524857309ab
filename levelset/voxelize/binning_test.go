package voxelize

import (
	"math"
	"testing"

	"snowtools/levelset"
	"snowtools/levelset/geom"
)

// binnedLeaves returns how many leaves stage 1 lists triangle t in, of mesh m.
func binnedLeaves(m *geom.Mesh, opt Options) int {
	opt.Topology = geom.NewTopology(m.Triangles)
	v := newVoxelizer(m, opt, false)
	v.bin()
	n := 0
	for _, l := range v.leaves {
		n += len(l.tris)
	}
	return n
}

// A needle and a sliver across a box of 32^3 leaves are listed in the leaves near
// them, about their length in leaves times the leaves around a line, not in the
// (32)^2 leaves of their box near their plane.
func TestBinningFollowsTheTriangle(t *testing.T) {
	h := 1.0 / 256
	opt := Options{VoxelSize: h, HalfWidth: 3, Threads: 1}
	for _, tc := range []struct {
		name    string
		a, b, c geom.Vec3
	}{
		{"needle", geom.Vec3{0, 0, 0}, geom.Vec3{1, 1, 1}, geom.Vec3{1, 1, 1.0001}},
		{"sliver", geom.Vec3{0, 0, 0.5}, geom.Vec3{1, 1, 0.5}, geom.Vec3{1, 0.999, 0.5}},
	} {
		m := &geom.Mesh{Positions: []geom.Vec3{tc.a, tc.b, tc.c}, Triangles: [][3]int32{{0, 1, 2}}}
		got := binnedLeaves(m, opt)
		// The leaves whose centre is within the band radius plus a leaf's half
		// diagonal of the segment, in a tube along it: the segment's length in
		// leaves (plus one at each end) times the leaves across the tube's section.
		length := tc.b.Sub(tc.a).Norm() / (8 * h)
		reach := (3 + leafHalfDiagonal) / 8 // in leaves
		bound := int((length + 2) * math.Pi * (reach + 1) * (reach + 1))
		t.Logf("%s: %d leaves (bound %d)", tc.name, got, bound)
		if got > bound {
			t.Errorf("%s: listed in %d leaves, more than %d", tc.name, got, bound)
		}
	}
}

// A polygon of 450,000 corners, as an OBJ face (formats/obj triangulates it with
// geom.TriangulatePolygon): a disc of radius 1 in the plane z = 0, voxelized at 64
// voxels across. Its fan took minutes. Away from the rim, every band voxel is at
// its height above the plane, outside: a flat polygon has no inside. The memory is
// the voxelizer's for 450,000 triangles (about 1.5 kB each).
func TestHostileHugePolygon(t *testing.T) {
	if testing.Short() {
		t.Skip("voxelizes 450,000 triangles")
	}
	if !inChild(t, 1500<<20) {
		return
	}
	n := 450_000
	positions := make([]geom.Vec3, n)
	corners := make([]int32, n)
	for i := range n {
		s, c := math.Sincos(2 * math.Pi * float64(i) / float64(n))
		positions[i], corners[i] = geom.Vec3{c, s, 0}, int32(i)
	}
	m := &geom.Mesh{Positions: positions, Triangles: geom.TriangulatePolygon(positions, corners, nil)}
	h := 2.0 / 64
	c, err := Mesh(m, Options{VoxelSize: h, HalfWidth: 3})
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, l := range c.Surface.Leaves() {
		l.Active.ForEachOn(func(o int) {
			p := levelset.LeafCoord(l.Origin, o)
			x, y, z := h*float64(p[0]), h*float64(p[1]), h*float64(p[2])
			if math.Hypot(x, y) > 1-4*h {
				return
			}
			checked++
			// The face distance is the plane's, whose unit normal is z up to rounding.
			if got := float64(l.Values[o]); math.Abs(got-math.Abs(z)) > surfaceTolerance*h {
				t.Fatalf("voxel %v: phi %g, want %g", p, got, math.Abs(z))
			}
		})
	}
	if checked == 0 || len(c.Surface.Tiles()) > 0 {
		t.Errorf("%d voxels checked, %d inside tiles", checked, len(c.Surface.Tiles()))
	}
	t.Logf("%d band voxels within the disc checked", checked)
}
