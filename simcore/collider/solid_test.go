package collider

import (
	"math"
	"testing"

	"snowtools/levelset"
	"snowtools/levelset/geom"
)

// clearTestBall is a deforming ball that moves 4 voxels a frame, inside a grid box wide
// against it.
func clearTestBall(t testing.TB) (*DeformingLevelSet, float64) {
	t.Helper()
	const h = 0.01
	v := geom.Vec3{0.96, 0, 0}
	lo, hi := geom.Vec3{0.1, 0.2, 0.2}, geom.Vec3{0.9, 0.8, 0.8}
	a := keyframeFromShape(geom.Sphere{Center: geom.Vec3{0.45, 0.5, 0.5}, Radius: 0.12}, uniformVelocity(v), h, 5, lo, hi)
	b := keyframeFromShape(geom.Sphere{Center: geom.Vec3{0.49, 0.5, 0.5}, Radius: 0.12}, uniformVelocity(v), h, 5, lo, hi)
	var c DeformingLevelSet
	if err := c.SetKeyframes(a, b, 0, 1.0/24); err != nil {
		t.Fatal(err)
	}
	return &c, h
}

// clearTestPlate is a plate two voxels thick that moves at v. At 1.44 m/s, 6 voxels a
// frame, it lies between the keyframes outside both keyframes' solids, and only the
// lookups dt v_max away find it. Its voxels line up with the solid cells' faces (voxels
// 10-11 at a, 16-17 at b, the cells 8-11 and 16-19), so that the cells add no slack on
// the sides that face.
func clearTestPlate(t *testing.T, v geom.Vec3) *DeformingLevelSet {
	t.Helper()
	const h = 0.01
	lo, hi := geom.Vec3{0, 0.1, 0.1}, geom.Vec3{0.3, 0.9, 0.9}
	plate := func(x float64) geom.Shape {
		return geom.Box{Min: geom.Vec3{x, 0.2, 0.2}, Max: geom.Vec3{x + 0.019, 0.8, 0.8}}
	}
	a := keyframeFromShape(plate(0.0955), uniformVelocity(v), h, 5, lo, hi)
	b := keyframeFromShape(plate(0.0955+v[0]/24), uniformVelocity(v), h, 5, lo, hi)
	var c DeformingLevelSet
	if err := c.SetKeyframes(a, b, 0, 1.0/24); err != nil {
		t.Fatal(err)
	}
	return &c
}

