package preview

import (
	"bytes"
	"image"
	"image/color"
	"math"
	"strings"
	"testing"

	"snowtools/levelset/geom"
)

// heightField returns the mesh of the height field y = height(x, z) over
// nx x nz square cells of the given size with their lower corner at (x0, z0):
// two triangles per cell, counter-clockwise seen from above.
func heightField(nx, nz int, cell, x0, z0 float64, height func(x, z float64) float64) *geom.Mesh {
	m := &geom.Mesh{}
	for j := 0; j <= nz; j++ {
		for i := 0; i <= nx; i++ {
			x, z := x0+float64(i)*cell, z0+float64(j)*cell
			m.Positions = append(m.Positions, geom.Vec3{x, height(x, z), z})
		}
	}
	at := func(i, j int) int32 { return int32(j*(nx+1) + i) }
	for j := range nz {
		for i := range nx {
			m.Triangles = append(m.Triangles,
				[3]int32{at(i, j), at(i, j+1), at(i+1, j)},
				[3]int32{at(i+1, j), at(i, j+1), at(i+1, j+1)})
		}
	}
	return m
}

// Dimensions of pitGround's pit.
const pitHalf, pitDepth = 0.2, 0.2

// pitGround is a flat ground 1.2 m square at y = 0 on 2 cm cells with a box pit
// 0.4 m square and 0.2 m deep in its middle, whose walls shadow its floor.
func pitGround(t testing.TB) *Mesh {
	t.Helper()
	m := heightField(60, 60, 0.02, -0.6, -0.6, func(x, z float64) float64 {
		if math.Abs(x) < pitHalf+1e-9 && math.Abs(z) < pitHalf+1e-9 {
			return -pitDepth
		}
		return 0
	})
	pm, err := NewMesh(m)
	if err != nil {
		t.Fatal(err)
	}
	return pm
}

// topView looks straight down on the pit from 3 m.
var topView = Camera{Eye: geom.Vec3{0, 3, 0}, Target: geom.Vec3{}, Up: geom.Vec3{0, 0, -1}, FovY: 30}

// The same mesh and particles give the same bytes with any number of workers.
func TestMeshRenderIsDeterministic(t *testing.T) {
	mesh := pitGround(t)
	pts := Points{Pos: randomBall(8, 3000, geom.Vec3{0.3, 0.15, 0.1}, 0.1), Radius: 0.008}
	lo, hi, _ := mesh.Bounds()
	cam := Frame(lo, hi, 4.0/3, DefaultAzimuth, DefaultElevation, DefaultFov)
	opt := Options{Width: 200, Height: 150, Mesh: mesh, Workers: 1}
	one := Render(pts, cam, opt)
	for _, workers := range []int{2, 3, 8} {
		opt.Workers = workers
		if other := Render(pts, cam, opt); !bytes.Equal(one.Pix, other.Pix) {
			t.Fatalf("renders with 1 and %d workers differ", workers)
		}
	}
}

