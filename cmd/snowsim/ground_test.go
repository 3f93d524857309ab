package main

import (
	"bytes"
	"image"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"snowtools/cmd/internal/scene/scenetest"
	"snowtools/formats/heightpng"
	"snowtools/formats/ply"
)

func TestGroundSceneRuns(t *testing.T) {
	dir := t.TempDir()
	scene := filepath.Join(dir, "ground.toml")
	if err := os.WriteFile(scene, []byte(scenetest.GroundScene), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{filepath.Join(dir, "a"), filepath.Join(dir, "b")} {
		var stderr bytes.Buffer
		args := []string{"-o", out, "-set", `output.ground_mesh="ground.####.ply"`, scene}
		if code := run(args, &bytes.Buffer{}, &stderr); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr.String())
		}
		if !strings.Contains(stderr.String(), "compressed") {
			t.Errorf("no summary in %q", stderr.String())
		}
	}
	// Same inputs, same bytes.
	for _, name := range []string{"spray.0006.prt", "ground.0006.ply", "ground.0006.png"} {
		a, errA := os.ReadFile(filepath.Join(dir, "a", name))
		b, errB := os.ReadFile(filepath.Join(dir, "b", name))
		if errA != nil || errB != nil || !bytes.Equal(a, b) {
			t.Errorf("%s differs between two runs (%v, %v)", name, errA, errB)
		}
	}
	// The height map carries its mapping, and shows the crater: 2 cm deep under the
	// ball's centre while the ball is down (frame 2, t = 0.1 s), a rim around it,
	// untouched ground at the corners.
	m := readHeightMap(t, filepath.Join(dir, "a", "ground.0002.png"))
	if m.Width != 41 || m.Height != 31 || m.Cell != 0.01 || m.OriginX != -0.2 {
		t.Errorf("height map %d x %d, cell %g, origin %g", m.Width, m.Height, m.Cell, m.OriginX)
	}
	grey := (m.High - m.Low) / 65535
	centre, corner := m.HeightAt(20, 15), m.HeightAt(0, 0)
	if math.Abs(centre+0.02) > 2*grey+1e-6 || math.Abs(corner) > grey {
		t.Errorf("crater floor at %g (want -0.02), corner at %g (want 0)", centre, corner)
	}
	rim := math.Inf(-1)
	for _, h := range m.Heights() {
		rim = max(rim, h)
	}
	if !(rim > 0.001) {
		t.Errorf("no rim: the highest column is at %g", rim)
	}
	// The mesh covers the whole ground: 41 x 31 vertices, 2 triangles per cell.
	file := decodeFile(t, filepath.Join(dir, "a", "ground.0006.ply"), ply.ReadAll)
	v, _, _ := file.Element("vertex")
	fc, _, _ := file.Element("face")
	if v.Count != 41*31 || fc.Count != 2*40*30 {
		t.Errorf("%d vertices and %d faces, want %d and %d", v.Count, fc.Count, 41*31, 2*40*30)
	}
	spray := readFrame(t, filepath.Join(dir, "a", "spray.0003.prt"))
	if spray.Header.Count == 0 {
		t.Error("no spray in the air after the ball leaves the sand")
	}
}

func readPNG(t *testing.T, path string) image.Image {
	t.Helper()
	return decodeFile(t, path, png.Decode)
}

func readHeightMap(t *testing.T, path string) *heightpng.Map {
	t.Helper()
	m := decodeFile(t, path, heightpng.Read)
	if !m.HasMapping {
		t.Fatalf("%s: no mapping", path)
	}
	return m
}

func TestGroundSceneOptions(t *testing.T) {
	// OBJ meshes of the touched columns only, no height maps, mud from -set.
	dir := t.TempDir()
	scene := filepath.Join(dir, "ground.toml")
	text := scenetest.GroundScene + "\n[output]\nground_mesh = \"g.####.obj\"\nground_height_map = \"\"\nground_area = \"touched\"\n"
	if err := os.WriteFile(scene, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	if code := run([]string{"-o", dir, "-preview", "-set", `ground.material="mud"`, scene}, &bytes.Buffer{}, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), "ground of mud") {
		t.Errorf("not mud: %q", stderr.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "g.0006.obj")); err != nil {
		t.Error(err)
	}
	if matches, _ := filepath.Glob(filepath.Join(dir, "g*.png")); len(matches) != 0 {
		t.Errorf("height maps written: %v", matches)
	}
	// -preview draws a picture of every frame: the ground mesh with the spray.
	img := readPNG(t, filepath.Join(dir, "spray.0006.png"))
	if b := img.Bounds(); b.Dx() != previewWidth || b.Dy() != previewHeight {
		t.Fatalf("preview %v", b)
	}
	if matches, _ := filepath.Glob(filepath.Join(dir, "spray.*.prt")); len(matches) != 7 {
		t.Errorf("%d spray frames, want 7", len(matches))
	}
}

// A run can start from the ground another left: its last height map is the next
// one's terrain, and frame 0 of the second run is that ground.
func TestGroundFromHeightMap(t *testing.T) {
	dir := t.TempDir()
	first := filepath.Join(dir, "first.toml")
	if err := os.WriteFile(first, []byte(scenetest.GroundScene), 0o644); err != nil {
		t.Fatal(err)
	}
	if code := run([]string{"-o", filepath.Join(dir, "one"), first}, &bytes.Buffer{}, &bytes.Buffer{}); code != 0 {
		t.Fatal("first run failed")
	}
	second := filepath.Join(dir, "second.toml")
	text := strings.Replace(scenetest.GroundScene, "[time]", "[ground.height_map]\npath = \"one/ground.0006.png\"\n\n[time]", 1)
	if err := os.WriteFile(second, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	if code := run([]string{"-o", filepath.Join(dir, "two"), "-frames", "1", second}, &bytes.Buffer{}, &stderr); code != 0 {
		t.Fatalf("second run: %s", stderr.String())
	}
	a := readHeightMap(t, filepath.Join(dir, "one", "ground.0006.png"))
	b := readHeightMap(t, filepath.Join(dir, "two", "ground.0000.png"))
	ha, hb := a.Heights(), b.Heights()
	grey := (a.High - a.Low) / 65535
	for k := range ha {
		if math.Abs(ha[k]-hb[k]) > 1.01*grey {
			t.Fatalf("sample %d: %g, then %g", k, ha[k], hb[k])
		}
	}
}
