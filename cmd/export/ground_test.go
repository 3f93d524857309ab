package main

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"snowtools/cmd/internal/cli"
	"snowtools/formats/ply"
)

// writeGroundPLY writes a ground mesh as snowsim's height-field model does: a
// binary little-endian PLY of float x y z vertices and uchar/int vertex_indices
// triangles, counter-clockwise seen from above. The ground is 1 m square at y = 0
// on 5 cm cells, with a pit 0.1 m deep over x, z in [pitX - 0.15, pitX + 0.15].
func writeGroundPLY(t *testing.T, path string, pitX float64) {
	t.Helper()
	const n, cell, half = 20, 0.05, 0.5
	var verts, faces []byte
	for j := 0; j <= n; j++ {
		for i := 0; i <= n; i++ {
			x, z := -half+float64(i)*cell, -half+float64(j)*cell
			y := 0.0
			if x > pitX-0.15-1e-9 && x < pitX+0.15+1e-9 && z > -0.15-1e-9 && z < 0.15+1e-9 {
				y = -0.1
			}
			for _, v := range []float64{x, y, z} {
				verts = ply.Float.AppendFloat(verts, v)
			}
		}
	}
	for j := range n {
		for i := range n {
			a := int64(j*(n+1) + i)
			for _, tri := range [][3]int64{{a, a + n + 1, a + 1}, {a + 1, a + n + 1, a + n + 2}} {
				faces = append(faces, 3)
				for _, v := range tri {
					faces = ply.Int.AppendInt(faces, v)
				}
			}
		}
	}
	f := &ply.File{
		Header: ply.Header{Format: ply.BinaryLittleEndian, Elements: []ply.Element{
			{Name: "vertex", Count: (n + 1) * (n + 1), Properties: []ply.Property{
				ply.Scalar("x", ply.Float), ply.Scalar("y", ply.Float), ply.Scalar("z", ply.Float)}},
			{Name: "face", Count: 2 * n * n, Properties: []ply.Property{ply.List("vertex_indices", ply.Uchar, ply.Int)}},
		}},
		Data: [][]byte{verts, faces},
	}
	var buf bytes.Buffer
	if _, err := f.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// writeGroundRun writes what a height-field run leaves in dir: spray.0001-0003.prt
// (frame 1 empty: the spray has not started; then a small ball of spray rising) and
// ground.0001-0003.ply with a pit moving along x.
func writeGroundRun(t *testing.T, dir string) (spray string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for f := 1; f <= 3; f++ {
		b := &snowball{}
		if f > 1 {
			b = newBall(0.1*float64(f), uint64(f), compareSpacing)
			for i := range b.len() {
				b.pos[3*i] *= 0.3
				b.pos[3*i+1] = 0.3*(b.pos[3*i+1]-0.1*float32(f)) + 0.1*float32(f)
				b.pos[3*i+2] *= 0.3
			}
		}
		b.writePRT(t, filepath.Join(dir, fmt.Sprintf("spray.%04d.prt", f)), f)
		writeGroundPLY(t, filepath.Join(dir, fmt.Sprintf("ground.%04d.ply", f)), -0.2+0.1*float64(f))
	}
	return filepath.Join(dir, "spray.####.prt")
}

// luma is the Rec. 709 luma of a pixel.
func luma(img image.Image, x, y int) float64 {
	c := color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)
	return 0.2126*float64(c.R) + 0.7152*float64(c.G) + 0.0722*float64(c.B)
}

// -ground with a PLY sequence draws each frame's mesh: where the camera looks (the
// middle of the mesh) the picture is the mesh's light grey instead of the ground
// plane's dark one, the sky is the same, an empty spray frame renders, and the
// contact sheet is written.
func TestPNGGroundMesh(t *testing.T) {
	dir := t.TempDir()
	spray := writeGroundRun(t, filepath.Join(dir, "run"))
	view := []string{"-to", "png", "-size", "160x120", "-ss", "1", "-eye", "0.9,0.9,1.7", "-target", "0,0,0.3"}
	withMesh, plain := filepath.Join(dir, "mesh", "f.####.png"), filepath.Join(dir, "plain", "f.####.png")
	sheet := filepath.Join(dir, "sheet.png")
	log := mustExport(t, append(view, "-ground", "ground.####.ply", "-sheet", sheet, spray, withMesh)...)
	if !strings.Contains(log, "3 frames") {
		t.Errorf("log: %s", log)
	}
	mustExport(t, append(view, "-ground", "0", spray, plain)...)
	for f := 1; f <= 3; f++ {
		m := decodePNG(t, strings.Replace(withMesh, "####", fmt.Sprintf("%04d", f), 1))
		p := decodePNG(t, strings.Replace(plain, "####", fmt.Sprintf("%04d", f), 1))
		// (0, 0, 0.3), on the flat part of the mesh beside the pit, is at the
		// picture's centre.
		if lm, lp := luma(m, 80, 60), luma(p, 80, 60); lm < lp+40 {
			t.Errorf("frame %d: luma %.0f at the mesh's centre, %.0f on the plain ground: no mesh", f, lm, lp)
		}
		// Far away, both are the same foggy plane (the mesh's lowers it by a hair).
		if lm, lp := luma(m, 80, 2), luma(p, 80, 2); lm < lp-2 || lm > lp+2 {
			t.Errorf("frame %d: the far ground differs: luma %.0f and %.0f", f, lm, lp)
		}
	}
	if b := decodePNG(t, sheet).Bounds(); b.Dx() < 3*sheetCellWidth {
		t.Errorf("sheet %v", b)
	}
	// Without -eye the camera frames the meshes too: the first frame has no
	// particles at all, yet the picture is not empty sky and plane.
	auto := filepath.Join(dir, "auto", "f.####.png")
	mustExport(t, "-to", "png", "-size", "160x120", "-ss", "1", "-frames", "1", "-ground", filepath.Join(dir, "run", "ground.%04d.ply"), spray, auto)
	if img := decodePNG(t, strings.Replace(auto, "####", "0001", 1)); luma(img, 80, 60) < 150 {
		t.Errorf("auto framing: the centre has luma %.0f, not the mesh's", luma(img, 80, 60))
	}
}

