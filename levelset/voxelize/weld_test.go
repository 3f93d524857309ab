package voxelize

import (
	"math"
	"math/rand/v2"
	"testing"

	"snowtools/levelset/geom"
)

// unindexed returns m with every triangle on three vertices of its own, as many
// exporters write meshes, with the velocities of the vertices they copy.
func unindexed(m *geom.Mesh) *geom.Mesh {
	out := &geom.Mesh{}
	for _, tri := range m.Triangles {
		var t [3]int32
		for k, v := range tri {
			t[k] = int32(len(out.Positions))
			out.Positions = append(out.Positions, m.Positions[v])
			if m.Velocities != nil {
				out.Velocities = append(out.Velocities, m.Velocities[v])
			}
		}
		out.Triangles = append(out.Triangles, t)
	}
	return out
}

// An unindexed closed mesh, welded by exact position, is closed, takes the
// pseudonormal path under auto, and gives the indexed mesh's grids bit for bit.
func TestWeldedUnindexedMeshIsTheIndexedOne(t *testing.T) {
	for _, tc := range []struct {
		name string
		m    *geom.Mesh
		h    float64
	}{
		{"sphere", geom.SphereMesh(geom.Vec3{0.1, 0.2, -0.3}, 1, 12, 24), 0.05},
		{"L prism", lPrism(0.5, 0.5, 1), 1.0 / 24},
		{"spot", loadSpot(t), 0.02},
	} {
		indexed := &geom.Mesh{Positions: tc.m.Positions, Triangles: tc.m.Triangles}
		smoothVelocities(indexed)
		soup := unindexed(indexed)
		if geom.NewTopology(soup.Triangles).Closed {
			t.Fatalf("%s: the unindexed mesh is closed before welding", tc.name)
		}
		welded, merged, err := Welded(soup, 0)
		if err != nil {
			t.Fatal(err)
		}
		if want := len(soup.Positions) - len(indexed.Positions); merged != want {
			t.Errorf("%s: %d vertices merged, want %d", tc.name, merged, want)
		}
		if !geom.NewTopology(welded.Triangles).Closed {
			t.Errorf("%s: not closed after welding", tc.name)
		}
		opt := Options{VoxelSize: tc.h, HalfWidth: 3}
		want, err := Mesh(indexed, opt)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Mesh(welded, opt)
		if err != nil {
			t.Fatal(err)
		}
		if got.Sign != SignPseudonormal {
			t.Errorf("%s: the welded mesh got sign method %d", tc.name, got.Sign)
		}
		sameVolumes(t, tc.name, got, want)
	}
}

// sameVolumes fails unless a and b hold the same leaves and tiles, bit for bit.
func sameVolumes(t *testing.T, name string, a, b *Volumes) {
	t.Helper()
	if a.Surface.LeafCount() != b.Surface.LeafCount() || len(a.Surface.Tiles()) != len(b.Surface.Tiles()) {
		t.Fatalf("%s: %d leaves and %d tiles, want %d and %d", name, a.Surface.LeafCount(), len(a.Surface.Tiles()), b.Surface.LeafCount(), len(b.Surface.Tiles()))
	}
	for i, l := range a.Surface.Leaves() {
		if *l != *b.Surface.Leaves()[i] || *a.Velocity.Leaves()[i] != *b.Velocity.Leaves()[i] || *a.Normal.Leaves()[i] != *b.Normal.Leaves()[i] {
			t.Fatalf("%s: leaf %v differs", name, l.Origin)
		}
	}
	for i, tile := range a.Surface.Tiles() {
		if tile != b.Surface.Tiles()[i] {
			t.Fatalf("%s: tile %v differs", name, tile.Origin)
		}
	}
}

// A tolerance welds vertices that an export moved apart by less than it, into the
// lowest-index one kept, never farther than the tolerance; exact welding leaves
// them apart, and the mesh open.
func TestWeldWithinTolerance(t *testing.T) {
	soup := unindexed(geom.SphereMesh(geom.Vec3{}, 1, 10, 20))
	rng := rand.New(rand.NewPCG(5, 6))
	for i := range soup.Positions {
		for k := range 3 {
			soup.Positions[i][k] += 1e-7 * (2*rng.Float64() - 1)
		}
	}
	exact, merged, err := Welded(soup, 0)
	if err != nil {
		t.Fatal(err)
	}
	if merged != 0 || geom.NewTopology(exact.Triangles).Closed {
		t.Errorf("exact weld of jittered vertices: %d merged, closed %v", merged, geom.NewTopology(exact.Triangles).Closed)
	}
	const tolerance = 1e-6
	welded, merged, err := Welded(soup, tolerance)
	if err != nil {
		t.Fatal(err)
	}
	if !geom.NewTopology(welded.Triangles).Closed {
		t.Errorf("welded within %g: not closed (%d vertices merged)", tolerance, merged)
	}
	for t0, tri := range welded.Triangles {
		for k, v := range tri {
			if d := soup.Positions[v].Sub(soup.Positions[soup.Triangles[t0][k]]).Norm(); d > tolerance {
				t.Fatalf("triangle %d corner %d moved %g, beyond the tolerance", t0, k, d)
			}
			if v > soup.Triangles[t0][k] {
				t.Fatalf("triangle %d corner %d welded to a higher index", t0, k)
			}
		}
	}
	t.Logf("%d of %d vertices merged within %g", merged, len(soup.Positions), tolerance)
	for _, bad := range []float64{-1, math.Inf(1), math.NaN()} {
		if _, _, err := Welded(soup, bad); err == nil {
			t.Errorf("tolerance %g: no error", bad)
		}
	}
}

// Mesh and NewMeshShape weld by position themselves when given no topology, as
// snowsim's mesh colliders and mesh-filled snow are: an unindexed closed mesh takes
// the pseudonormal signs and is a closed shape.
func TestUnindexedClosedWithoutTopology(t *testing.T) {
	soup := unindexed(geom.SphereMesh(geom.Vec3{}, 1, 10, 20))
	c, err := Mesh(soup, Options{VoxelSize: 0.1, HalfWidth: 2})
	if err != nil {
		t.Fatal(err)
	}
	if c.Sign != SignPseudonormal {
		t.Errorf("Mesh of an unindexed sphere: sign method %d, want pseudonormals (%d)", c.Sign, SignPseudonormal)
	}
	s, err := NewMeshShape(soup)
	if err != nil {
		t.Fatal(err)
	}
	if !s.Closed() {
		t.Errorf("NewMeshShape of an unindexed sphere is not closed: %d boundary, %d non-manifold edges",
			s.Topology().BoundaryEdges, s.Topology().NonManifoldEdges)
	}
}
