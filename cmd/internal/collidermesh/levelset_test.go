package collidermesh

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"snowtools/cmd/internal/scene"
	"snowtools/cmd/internal/scene/scenetest"
	"snowtools/levelset/geom"
)

// The plate of the level-set tests, as scenetest.WritePlateSequence voxelizes it:
// 4 x 30 x 40 cm, centred at plateCentre in frame 0, moving at plateVelocity, one
// file per 0.1 s, voxels of 1 cm.
var (
	plateCentre   = geom.Vec3{0.3, 0.5, 0.5}
	plateSize     = geom.Vec3{0.04, 0.3, 0.4}
	plateVelocity = geom.Vec3{0.5, 0, 0}
)

const (
	plateFPS   = 10
	plateFiles = 3
	plateVoxel = 0.01
	// The meshed plate's bounds are the box's to 1.5e-5 m. A box's distance is
	// linear across each face, so the trilinear zero crossing there is exact but for
	// the float32 values; the plate's faces lie on voxel centres, though, where
	// phi = 0 counts as outside and the mesher keeps its vertices 1e-3 voxel away
	// (measured: 1.0e-5 m).
	plateBoundsTol = 1.5e-5
	// Its volume is the box's less what cutting its 12 edges and 8 corners within a
	// voxel takes (measured: 0.96% less).
	plateVolumeTol = 0.015
)

// writePlates writes the plate's files into dir and returns dir.
func writePlates(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	scenetest.WritePlateSequence(t, dir, plateCentre, plateSize, plateVelocity, plateFPS, plateFiles, plateVoxel)
	return dir
}

// plateAt returns what the plate centred at c, with its sides along the axes of
// the given sizes, must look like at time tm.
func plateAt(tm float64, c, size geom.Vec3) expectedBody {
	half := size.Scale(0.5)
	return expectedBody{tm, c.Sub(half), c.Add(half), plateBoundsTol, size[0] * size[1] * size[2], plateVolumeTol}
}

// A deforming VDB sequence shows its keyframe nearest the time: its plate, closed,
// where the file has it.
func TestSequenceBody(t *testing.T) {
	dir := writePlates(t)
	sc := readScene(t, writeScene(t, dir, "[[collider]]\nshape = \"vdb\"\npath = \"plate.####.vdb\"\n"))
	meshes := New(sc.Bodies, Box(sc), 2)
	for _, c := range []struct {
		t    float64
		file int // the keyframe shown, from 0
	}{{0, 0}, {0.1, 1}, {0.14, 1}, {0.16, 2}, {0.2, 2}, {5, 2}, {-1, 0}} {
		m, err := meshes.At(c.t)
		if err != nil {
			t.Fatal(err)
		}
		centre := plateCentre.Add(plateVelocity.Scale(float64(c.file) / plateFPS))
		checkBody(t, fmt.Sprintf("plate sequence at t = %g", c.t), m, plateAt(c.t, centre, plateSize))
	}
}

// A still VDB level set is meshed where it is, inside its active voxels; on keys it
// is placed by them like any body: turned 90 degrees about y and raised 0.2 m at the
// last key, (x, y, z) goes to (z, y + 0.2, -x).
func TestStillAndKeyedLevelSetBodies(t *testing.T) {
	dir := writePlates(t)
	sc := readScene(t, writeScene(t, dir, `
[[collider]]
shape = "vdb"
path = "plate.0000.vdb"

[[collider]]
shape = "vdb"
path = "plate.0000.vdb"
`+scenetest.TurnAboutY("[0, 0, 0]", "[0, 0.2, 0]")))
	still, keyed := sc.Bodies[0:1], sc.Bodies[1:2]
	m := meshAt(t, still, 0.7, Box(sc))
	checkBody(t, "still plate", m, plateAt(0.7, plateCentre, plateSize))
	lo, hi, ok := still[0].LevelSet.ActiveBounds()
	if !ok {
		t.Fatal("the plate's level set has no active voxels")
	}
	tr := &still[0].LevelSet.Transform
	active := geom.Box{Min: tr.IndexToWorld(lo), Max: tr.IndexToWorld(hi)}
	if mlo, mhi := m.Bounds(); !active.Contains(mlo) || !active.Contains(mhi) {
		t.Errorf("the still plate's mesh %v to %v leaves its active voxels %v", mlo, mhi, active)
	}
	checkBody(t, "keyed plate at its first key", meshAt(t, keyed, 0, Box(sc)), plateAt(0, plateCentre, plateSize))
	turned := plateAt(1, geom.Vec3{plateCentre[2], plateCentre[1] + 0.2, -plateCentre[0]},
		geom.Vec3{plateSize[2], plateSize[1], plateSize[0]})
	checkBody(t, "keyed plate at its last key", meshAt(t, keyed, 1, Box(sc)), turned)
}

// BenchmarkSequenceKeyframe meshes a keyframe of the plate sequence (1 cm voxels)
// afresh each time, with 2 threads: what each new frame of a deforming collider
// costs the preview; a still or keyed level set costs it once.
func BenchmarkSequenceKeyframe(b *testing.B) {
	dir := b.TempDir()
	scenetest.WritePlateSequence(b, dir, plateCentre, plateSize, plateVelocity, plateFPS, plateFiles, plateVoxel)
	path := filepath.Join(dir, "scene.toml")
	if err := os.WriteFile(path, []byte(sceneText("[[collider]]\nshape = \"vdb\"\npath = \"plate.####.vdb\"\n")), 0o644); err != nil {
		b.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	sc, err := scene.Read(path, f, 1)
	if err != nil {
		b.Fatal(err)
	}
	var triangles int
	for b.Loop() {
		m, err := New(sc.Bodies, Box(sc), 2).At(0)
		if err != nil {
			b.Fatal(err)
		}
		triangles = len(m.Triangles)
	}
	b.ReportMetric(float64(triangles), "triangles")
}