// A ground frame that is missing stops the run before anything is rendered, naming
// the frame and the file; a -ground that is neither a plane nor a mesh is a usage
// error.
func TestGroundMeshErrors(t *testing.T) {
	dir := t.TempDir()
	spray := writeGroundRun(t, filepath.Join(dir, "run"))
	missing := filepath.Join(dir, "run", "ground.0002.ply")
	if err := os.Remove(missing); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out", "f.####.png")
	code, log := runExport(t, "-to", "png", "-size", "64x48", "-ground", "ground.####.ply", spray, out)
	if code != cli.ExitFailure || !strings.Contains(log, "no frame 2 ("+missing+")") {
		t.Errorf("missing ground frame: exit %d: %s", code, log)
	}
	if _, err := os.Stat(filepath.Dir(out)); err == nil {
		if entries, _ := os.ReadDir(filepath.Dir(out)); len(entries) > 0 {
			t.Errorf("%d pictures written before the missing frame was found", len(entries))
		}
	}
	// Frames 1 and 3 alone are fine.
	mustExport(t, "-to", "png", "-size", "64x48", "-frames", "3", "-ground", "ground.####.ply", spray, out)
	// A damaged mesh names its file.
	bad := filepath.Join(dir, "run", "ground.0003.ply")
	truncateHalf(t, bad)
	code, log = runExport(t, "-to", "png", "-size", "64x48", "-frames", "3", "-ground", "ground.####.ply", spray, out)
	if code != cli.ExitFailure || !strings.Contains(log, bad) || !strings.Contains(log, "element") {
		t.Errorf("damaged ground frame: exit %d: %s", code, log)
	}
	for _, c := range []struct{ ground, want string }{
		{"ground.txt", "use auto, none, a height, or a mesh"},
		{"ground.%4d.ply", "-ground"},
	} {
		if code, log := runExport(t, "-to", "png", "-ground", c.ground, spray, out); code != cli.ExitUsage || !strings.Contains(log, c.want) {
			t.Errorf("-ground %s: exit %d: %s", c.ground, code, log)
		}
	}
	if code, log := runExport(t, "-to", "png", "-ground", "nothere.####.ply", spray, out); code != cli.ExitFailure ||
		!strings.Contains(log, filepath.Join(dir, "run", "nothere.####.ply")) {
		t.Errorf("no ground files: exit %d: %s", code, log)
	}
}

// -to compare looks a bare -ground name up in each run's folder: every row shows
// its own ground, and a run that lacks a ground frame is named.
func TestCompareGroundMesh(t *testing.T) {
	dir := t.TempDir()
	a := writeGroundRun(t, filepath.Join(dir, "a"))
	b := writeGroundRun(t, filepath.Join(dir, "b"))
	writeGroundPLY(t, filepath.Join(dir, "b", "ground.0003.ply"), 0.3) // b's last pit is elsewhere
	c := prepareComparison(t, "-size", "96x64", "-ss", "1", "-frames", "2,3", "-ground", "ground.####.ply",
		filepath.Join(dir, "c.png"), a, b)
	if !same(c.cells[0], c.cells[2]) {
		t.Error("frame 2: runs a and b have the same ground and spray but differ")
	}
	if same(c.cells[1], c.cells[3]) {
		t.Error("frame 3: runs a and b have different grounds but the same picture")
	}
	if err := os.Remove(filepath.Join(dir, "b", "ground.0002.ply")); err != nil {
		t.Fatal(err)
	}
	code, log := runExport(t, "-to", "compare", "-frames", "2,3", "-ground", "ground.####.ply", filepath.Join(dir, "c.png"), a, b)
	if code != cli.ExitFailure || !strings.Contains(log, filepath.Join(dir, "b", "ground.0002.ply")) {
		t.Errorf("compare with a missing ground frame: exit %d: %s", code, log)
	}
}
