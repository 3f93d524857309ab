package geom

import (
	"slices"
	"testing"
)

func TestTopology(t *testing.T) {
	box := BoxMesh(Vec3{-1, -1, -1}, Vec3{1, 1, 1})
	if topo := NewTopology(box.Triangles); !topo.Closed || topo.BoundaryEdges != 0 || topo.NonManifoldEdges != 0 {
		t.Errorf("box: %+v", topo)
	}
	holed := OpenSphereMesh(Vec3{}, 1, 12, 16, 2)
	if topo := NewTopology(holed.Triangles); topo.Closed || topo.BoundaryEdges != 16 {
		t.Errorf("sphere with a hole: closed %v, %d boundary edges, want 16", topo.Closed, topo.BoundaryEdges)
	}
	// One triangle turned over: its three edges now run the same way as their
	// neighbours', which is not a consistently oriented surface.
	flipped := BoxMesh(Vec3{-1, -1, -1}, Vec3{1, 1, 1})
	tri := &flipped.Triangles[5]
	tri[1], tri[2] = tri[2], tri[1]
	if topo := NewTopology(flipped.Triangles); topo.Closed || topo.NonManifoldEdges != 3 {
		t.Errorf("flipped triangle: closed %v, %d non-manifold edges, want 3", topo.Closed, topo.NonManifoldEdges)
	}
	// Across is symmetric on the closed box.
	topo := NewTopology(box.Triangles)
	for t0, across := range topo.Across {
		for _, t1 := range across {
			if t1 < 0 || !slices.Contains(topo.Across[t1][:], int32(t0)) {
				t.Errorf("triangle %d's neighbour %d does not name it back", t0, t1)
			}
		}
	}
}
