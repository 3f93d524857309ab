package obj

import (
	"errors"
	"io/fs"
	"os"
	"testing"
)

// spotPath is Keenan Crane's "Spot" cow in the shared test assets: a closed,
// triangulated OBJ with texture coordinates (faces in the v/vt form).
const spotPath = "../../../shared/assets/spot_triangulated.obj"

func TestSpot(t *testing.T) {
	f, err := os.Open(spotPath)
	if errors.Is(err, fs.ErrNotExist) {
		t.Skipf("%s is absent: the shared assets folder is not checked out next to this module", spotPath)
	}
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
