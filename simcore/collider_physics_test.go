package simcore

import (
	"math"
	"testing"

	"snowtools/levelset"
	"snowtools/levelset/geom"
	"snowtools/levelset/voxelize"
	"snowtools/simcore/collider"
)

// movingBoxMesh returns the closed triangle mesh of the box [lo, hi], every vertex moving at v.
func movingBoxMesh(lo, hi, v geom.Vec3) *geom.Mesh {
	m := geom.BoxMesh(lo, hi)
	m.Velocities = make([]geom.Vec3, len(m.Positions))
	for i := range m.Velocities {
		m.Velocities[i] = v
	}
	return m
}

// voxelKeyframe voxelizes the box [lo, hi] moving at v, as cmd/voxelize does a frame.
func voxelKeyframe(t testing.TB, lo, hi, v geom.Vec3, h float64, halfWidth int) *collider.Keyframe {
	t.Helper()
	c, err := voxelize.Mesh(movingBoxMesh(lo, hi, v), voxelize.Options{VoxelSize: h, HalfWidth: halfWidth, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	return &collider.Keyframe{Surface: c.Surface, Velocity: c.Velocity}
}

func TestBoxMeshAndVoxelKeyframe(t *testing.T) {
	lo, hi := geom.Vec3{0.1, 0.2, 0.3}, geom.Vec3{0.5, 0.4, 0.6}
	m := movingBoxMesh(lo, hi, geom.Vec3{1, 0, 0})
	if err := m.Validate(); err != nil || len(m.Triangles) != 12 {
		t.Fatalf("box mesh: %v, %d triangles", err, len(m.Triangles))
	}
	k := voxelKeyframe(t, lo, hi, geom.Vec3{1, 0, 0}, 0.05, 3)
	s := levelset.NewFloatSampler(k.Surface)
	box := geom.Box{Min: lo, Max: hi}
	for _, p := range []geom.Vec3{{0.3, 0.3, 0.45}, {0.55, 0.3, 0.45}, {0.3, 0.1, 0.45}, {0.2, 0.3, 0.35}, {2, 2, 2}} {
		want, _ := box.Distance(p)
		want = math.Max(math.Min(want, 0.15), -0.15)
		if got := s.Sample(p); math.Abs(got-want) > 1e-6 {
			t.Errorf("phi(%v) = %g, want %g", p, got, want)
		}
	}
}

// runFrames advances s frame by frame to frame n at fps, giving a deforming collider its
// keyframes for each frame first, as the command does; check runs at every quarter frame.
func runFrames(t *testing.T, s *Sim, c *collider.DeformingLevelSet, key func(f int) *collider.Keyframe, n int, fps float64, check func(tm float64)) {
	t.Helper()
	next := key(0)
	for f := 0; f < n; f++ {
		cur := next
		next = key(f + 1)
		if c != nil {
			if err := c.SetKeyframes(cur, next, float64(f)/fps, float64(f+1)/fps); err != nil {
				t.Fatal(err)
			}
		}
		for q := 1; q <= 4; q++ {
			tm := (float64(f) + float64(q)/4) / fps
			if _, err := s.Advance(tm); err != nil {
				t.Fatal(err)
			}
			if check != nil {
				check(tm)
			}
		}
	}
}

// A plate moving at a constant 0.5 m/s pushes a block of snow along the floor: the snow
// next to it moves at the plate's speed, for the rigid collider and for the deforming
// one fed with voxelized keyframes frame by frame.
func TestColliderPushesSnowAtItsSpeed(t *testing.T) {
	const h, fps, speed = 0.04, 24.0, 0.5
	plateLo, plateHi := geom.Vec3{0.14, -0.1, 0.1}, geom.Vec3{0.26, 0.3, 0.5}
	for _, kind := range []string{"rigid", "deforming"} {
		cfg := DefaultConfig()
		cfg.H = h
		cfg.Domain = geom.Box{Min: geom.Vec3{0, 0, 0}, Max: geom.Vec3{0.8, 0.4, 0.6}}
		contact := collider.Surface{Mode: collider.Separate, Friction: 0.3}
		var deforming *collider.DeformingLevelSet
		var key func(int) *collider.Keyframe
		if kind == "rigid" {
			body, err := collider.NewRigidBody(geom.Box{Min: plateLo, Max: plateHi},
				[]collider.TranslationKey{{T: 0}, {T: 1, P: geom.Vec3{speed, 0, 0}}}, nil, contact)
			if err != nil {
				t.Fatal(err)
			}
			cfg.Colliders = []collider.Collider{body}
			key = func(int) *collider.Keyframe { return nil }
		} else {
			deforming = &collider.DeformingLevelSet{Contact: contact}
			cfg.Colliders = []collider.Collider{deforming}
			v := geom.Vec3{speed, 0, 0}
			key = func(f int) *collider.Keyframe {
				d := v.Scale(float64(f) / fps)
				return voxelKeyframe(t, plateLo.Add(d), plateHi.Add(d), v, h, 4)
			}
		}
		s := newBlock(t, cfg, geom.Box{Min: geom.Vec3{0.3, 0, 0.2}, Max: geom.Vec3{0.46, 0.08, 0.4}}, DefaultMaterial, geom.Vec3{})
		const frames = 6 // the plate reaches the snow after 0.08 s, 2 frames
		runFrames(t, s, deforming, key, frames, fps, nil)
		front := plateHi[0] + speed*frames/fps
		var vx, m float64
		minX := math.Inf(1)
		for i, x := range s.P.X {
			minX = math.Min(minX, x[0])
			if x[0] < front+1.5*h {
				vx += float64(s.P.Mass[i]) * s.P.V[i][0]
				m += float64(s.P.Mass[i])
			}
		}
		if m == 0 {
			t.Fatalf("%s: no snow within 1.5 h of the plate at x = %.3f (nearest %.3f)", kind, front, minX)
		}
		vx /= m
		t.Logf("%s: plate face at %.3f m, snow from %.3f m; snow within 1.5 h of the plate moves at %.3f m/s (plate %.2f)",
			kind, front, minX, vx, speed)
		if math.Abs(vx-speed) > 0.05*speed {
			t.Errorf("%s: snow next to the plate moves at %.3f m/s, the plate at %.2f", kind, vx, speed)
		}
		if minX < front-0.5*h {
			t.Errorf("%s: a particle is %.2f h inside the plate", kind, (front-minX)/h)
		}
	}
}

// A plate two voxels thick (voxel = grid h) moving four voxels per frame, keyframes one
// frame apart voxelized from a box mesh: no particle gets through it or stays inside.
func TestThinFastPlateLetsNothingThrough(t *testing.T) {
	const h, fps = 0.04, 24.0
	v := geom.Vec3{4 * h * fps, 0, 0} // 3.84 m/s
	plateLo, plateHi := geom.Vec3{0.1, -0.1, -0.1}, geom.Vec3{0.1 + 2*h, 0.5, 0.5}
	cfg := DefaultConfig()
	cfg.H = h
	cfg.Domain = geom.Box{Min: geom.Vec3{0, 0, 0}, Max: geom.Vec3{1.6, 0.4, 0.4}}
	c := &collider.DeformingLevelSet{Contact: collider.Surface{Mode: collider.Separate, Friction: 0.3}}
	cfg.Colliders = []collider.Collider{c}
	// The band must cover the kernel's reach plus the motion in a frame: 2 + 4 voxels.
	key := func(f int) *collider.Keyframe {
		d := v.Scale(float64(f) / fps)
		return voxelKeyframe(t, plateLo.Add(d), plateHi.Add(d), v, h, 7)
	}
	s := newBlock(t, cfg, geom.Box{Min: geom.Vec3{0.3, 0, 0.12}, Max: geom.Vec3{0.46, 0.12, 0.28}}, DefaultMaterial, geom.Vec3{})
	worst := math.Inf(-1) // the deepest a particle got past the plate's front face, in h
	runFrames(t, s, c, key, 5, fps, func(tm float64) {
		back := plateLo[0] + v[0]*tm
		front := back + 2*h
		for i, x := range s.P.X {
			worst = math.Max(worst, (front-x[0])/h)
			if x[0] < back {
				t.Fatalf("t = %.4f s: particle %d at x = %.4f is behind the plate (%.4f to %.4f)", tm, s.P.ID[i], x[0], back, front)
			}
		}
	})
	t.Logf("plate at %.2f m/s, 4 voxels a frame: deepest particle %.2f h inside the front face (the plate is 2 h thick)", v[0], worst)
	if worst > 1 {
		t.Errorf("a particle got %.2f h into a plate 2 h thick", worst)
	}
}

// Snow under an overhang: a sticky one holds the snow that touches it, a separating one
// lets the block fall freely. The overhang is a static deforming collider (one
// voxelized keyframe at rest). Below the held layer the block may stretch and tear:
// snow has little tensile strength (theta_s = 0.75%), so the test follows the top layer.
// The block only touches the underside: a sticky collider holds what touches it now,
// not only what would end a step inside it (see collide).
func TestOverhangStickyVersusSeparating(t *testing.T) {
	const h = 0.04
	const dur = 0.2
	roof := voxelKeyframe(t, geom.Vec3{0.2, 0.4, 0.1}, geom.Vec3{0.6, 0.8, 0.5}, geom.Vec3{}, h, 3)
	drop := map[collider.ContactMode]float64{}
	for _, mode := range []collider.ContactMode{collider.Sticky, collider.Separate} {
		cfg := DefaultConfig()
		cfg.H = h
		cfg.Domain = geom.Box{Min: geom.Vec3{0, 0, 0}, Max: geom.Vec3{0.8, 0.8, 0.6}}
		c := &collider.DeformingLevelSet{Contact: collider.Surface{Mode: mode, Friction: 0.3}}
		if err := c.SetKeyframes(roof, roof, 0, dur); err != nil {
			t.Fatal(err)
		}
		cfg.Colliders = []collider.Collider{c}
		// The block is packed against the overhang's underside at y = 0.4.
		s := newBlock(t, cfg, geom.Box{Min: geom.Vec3{0.3, 0.34, 0.2}, Max: geom.Vec3{0.46, 0.4, 0.36}}, DefaultMaterial, geom.Vec3{})
		top := map[int32]float64{} // the particles of the top half cell, next to the overhang
		for i, x := range s.P.X {
			if x[1] > 0.4-h/2 {
				top[s.P.ID[i]] = x[1]
			}
		}
		y0 := centroid(s.P)[1]
		if _, err := s.Advance(dur); err != nil {
			t.Fatal(err)
		}
		var sum float64
		for i, x := range s.P.X {
			if y, ok := top[s.P.ID[i]]; ok {
				sum += y - x[1]
			}
		}
		drop[mode] = sum / float64(len(top))
		t.Logf("%v: top layer (%d particles) dropped %.4f m, the block's centroid %.4f m", mode, len(top), drop[mode], y0-centroid(s.P)[1])
	}
	free := 9.81 * dur * dur / 2
	t.Logf("free fall in %.2f s: %.4f m", dur, free)
	if drop[collider.Separate] < 0.9*free {
		t.Errorf("under a separating overhang the snow fell %.4f m, free fall is %.4f m", drop[collider.Separate], free)
	}
	if drop[collider.Sticky] > 0.05*drop[collider.Separate] {
		t.Errorf("the sticky overhang let the snow drop %.4f m (separating: %.4f m)", drop[collider.Sticky], drop[collider.Separate])
	}
}
