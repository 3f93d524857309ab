package collider

import (
	"math"
	"testing"

	"snowtools/levelset/geom"
)

func near(a, b geom.Vec3, tol float64) bool { return a.Sub(b).Norm() <= tol }

// The response of section 8, case by case, in the frame of a moving collider.
func TestContactRules(t *testing.T) {
	n := geom.Vec3{0, 1, 0}
	vco := geom.Vec3{1, 0, 0} // the collider slides along x
	rough := Surface{Mode: Separate, Friction: 0.5}
	cases := []struct {
		name string
		v    geom.Vec3
		s    Surface
		want geom.Vec3
	}{
		// Separating: v_n >= 0 relative to the collider, no change.
		{"separating", geom.Vec3{3, 2, 0}, rough, geom.Vec3{3, 2, 0}},
		{"resting", geom.Vec3{3, 0, 0}, rough, geom.Vec3{3, 0, 0}},
		// Sticking: |v_t| = 1 <= -mu v_n = 0.5*4 = 2, so v_rel' = 0.
		{"sticking", geom.Vec3{2, -4, 0}, rough, vco},
		// Dynamic friction: v_t = (4,0,0), v_n = -2: v_rel' = v_t + mu v_n v_t/|v_t| = (3,0,0).
		{"dynamic friction", geom.Vec3{5, -2, 0}, rough, geom.Vec3{4, 0, 0}},
		// Slip: only the normal part goes.
		{"slip", geom.Vec3{5, -2, 1}, Surface{Mode: Slip, Friction: 0.5}, geom.Vec3{5, 0, 1}},
		// Sticky: v_rel' = 0 even when separating.
		{"sticky separating", geom.Vec3{3, 2, 0}, Surface{Mode: Sticky}, vco},
		{"sticky approaching", geom.Vec3{0, -1, 7}, Surface{Mode: Sticky}, vco},
	}
	for _, c := range cases {
		if got := response(c.v, n, vco, c.s); !near(got, c.want, 1e-12) {
			t.Errorf("%s: v = %v -> %v, want %v", c.name, c.v, got, c.want)
		}
	}
}

// Friction never reverses the tangential motion and never adds energy, for any normal.
func TestContactDissipates(t *testing.T) {
	normals := []geom.Vec3{{0, 1, 0}, geom.Vec3{1, 2, 3}.Unit(), geom.Vec3{-0.5, 0.1, 0.7}.Unit()}
	for _, n := range normals {
		for mu := 0.0; mu <= 2; mu += 0.25 {
			for _, v := range []geom.Vec3{{1, -1, 0}, {-3, -0.2, 2}, {0.1, -5, 0.3}} {
				out := response(v, n, geom.Vec3{}, Surface{Mode: Separate, Friction: mu})
				if out.Dot(n) < -1e-12 {
					t.Errorf("n=%v mu=%g v=%v: still approaching: %v", n, mu, v, out)
				}
				if out.Norm() > v.Norm()+1e-12 {
					t.Errorf("n=%v mu=%g v=%v: gained speed: %v", n, mu, v, out)
				}
				vt := v.Sub(n.Scale(v.Dot(n)))
				if out.Dot(vt) < -1e-12 {
					t.Errorf("n=%v mu=%g v=%v: friction reversed the slide: %v", n, mu, v, out)
				}
			}
		}
	}
}

// A moving collider is its shape translated by velocity times time; only colliders that
// contain the point change the velocity.
func TestMovingShapeAndCollide(t *testing.T) {
	plate := &MovingShape{
		Shape:    geom.HalfSpace{Point: geom.Vec3{0, 1, 0}, Normal: geom.Vec3{0, -1, 0}}, // solid above y = 1
		Velocity: geom.Vec3{0, -2, 0},
		Contact:  Surface{Mode: Slip},
	}
	phi, n, v := plate.Sample(geom.Vec3{0, 0.5, 0}, 0.2) // the face is at y = 0.6 at t = 0.2
	if math.Abs(phi-0.1) > 1e-12 || n != (geom.Vec3{0, -1, 0}) || v != (geom.Vec3{0, -2, 0}) {
		t.Fatalf("Sample = %g, %v, %v", phi, n, v)
	}
	cols := []Collider{plate}
	if got := Collide(cols, geom.Vec3{0, 0.5, 0}, geom.Vec3{0, 1, 0}, 0, 0.2); got != (geom.Vec3{0, 1, 0}) {
		t.Errorf("outside the plate the velocity changed: %v", got)
	}
	// Inside at t = 0.3 (face at y = 0.4): approaching relative velocity 3 becomes the plate's.
	if got := Collide(cols, geom.Vec3{0, 0.5, 0}, geom.Vec3{0, 1, 0}, 0, 0.3); !near(got, geom.Vec3{0, -2, 0}, 1e-12) {
		t.Errorf("inside the plate: %v, want the plate's velocity", got)
	}
	// Tested where the point ends: from y = 0.45 at 1.5 m/s for 0.1 s it reaches 0.6,
	// the face at t = 0.2.
	if got := Collide(cols, geom.Vec3{0, 0.45, 0}, geom.Vec3{0, 1.5, 0}, 0.1, 0.2); !near(got, geom.Vec3{0, -2, 0}, 1e-12) {
		t.Errorf("ending inside the plate: %v, want the plate's velocity", got)
	}
	// A sticky plate holds a point on its face that is moving away from it; a slip
	// plate lets it go.
	for _, mode := range []ContactMode{Slip, Sticky} {
		plate.Contact.Mode = mode
		got := Collide(cols, geom.Vec3{0, 0.6, 0}, geom.Vec3{0, -3, 0}, 0.1, 0.2)
		want := geom.Vec3{0, -3, 0}
		if mode == Sticky {
			want = plate.Velocity
		}
		if !near(got, want, 1e-12) {
			t.Errorf("%v plate, point on its face leaving: %v, want %v", mode, got, want)
		}
	}
}