// Lit from +x at 45 degrees, the pit's +x wall shadows the strip of the floor
// 0 < x < 0.2, while the floor at x < 0 and the ground around the pit are in
// the sun; a ball above the flat part shadows the mesh; a ball on the pit floor
// in the wall's shadow is darker than one in the sun.
func TestMeshShadows(t *testing.T) {
	mesh := pitGround(t)
	const r = 0.025
	balls := append(randomBall(1, 4000, geom.Vec3{-0.35, 0.15, 0.35}, 0.08), // casts onto the mesh
		append(randomBall(2, 400, geom.Vec3{0.1, -pitDepth + r, 0.12}, r), // in the wall's shadow
			randomBall(3, 400, geom.Vec3{-0.1, -pitDepth + r, 0.12}, r)...)...) // in the sun
	pts := Points{Pos: balls, Radius: 0.004}
	img := Render(pts, topView, Options{Width: 400, Height: 400, LightDir: geom.Vec3{1, 1, 0},
		Background: black, Ground: GroundNone, Mesh: mesh})
	luma := func(p geom.Vec3) float64 { return luminanceAround(t, img, topView, p) }
	open, rim := luma(geom.Vec3{0.4, 0, -0.4}), luma(geom.Vec3{-0.4, 0, -0.4})
	litFloor, shadedFloor := luma(geom.Vec3{-0.1, -pitDepth, -0.1}), luma(geom.Vec3{0.1, -pitDepth, -0.1})
	ballShadow := luma(geom.Vec3{-0.5, 0, 0.35})
	litBall, shadedBall := luma(geom.Vec3{-0.1, -pitDepth + 2*r, 0.12}), luma(geom.Vec3{0.1, -pitDepth + 2*r, 0.12})
	t.Logf("luma: open ground %.1f and %.1f, pit floor lit %.1f, in the wall's shadow %.1f, in the ball's shadow %.1f; ball lit %.1f, shaded %.1f",
		open, rim, litFloor, shadedFloor, ballShadow, litBall, shadedBall)
	if open < 100 || math.Abs(open-rim) > 2 {
		t.Errorf("open flat mesh has luma %.1f and %.1f: not evenly lit", open, rim)
	}
	if litFloor < 0.9*open {
		t.Errorf("sunlit pit floor has luma %.1f, open ground %.1f", litFloor, open)
	}
	if shadedFloor > 0.7*litFloor {
		t.Errorf("pit floor in the wall's shadow has luma %.1f, in the sun %.1f: no shadow", shadedFloor, litFloor)
	}
	if ballShadow > 0.7*open {
		t.Errorf("mesh in the ball's shadow has luma %.1f, open %.1f: particles cast no shadow on the mesh", ballShadow, open)
	}
	if shadedBall > 0.88*litBall { // white snow in the shade keeps much of its brightness through the tone curve
		t.Errorf("particles in the wall's shadow have luma %.1f, in the sun %.1f: the mesh casts no shadow on particles", shadedBall, litBall)
	}
}

// A red sphere that pierces a grey plane tilted 45 degrees towards the eye
// shows where its surface is nearer than the plane and hides behind it where
// not: seen along -z, the sphere of radius r at the origin has its front at
// z = sqrt(r^2 - x^2) on the row y = 0 and the plane z = x, so the sphere is in
// front for x < r/sqrt(2) only.
func TestMeshAndParticleDepthOrder(t *testing.T) {
	const r = 0.5
	quad := &geom.Mesh{
		Positions: []geom.Vec3{{-2, -2, -2}, {2, -2, 2}, {2, 2, 2}, {-2, 2, -2}},
		Triangles: [][3]int32{{0, 1, 2}, {0, 2, 3}},
	}
	mesh, err := NewMesh(quad)
	if err != nil {
		t.Fatal(err)
	}
	pts := Points{Pos: []float32{0, 0, 0}, Radius: r, Color: []uint8{230, 20, 20}}
	cam := Camera{Eye: geom.Vec3{0, 0, 8}, Target: geom.Vec3{}}
	img := Render(pts, cam, Options{Width: 400, Height: 400, Supersample: 1, Background: black, Ground: GroundNone,
		LightDir: geom.Vec3{0, 0.3, 1}, Mesh: mesh})
	red := func(p geom.Vec3) bool {
		v := cam.view(400, 400)
		px, py, _ := v.project(p)
		c := img.RGBAAt(int(px), int(py))
		return int(c.R) > 2*int(c.G) && c.R > 60
	}
	for _, x := range []float64{-0.45, -0.2, 0, 0.2, 0.3} {
		if p := (geom.Vec3{x, 0, math.Sqrt(r*r - x*x)}); !red(p) {
			t.Errorf("sphere point %v, in front of the plane, is hidden", p)
		}
	}
	for _, x := range []float64{0.42, 0.48, 0.7} {
		if p := (geom.Vec3{x, 0, x}); red(p) {
			t.Errorf("plane point %v, in front of the sphere, shows the sphere", p)
		}
	}
}