// Clear is exact about contact: no ball that holds a point where Sample reports phi <= 0,
// at any time, is clear, however it lies around the point; and a ball that is clear has
// phi > 0 at every point sampled in it. It also rules out balls inside the grid's box
// that the box cannot.
func TestDeformingClear(t *testing.T) {
	const h = 0.01
	ball, _ := clearTestBall(t)
	plate := clearTestPlate(t, geom.Vec3{1.44, 0, 0})
	still := clearTestPlate(t, geom.Vec3{})
	times := []float64{-0.01, 0, 0.25 / 24, 0.5 / 24, 0.8 / 24, 1.0 / 24, 0.06}
	for _, c := range []struct {
		name     string
		co       *DeformingLevelSet
		at, span geom.Vec3 // where to look for points with phi <= 0
	}{
		{"ball", ball, geom.Vec3{0.45, 0.5, 0.5}, geom.Vec3{0.34, 0.3, 0.3}},
		{"plate", plate, geom.Vec3{0.14, 0.5, 0.5}, geom.Vec3{0.1, 0.7, 0.7}},
		{"still plate", still, geom.Vec3{0.105, 0.5, 0.5}, geom.Vec3{0.04, 0.7, 0.7}},
	} {
		rng := lcgRNG(0.3)
		// Points with phi <= 0 near the surface, where a ball is most easily judged
		// clear.
		var solid, checked int
		for _, tm := range times {
			for i := 0; i < 4000; i++ {
				y := c.at.Add(geom.Vec3{c.span[0] * rng.next(), c.span[1] * rng.next(), c.span[2] * rng.next()})
				if phi, _, _ := c.co.Sample(y, tm); phi > 0 || phi < -2*h {
					continue
				}
				solid++
				for _, r := range []float64{0, 0.2 * h, h, 4 * h, 0.1} {
					u := geom.Vec3{rng.next(), rng.next(), rng.next()}.Unit()
					if r < h {
						u = geom.Vec3{1, 0, 0} // off the plate's face, where the cells fit it
					}
					centre := y.Add(u.Scale(r * (1 - 1e-9)))
					checked++
					if c.co.Clear(centre, r, tm) {
						t.Fatalf("%s, t = %g: the ball of radius %g around %v is clear, but holds %v with phi <= 0",
							c.name, tm, r, centre, y)
					}
				}
			}
		}
		if solid < 1000 {
			t.Fatalf("%s: only %d points with phi <= 0 near the surface were found", c.name, solid)
		}
		// Balls inside the box: the clear ones have phi > 0 throughout, and there are
		// some.
		box, _ := c.co.Bounds(0)
		clearInBox := 0
		for _, tm := range times {
			for i := 0; i < 2000; i++ {
				var centre geom.Vec3
				for a := range centre {
					centre[a] = box.Min[a] + (box.Max[a]-box.Min[a])*(rng.next()+0.5)
				}
				r := 0.1 * (rng.next() + 0.5)
				if !c.co.Clear(centre, r, tm) {
					continue
				}
				if !beyond(box, centre, r) {
					clearInBox++
				}
				for k := 0; k < 30; k++ {
					y := centre.Add(geom.Vec3{rng.next(), rng.next(), rng.next()}.Unit().Scale(r * (rng.next() + 0.5)))
					if phi, _, _ := c.co.Sample(y, tm); phi <= 0 {
						t.Fatalf("%s, t = %g: the ball of radius %g around %v is clear, but phi(%v) = %g",
							c.name, tm, r, centre, y, phi)
					}
				}
			}
		}
		if clearInBox < 100 {
			t.Errorf("%s: %d balls inside the box were clear: the solid cells rule out little", c.name, clearInBox)
		}
		t.Logf("%s: %d points with phi <= 0, %d balls around them; %d clear balls inside the box",
			c.name, solid, checked, clearInBox)
	}
}

// Nearby rules out a clear collider without sampling it, inside its box as outside.
func TestNearbyRulesOutAClearCollider(t *testing.T) {
	c, h := clearTestBall(t)
	box, _ := c.Bounds(0)
	corner := box.Min.Add(geom.Vec3{h, h, h}) // in the box, far from the ball
	if beyond(box, corner, h) || !c.Clear(corner, h, 0) {
		t.Fatalf("the test's point %v should be inside the box and clear of the ball", corner)
	}
	if near := Nearby(nil, []Collider{c}, corner, h, 0); len(near) != 0 {
		t.Errorf("Nearby kept the collider at %v, clear of it", corner)
	}
	centre := geom.Vec3{0.47, 0.5, 0.5}
	if near := Nearby(nil, []Collider{c}, centre.Add(geom.Vec3{0.12 + 2*h, 0, 0}), 3*h, 0.5/24); len(near) != 1 {
		t.Errorf("Nearby ruled out the collider 2 voxels from its surface")
	}
}

// A speed that is not finite gives no reach to test: such a collider is never clear.
func TestClearNeedsFiniteSpeeds(t *testing.T) {
	const h = 0.01
	lo, hi := geom.Vec3{0.1, 0.2, 0.2}, geom.Vec3{0.9, 0.8, 0.8}
	ball := geom.Sphere{Center: geom.Vec3{0.45, 0.5, 0.5}, Radius: 0.12}
	for _, bad := range []float32{float32(math.NaN()), float32(math.Inf(1))} {
		k := keyframeFromShape(ball, uniformVelocity(geom.Vec3{}), h, 5, lo, hi)
		k.Velocity.Set(levelset.Coord{80, 70, 70}, levelset.Vec3f{bad, 0, 0})
		var c DeformingLevelSet
		if err := c.SetKeyframes(k, k, 0, 1.0/24); err != nil {
			t.Fatal(err)
		}
		if corner := lo.Add(geom.Vec3{h, h, h}); c.Clear(corner, h, 0.01) {
			t.Errorf("a velocity of %g: Clear at %v", bad, corner)
		}
	}
}

