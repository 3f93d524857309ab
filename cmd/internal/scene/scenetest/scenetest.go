// Package scenetest holds what the scene tests and snowsim's share: a ground scene, box
// meshes, and the collider sequence of a moving plate as voxelize would write it.
package scenetest

import (
	"fmt"
	"io"
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

// WriteBoxOBJ writes the box [lo, hi] as an OBJ of six quads, counter-clockwise from
// outside.
func WriteBoxOBJ(t testing.TB, path string, lo, hi geom.Vec3) {
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

// WritePlateSequence writes, as voxelize would, the collider files of a plate (a box
// of the given size) whose centre starts at c0 and moves at v, at fps: frames 0..n-1,
// frame f at f/fps seconds as voxelize numbers them.
func WritePlateSequence(t testing.TB, dir string, c0, size, v geom.Vec3, fps float64, n int, h float64) {
	t.Helper()
	half := size.Scale(0.5)
	for f := range n {
		c := c0.Add(v.Scale(float64(f) / fps))
		obj := filepath.Join(dir, "plate.obj")
		WriteBoxOBJ(t, obj, c.Sub(half), c.Add(half))
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
			Meta: vdb.Metadata{"frame": int32(f), "fps": fps, "time": float64(f) / fps},
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

// GroundScene is a 40 x 30 cm patch of ground that a ball presses 2 cm deep and
// leaves again.
const GroundScene = `
[ground]
material = "sand"
cell = 0.01
min = [-0.2, -0.15]
max = [0.2, 0.15]

[time]
fps = 20
frames = 6

[[collider]]
shape = "sphere"
center = [0.0, 0.05, 0.0]
radius = 0.05
[[collider.key]]
time = 0.0
translation = [0.0, 0.02, 0.0]
[[collider.key]]
time = 0.1
translation = [0.0, -0.02, 0.0]
[[collider.key]]
time = 0.2
translation = [0.0, 0.1, 0.0]
`

// TurnAboutY returns the [[collider.key]] tables of a collider that moves from the
// translation from (TOML, such as "[0, 0, 0]") at t = 0 to to at t = 1 while turning
// 90 degrees about y: a keyed pose that tests of posed bodies share.
func TurnAboutY(from, to string) string {
	return `[[collider.key]]
time = 0
translation = ` + from + `
axis = [0, 1, 0]
angle = 0
[[collider.key]]
time = 1
translation = ` + to + `
axis = [0, 1, 0]
angle = 90
`
}
