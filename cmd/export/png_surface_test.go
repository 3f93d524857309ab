package main

import (
	"bytes"
	"fmt"
	"image"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"snowtools/cmd/internal/cli"
	"snowtools/cmd/internal/preview"
	"snowtools/levelset/geom"
)

// isSnow reports whether the pixel at (x, y) has the snow's colour: white in the
// sun (red 235 or more, the tone map's near-white, far above the grey ground's
// 158), blue-white in shade (blue above red by 2 or more and bright). The ground has
// blue at most red + 1, and the ball's shadow on it is darker.
func isSnow(img image.Image, x, y int) bool {
	r, _, b, _ := img.At(x, y).RGBA()
	r, b = r>>8, b>>8
	return r >= 235 || b >= r+2 && b > 150
}

// -surface draws a ball frame's surface mesh in the snow's colour where the ball
// is: every pixel of its disc (seen by a camera looking at its centre, to 0.9 of
// its radius) is snow, the ground just around its lower half is not, and the
// picture is not the particles'. The bytes do not depend on the threads.
func TestPNGSurface(t *testing.T) {
	dir := t.TempDir()
	in, balls := writeSequence(t, dir, 1)
	c := balls[0].centre()
	const width, height = 240, 160
	offset := geom.Vec3{0.6, 0.5, 1.2} // from the ball's centre to the eye
	camera := []string{"-size", fmt.Sprintf("%dx%d", width, height), "-eye", point(c.Add(offset)), "-target", point(c)}
	render := func(name string, extra ...string) image.Image {
		out := filepath.Join(dir, name+".####.png")
		args := append(append([]string{"-to", "png"}, camera...), extra...)
		mustExport(t, append(args, in, out)...)
		return decodePNG(t, strings.Replace(out, "####", "0001", 1))
	}
	surface := render("surface", "-surface", "-threads", "1")
	// The ball's outline, a circle about the picture's centre: its angular radius
	// asin(r / d) against half the vertical field of view.
	half := math.Tan(preview.DefaultFov / 2 * math.Pi / 180)
	radius := math.Tan(math.Asin(ballRadius/offset.Norm())) / half * height / 2
	inside, around, snowAround := 0, 0, 0
	for y := range height {
		for x := range width {
			dx, dy := float64(x)+0.5-width/2, float64(y)+0.5-height/2
			switch r := math.Hypot(dx, dy); {
			case r < 0.9*radius:
				inside++
				if !isSnow(surface, x, y) {
					t.Fatalf("pixel (%d, %d), inside the ball's outline of %.1f pixels: %v is not snow", x, y, radius, surface.At(x, y))
				}
			case r > 1.15*radius && r < 1.5*radius && dy > 0:
				around++
				if isSnow(surface, x, y) {
					snowAround++
				}
			}
		}
	}
	t.Logf("the ball's outline: %.1f pixels; %d pixels of snow inside, %d of %d around its lower half", radius, inside, snowAround, around)
	if snowAround > 0 {
		t.Errorf("%d of the %d pixels of ground around the ball's lower half are snow", snowAround, around)
	}
	if same(surface, render("particles")) {
		t.Error("-surface draws the same picture as the particles")
	}
	two := render("two", "-surface", "-threads", "2")
	if !same(surface, two) {
		t.Error("-surface with 1 and 2 threads differ")
	}
}

// -surface is a png flag, says what it draws in the help, and refuses -color.
func TestPNGSurfaceFlag(t *testing.T) {
	var help bytes.Buffer
	run([]string{"-h"}, &help)
	if !strings.Contains(help.String(), "-surface") || !strings.Contains(help.String(), "draw each frame's snow as its surface in snow white") {
		t.Errorf("the help does not explain -surface:\n%s", help.String())
	}
	dir := t.TempDir()
	in, _ := writeSequence(t, dir, 1)
	out := filepath.Join(dir, "png", "snow.####.png")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-to", "png", "-surface", "-color", "Velocity", in, out}, "-color Velocity: -surface draws the snow's surface in snow white"},
		{[]string{"-to", "ply", "-surface", in, out}, "-surface applies to -to png, not -to ply"},
	} {
		code, log := runExport(t, c.args...)
		if code != cli.ExitUsage || !strings.Contains(log, c.want) {
			t.Errorf("export %v: exit %d, %q; want %d and %q", c.args, code, log, cli.ExitUsage, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "png")); !os.IsNotExist(err) {
		t.Errorf("a refused run wrote %v", err)
	}
}