// The solid cells are the cells with a voxel of phi <= 0 (or NaN or +Inf), and an inside
// tile's cells all of them; a grid without such voxels has an empty set, and one whose
// solid spans too many cells none.
func TestSolidCells(t *testing.T) {
	g := levelset.NewGrid(levelset.Transform{VoxelSize: 0.1, Origin: geom.Vec3{1, 2, 3}}, float32(0.3))
	g.Set(levelset.Coord{5, -3, 9}, 0.05)
	if s := newSolidCells(g); s == nil || s.near(g.IndexToWorld(levelset.Coord{5, -3, 9}), 1) {
		t.Fatal("a grid with no voxel <= 0 has solid cells")
	}
	g.Set(levelset.Coord{5, -3, 9}, 0)
	g.Set(levelset.Coord{-9, 1, 2}, float32(math.NaN()))
	g.Set(levelset.Coord{-9, 20, 2}, float32(math.Inf(1)))
	g.AddTile(levelset.Tile[float32]{Origin: levelset.Coord{16, 16, 16}, Log2: levelset.LeafLog2, Value: -0.3})
	s := newSolidCells(g)
	if s == nil {
		t.Fatal("no solid cells")
	}
	x := func(c levelset.Coord) geom.Vec3 { return g.IndexToWorld(c) }
	for _, c := range []struct {
		at   geom.Vec3
		r    float64
		want bool
	}{
		{x(levelset.Coord{5, -3, 9}), 0, true},
		{x(levelset.Coord{10, -3, 9}), 0.29, false}, // three voxels from its cell's last one
		{x(levelset.Coord{10, -3, 9}), 0.31, true},
		{x(levelset.Coord{-9, 1, 2}), 0, true},                  // NaN
		{x(levelset.Coord{-9, 20, 2}), 0, true},                 // +Inf, which a weight of 0 makes NaN
		{x(levelset.Coord{-100, -100, -100}), math.NaN(), true}, // a NaN reach rules nothing out
		{x(levelset.Coord{23, 23, 23}), 0, true},                // the tile's last voxel
		{x(levelset.Coord{25, 20, 20}), 0.21, true},             // two voxels beyond it
		{x(levelset.Coord{25, 20, 20}), 0.19, false},            // just short
		{geom.Vec3{math.NaN(), 0, 0}, 1, false},                 // lies nowhere
		{geom.Vec3{1e300, 1e300, 1e300}, 1e300, true},           // a huge ball holds them all
		{x(levelset.Coord{-100, -100, -100}), 0.5, false},       // far out
	} {
		if got := s.near(c.at, c.r); got != c.want {
			t.Errorf("near(%v, %g) = %v, want %v", c.at, c.r, got, c.want)
		}
	}
	// Two specks far apart: a ball between them that spans more than maxNearCells cells
	// is near without a look.
	specks := levelset.NewGrid(levelset.Transform{VoxelSize: 0.1}, float32(0.3))
	specks.Set(levelset.Coord{0, 0, 0}, -0.1)
	specks.Set(levelset.Coord{400, 400, 400}, -0.1)
	s = newSolidCells(specks)
	mid := specks.IndexToWorld(levelset.Coord{200, 200, 200})
	if !s.near(mid, 4) {
		t.Error("a ball of 20^3 cells was looked at")
	}
	if s.near(mid, 1) {
		t.Error("a ball of 5^3 cells between the specks is near")
	}
	huge := levelset.NewGrid(levelset.Transform{VoxelSize: 0.1}, float32(0.3))
	huge.AddTile(levelset.Tile[float32]{Origin: levelset.Coord{0, 0, 0}, Log2: levelset.Internal2Log2, Value: -0.3})
	if newSolidCells(huge) != nil {
		t.Error("a solid of 2^30 cells got a bit set")
	}
}