// The domain walls' distances, positive inside the domain.
func TestDomainWalls(t *testing.T) {
	walls := BoxWalls(geom.Box{Min: geom.Vec3{0, 0, 0}, Max: geom.Vec3{1, 2, 3}}, Surface{})
	inside := geom.Vec3{0.25, 0.5, 2.5}
	want := []float64{0.25, 0.75, 0.5, 1.5, 2.5, 0.5}
	for i, w := range walls {
		if phi, _, _ := w.Sample(inside, 0); math.Abs(phi-want[i]) > 1e-12 {
			t.Errorf("wall %d: phi = %g, want %g", i, phi, want[i])
		}
	}
}

// A point touches a collider within distance d of it, inside or out.
func TestTouching(t *testing.T) {
	floor := &MovingShape{Shape: geom.HalfSpace{Point: geom.Vec3{}, Normal: geom.Vec3{0, 1, 0}}}
	// lowered reports a positive phi lowered by 0.5 but kept positive, as a level-set
	// body does within its slack: only its sign is exact.
	lowered := loweredPhi{floor}
	for _, c := range []Collider{floor, lowered} {
		for _, tc := range []struct {
			y    float64
			want bool
		}{{-0.1, true}, {0, true}, {0.15, true}, {0.25, false}, {0.6, false}} {
			if got := Touching([]Collider{c}, geom.Vec3{1, tc.y, 2}, 0, 0.2); got != tc.want {
				t.Errorf("%T: point at height %g within 0.2: %v, want %v", c, tc.y, got, tc.want)
			}
		}
	}
}

// loweredPhi is a collider whose Sample lowers a positive phi by 0.5, keeping it
// positive, as RigidBody and DeformingLevelSet do within their slack.
type loweredPhi struct{ Collider }

func (l loweredPhi) Sample(x geom.Vec3, t float64) (float64, geom.Vec3, geom.Vec3) {
	phi, n, v := l.Collider.Sample(x, t)
	if phi > 0 {
		phi = math.Max(phi-0.5, math.Min(phi, 1e-9))
	}
	return phi, n, v
}

// Against a receding surface a point keeps the approach it came with (vIn) and loses
// only what the step added toward the collider; at rest it collides as by Collide.
func TestCollideReceding(t *testing.T) {
	floor := &MovingShape{Shape: geom.HalfSpace{Point: geom.Vec3{}, Normal: geom.Vec3{0, 1, 0}}, Contact: Surface{Mode: Slip}}
	cols := []Collider{floor}
	x := geom.Vec3{0, 0.01, 0}
	for _, c := range []struct {
		name      string
		vIn, v    geom.Vec3
		want      geom.Vec3
		wantEqual bool // the same as Collide
	}{
		{"at rest, pushed in", geom.Vec3{}, geom.Vec3{1, -0.5, 0}, geom.Vec3{1, 0, 0}, true},
		{"approaching, pushed further", geom.Vec3{0, -1, 0}, geom.Vec3{1, -1.5, 0}, geom.Vec3{1, -1, 0}, false},
		{"approaching, slowing", geom.Vec3{0, -1, 0}, geom.Vec3{1, -0.5, 0}, geom.Vec3{1, -0.5, 0}, false},
		{"leaving", geom.Vec3{0, 1, 0}, geom.Vec3{1, -0.5, 0}, geom.Vec3{1, 0, 0}, true},
	} {
		got := CollideReceding(cols, x, c.vIn, c.v, 0.1, 0)
		if !near(got, c.want, 1e-12) {
			t.Errorf("%s: %v -> %v, want %v", c.name, c.v, got, c.want)
		}
		if same := near(got, Collide(cols, x, c.v, 0.1, 0), 1e-12); same != c.wantEqual {
			t.Errorf("%s: same as Collide: %v, want %v", c.name, same, c.wantEqual)
		}
	}
	// The approach is relative: a plate moving up into a point at rest recedes at its
	// own speed, so it does not push the point, which Collide does.
	plate := &MovingShape{Shape: geom.HalfSpace{Point: geom.Vec3{}, Normal: geom.Vec3{0, 1, 0}},
		Velocity: geom.Vec3{0, 2, 0}, Contact: Surface{Mode: Slip}}
	plates := []Collider{plate}
	if got := CollideReceding(plates, x, geom.Vec3{}, geom.Vec3{}, 0.1, 0.1); !near(got, geom.Vec3{}, 1e-12) {
		t.Errorf("plate moving into a point at rest: %v, want it left at rest", got)
	}
	if got := Collide(plates, x, geom.Vec3{}, 0.1, 0.1); !near(got, plate.Velocity, 1e-12) {
		t.Errorf("Collide: plate moving into a point at rest: %v, want the plate's velocity", got)
	}
}

