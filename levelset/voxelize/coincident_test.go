package voxelize

import (
	"slices"
	"testing"

	"snowtools/levelset/geom"
)

func TestFindCoincident(t *testing.T) {
	cases := []struct {
		name      string
		triangles [][3]int32
		kept      []int32 // nil: all
		sheets    int
	}{
		{"distinct", [][3]int32{{0, 1, 2}, {0, 2, 3}, {1, 2, 3}}, nil, 0},
		{"copies in rotation", [][3]int32{{0, 1, 2}, {1, 2, 0}, {2, 0, 1}, {0, 1, 2}}, []int32{0}, 0},
		{"a pair of windings is a sheet", [][3]int32{{0, 1, 2}, {0, 2, 1}}, nil, 1},
		{"two pairs: the first of each winding", [][3]int32{{3, 4, 5}, {0, 2, 1}, {1, 2, 0}, {2, 1, 0}, {0, 1, 2}}, []int32{0, 1, 2}, 1},
		{"net winding backwards: its first copy", [][3]int32{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {2, 1, 0}, {5, 6, 7}}, []int32{1, 4}, 0},
		{"net winding forwards", [][3]int32{{0, 2, 1}, {0, 1, 2}, {1, 2, 0}, {5, 6, 7}}, []int32{1, 3}, 0},
		{"no area: the first copy", [][3]int32{{1, 1, 2}, {2, 1, 1}, {1, 2, 1}, {1, 2, 2}}, []int32{0, 3}, 0},
	}
	for _, tc := range cases {
		c := findCoincident(tc.triangles, geom.NewTopology(tc.triangles))
		if !slices.Equal(c.kept, tc.kept) || c.sheets != tc.sheets {
			t.Errorf("%s: kept %v with %d sheets, want %v and %d", tc.name, c.kept, c.sheets, tc.kept, tc.sheets)
		}
		if want := 0; tc.kept != nil {
			want = len(tc.triangles) - len(tc.kept)
			if c.dropped != want {
				t.Errorf("%s: dropped %d, want %d", tc.name, c.dropped, want)
			}
		}
	}
}

// copiesAppended returns m followed by copies more of each triangle, in rotation.
func copiesAppended(m *geom.Mesh, copies int) *geom.Mesh {
	out := &geom.Mesh{Positions: m.Positions, Velocities: m.Velocities, Triangles: slices.Clone(m.Triangles)}
	for k := 1; k <= copies; k++ {
		for _, tri := range m.Triangles {
			out.Triangles = append(out.Triangles, [3]int32{tri[k%3], tri[(k+1)%3], tri[(k+2)%3]})
		}
	}
	return out
}

// A closed mesh with every triangle drawn four times is the mesh drawn once: the
// same bytes, with pseudonormal signs (the copies made it non-manifold).
func TestCoincidentCopiesChangeNothing(t *testing.T) {
	m := geom.SphereMesh(geom.Vec3{0.1, 0.2, -0.1}, 1, 12, 24)
	smoothVelocities(m)
	for _, normals := range []NormalMethod{NormalGradient, NormalSum26} {
		opt := Options{VoxelSize: 1.0 / 16, HalfWidth: 3, Normals: normals}
		want, err := Mesh(m, opt)
		if err != nil {
			t.Fatal(err)
		}
		copied := copiesAppended(m, 3)
		if geom.NewTopology(copied.Triangles).Closed {
			t.Fatal("the copies left the mesh closed")
		}
		got, err := Mesh(copied, opt)
		if err != nil {
			t.Fatal(err)
		}
		if got.Sign != SignPseudonormal || got.Coincident != 3*len(m.Triangles) {
			t.Errorf("sign method %d, %d copies left out; want %d and %d", got.Sign, got.Coincident, SignPseudonormal, 3*len(m.Triangles))
		}
		sameVolumes(t, "sphere with copies", got, want)
	}
}