// BenchmarkDeformingClear measures Clear at points around the ball, near and far, for a
// block of snow's reach (sqrt(3) 2h + 1.25h at h = 2 cm), as Nearby asks it once per
// block, and for a particle's contact distance (h/4), as Touching asks it; compare
// BenchmarkDeformingSample at -cpu 1, the sample a particle pays without it.
func BenchmarkDeformingClear(b *testing.B) {
	c, _ := clearTestBall(b)
	rng := lcgRNG(0.7)
	points := make([]geom.Vec3, 1024)
	for i := range points {
		points[i] = geom.Vec3{0.47 + 0.8*rng.next(), 0.5 + 0.6*rng.next(), 0.5 + 0.6*rng.next()}
	}
	for _, k := range []struct {
		name string
		r    float64
	}{{"block", 0.094}, {"particle", 0.005}} {
		b.Run(k.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				c.Clear(points[i&1023], k.r, 0.02)
			}
		})
	}
}

// The reach is tight: a lookup reads a corner up to sqrt(3) h from its point, and a
// keyframe is looked up up to its travel from the sample point, so a NaN voxel on a
// solid cell's corner is found by Sample from points just short of r + travel +
// sqrt(3) h along the velocity. Clear must not rule those out, and rules out the points
// a little farther. The keyframes have different transforms.
func TestClearReachIsTight(t *testing.T) {
	const h, dt = 0.1, 1.0
	tr := levelset.Transform{VoxelSize: h, Origin: geom.Vec3{-0.37, 0.21, -5.03}}
	dir := geom.Vec3{1, 1, 1}.Unit()
	speed := 0.35 // 3.5 voxels a frame
	ga := levelset.NewGrid(tr, float32(0.5))
	ga.Set(levelset.Coord{-5, -5, -5}, float32(math.NaN())) // the last voxel of cell -2
	tb := levelset.Transform{VoxelSize: 2 * h, Origin: geom.Vec3{0.05, -0.11, 0.3}}
	gb := levelset.NewGrid(tb, float32(0.5))
	gb.Set(levelset.Coord{20, 20, 20}, float32(math.NaN())) // the first voxel of cell 5
	vel := levelset.NewGrid(tr, levelset.Vec3fOf(dir.Scale(speed)))
	var c DeformingLevelSet
	if err := c.SetKeyframes(&Keyframe{Surface: ga, Velocity: vel}, &Keyframe{Surface: gb, Velocity: vel}, 0, dt); err != nil {
		t.Fatal(err)
	}
	const shy = 1 - 1e-7
	hiCorner, loCorner := tr.IndexToWorld(levelset.Coord{-5, -5, -5}), tb.IndexToWorld(levelset.Coord{20, 20, 20})
	for _, gamma := range []float64{0, 0.25, 0.5, 0.8, 1} {
		for _, r := range []float64{0, 0.7 * h} {
			for _, side := range []float64{1, -1} {
				// keyframe a is read at y - gamma dt v, b at y + (1 - gamma) dt v.
				var y geom.Vec3
				if side > 0 { // a's lookup reaches back to the voxel from beyond its high corner
					if gamma == 1 {
						continue
					}
					y = hiCorner.Add(dir.Scale(gamma * dt * speed)).Add(geom.Vec3{h, h, h}.Scale(shy))
				} else { // b's lookup reaches forward to it from below its low corner
					if gamma == 0 {
						continue
					}
					y = loCorner.Sub(dir.Scale((1 - gamma) * dt * speed)).Sub(geom.Vec3{2 * h, 2 * h, 2 * h}.Scale(shy))
				}
				phi, _, _ := c.Sample(y, gamma*dt)
				if !math.IsNaN(phi) {
					t.Fatalf("gamma %g side %g: phi(%v) = %g, want NaN (the test's premise)", gamma, side, y, phi)
				}
				centre := y.Add(dir.Scale(side * r * shy))
				if c.Clear(centre, r, gamma*dt) {
					t.Errorf("gamma %g, r %g, side %g: Clear, but Sample reads a NaN voxel at %v", gamma, r, side, y)
				}
				// A little farther, and clear.
				far := y.Add(dir.Scale(side * (r + 0.05*h)))
				if !c.Clear(far, r, gamma*dt) {
					t.Errorf("gamma %g, r %g, side %g: not Clear %g beyond the reach", gamma, r, side, 0.05*h)
				}
			}
		}
	}
}

