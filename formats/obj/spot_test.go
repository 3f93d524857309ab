package obj

import (
	"os"
	"testing"

	"snowtools/levelset/sharedtest"
)

// TestSpot reads Keenan Crane's "Spot" cow in ../shared/assets: a closed, triangulated
// OBJ with texture coordinates (faces in the v/vt form).
func TestSpot(t *testing.T) {
	f, err := os.Open(sharedtest.Asset(t, "spot_triangulated.obj"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := Read(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	if len(m.Positions) != 2930 || len(m.Triangles) != 5856 {
		t.Fatalf("%d vertices and %d triangles, want 2930 and 5856", len(m.Positions), len(m.Triangles))
	}
	checkClosed(t, m)
	// The cow is about 1.7 units long and centred near the origin.
	lo, hi := m.Bounds()
	for i := range 3 {
		if lo[i] < -1.1 || hi[i] > 1.1 || hi[i]-lo[i] < 0.9 {
			t.Errorf("bounds %v .. %v", lo, hi)
		}
	}
}
