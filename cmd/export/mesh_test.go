package main

import (
	"bytes"
	"fmt"
	"image"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"snowtools/cmd/internal/cli"
	"snowtools/formats/obj"
	"snowtools/levelset/geom"
)

// writeWalls writes cols.0001-0003.obj into dir: a wall 0.1 m thick beside the
// falling ball of writeSequence (x from 0.3 + 0.05 f), moving away from it along x.
func writeWalls(t *testing.T, dir string) {
	t.Helper()
	for f := 1; f <= 3; f++ {
		x := 0.3 + 0.05*float64(f)
		m := geom.BoxMesh(geom.Vec3{x, 0, -0.4}, geom.Vec3{x + 0.1, 0.8, 0.4})
		file, err := os.Create(filepath.Join(dir, fmt.Sprintf("cols.%04d.obj", f)))
		if err != nil {
			t.Fatal(err)
		}
		if err := obj.Write(file, m); err != nil {
			t.Fatal(err)
		}
		file.Close()
	}
}

// clayColumns returns the number of pixels with the objects' warm hue (red well
// above blue) and the leftmost column that has one (-1 for none).
func clayColumns(img image.Image) (n, left int) {
	b := img.Bounds()
	left = -1
	for x := b.Min.X; x < b.Max.X; x++ {
		for y := b.Min.Y; y < b.Max.Y; y++ {
			r, _, bl, _ := img.At(x, y).RGBA()
			if r>>8 > bl>>8+30 && r>>8 > 60 {
				n++
				if left < 0 {
					left = x
				}
			}
		}
	}
	return n, left
}

// -mesh draws each frame's mesh with the particles, in clay: the wall appears right
// of the ball and moves right from frame to frame; without -mesh nothing is clay.
// The sheet and the GIF take it too, and the automatic ground moves down to the
// walls' foot.
func TestPNGMesh(t *testing.T) {
	dir := t.TempDir()
	input, _ := writeSequence(t, dir, 3)
	writeWalls(t, filepath.Join(dir, "sim"))
	view := []string{"-to", "png", "-size", "160x120", "-ss", "1", "-eye", "0.2,0.5,3", "-target", "0.2,0.4,0", "-fov", "40"}
	with, without := filepath.Join(dir, "with", "f.####.png"), filepath.Join(dir, "without", "f.####.png")
	sheet, gif := filepath.Join(dir, "sheet.png"), filepath.Join(dir, "f.gif")
	mustExport(t, append(view, "-mesh", "cols.####.obj", "-sheet", sheet, "-gif", gif, input, with)...)
	mustExport(t, append(view, input, without)...)
	prev := -1
	for f := 1; f <= 3; f++ {
		name := func(p string) string { return strings.Replace(p, "####", fmt.Sprintf("%04d", f), 1) }
		n, left := clayColumns(decodePNG(t, name(with)))
		if n < 200 || left <= prev || left < 80 {
			t.Errorf("frame %d: %d clay pixels from column %d (frame before: %d); want a wall right of the centre moving right", f, n, left, prev)
		}
		prev = left
		if n, _ := clayColumns(decodePNG(t, name(without))); n != 0 {
			t.Errorf("frame %d without -mesh: %d clay pixels", f, n)
		}
	}
	if n, _ := clayColumns(decodePNG(t, sheet)); n < 3*50 {
		t.Errorf("contact sheet: %d clay pixels", n)
	}
	if st, err := os.Stat(gif); err != nil || st.Size() == 0 {
		t.Errorf("GIF: %v", err)
	}
	// The automatic ground is at the walls' foot, y = 0, below the lowest particle
	// (y = 0.2 in frame 3): the same picture as -ground 0.
	at0 := filepath.Join(dir, "at0", "f.####.png")
	mustExport(t, append(view, "-mesh", "cols.####.obj", "-ground", "0", input, at0)...)
	for f := 1; f <= 3; f++ {
		name := func(p string) string { return strings.Replace(p, "####", fmt.Sprintf("%04d", f), 1) }
		a, errA := os.ReadFile(name(with))
		b, errB := os.ReadFile(name(at0))
		if errA != nil || errB != nil || !bytes.Equal(a, b) {
			t.Errorf("frame %d: -ground auto with -mesh is not the plane at the walls' foot (%v, %v)", f, errA, errB)
		}
	}
}

// -mesh's mistakes name the flag and the file: a missing frame (before anything is
// rendered), a damaged file, no files at all, a bad pattern or extension, another
// -to mode.
func TestPNGMeshErrors(t *testing.T) {
	dir := t.TempDir()
	input, _ := writeSequence(t, dir, 3)
	sim := filepath.Join(dir, "sim")
	writeWalls(t, sim)
	out := filepath.Join(dir, "out", "f.####.png")
	missing := filepath.Join(sim, "cols.0002.obj")
	if err := os.Remove(missing); err != nil {
		t.Fatal(err)
	}
	code, log := runExport(t, "-to", "png", "-size", "64x48", "-mesh", "cols.####.obj", input, out)
	if code != cli.ExitFailure || !strings.Contains(log, "-mesh "+filepath.Join(sim, "cols.####.obj")+" has no frame 2 ("+missing+")") {
		t.Errorf("missing mesh frame: exit %d: %s", code, log)
	}
	if entries, _ := os.ReadDir(filepath.Dir(out)); len(entries) > 0 {
		t.Errorf("%d pictures written before the missing frame was found", len(entries))
	}
	bad := filepath.Join(sim, "cols.0003.obj")
	if err := os.WriteFile(bad, []byte("v 0 0 0\nf 1 2 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, log = runExport(t, "-to", "png", "-size", "64x48", "-frames", "3", "-mesh", "cols.####.obj", input, out)
	if code != cli.ExitFailure || !strings.Contains(log, "mesh "+bad) {
		t.Errorf("damaged mesh: exit %d: %s", code, log)
	}
	code, log = runExport(t, "-to", "png", "-mesh", "nothere.####.obj", input, out)
	if code != cli.ExitFailure || !strings.Contains(log, "-mesh: ") || !strings.Contains(log, filepath.Join(sim, "nothere.####.obj")) {
		t.Errorf("no mesh files: exit %d: %s", code, log)
	}
	for _, c := range []struct{ args, want string }{
		{"-to png -mesh cols.txt", `-mesh "cols.txt": use a mesh file or sequence (`},
		{"-to png -mesh cols.%4d.obj", "-mesh "},
		{"-to ply -mesh cols.####.obj", "-mesh applies to -to png, not -to ply"},
	} {
		args := append(strings.Fields(c.args), input, out)
		if code, log := runExport(t, args...); code != cli.ExitUsage || !strings.Contains(log, c.want) {
			t.Errorf("%s: exit %d: %s", c.args, code, log)
		}
	}
}
