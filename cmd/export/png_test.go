package main

import (
	"bytes"
	"image"
	"image/gif"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"snowtools/cmd/internal/cli"
)

func decodePNG(t *testing.T, path string) image.Image {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return img
}

func TestPNGPreviewsSheetAndGIF(t *testing.T) {
	dir := t.TempDir()
	in, _ := writeSequence(t, dir, 3)
	sheet, anim := filepath.Join(dir, "sheet.png"), filepath.Join(dir, "snow.gif")
	log := mustExport(t, "-to", "png", "-size", "320x180", "-ss", "1", "-color", "Velocity",
		"-sheet", sheet, "-columns", "2", "-gif", anim, "-gif-width", "160", in, filepath.Join(dir, "png", "snow.####.png"))
	if !strings.Contains(log, "contact sheet of 3 frames") || !strings.Contains(log, "animated GIF of 3 frames") {
		t.Errorf("log: %s", log)
	}
	var frames []image.Image
	for _, name := range []string{"snow.0001.png", "snow.0002.png", "snow.0003.png"} {
		img := decodePNG(t, filepath.Join(dir, "png", name))
		if b := img.Bounds(); b.Dx() != 320 || b.Dy() != 180 {
			t.Errorf("%s: %v", name, b)
		}
		frames = append(frames, img)
	}
	// One camera for the whole sequence: the corners (sky) stay put while the ball falls.
	for _, f := range frames[1:] {
		if f.At(2, 2) != frames[0].At(2, 2) {
			t.Errorf("the sky moved: the camera is not the same for every frame")
		}
	}
	if same(frames[0], frames[2]) {
		t.Error("frames 1 and 3 are the same picture although the ball moved")
	}
	if b := decodePNG(t, sheet).Bounds(); b.Dx() < 2*sheetCellWidth || b.Dy() < 2*sheetCellWidth*180/320 {
		t.Errorf("contact sheet of 3 frames in 2 columns is only %v", b)
	}
	data, err := os.ReadFile(anim)
	if err != nil {
		t.Fatal(err)
	}
	g, err := gif.DecodeAll(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Image) != 3 || g.Config.Width != 160 || g.Config.Height != 90 {
		t.Errorf("GIF: %d frames of %dx%d", len(g.Image), g.Config.Width, g.Config.Height)
	}
}

// Only a sheet: no output pattern is needed. A frame range renders that part.
func TestPNGSheetOnly(t *testing.T) {
	dir := t.TempDir()
	in, _ := writeSequence(t, dir, 3)
	sheet := filepath.Join(dir, "sheet.png")
	mustExport(t, "-to", "png", "-frames", "2-3", "-sheet", sheet, in)
	if b := decodePNG(t, sheet).Bounds(); b.Dx() < 2*sheetCellWidth {
		t.Errorf("sheet %v", b)
	}
	if code, log := runExport(t, "-to", "png", in); code != cli.ExitUsage {
		t.Errorf("no output and no sheet: exit %d: %s", code, log)
	}
}

func same(a, b image.Image) bool {
	for y := a.Bounds().Min.Y; y < a.Bounds().Max.Y; y++ {
		for x := a.Bounds().Min.X; x < a.Bounds().Max.X; x++ {
			if a.At(x, y) != b.At(x, y) {
				return false
			}
		}
	}
	return true
}