// hiddenSparse is a collider seen only through the Collider interface, so that Nearby,
// Touching and Collide sample it wherever they would without Clear.
type hiddenSparse struct{ Collider }

// Asking Clear first changes no contact: Touching and Collide give the same answers,
// bit for bit, for a moving ball and a thin plate, sticky or not, as they do with the
// collider's samples alone; and where Nearby rules the collider out only with Clear,
// phi > 0 throughout the ball.
func TestClearChangesNoContact(t *testing.T) {
	const h = 0.01
	ball, _ := clearTestBall(t)
	plate := clearTestPlate(t, geom.Vec3{1.44, 0, 0})
	for _, co := range []*DeformingLevelSet{ball, plate} {
		for _, mode := range []ContactMode{Separate, Sticky} {
			co.Contact = Surface{Mode: mode, Friction: 0.3}
			fast, slow := []Collider{co}, []Collider{hiddenSparse{co}}
			rng := lcgRNG(0.9)
			box, _ := co.Bounds(0)
			near, ruledOut := 0, 0
			for i := 0; i < 40000; i++ {
				var x geom.Vec3
				for a := range x {
					x[a] = box.Min[a] + (box.Max[a]-box.Min[a])*(rng.next()+0.5)
				}
				tm := (rng.next() + 0.5) / 24
				// Mostly points near the surface, where contact is decided; fast enough
				// to leave a sticky solid's reach in a step.
				if phi, _, _ := co.Sample(x, tm); math.Abs(phi) > 3*h {
					if i%8 != 0 {
						continue
					}
				} else {
					near++
				}
				v := geom.Vec3{rng.next(), rng.next(), rng.next()}.Scale(40)
				dt := 0.004 * (rng.next() + 0.5)
				if a, b := Collide(fast, x, v, dt, tm), Collide(slow, x, v, dt, tm); a != b {
					t.Fatalf("Collide at %v, v %v: %v with Clear, %v without", x, v, a, b)
				}
				if a, b := Touching(fast, x, tm, 3*h), Touching(slow, x, tm, 3*h); a != b {
					t.Fatalf("Touching at %v: %v with Clear, %v without", x, a, b)
				}
				const r = 0.09
				if a, b := len(Nearby(nil, fast, x, r, tm)), len(Nearby(nil, slow, x, r, tm)); a > b {
					t.Fatalf("Nearby at %v kept the collider only with Clear", x)
				} else if a < b {
					ruledOut++
					for k := 0; k < 20; k++ {
						u := geom.Vec3{rng.next(), rng.next(), rng.next()}.Unit()
						y := x.Add(u.Scale(r * float64(k%2))) // the centre, and points on the sphere
						if phi, _, _ := co.Sample(y, tm); phi <= 0 {
							t.Fatalf("Nearby ruled the collider out around %v, but phi(%v) = %g", x, y, phi)
						}
					}
				}
			}
			if near < 3000 || ruledOut < 100 {
				t.Fatalf("%d points near the surface, %d balls ruled out by Clear alone: too few to test", near, ruledOut)
			}
		}
	}
}
