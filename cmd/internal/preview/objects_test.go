package preview

import (
	"bytes"
	"image"
	"image/color"
	"math"
	"testing"

	"snowtools/levelset/geom"
)

// wallObjects is a wall 0.2 m thick and 0.4 m high, x in [0.3, 0.5], standing on
// the ground y = 0 across z in [z0, z1]: a collider box.
func wallObjects(t testing.TB, z0, z1 float64) *Mesh {
	t.Helper()
	m, err := NewSolidMesh(geom.BoxMesh(geom.Vec3{0.3, 0, z0}, geom.Vec3{0.5, 0.4, z1}))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// isClay reports whether c has the objects' warm hue: red well above blue.
func isClay(c color.RGBA) bool { return int(c.R) > int(c.B)+30 && c.R > 60 }

// A wall seen from above, with snow beside it on the ground: the pixels over the
// wall's top are the objects' clay, the snow and the ground around are not;
// ObjectColor recolours it; the bytes are the same for any number of workers.
func TestObjectsAreDrawnInTheirColour(t *testing.T) {
	wall := wallObjects(t, -0.5, 0.5)
	snow := Points{Pos: randomBall(3, 2000, geom.Vec3{-0.2, 0.1, 0}, 0.1), Radius: 0.01}
	opt := Options{Width: 200, Height: 200, Ground: GroundAt, GroundHeight: 0, Objects: wall,
		LightDir: geom.Vec3{0.3, 1, 0.2}, Workers: 1}
	img := Render(snow, topView, opt)
	// The wall's top, x in [0.3, 0.5] at y = 0.4, well inside its edges.
	for _, p := range []geom.Vec3{{0.35, 0.4, -0.3}, {0.4, 0.4, 0}, {0.45, 0.4, 0.3}} {
		if c := pixelOf(t, img, topView, p); !isClay(c) {
			t.Errorf("wall top %v: pixel %v is not clay", p, c)
		}
	}
	for _, p := range []geom.Vec3{{-0.2, 0.2, 0}, {0, 0, 0.4}, {-0.4, 0, -0.4}} {
		if c := pixelOf(t, img, topView, p); isClay(c) {
			t.Errorf("snow or ground %v: pixel %v is clay", p, c)
		}
	}
	// Counted over the picture: the wall covers the pixels of its top and, in
	// perspective, of its side facing the eye (x = 0.3, seen down to its foot);
	// nothing else is clay.
	v := topView.view(200, 200)
	foot, _, _ := v.project(geom.Vec3{0.3, 0, 0})
	x0, _, _ := v.project(geom.Vec3{0.3, 0.4, 0})
	x1, _, _ := v.project(geom.Vec3{0.5, 0.4, 0})
	_, y0, _ := v.project(geom.Vec3{0.4, 0.4, -0.5})
	_, y1, _ := v.project(geom.Vec3{0.4, 0.4, 0.5})
	top, withSide := (x1-x0)*(y1-y0), (x1-foot)*(y1-y0)
	n := countClay(img)
	if float64(n) < 0.97*top || float64(n) > withSide {
		t.Errorf("%d clay pixels; the wall's top covers %.0f, with its side at most %.0f", n, top, withSide)
	}
	t.Logf("%d clay pixels: the top covers %.0f, top and side %.0f", n, top, withSide)
	for _, workers := range []int{2, 5} {
		opt.Workers = workers
		if other := Render(snow, topView, opt); !bytes.Equal(img.Pix, other.Pix) {
			t.Fatalf("renders with 1 and %d workers differ", workers)
		}
	}
	opt.ObjectColor = color.RGBA{40, 90, 200, 255}
	blue := Render(snow, topView, opt)
	if c := pixelOf(t, blue, topView, geom.Vec3{0.4, 0.4, 0}); isClay(c) || !(c.B > c.R+30) {
		t.Errorf("ObjectColor blue: the wall's top is %v", c)
	}
}

// countClay counts the clay pixels of img.
func countClay(img *image.RGBA) int {
	n := 0
	for y := img.Rect.Min.Y; y < img.Rect.Max.Y; y++ {
		for x := img.Rect.Min.X; x < img.Rect.Max.X; x++ {
			if isClay(img.RGBAAt(x, y)) {
				n++
			}
		}
	}
	return n
}

// Objects with a ground mesh: the ground keeps its own colour, the wall takes the
// objects' colour and casts its shadow on the ground mesh, and the ground away
// from it is as without it (to the shading's few levels: the shadow map and the
// occlusion radius now span the wall too).
func TestObjectsWithAGroundMesh(t *testing.T) {
	ground := pitGround(t)
	wall := wallObjects(t, 0.3, 0.5) // beside the pit, which spans z in [-0.2, 0.2]
	light := geom.Vec3{1, 1, 0}      // from +x at 45 degrees: the wall shadows 0.4 m of ground at x < 0.3
	opt := Options{Width: 300, Height: 300, Mesh: ground, Objects: wall, LightDir: light}
	with := Render(Points{}, topView, opt)
	opt.Objects = nil
	without := Render(Points{}, topView, opt)
	if c := pixelOf(t, with, topView, geom.Vec3{0.4, 0.4, 0.4}); !isClay(c) {
		t.Errorf("wall top: %v", c)
	}
	// The pit's floor in the sun and in its wall's shadow, the ground plane beyond
	// the ground mesh, and the ground mesh beyond the wall.
	for _, p := range []geom.Vec3{{-0.15, -pitDepth, -0.1}, {0.1, -pitDepth, 0}, {0.62, 0, 0.4}, {-0.4, 0, 0.4}} {
		a, b := pixelOf(t, with, topView, p), pixelOf(t, without, topView, p)
		if d := max(absDiff(a.R, b.R), absDiff(a.G, b.G), absDiff(a.B, b.B)); d > 3 {
			t.Errorf("%v: %v with the wall, %v without", p, a, b)
		}
	}
	// The ground mesh just west of the wall (x = 0.25, z = 0.35: outside the pit) is
	// in its shadow.
	p := geom.Vec3{0.2, 0, 0.4}
	a, b := pixelOf(t, with, topView, p), pixelOf(t, without, topView, p)
	if !(int(a.G)+40 < int(b.G)) {
		t.Errorf("%v: %v in the wall's shadow, %v without the wall", p, a, b)
	}
	t.Logf("ground mesh at %v: %v in the wall's shadow, %v without", p, a, b)
	if n := countClay(without); n != 0 {
		t.Errorf("without objects, %d clay pixels", n)
	}
}

// absDiff returns |a - b|.
func absDiff(a, b uint8) int {
	if a > b {
		return int(a - b)
	}
	return int(b - a)
}

// A solid's corner normals keep its edges: a box's are its faces' normals, a
// sphere's are smooth (within the tessellation of the radial direction), a
// cylinder's side and caps meet at a crease. Seen from above, the box's top is one
// flat colour, where smooth vertex normals shade it as a rounded lump.
func TestSolidMeshCreases(t *testing.T) {
	box, err := NewSolidMesh(geom.BoxMesh(geom.Vec3{0, 0, 0}, geom.Vec3{2, 1, 3}))
	if err != nil {
		t.Fatal(err)
	}
	for tri := range box.triangles {
		a, b, c := box.positions[box.triangles[tri][0]], box.positions[box.triangles[tri][1]], box.positions[box.triangles[tri][2]]
		face := b.Sub(a).Cross(c.Sub(a)).Unit()
		for _, n := range box.shadingNormals(int32(tri)) {
			if n.Sub(face).Norm() > 1e-12 {
				t.Errorf("box triangle %d: corner normal %v, face %v", tri, n, face)
			}
		}
	}
	centre := geom.Vec3{0.5, 0.2, -0.3}
	sphere, _ := NewSolidMesh(geom.SphereMesh(centre, 0.4, 24, 48))
	worst := 0.0
	for tri := range sphere.triangles {
		for k, n := range sphere.shadingNormals(int32(tri)) {
			radial := sphere.positions[sphere.triangles[tri][k]].Sub(centre).Unit()
			worst = max(worst, math.Acos(min(1, n.Dot(radial))))
		}
	}
	// Rings and segments of 7.5 degrees: the normals lean at most a few degrees.
	if worst > 4*math.Pi/180 {
		t.Errorf("sphere: a corner normal is %.2f degrees from the radial direction", worst*180/math.Pi)
	}
	cyl, _ := NewSolidMesh(geom.CylinderMesh(geom.Cylinder{A: geom.Vec3{0, 0, 0}, B: geom.Vec3{0, 1, 0}, Radius: 0.3}, 48))
	for tri := range cyl.triangles {
		for k, n := range cyl.shadingNormals(int32(tri)) {
			p := cyl.positions[cyl.triangles[tri][k]]
			a, b, c := cyl.positions[cyl.triangles[tri][0]], cyl.positions[cyl.triangles[tri][1]], cyl.positions[cyl.triangles[tri][2]]
			isCap := math.Abs(a[1]-b[1]) < 1e-12 && math.Abs(b[1]-c[1]) < 1e-12
			if isCap && math.Abs(math.Abs(n[1])-1) > 1e-12 || !isCap && (math.Abs(n[1]) > 1e-12 || math.Abs(n.Dot(geom.Vec3{p[0], 0, p[2]}.Unit())-1) > 1e-2) {
				t.Errorf("cylinder triangle %d corner %d at %v: normal %v (cap %v)", tri, k, p, n, isCap)
			}
		}
	}
	// The wall's top from above: solid, one colour across; smooth, a gradient.
	top := []geom.Vec3{{0.33, 0.4, 0}, {0.4, 0.4, 0}, {0.47, 0.4, 0}}
	smooth, _ := NewMesh(geom.BoxMesh(geom.Vec3{0.3, 0, -0.5}, geom.Vec3{0.5, 0.4, 0.5}))
	for _, c := range []struct {
		mesh   *Mesh
		spread func(int) bool
	}{{wallObjects(t, -0.5, 0.5), func(d int) bool { return d <= 2 }}, {smooth, func(d int) bool { return d > 10 }}} {
		img := Render(Points{}, topView, Options{Width: 200, Height: 200, Objects: c.mesh, LightDir: geom.Vec3{0.5, 1, 0.2}, Ground: GroundNone})
		lo, hi := 255, 0
		for _, p := range top {
			r := int(pixelOf(t, img, topView, p).R)
			lo, hi = min(lo, r), max(hi, r)
		}
		if !c.spread(hi - lo) {
			t.Errorf("solid %v: the wall's top spans red %d to %d", c.mesh.corners != nil, lo, hi)
		}
		t.Logf("solid %v: the wall's top spans red %d to %d", c.mesh.corners != nil, lo, hi)
	}
}

// isSnowWhite reports whether c is lit snow: bright, blue at least as strong as
// red, unlike the clay objects and the warm grey ground.
func isSnowWhite(c color.RGBA) bool { return c.R > 150 && c.B >= c.R }

// A snow mesh (Options.Snow, the snow's surface drawn instead of its particles)
// takes the snow's colour, beside objects that stay clay, with no particles at all;
// the bytes are the same for any number of workers.
func TestSnowMeshIsDrawnInSnowColour(t *testing.T) {
	wall := wallObjects(t, -0.5, 0.5)
	ball, err := NewMesh(geom.SphereMesh(geom.Vec3{-0.2, 0.1, 0}, 0.1, 24, 48))
	if err != nil {
		t.Fatal(err)
	}
	opt := Options{Width: 200, Height: 200, Ground: GroundAt, GroundHeight: 0, Objects: wall, Snow: ball,
		LightDir: geom.Vec3{0.3, 1, 0.2}, Workers: 1}
	img := Render(Points{Radius: 0.01}, topView, opt)
	if c := pixelOf(t, img, topView, geom.Vec3{-0.2, 0.2, 0}); !isSnowWhite(c) {
		t.Errorf("the ball's top: pixel %v is not snow white", c)
	}
	if c := pixelOf(t, img, topView, geom.Vec3{0.4, 0.4, 0}); !isClay(c) {
		t.Errorf("the wall's top: pixel %v is not clay", c)
	}
	if c := pixelOf(t, img, topView, geom.Vec3{-0.4, 0, -0.4}); isSnowWhite(c) || isClay(c) {
		t.Errorf("the ground: pixel %v is snow or clay", c)
	}
	opt.Workers = 3
	if other := Render(Points{Radius: 0.01}, topView, opt); !bytes.Equal(img.Pix, other.Pix) {
		t.Fatal("renders with 1 and 3 workers differ")
	}
	// Without the snow mesh, the ball's place is ground.
	opt.Snow = nil
	if c := pixelOf(t, Render(Points{Radius: 0.01}, topView, opt), topView, geom.Vec3{-0.2, 0.2, 0}); isSnowWhite(c) {
		t.Errorf("no snow mesh, yet the ball's place is %v", c)
	}
}
