package main

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"snowtools/cmd/internal/scene/scenetest"
	"snowtools/levelset/geom"
)

// Through the command: a plate from a voxelize sequence moving at 0.6 m/s pushes a
// block of snow, whose particles next to it end up moving with it.
func TestDeformingColliderPushesSnow(t *testing.T) {
	if testing.Short() {
		t.Skip("a physics run")
	}
	dir := t.TempDir()
	const h, speed = 0.04, 0.6
	scenetest.WritePlateSequence(t, dir, geom.Vec3{0.14, 0.16, 0.4}, geom.Vec3{0.08, 0.32, 0.48}, geom.Vec3{speed, 0, 0}, 24, 13, h)
	scene := fmt.Sprintf(`
[domain]
min = [0, 0, 0]
max = [1.2, 0.6, 0.8]
h = %g
[time]
fps = 24
frames = 12
[[snow]]
shape = "box"
min = [0.24, 0.0, 0.24]
max = [0.5, 0.2, 0.56]
[[collider]]
shape = "vdb"
path = "plate.####.vdb"
[output]
dir = "out"
`, h)
	path := filepath.Join(dir, "scene.toml")
	os.WriteFile(path, []byte(scene), 0o644)
	var stderr bytes.Buffer
	if code := run([]string{"-o", filepath.Join(dir, "out"), path}, &bytes.Buffer{}, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	fr := readFrame(t, filepath.Join(dir, "out", "snow.0012.prt"))
	pos, _, _ := fr.Float64s("Position")
	vel, _, _ := fr.Float64s("Velocity")
	// The plate's front face at t = 0.5 s: 0.14 + 0.04 + 0.6 * 0.5 = 0.48.
	front := 0.18 + speed*0.5
	var sum float64
	n := 0
	for i := 0; i < len(pos); i += 3 {
		if pos[i] < front-0.5*h {
			t.Fatalf("particle at x = %.3f is behind the plate's front face %.3f", pos[i], front)
		}
		if pos[i] < front+h && pos[i+1] < 0.3 {
			sum += vel[i]
			n++
		}
	}
	if n == 0 || math.Abs(sum/float64(n)-speed) > 0.1*speed {
		t.Errorf("%d particles at the plate move at %.3f m/s along x, want %.2f", n, sum/float64(max(n, 1)), speed)
	}
	t.Logf("%d particles at the plate move at %.3f m/s (plate %.2f m/s)", n, sum/float64(max(n, 1)), speed)
}
