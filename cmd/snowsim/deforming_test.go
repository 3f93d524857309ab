package main

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"snowtools/cmd/internal/cli"
	"snowtools/cmd/internal/meshfile"
	"snowtools/formats/vdb"
	"snowtools/levelset/geom"
	"snowtools/levelset/voxelize"
)

// writeBoxOBJ writes the box [lo, hi] as an OBJ of six quads, counter-clockwise from
// outside.
func writeBoxOBJ(t *testing.T, path string, lo, hi geom.Vec3) {
	t.Helper()
	var b strings.Builder
	for i := range 8 {
		c := lo
		for a := range 3 {
			if i>>a&1 == 1 {
				c[a] = hi[a]
			}
		}
		fmt.Fprintf(&b, "v %g %g %g\n", c[0], c[1], c[2])
	}
	// Vertex n has x from bit 0, y from bit 1, z from bit 2 (1-based in the file).
	b.WriteString("f 1 5 7 3\nf 2 4 8 6\nf 1 2 6 5\nf 3 7 8 4\nf 1 3 4 2\nf 5 6 8 7\n")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// writePlateSequence writes, as voxelize would, the collider files of a plate (a box
// of the given size) whose centre starts at c0 and moves at v, at fps, frames 1..n.
func writePlateSequence(t *testing.T, dir string, c0, size, v geom.Vec3, fps float64, n int, h float64) {
	t.Helper()
	half := size.Scale(0.5)
	for f := 1; f <= n; f++ {
		c := c0.Add(v.Scale(float64(f-1) / fps))
		obj := filepath.Join(dir, "plate.obj")
		writeBoxOBJ(t, obj, c.Sub(half), c.Add(half))
		m, err := meshfile.Read(obj)
		if err != nil {
			t.Fatal(err)
		}
		m.Velocities = make([]geom.Vec3, len(m.Positions))
		for i := range m.Velocities {
			m.Velocities[i] = v
		}
		col, err := voxelize.Mesh(m, voxelize.Options{VoxelSize: h, HalfWidth: 4})
		if err != nil {
			t.Fatal(err)
		}
		file := &vdb.File{
			Meta: vdb.Metadata{"frame": int32(f), "fps": fps, "time": float64(f-1) / fps},
			Grids: []*vdb.Grid{
				{Name: "surface", Class: vdb.LevelSet, Float: col.Surface},
				{Name: "velocity", VectorType: "contravariant relative", Vec3: col.Velocity},
			},
		}
		path := filepath.Join(dir, fmt.Sprintf("plate.%04d.vdb", f))
		if err := cli.WriteFileAtomic(path, func(w io.Writer) error { return vdb.Write(w, file, &vdb.DefaultOptions) }); err != nil {
			t.Fatal(err)
		}
	}
}

// Through the command: a plate from a voxelize sequence moving at 0.6 m/s pushes a
// block of snow, whose particles next to it end up moving with it.
func TestDeformingColliderPushesSnow(t *testing.T) {
	if testing.Short() {
		t.Skip("a physics run")
	}
	dir := t.TempDir()
	const h, speed = 0.04, 0.6
	writePlateSequence(t, dir, geom.Vec3{0.14, 0.16, 0.4}, geom.Vec3{0.08, 0.32, 0.48}, geom.Vec3{speed, 0, 0}, 24, 13, h)
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