// A frame without particles still draws the mesh, and the automatic ground
// plane around it at its rim, not across its pit.
func TestMeshWithoutParticles(t *testing.T) {
	mesh := pitGround(t)
	if rim, ok := mesh.RimHeight(); !ok || math.Abs(rim) > 1e-9 {
		t.Errorf("rim height %g, %v; want 0", rim, ok)
	}
	lo, hi, _ := mesh.Bounds()
	cam := Frame(lo, hi, 1, DefaultAzimuth, 50, DefaultFov)
	for _, pts := range []Points{{}, {Radius: 0.01}} {
		with := Render(pts, cam, Options{Width: 120, Height: 120, Mesh: mesh, Background: black})
		without := Render(pts, cam, Options{Width: 120, Height: 120, Background: black})
		if n := countUnlike(without, black); n != 0 {
			t.Fatalf("no particles and no mesh: %d pixels drawn", n)
		}
		if n := countUnlike(with, black); n < 120*120*9/10 {
			t.Errorf("mesh without particles: only %d of %d pixels drawn (mesh and ground)", n, 120*120)
		}
		// The pit's floor, 0.2 m below the rim, is seen and not hidden by the plane.
		floor := pixelOf(t, with, cam, geom.Vec3{-0.1, -pitDepth, -0.1})
		if floor == black || floor == pixelOf(t, with, cam, geom.Vec3{0, 0, 0.9}) {
			t.Errorf("pit floor pixel %v looks like the ground plane", floor)
		}
	}
}

// pixelOf returns the colour of the pixel that sees world point p.
func pixelOf(t *testing.T, img *image.RGBA, cam Camera, p geom.Vec3) color.RGBA {
	t.Helper()
	v := cam.view(img.Rect.Dx(), img.Rect.Dy())
	px, py, ok := v.project(p)
	if !ok {
		t.Fatalf("%v is behind the camera", p)
	}
	return img.RGBAAt(int(px), int(py))
}

// A ground quad that reaches behind the eye is clipped at the near plane: the
// ground fills the picture below the horizon, and nothing is drawn above it.
func TestMeshBehindTheEye(t *testing.T) {
	quad := &geom.Mesh{
		Positions: []geom.Vec3{{-10, 0, -10}, {-10, 0, 10}, {10, 0, -10}, {10, 0, 10}},
		Triangles: [][3]int32{{0, 1, 2}, {2, 1, 3}},
	}
	mesh, err := NewMesh(quad)
	if err != nil {
		t.Fatal(err)
	}
	cam := Camera{Eye: geom.Vec3{0, 0.5, 0}, Target: geom.Vec3{0, 0, -3}, FovY: 60}
	const size = 200
	img := Render(Points{}, cam, Options{Width: size, Height: size, Supersample: 1, Background: black, Ground: GroundNone, Mesh: mesh})
	v := cam.view(size, size)
	// The ray through row y meets y = 0 when it points down: its direction's
	// world y is up.y (cy - py) + fwd.y f < 0. The far edge at 10 m is seen a
	// few rows below the horizon.
	for y := range size {
		dy := v.up[1]*(v.cy-(float64(y)+0.5)) + v.fwd[1]*v.focal
		farEdge := -dy/math.Hypot(v.focal, v.cy-(float64(y)+0.5)) < 0.5/10
		for x := range size {
			drawn := img.RGBAAt(x, y) != black
			if dy >= 0 && drawn {
				t.Fatalf("pixel (%d, %d) above the horizon is drawn", x, y)
			}
			if dy < 0 && !farEdge && !drawn {
				t.Fatalf("pixel (%d, %d) below the horizon shows no ground", x, y)
			}
		}
	}
}