// InReach keeps the block's colliders for a point that moves at most one cell, |v| dt
// <= h (the boundary included), and returns them all for one that moves farther, along
// any axis or diagonally.
func TestInReach(t *testing.T) {
	floor := &MovingShape{Shape: geom.HalfSpace{Point: geom.Vec3{}, Normal: geom.Vec3{0, 1, 0}}}
	wall := &MovingShape{Shape: geom.HalfSpace{Point: geom.Vec3{}, Normal: geom.Vec3{1, 0, 0}}}
	nearBy, all := []Collider{floor}, []Collider{floor, wall}
	const dt, h = 0.5, 0.25 // a point reaches one cell at |v| = 0.5
	cases := []struct {
		v   geom.Vec3
		far bool
	}{
		{geom.Vec3{}, false},
		{geom.Vec3{0.5, 0, 0}, false}, // exactly one cell
		{geom.Vec3{0, 0, -0.5}, false},
		{geom.Vec3{0.3, 0.4, 0}, false}, // |v| = 0.5 diagonally
		{geom.Vec3{math.Nextafter(0.5, 1), 0, 0}, true},
		{geom.Vec3{0, -0.6, 0}, true},
		{geom.Vec3{0.3, 0.3, 0.3}, true}, // |v| = 0.52, no component above 0.5
	}
	for _, c := range cases {
		got := InReach(nearBy, all, &c.v, dt, h)
		if want := map[bool]int{false: 1, true: 2}[c.far]; len(got) != want {
			t.Errorf("v = %v: %d colliders, want %d", c.v, len(got), want)
		}
	}
}

// clampedPhi is a bounded collider whose phi is clamped to 0.1 away from its box, as a
// voxelized collider's is beyond its narrow band.
type clampedPhi struct{ box geom.Box }

func (c clampedPhi) Sample(x geom.Vec3, t float64) (float64, geom.Vec3, geom.Vec3) {
	phi, n := c.box.Distance(x)
	return math.Min(phi, 0.1), n, geom.Vec3{}
}
func (c clampedPhi) Surface() Surface                  { return Surface{} }
func (c clampedPhi) Bounds(t float64) (geom.Box, bool) { return c.box, true }

// Nearby rules out a bounded collider whose box is out of reach even where its phi,
// clamped, would keep it; within reach of the box, its phi decides.
func TestNearbyBounds(t *testing.T) {
	c := clampedPhi{geom.Box{Min: geom.Vec3{0, 0, 0}, Max: geom.Vec3{1, 1, 1}}}
	all := []Collider{c}
	for _, k := range []struct {
		at   geom.Vec3
		r    float64
		want int
	}{
		{geom.Vec3{3, 0.5, 0.5}, 0.5, 0},    // phi 0.1 <= r, but the box is 2 away
		{geom.Vec3{1.4, 0.5, 0.5}, 0.5, 1},  // the box within reach
		{geom.Vec3{1.4, 0.5, 0.5}, 0.05, 0}, // phi 0.1 > r
		{geom.Vec3{3, 3, 3}, 3.5, 1},        // the box's corner 2 sqrt(3) = 3.46 away
		{geom.Vec3{3, 3, 3}, 3.4, 0},
	} {
		if got := Nearby(nil, all, k.at, k.r, 0); len(got) != k.want {
			t.Errorf("Nearby(%v, r = %g): %d colliders, want %d", k.at, k.r, len(got), k.want)
		}
	}
}