// A face drawn in both windings is a sheet without inside: every voxel is outside
// (but those on it, whose side does not matter: see surfaceTolerance),
// and as many copies each way give the sheet of one pair. Where the copies one way
// outnumber the others, the face is the first copy of the net winding.
func TestCoincidentWindingsCancel(t *testing.T) {
	square := &geom.Mesh{
		Positions: []geom.Vec3{{0, 0, 0}, {1, 0, 0}, {1, 1, 0.2}, {0, 1, 0.2}},
		Triangles: [][3]int32{{0, 1, 2}, {0, 2, 3}},
	}
	opt := Options{VoxelSize: 1.0 / 20, HalfWidth: 3}
	voxelized := func(triangles [][3]int32) *Volumes {
		t.Helper()
		c, err := Mesh(&geom.Mesh{Positions: square.Positions, Triangles: triangles}, opt)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	reversed := [][3]int32{{0, 2, 1}, {0, 3, 2}}
	sheet := voxelized(append(slices.Clone(square.Triangles), reversed...))
	if sheet.Sign != SignWinding {
		t.Errorf("the sheet got sign method %d: a closed pair of windings has no inside for pseudonormals", sheet.Sign)
	}
	inside := 0
	for _, l := range sheet.Surface.Leaves() {
		l.Active.ForEachOn(func(o int) {
			if float64(l.Values[o]) < -surfaceTolerance*opt.VoxelSize {
				inside++
			}
		})
	}
	if inside > 0 || len(sheet.Surface.Tiles()) > 0 {
		t.Errorf("the sheet has %d band voxels and %d tiles inside", inside, len(sheet.Surface.Tiles()))
	}
	var many [][3]int32
	for range 500 {
		many = append(many, square.Triangles...)
		many = append(many, reversed...)
	}
	sameVolumes(t, "500 pairs of windings", voxelized(many), sheet)

	forwards := voxelized(square.Triangles)
	net := slices.Concat(square.Triangles, reversed, square.Triangles, reversed, square.Triangles)
	sameVolumes(t, "3 forwards, 2 backwards", voxelized(net), forwards)
}

// 200,000 copies of one triangle, which took 81 s (issue 24), are the triangle.
func TestHostileCopiesOfOneTriangle(t *testing.T) {
	if !inChild(t, 300<<20) {
		return
	}
	one := &geom.Mesh{Positions: []geom.Vec3{{0, 0, 1}, {1, 0, 0}, {0, 1, 0}}, Triangles: [][3]int32{{0, 1, 2}}}
	opt := Options{VoxelSize: 1.0 / 64, HalfWidth: 3}
	want, err := Mesh(one, opt)
	if err != nil {
		t.Fatal(err)
	}
	copies := &geom.Mesh{Positions: one.Positions, Triangles: slices.Repeat(one.Triangles, 200_000)}
	got, err := Mesh(copies, opt)
	if err != nil {
		t.Fatal(err)
	}
	sameVolumes(t, "200,000 copies", got, want)
}

// MeshShape counts copies once too: a closed mesh drawn three times is closed, with
// the distances of the mesh drawn once, and a face in both windings is no solid.
func TestMeshShapeCoincident(t *testing.T) {
	m := geom.SphereMesh(geom.Vec3{}, 1, 8, 16)
	want, err := NewMeshShape(m)
	if err != nil {
		t.Fatal(err)
	}
	got, err := NewMeshShape(copiesAppended(m, 2))
	if err != nil {
		t.Fatal(err)
	}
	if !got.Closed() {
		t.Error("the sphere drawn three times is not closed")
	}
	for _, p := range []geom.Vec3{{0, 0, 0}, {0.3, 0.9, 0.1}, {2, -1, 0.5}, {0.99, 0, 0}} {
		if a, b := got.Distance(p); a != must(want.Distance(p)) || b != second(want.Distance(p)) {
			t.Errorf("at %v: phi %g normal %v, want %g %v", p, a, b, must(want.Distance(p)), second(want.Distance(p)))
		}
	}
	sheet := &geom.Mesh{Positions: m.Positions, Triangles: [][3]int32{{0, 1, 2}, {0, 2, 1}}}
	s, err := NewMeshShape(sheet)
	if err != nil {
		t.Fatal(err)
	}
	if s.Closed() {
		t.Error("a face in both windings counts as closed")
	}
}

func must(phi float64, _ geom.Vec3) float64   { return phi }
func second(_ float64, n geom.Vec3) geom.Vec3 { return n }
