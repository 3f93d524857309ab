package heightfield

import (
	"math"
	"testing"

	"snowtools/levelset/geom"
	"snowtools/simcore/collider"
)

// walker is a foot-sized box that comes down, slides 5 cm forward while it turns a
// little (so carriers slide and leave the ground unevenly), and lifts off fast.
func walker(t *testing.T) collider.Collider {
	t.Helper()
	foot := geom.Box{Min: geom.Vec3{-0.12, 0, -0.045}, Max: geom.Vec3{0.12, 0.08, 0.045}}
	keys := []collider.TranslationKey{
		{T: 0, P: geom.Vec3{0, 0.05, 0}},
		{T: 0.1, P: geom.Vec3{0, -0.025, 0}},
		{T: 0.25, P: geom.Vec3{0.05, -0.025, 0}},
		{T: 0.35, P: geom.Vec3{0.1, 0.15, 0}},
	}
	rot := []collider.RotationKey{
		{T: 0.1, Q: collider.Quat{W: 1}},
		{T: 0.35, Q: collider.QuatAxisAngle(geom.Vec3{0, 0, 1}, 0.3)},
	}
	c, err := collider.NewRigidBody(foot, keys, rot, collider.Surface{})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestMaterialBudget(t *testing.T) {
	for _, name := range PresetNames() {
		m, _ := Preset(name)
		cfg := testConfig(m, walker(t))
		cfg.Terrain = Noise{Base: 0, Amplitude: 0.004, Scale: 0.05, Octaves: 2, Seed: 3}
		cfg.Spray.DropSpeed = 0.5
		s := newSim(t, cfg)
		worst := 0.0
		for f := 1; f <= 60; f++ { // 1 s: the spray of the lift-off lands
			if _, err := s.Advance(float64(f) / 60); err != nil {
				t.Fatal(err)
			}
			worst = max(worst, math.Abs(budgetError(s)))
		}
		st := s.Stats()
		if st.Pushed == 0 || st.Landed == 0 || s.Adhered() == 0 {
			t.Fatalf("%s: nothing happened: %+v, adhered %g", name, st, s.Adhered())
		}
		// Round-off: a few ulps of the volumes that moved.
		if worst > 1e-12*st.Pushed {
			t.Errorf("%s: the budget is off by %g m^3 (pushed %g m^3)", name, worst, st.Pushed)
		}
		t.Logf("%s: pushed %.4g, compressed %.4g, adhered %.3g, landed %d, in the air %d; budget closes to %.2g m^3",
			name, st.Pushed, st.Compressed, s.Adhered(), st.Landed, s.P.Len(), worst)
	}
}

// crater presses a ball of radius 4 cm 2 cm deep into flat ground and holds it.
func crater(t *testing.T, m Material) *Sim {
	ball := press(t, geom.Sphere{Radius: 0.04, Center: geom.Vec3{0, 0.04, 0}}, 0.02, 0.1, 0.2, 0.3)
	cfg := testConfig(m, ball)
	cfg.Spray.Adhesion = 0
	s := newSim(t, cfg)
	if _, err := s.Advance(0.15); err != nil {
		t.Fatal(err)
	}
	return s
}

// rimAndCrater returns the material above the initial surface and the volume of the
// hollow below it.
func rimAndCrater(s *Sim) (rim, hollow float64) {
	d2 := s.Config().Cell * s.Config().Cell
	r := s.Field().Stored()
	for _, h := range s.Field().Heights(r) { // flat ground at 0
		if h > 0 {
			rim += h * d2
		} else {
			hollow -= h * d2
		}
	}
	return rim, hollow
}

func TestCraterRimHoldsAlpha(t *testing.T) {
	// Without inward erosion (theta_in = pi/2, as in mud and snow) the hollow is what
	// the ball pushed out, and the rim holds alpha of it.
	for _, m := range []Material{Mud, Snow, {Liquidity: 0.8, Roughness: 0.2, InsideSlope: 1.57, OutsideSlope: 0.436, Compression: 0.3}} {
		s := crater(t, m)
		rim, hollow := rimAndCrater(s)
		sphereCap := math.Pi * 0.02 * 0.02 * (3*0.04 - 0.02) / 3 // the volume of the ball below the surface
		if math.Abs(hollow-sphereCap) > 0.05*sphereCap {
			t.Errorf("%+v: hollow %.4g m^3, the ball's cap %.4g", m, hollow, sphereCap)
		}
		if want := m.Compression * hollow; math.Abs(rim-want) > 1e-12*hollow {
			t.Errorf("%+v: rim %.6g m^3, want alpha x hollow = %.6g", m, rim, want)
		}
	}
	// Sand (theta_in = 0.8) erodes back into the crater while the ball is there; the
	// material that slides against the ball is pushed out again, whole, so the rim
	// still holds most of alpha times the settled ground the ball pushed out.
	s := crater(t, Sand)
	rim, _ := rimAndCrater(s)
	pushed := s.Stats().Compressed / (1 - Sand.Compression)
	if ratio := rim / (Sand.Compression * pushed); ratio < 0.75 || ratio > 1+1e-12 {
		t.Errorf("sand: the rim holds %.3f of alpha x pushed", ratio)
	} else {
		t.Logf("sand: the rim holds %.3f of alpha x pushed", ratio)
	}
}

// print presses a foot 3 cm into flat ground, lifts it and lets the ground settle,
// and returns the highest point of the rim and the steepest slope of the print's
// walls (radians).
func print(t *testing.T, m Material) (rim, wall float64) {
	foot := geom.Box{Min: geom.Vec3{-0.06, 0, -0.04}, Max: geom.Vec3{0.06, 0.1, 0.04}}
	cfg := testConfig(m, press(t, foot, 0.03, 0.1, 0.2, 0.3))
	cfg.Spray.Adhesion = 0
	s := newSim(t, cfg)
	if _, err := s.Advance(1); err != nil {
		t.Fatal(err)
	}
	for j := -15; j <= 15; j++ {
		for i := -15; i <= 15; i++ {
			h := s.Field().Peek(i, j)
			rim = max(rim, h)
			wall = max(wall, math.Atan(math.Abs(h-s.Field().Peek(i+1, j))/0.01), math.Atan(math.Abs(h-s.Field().Peek(i, j+1))/0.01))
		}
	}
	return rim, wall
}

func TestPresetsMakeDifferentPrints(t *testing.T) {
	rim := map[string]float64{}
	wall := map[string]float64{}
	for _, name := range PresetNames() {
		m, _ := Preset(name)
		rim[name], wall[name] = print(t, m)
		t.Logf("%s: rim %.1f mm high, walls up to %.2f rad", name, 1e3*rim[name], wall[name])
	}
	// Snow compresses everything (alpha = 0) and keeps vertical walls; mud pushes out
	// the most and holds walls at theta_out = 1.1; sand slumps to theta_out = 0.436.
	if rim["snow"] != 0 {
		t.Errorf("snow has a rim of %g m", rim["snow"])
	}
	if !(rim["mud"] > 2*rim["sand"] && rim["sand"] > 0) {
		t.Errorf("rims: mud %g, sand %g: want mud's well above sand's", rim["mud"], rim["sand"])
	}
	if !(wall["snow"] > 1.2 && math.Abs(wall["mud"]-1.1) < 0.1 && math.Abs(wall["sand"]-0.436) < 0.05) {
		t.Errorf("walls: snow %.3f (want a cliff, atan 3 = 1.25), mud %.3f (want about 1.1), sand %.3f (want about 0.436)",
			wall["snow"], wall["mud"], wall["sand"])
	}
}

func TestWindowsFollowTheObjects(t *testing.T) {
	ball := func(x float64) collider.Collider {
		return &collider.MovingShape{Shape: geom.Sphere{Center: geom.Vec3{x, 0.01, 0}, Radius: 0.02}}
	}
	cfg := testConfig(Snow, ball(-0.3), ball(0.3), ball(0.32))
	cfg.Margin = 0.02
	s := newSim(t, cfg)
	ws := s.windows(s.boxes(0))
	if len(ws) != 2 {
		t.Fatalf("%d windows, want 2 (the two near balls share one)", len(ws))
	}
	// The first ball's box grown by the margin is x, z in [-0.34, -0.26] x [-0.04, 0.04].
	if r := ws[0].r; r.I0 > -34 || r.I0 < -35 || r.I1 < -25 || r.I1 > -24 || r.J0 > -4 || r.J0 < -5 || r.J1 < 5 || r.J1 > 6 {
		t.Errorf("window %v: not the columns under x, z in [-0.34, -0.26] x [-0.04, 0.04]", r)
	}
	if len(ws[1].colliders) != 2 {
		t.Errorf("window %v has %d colliders, want 2", ws[1].r, len(ws[1].colliders))
	}
	// A ball high above the ground activates nothing.
	cfg.Colliders = []collider.Collider{&collider.MovingShape{Shape: geom.Sphere{Center: geom.Vec3{0, 1, 0}, Radius: 0.02}}}
	if s := newSim(t, cfg); len(s.windows(s.boxes(0))) != 0 {
		t.Error("a ball in the air activates columns")
	}
	// A half-space has no box: the whole virtual grid is active.
	cfg.Colliders = []collider.Collider{&collider.MovingShape{Shape: geom.HalfSpace{Point: geom.Vec3{0, -0.01, 0}, Normal: geom.Vec3{0, 1, 0}}}}
	if s := newSim(t, cfg); len(s.windows(s.boxes(0))) != 1 || s.windows(s.boxes(0))[0].r != cfg.Extent {
		t.Error("a half-space does not activate the whole grid")
	}
}

func TestSameResultOnAnyThreadCount(t *testing.T) {
	run := func(threads int) ([]float64, []geom.Vec3) {
		cfg := testConfig(Sand, walker(t), press(t, geom.Sphere{Radius: 0.03, Center: geom.Vec3{0.3, 0.03, 0.2}}, 0.01, 0.1, 0.2, 0.3))
		cfg.Threads = threads
		s := newSim(t, cfg)
		if _, err := s.Advance(0.3); err != nil {
			t.Fatal(err)
		}
		return s.Field().Heights(Rect{-40, -20, 40, 30}), s.P.Pos
	}
	h1, p1 := run(1)
	h2, p2 := run(4)
	if !same(h1, h2) || len(p1) != len(p2) {
		t.Fatal("heights or spray differ between 1 and 4 threads")
	}
	for k := range p1 {
		if p1[k] != p2[k] {
			t.Fatalf("particle %d at %v and %v", k, p1[k], p2[k])
		}
	}
}

func TestConfigValidate(t *testing.T) {
	good := testConfig(Sand)
	if err := good.Validate(); err != nil {
		t.Fatal(err)
	}
	for name, change := range map[string]func(c *Config){
		"cell":    func(c *Config) { c.Cell = 0 },
		"extent":  func(c *Config) { c.Extent = Rect{} },
		"terrain": func(c *Config) { c.Terrain = nil },
		"bottom":  func(c *Config) { c.Bottom = 1 },
		"dt":      func(c *Config) { c.Dt = math.NaN() },
		"margin":  func(c *Config) { c.Margin = -1 },
		"spray":   func(c *Config) { c.Spray.ReleaseTime = 0 },
	} {
		c := good
		change(&c)
		if c.Validate() == nil {
			t.Errorf("bad %s accepted", name)
		}
	}
}
