package collidermesh

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"snowtools/cmd/internal/scene"
	"snowtools/cmd/internal/scene/scenetest"
	"snowtools/levelset/geom"
)

// readScene loads a scene file at full resolution.
func readScene(t *testing.T, path string) *scene.Scene {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc, err := scene.Read(path, f, 1)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// expectedBody is what one collider of an example must look like at a time: the
// box its mesh spans and, for a closed body, the volume it encloses.
type expectedBody struct {
	t        float64
	lo, hi   geom.Vec3
	tol      float64 // on the bounds, m
	volume   float64 // 0 for an open surface (a plane)
	volumeTo float64 // relative tolerance on the volume
}

// rotatedHalfExtents returns the half sizes along x and y of a box of half sizes
// (a, b) in x and y turned by angle (radians) about z: a|cos| + b|sin| and
// a|sin| + b|cos|.
func rotatedHalfExtents(a, b, angle float64) (float64, float64) {
	s, c := math.Abs(math.Sin(angle)), math.Abs(math.Cos(angle))
	return a*c + b*s, a*s + b*c
}

// Every example's colliders, at t = 0 and later, span the box their shape and pose
// give analytically, and the closed ones are closed with the shape's volume.
func TestExampleCollidersMatchTheirShapes(t *testing.T) {
	// The wedge: a 2.5 x 0.2 x 0.2 box turned 45 degrees about x, at (1.25, 0.15, 0.25).
	wy, wz := rotatedHalfExtents(0.1, 0.1, math.Pi/4)
	// A foot: 0.26 x 0.08 x 0.09, its centre (0, 0.04, 0) in its own frame (its sole at
	// y = 0), turned 20 degrees about z at t = 0.6 and moved to (0.10, 0.08, 0.10).
	turn := 20 * math.Pi / 180
	fx, fy := rotatedHalfExtents(0.13, 0.04, turn)
	fcx, fcy := 0.10-0.04*math.Sin(turn), 0.08+0.04*math.Cos(turn)
	footVolume := 0.26 * 0.08 * 0.09
	sphereVolume := 4.0 / 3 * math.Pi * 0.12 * 0.12 * 0.12
	cylVolume := math.Pi * 0.04 * 0.04 * 0.3
	cases := map[string][][]expectedBody{
		"snowball_walls.toml": {
			{{0, geom.Vec3{0, 0, 0}, geom.Vec3{0.15, 1, 0.8}, 1e-12, 0.12, 1e-12}},
			{{1, geom.Vec3{1.85, 0, 0}, geom.Vec3{2, 1, 0.8}, 1e-12, 0.12, 1e-12}},
		},
		"wedge_presets.toml": {{
			{0, geom.Vec3{0, 0.15 - wy, 0.25 - wz}, geom.Vec3{2.5, 0.15 + wy, 0.25 + wz}, 1e-12, 0.1, 1e-12},
			{1, geom.Vec3{0, 0.15 - wy, 0.25 - wz}, geom.Vec3{2.5, 0.15 + wy, 0.25 + wz}, 1e-12, 0.1, 1e-12},
		}},
		"press_ball.toml": {
			{{0, geom.Vec3{-1, -1, -1}, geom.Vec3{0.22, 0.2, 1}, 1e-12, 1.22 * 1.2 * 2, 1e-12}},
			{{0.5, geom.Vec3{-1, -1, -1}, geom.Vec3{1, 0.05, 1}, 1e-12, 2 * 1.05 * 2, 1e-12}},
		},
		"footsteps.toml": {
			{ // the right foot: its first key at t = 0; lifting and turned 20 degrees at 0.6
				{0, geom.Vec3{-0.18, 0.04, 0.055}, geom.Vec3{0.08, 0.12, 0.145}, 1e-12, footVolume, 1e-9},
				{0.6, geom.Vec3{fcx - fx, fcy - fy, 0.055}, geom.Vec3{fcx + fx, fcy + fy, 0.145}, 1e-12, footVolume, 1e-9},
			},
			{ // the left foot holds its first key (t = 0.5) before it; pressed in at 0.6
				{0, geom.Vec3{0.12, 0.04, -0.145}, geom.Vec3{0.38, 0.12, -0.055}, 1e-12, footVolume, 1e-9},
				{0.6, geom.Vec3{0.17, -0.03, -0.145}, geom.Vec3{0.43, 0.05, -0.055}, 1e-12, footVolume, 1e-9},
			},
		},
		"every_option.toml": {
			// The ramp y = 0.1 + 0.05 x cut to the domain: open, 0.1 to 0.18 high.
			{{0, geom.Vec3{0, 0.1, 0}, geom.Vec3{1.6, 0.18, 0.8}, 1e-12, 0, 0}},
			// The blade at 1 m/s along x.
			{
				{0, geom.Vec3{0.15, 0.08, 0.2}, geom.Vec3{0.25, 0.45, 0.6}, 1e-12, 0.1 * 0.37 * 0.4, 1e-9},
				{0.5, geom.Vec3{0.65, 0.08, 0.2}, geom.Vec3{0.75, 0.45, 0.6}, 1e-12, 0.1 * 0.37 * 0.4, 1e-9},
			},
			// The boulder: its poles and equator corners lie on the sphere's box;
			// the inscribed UV sphere encloses 1.1% less than the ball.
			{{0.3, geom.Vec3{1.13, 0.13, 0.28}, geom.Vec3{1.37, 0.37, 0.52}, 1e-12, sphereVolume, 0.012}},
			// The post: axis along y, sliding in z and turning about y (a 48-gon
			// turned by 45 degrees, six segments, spans the same box).
			{
				{0, geom.Vec3{1.46, 0, 0.11}, geom.Vec3{1.54, 0.3, 0.19}, 1e-12, cylVolume, 0.003},
				{0.25, geom.Vec3{1.46, 0, 0.185}, geom.Vec3{1.54, 0.3, 0.265}, 1e-12, cylVolume, 0.003},
				{2, geom.Vec3{1.46, 0, 0.26}, geom.Vec3{1.54, 0.3, 0.34}, 1e-12, cylVolume, 0.003},
			},
		},
	}
	for name, bodies := range cases {
		sc := readScene(t, filepath.Join("..", "..", "..", "examples", name))
		if len(sc.Bodies) != len(bodies) {
			t.Fatalf("%s: %d bodies, want %d", name, len(sc.Bodies), len(bodies))
		}
		for i, cases := range bodies {
			for _, want := range cases {
				m := meshAt(t, sc.Bodies[i:i+1], want.t, Box(sc))
				checkBody(t, fmt.Sprintf("%s %s at t = %g", name, sc.Bodies[i].Key, want.t), m, want)
			}
		}
	}
}

// meshAt returns the mesh of bodies at time t, planes cut to box.
func meshAt(t *testing.T, bodies []scene.ColliderBody, tm float64, box geom.Box) *geom.Mesh {
	t.Helper()
	m, err := New(bodies, box, 2).At(tm)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// checkBody compares a body's mesh with what it must be.
func checkBody(t *testing.T, what string, m *geom.Mesh, want expectedBody) {
	t.Helper()
	if err := m.Validate(); err != nil {
		t.Errorf("%s: %v", what, err)
		return
	}
	lo, hi := m.Bounds()
	for k := range 3 {
		if math.Abs(lo[k]-want.lo[k]) > want.tol || math.Abs(hi[k]-want.hi[k]) > want.tol {
			t.Errorf("%s: bounds %v to %v, want %v to %v", what, lo, hi, want.lo, want.hi)
			break
		}
	}
	closed := geom.NewTopology(m.Triangles).Closed
	if want.volume == 0 {
		if closed {
			t.Errorf("%s: a plane's section is closed", what)
		}
		return
	}
	if v := m.SignedVolume(); !closed || math.Abs(v-want.volume) > want.volumeTo*want.volume {
		t.Errorf("%s: volume %.6g (want %.6g within %g), closed %v", what, v, want.volume, want.volumeTo, closed)
	}
}

// A ramp's section is the quadrilateral of the plane across the domain: its corners
// on the plane and on the box, its area the domain's depth times the slope's length,
// facing up (the ramp's open side).
func TestPlaneSection(t *testing.T) {
	sc := readScene(t, filepath.Join("..", "..", "..", "examples", "every_option.toml"))
	ramp := sc.Bodies[0]
	m := meshAt(t, []scene.ColliderBody{ramp}, 0, Box(sc))
	area, up := 0.0, geom.Vec3{}
	for _, tri := range m.Triangles {
		a, b, c := m.Positions[tri[0]], m.Positions[tri[1]], m.Positions[tri[2]]
		n := b.Sub(a).Cross(c.Sub(a))
		area += n.Norm() / 2
		up = up.Add(n)
	}
	if want := 0.8 * math.Hypot(1.6, 0.08); math.Abs(area-want) > 1e-12 {
		t.Errorf("area %.15g, want %.15g", area, want)
	}
	if n := up.Unit(); n.Dot(geom.Vec3{-0.05, 1, 0}.Unit()) < 1-1e-12 {
		t.Errorf("the section faces %v, not the ramp's normal", n)
	}
	for _, p := range m.Positions {
		if d := p.Sub(geom.Vec3{0, 0.1, 0}).Dot(geom.Vec3{-0.05, 1, 0}); math.Abs(d) > 1e-12 {
			t.Errorf("corner %v is %g off the plane", p, d)
		}
	}
	// A plane that misses the box draws nothing; one through a corner and two edges
	// (a triangle's section, x + y + z = 1 in the unit cube) keeps each corner once.
	unit := geom.Box{Max: geom.Vec3{1, 1, 1}}
	if m := planeInBox(geom.HalfSpace{Point: geom.Vec3{0, 2, 0}, Normal: geom.Vec3{0, 1, 0}}, unit); m != nil {
		t.Errorf("a plane above the box: %d triangles", len(m.Triangles))
	}
	tri := planeInBox(geom.HalfSpace{Point: geom.Vec3{1, 0, 0}, Normal: geom.Vec3{1, 1, 1}}, unit)
	if tri == nil || len(tri.Positions) != 4 || len(tri.Triangles) != 3 {
		t.Fatalf("x + y + z = 1: %v", tri)
	}
}

// A mesh body is drawn from the file's triangles, not from its level set, posed by
// its keys.
func TestMeshBody(t *testing.T) {
	dir := t.TempDir()
	scenetest.WriteBoxOBJ(t, filepath.Join(dir, "block.obj"), geom.Vec3{-0.1, -0.05, -0.1}, geom.Vec3{0.1, 0.05, 0.1})
	sc := readScene(t, writeScene(t, dir, `
[[collider]]
shape = "mesh"
path = "block.obj"
`+scenetest.TurnAboutY("[0.5, 0.2, 0.5]", "[0.5, 0.6, 0.5]")))
	if sc.Bodies[0].Mesh == nil || len(sc.Bodies[0].Mesh.Triangles) != 12 {
		t.Fatalf("the mesh body keeps no file mesh: %+v", sc.Bodies[0])
	}
	// Half way: at y = 0.4, turned 45 degrees about y: 0.1 sqrt 2 across in x and z.
	d := 0.1 * math.Sqrt2
	m := meshAt(t, sc.Bodies, 0.5, Box(sc))
	checkBody(t, "block at t = 0.5", m, expectedBody{0.5, geom.Vec3{0.5 - d, 0.35, 0.5 - d}, geom.Vec3{0.5 + d, 0.45, 0.5 + d}, 1e-12, 0.2 * 0.1 * 0.2, 1e-9})
}

// writeScene writes a unit-box snow scene with the given collider tables into dir
// and returns its path.
func writeScene(t *testing.T, dir, colliders string) string {
	t.Helper()
	path := filepath.Join(dir, "scene.toml")
	if err := os.WriteFile(path, []byte(sceneText(colliders)), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// sceneText is a unit-box snow scene with the given collider tables.
func sceneText(colliders string) string {
	return `
[domain]
min = [0, 0, 0]
max = [1, 1, 1]
h = 0.05

[[snow]]
shape = "sphere"
center = [0.5, 0.5, 0.5]
radius = 0.1
` + colliders
}

// BenchmarkEveryOption meshes every_option.toml's four colliders (a ramp, a moving
// blade, a boulder and a post on keys) at one time: what each preview frame and
// colliders file costs.
func BenchmarkEveryOption(b *testing.B) {
	f, err := os.Open(filepath.Join("..", "..", "..", "examples", "every_option.toml"))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	sc, err := scene.Read("every_option.toml", f, 1)
	if err != nil {
		b.Fatal(err)
	}
	box := Box(sc)
	meshes := New(sc.Bodies, box, 0)
	for b.Loop() {
		if _, err := meshes.At(0.25); err != nil {
			b.Fatal(err)
		}
	}
}