// NewMesh refuses indices outside the vertices, skips triangles with a
// non-finite corner, and takes an empty mesh, which draws nothing.
func TestNewMesh(t *testing.T) {
	if _, err := NewMesh(&geom.Mesh{Positions: []geom.Vec3{{}, {1, 0, 0}}, Triangles: [][3]int32{{0, 1, 2}}}); err == nil ||
		!strings.Contains(err.Error(), "triangle 0") {
		t.Errorf("index out of range: %v", err)
	}
	nan := math.NaN()
	m, err := NewMesh(&geom.Mesh{
		Positions: []geom.Vec3{{0, 0, 0}, {0, 0, 1}, {1, 0, 0}, {nan, 0, 0}},
		Triangles: [][3]int32{{0, 1, 2}, {0, 1, 3}},
	})
	if err != nil || len(m.triangles) != 1 {
		t.Fatalf("NaN corner: %v, %d triangles kept", err, len(m.triangles))
	}
	if lo, hi, ok := m.Bounds(); !ok || lo != (geom.Vec3{}) || hi != (geom.Vec3{1, 0, 1}) {
		t.Errorf("bounds %v %v %v", lo, hi, ok)
	}
	if n := m.normals[0]; math.Abs(n[1]-1) > 1e-12 {
		t.Errorf("counter-clockwise from above: normal %v, want up", n)
	}
	empty, err := NewMesh(&geom.Mesh{})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, ok := empty.Bounds(); ok {
		t.Error("empty mesh has bounds")
	}
	pts := clumpAndPowder()
	cam := Camera{Eye: geom.Vec3{1, 1, 2}, Target: geom.Vec3{}}
	opt := Options{Width: 80, Height: 60}
	plain := Render(pts, cam, opt)
	opt.Mesh = empty
	if !bytes.Equal(plain.Pix, Render(pts, cam, opt).Pix) {
		t.Error("an empty mesh changes the picture")
	}
}

// The polygon rasterizer covers every pixel centre inside two triangles that
// share an edge exactly once, whatever their winding, including centres that
// lie exactly on the shared edge.
func TestSharedEdgesCoverOnce(t *testing.T) {
	const size = 64
	coverage := func(corners ...[2]float64) []bool {
		var p polygon
		for _, c := range corners {
			p.add(c[0], c[1], 1)
		}
		buf := newDepthBuffer(size, size, false)
		p.rasterize(p.bounds(size, size), buf, 0)
		covered := make([]bool, size*size)
		for i, d := range buf.depth {
			covered[i] = d == 1
		}
		return covered
	}
	for _, q := range [][4][2]float64{
		{{3.5, 3.5}, {60.5, 3.5}, {60.5, 60.5}, {3.5, 60.5}}, // the diagonal runs through pixel centres
		{{1.2, 7.7}, {55.3, 2.1}, {62.9, 58.4}, {4.4, 50.0}},
	} {
		first, second := coverage(q[0], q[1], q[2]), coverage(q[0], q[2], q[3])
		if flipped := coverage(q[3], q[2], q[0]); !slicesEqual(flipped, second) {
			t.Errorf("quad %v: the winding changes a triangle's pixels", q)
		}
		whole := coverage(q[0], q[1], q[2], q[3])
		for i := range first {
			if first[i] && second[i] {
				t.Fatalf("quad %v: pixel (%d, %d) covered twice", q, i%size, i/size)
			}
			if whole[i] != (first[i] || second[i]) {
				t.Fatalf("quad %v: pixel (%d, %d) in the quad %v, in its triangles %v", q, i%size, i/size, whole[i], first[i] || second[i])
			}
		}
	}
}

func slicesEqual(a, b []bool) bool { return bytes.Equal(boolBytes(a), boolBytes(b)) }

func boolBytes(a []bool) []byte {
	b := make([]byte, len(a))
	for i, v := range a {
		if v {
			b[i] = 1
		}
	}
	return b
}
