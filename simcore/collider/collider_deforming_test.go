package collider

import (
	"math"
	"sync"
	"testing"

	"snowtools/levelset"
	"snowtools/levelset/geom"
)

// keyframeFromShape builds the grids cmd/voxelize would write for shape, densely over
// the voxels in [lo, hi]: phi within the band of half-width w voxels (active), ±w h
// beyond it (inactive), and on the band vel at the closest surface point x - phi n
// (nil vel: no velocity grid).
func keyframeFromShape(shape geom.Shape, vel func(geom.Vec3) geom.Vec3, h float64, w int, lo, hi geom.Vec3) *Keyframe {
	tr := levelset.Transform{VoxelSize: h}
	band := float64(w) * h
	k := &Keyframe{Surface: levelset.NewGrid(tr, float32(band))}
	if vel != nil {
		k.Velocity = levelset.NewGrid(tr, levelset.Vec3f{})
	}
	var a, b levelset.Coord
	for i := range 3 {
		a[i], b[i] = int32(math.Floor(lo[i]/h)), int32(math.Ceil(hi[i]/h))
	}
	for i := a[0]; i <= b[0]; i++ {
		for j := a[1]; j <= b[1]; j++ {
			for l := a[2]; l <= b[2]; l++ {
				c := levelset.Coord{i, j, l}
				x := tr.IndexToWorld(c)
				phi, n := shape.Distance(x)
				if math.Abs(phi) > band {
					k.Surface.SetValue(c, float32(math.Copysign(band, phi)), false)
					continue
				}
				k.Surface.Set(c, float32(phi))
				if vel != nil {
					k.Velocity.Set(c, levelset.Vec3fOf(vel(x.Sub(n.Scale(phi)))))
				}
			}
		}
	}
	return k
}

func uniformVelocity(v geom.Vec3) func(geom.Vec3) geom.Vec3 {
	return func(geom.Vec3) geom.Vec3 { return v }
}

// lcgRNG is a small deterministic generator of numbers in [-1/2, 1/2).
type lcgRNG float64

func (g *lcgRNG) next() float64 {
	*g = lcgRNG(math.Mod(float64(*g)*9301+49297, 233280))
	return float64(*g)/233280 - 0.5
}

// For a translating shape the interpolation is exact: with a whole number of voxels
// per frame the interpolated phi at gamma is keyframe a's phi shifted by gamma times
// the displacement (to float32 rounding), and for any displacement it is as close to the
// exact distance of the shape at the intermediate position as the keyframes' own
// trilinear phi is to theirs.
func TestDeformingTranslationIsExact(t *testing.T) {
	const h, dt = 0.02, 1.0 / 24
	for _, d := range []geom.Vec3{{4 * h, -2 * h, h}, {3.3 * h, -1.7 * h, 0.6 * h}} {
		c0 := geom.Vec3{0.013, 0.5, -0.021}
		sphereAt := func(g float64) geom.Sphere {
			return geom.Sphere{Center: c0.Add(d.Scale(g)), Radius: 0.2}
		}
		v := d.Scale(1 / dt)
		lo, hi := c0.Sub(geom.Vec3{0.4, 0.4, 0.4}), c0.Add(geom.Vec3{0.5, 0.5, 0.5})
		// A band of 8 voxels: the points tested, within 2 h of the surface, and their
		// lookups' cells, 1 h more, stay in both keyframes' bands up to 5 h of motion.
		a := keyframeFromShape(sphereAt(0), uniformVelocity(v), h, 8, lo, hi)
		b := keyframeFromShape(sphereAt(1), uniformVelocity(v), h, 8, lo, hi)
		var c DeformingLevelSet
		if err := c.SetKeyframes(a, b, 1, 1+dt); err != nil {
			t.Fatal(err)
		}
		rng := lcgRNG(0.3)
		worst := map[float64]float64{}
		worstShift, worstN, worstV := 0.0, 0.0, 0.0
		for _, g := range []float64{0, 0.25, 0.5, 0.75, 1} {
			s := sphereAt(g)
			for k := 0; k < 3000; k++ {
				// A point within 2 h of the surface at gamma.
				dir := geom.Vec3{rng.next(), rng.next(), rng.next()}.Unit()
				x := s.Center.Add(dir.Scale(s.Radius + 4*h*rng.next()))
				phi, n, vco := c.Interpolate(x, 1+g*dt)
				exact, en := s.Distance(x)
				worst[g] = math.Max(worst[g], math.Abs(phi-exact))
				worstN = math.Max(worstN, n.Sub(en).Norm())
				worstV = math.Max(worstV, vco.Sub(v).Norm()/v.Norm())
				if ref, _, _ := c.Interpolate(x.Sub(d.Scale(g)), 1); d[0] == 4*h {
					worstShift = math.Max(worstShift, math.Abs(phi-ref))
				}
			}
		}
		t.Logf("displacement %.3v h: max |phi - exact| at gamma 0, .25, .5, .75, 1: %.4f %.4f %.4f %.4f %.4f h; "+
			"shifted keyframe a %.2g h; normal %.3g; v_co %.2g", d.Scale(1/h), worst[0]/h, worst[0.25]/h, worst[0.5]/h,
			worst[0.75]/h, worst[1]/h, worstShift/h, worstN, worstV)
		grid := math.Max(worst[0], worst[1]) // the keyframes' own interpolation error
		for _, g := range []float64{0.25, 0.5, 0.75} {
			if worst[g] > 1.1*grid+1e-4*h {
				t.Errorf("displacement %v h, gamma %g: error %.4f h, the keyframes' own %.4f h", d.Scale(1/h), g, worst[g]/h, grid/h)
			}
		}
		if worstShift > 1e-5*h || worstV > 1e-6 || worstN > 0.1 {
			t.Errorf("displacement %v h: shift %.2g h, v_co %.2g, normal %.3g", d.Scale(1/h), worstShift/h, worstV, worstN)
		}
	}
}

// A plate two voxels thick moving four voxels a frame: half-way, the plain blend of the
// two keyframes' phi has lost it (phi > 0 everywhere), the interpolation of section 8
// has it where it should be.
func TestDeformingThinPlateDoesNotVanish(t *testing.T) {
	const h, dt = 0.02, 1.0 / 24
	plateAt := func(x0 float64) geom.Box {
		return geom.Box{Min: geom.Vec3{x0, -1, -1}, Max: geom.Vec3{x0 + 2*h, 1, 1}}
	}
	v := geom.Vec3{4 * h / dt, 0, 0}
	lo, hi := geom.Vec3{-0.2, -0.1, -0.1}, geom.Vec3{0.3, 0.1, 0.1}
	a := keyframeFromShape(plateAt(0), uniformVelocity(v), h, 8, lo, hi)
	b := keyframeFromShape(plateAt(4*h), uniformVelocity(v), h, 8, lo, hi)
	var c DeformingLevelSet
	if err := c.SetKeyframes(a, b, 0, dt); err != nil {
		t.Fatal(err)
	}
	for _, g := range []float64{0.25, 0.5, 0.75} {
		plate := plateAt(4 * h * g)
		for x := -2 * h; x <= 8*h; x += h / 8 { // within 3 h of the plate's positions

			p := geom.Vec3{x, 0.013, -0.007}
			phi, n, vco := c.Interpolate(p, g*dt)
			exact, _ := plate.Distance(p)
			side := p[0] - plate.Min[0] - h // the normal flips at the plate's middle
			if math.Abs(phi-exact) > 1e-5*h || !near(vco, v, 1e-6) || (math.Abs(side) > h/16 && !near(n, geom.Vec3{math.Copysign(1, side), 0, 0}, 1e-6)) {
				t.Fatalf("gamma %g, x = %.4f: phi %g n %v v_co %v; exact %g", g, x, phi, n, vco, exact)
			}
		}
	}
	mid := geom.Vec3{3 * h, 0, 0} // the plate's middle half-way
	p0, _, _ := c.Interpolate(mid, 0)
	p1, _, _ := c.Interpolate(mid, dt)
	phi, _, _ := c.Interpolate(mid, dt/2)
	t.Logf("plate middle half-way: plain blend phi = %.2f h, section 8: %.2f h", (p0+p1)/2/h, phi/h)
	if (p0+p1)/2 <= 0 || phi > -0.99*h {
		t.Errorf("plain blend %.3f h (want > 0: it loses the plate), interpolation %.3f h (want -h)", (p0+p1)/2/h, phi/h)
	}
}

// Shapes turning 10 degrees per frame about a tilted axis. Between the keyframes the
// interpolated phi is compared, near the surface (where contact is decided), with the
// level set voxelized at the intermediate angle and with the exact distance:
//   - a ball off the axis (a smooth surface): within 0.15 h of the voxelized one;
//   - a box, on its faces away from edges and corners: within 0.15 h as well;
//   - the box at its edges and corners, where every trilinear level set is a few
//     tenths of h off the exact distance: no further from the exact distance than the
//     level set voxelized at that instant.
func TestDeformingRotation(t *testing.T) {
	const h, dt = 0.02, 1.0 / 24
	const step = 10 * math.Pi / 180
	axis := geom.Vec3{0.2, 1, 0.3}.Unit()
	centre := geom.Vec3{0.5, 0.5, 0.5}
	omega := axis.Scale(step / dt)
	half := geom.Vec3{8 * h, 5 * h, 6 * h}
	for _, shape := range []geom.Shape{
		geom.Sphere{Center: geom.Vec3{8 * h, 0, 0}, Radius: 6 * h},
		geom.Box{Min: half.Scale(-1), Max: half},
	} {
		body, err := NewRigidBody(shape, []TranslationKey{{T: 0, P: centre}},
			[]RotationKey{{T: 0, Q: Quat{W: 1}}, {T: dt, Q: QuatAxisAngle(axis, step)}}, Surface{})
		if err != nil {
			t.Fatal(err)
		}
		vel := func(cp geom.Vec3) geom.Vec3 { return omega.Cross(cp.Sub(centre)) } // the closest point's velocity
		r := 0.4
		lo, hi := centre.Sub(geom.Vec3{r, r, r}), centre.Add(geom.Vec3{r, r, r})
		keyframe := func(tm float64) *Keyframe { return keyframeFromShape(rigidShape{body, tm}, vel, h, 6, lo, hi) }
		var c DeformingLevelSet
		if err := c.SetKeyframes(keyframe(0), keyframe(dt), 0, dt); err != nil {
			t.Fatal(err)
		}
		_, isBox := shape.(geom.Box)
		rng := lcgRNG(0.77)
		for _, g := range []float64{0.25, 0.5, 0.75} {
			ref := levelset.NewFloatSampler(keyframe(g * dt).Surface)
			q, origin, _, _ := body.Pose(g * dt)
			var worstFace, worstExact, refExact, sum2 float64
			count := 0
			for k := 0; k < 20000; k++ {
				x := centre.Add(geom.Vec3{rng.next(), rng.next(), rng.next()}.Scale(0.5))
				exact, _, _ := body.Sample(x, g*dt)
				if math.Abs(exact) > h {
					continue
				}
				phi, _, _ := c.Interpolate(x, g*dt)
				want := ref.Sample(x)
				worstExact = math.Max(worstExact, math.Abs(phi-exact))
				refExact = math.Max(refExact, math.Abs(want-exact))
				if isBox { // skip points within 2 h of an edge: near the faces of two axes
					pb, nearFaces := q.Conj().Rotate(x.Sub(origin)), 0
					for a := range 3 {
						if math.Abs(pb[a]) > half[a]-2*h {
							nearFaces++
						}
					}
					if nearFaces > 1 {
						continue
					}
				}
				e := math.Abs(phi - want)
				worstFace, sum2, count = math.Max(worstFace, e), sum2+e*e, count+1
			}
			t.Logf("%T, gamma %g: %d points within h of the surface, away from edges: |phi - voxelized| max %.3f h, RMS %.3f h; "+
				"|phi - exact| %.3f h (voxelized: %.3f h)", shape, g, count, worstFace/h, math.Sqrt(sum2/float64(count))/h, worstExact/h, refExact/h)
			if worstFace > 0.15*h {
				t.Errorf("%T, gamma %g: |phi - voxelized| = %.3f h, want <= 0.15 h", shape, g, worstFace/h)
			}
			if worstExact > math.Max(refExact, 0.15*h) {
				t.Errorf("%T, gamma %g: |phi - exact| = %.3f h, voxelizing at that instant gives %.3f h", shape, g, worstExact/h, refExact/h)
			}
		}
	}
}

// rigidShape is a rigid body frozen at one time, as a geom.Shape.
type rigidShape struct {
	body *RigidBody
	t    float64
}

func (r rigidShape) Distance(p geom.Vec3) (float64, geom.Vec3) {
	phi, n, _ := r.body.Sample(p, r.t)
	return phi, n
}

// Sample's certified phi: phi(c) > |y - c| rules out contact at y (what the solver's
// pruning assumes), on a plate moving four voxels a frame, whose interpolated phi alone
// does not always satisfy it; contact itself is decided as by Interpolate.
func TestDeformingSampleIsSafeForPruning(t *testing.T) {
	const h, dt = 0.02, 1.0 / 24
	plateAt := func(x0 float64) geom.Box {
		return geom.Box{Min: geom.Vec3{x0, -0.1, -1}, Max: geom.Vec3{x0 + 2*h, 0.1, 1}}
	}
	v := geom.Vec3{4 * h / dt, 0, 0}
	lo, hi := geom.Vec3{-0.3, -0.3, -0.2}, geom.Vec3{0.4, 0.3, 0.2}
	var c DeformingLevelSet
	if err := c.SetKeyframes(keyframeFromShape(plateAt(0), uniformVelocity(v), h, 5, lo, hi),
		keyframeFromShape(plateAt(4*h), uniformVelocity(v), h, 5, lo, hi), 0, dt); err != nil {
		t.Fatal(err)
	}
	rng := lcgRNG(0.5)
	rawViolations := 0
	for k := 0; k < 100000; k++ {
		tm := dt * (rng.next() + 0.5)
		cp := geom.Vec3{0.05 + 0.4*rng.next(), 0.4 * rng.next(), 0.2 * rng.next()}
		y := cp.Add(geom.Vec3{rng.next(), rng.next(), rng.next()}.Scale(0.25))
		pc, _, _ := c.Sample(cp, tm)
		py, _, _ := c.Sample(y, tm)
		raw, _, _ := c.Interpolate(y, tm)
		rawC, _, _ := c.Interpolate(cp, tm)
		if (py <= 0) != (raw <= 0) || pc > rawC {
			t.Fatalf("t = %g, y = %v: Sample %g, Interpolate %g: contact differs or clearance grew", tm, y, py, raw)
		}
		d := y.Sub(cp).Norm()
		if pc > d && py <= 0 {
			t.Fatalf("t = %g: phi(%v) = %g > |y - c| = %g, but phi(%v) = %g", tm, cp, pc, d, y, py)
		}
		if rawC > d && raw <= 0 {
			rawViolations++
		}
	}
	t.Logf("pairs where the interpolated phi alone would have pruned a contact: %d of 100000", rawViolations)
}

// Sample from many goroutines at once gives what it gives from one; SetKeyframes
// rejects what it cannot use; before it, nothing collides; times beyond the segment
// hold the nearer keyframe.
func TestDeformingConcurrencyAndSetup(t *testing.T) {
	const h = 0.02
	s0 := geom.Sphere{Center: geom.Vec3{0.5, 0.5, 0.5}, Radius: 0.2}
	s1 := geom.Sphere{Center: geom.Vec3{0.56, 0.5, 0.5}, Radius: 0.2}
	v := geom.Vec3{0.06, 0, 0}
	lo, hi := geom.Vec3{0.1, 0.1, 0.1}, geom.Vec3{0.9, 0.9, 0.9}
	a := keyframeFromShape(s0, uniformVelocity(v), h, 4, lo, hi)
	b := keyframeFromShape(s1, uniformVelocity(v), h, 4, lo, hi)
	var c DeformingLevelSet
	if phi, _, _ := c.Sample(geom.Vec3{0.5, 0.5, 0.5}, 0); !math.IsInf(phi, 1) {
		t.Errorf("without keyframes: phi = %g, want +Inf", phi)
	}
	for _, bad := range []struct {
		a, b   *Keyframe
		t0, t1 float64
	}{{nil, b, 0, 1}, {a, &Keyframe{}, 0, 1}, {a, b, 1, 1}, {a, b, 0, math.NaN()}, {a, b, math.Inf(-1), 0}} {
		if err := c.SetKeyframes(bad.a, bad.b, bad.t0, bad.t1); err == nil {
			t.Errorf("SetKeyframes(%v, %v, %g, %g) accepted", bad.a, bad.b, bad.t0, bad.t1)
		}
	}
	if err := c.SetKeyframes(a, b, 0, 1); err != nil {
		t.Fatal(err)
	}
	type result struct {
		phi    float64
		n, vco geom.Vec3
	}
	rng := lcgRNG(0.9)
	pts := make([]geom.Vec3, 4000)
	times := make([]float64, len(pts))
	want := make([]result, len(pts))
	for i := range pts {
		pts[i] = geom.Vec3{0.5, 0.5, 0.5}.Add(geom.Vec3{rng.next(), rng.next(), rng.next()}.Scale(0.6))
		times[i] = rng.next() + 0.5
		want[i].phi, want[i].n, want[i].vco = c.Sample(pts[i], times[i])
	}
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for k := range pts {
				i := (k*7 + g*501) % len(pts) // each goroutine in its own order
				var r result
				r.phi, r.n, r.vco = c.Sample(pts[i], times[i])
				if r != want[i] {
					errs <- "concurrent Sample differs"
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
	x := geom.Vec3{0.31, 0.52, 0.47}
	for _, c2 := range []struct{ t, at float64 }{{-1, 0}, {2, 1}} {
		p, n, vco := c.Interpolate(x, c2.t)
		q, m, wco := c.Interpolate(x, c2.at)
		if p != q || n != m || vco != wco {
			t.Errorf("t = %g: %g %v %v, want the keyframe at %g: %g %v %v", c2.t, p, n, vco, c2.at, q, m, wco)
		}
	}
}

// BenchmarkDeformingSample measures Sample near the surface of a translating ball, as
// the solver calls it from every worker; compare BenchmarkRigidSample.
func BenchmarkDeformingSample(b *testing.B) {
	const h = 0.01
	s0 := geom.Sphere{Center: geom.Vec3{0.5, 0.5, 0.5}, Radius: 0.2}
	s1 := geom.Sphere{Center: geom.Vec3{0.54, 0.5, 0.5}, Radius: 0.2}
	v := geom.Vec3{0.96, 0, 0}
	lo, hi := geom.Vec3{0.2, 0.2, 0.2}, geom.Vec3{0.8, 0.8, 0.8}
	var c DeformingLevelSet
	if err := c.SetKeyframes(keyframeFromShape(s0, uniformVelocity(v), h, 6, lo, hi), keyframeFromShape(s1, uniformVelocity(v), h, 6, lo, hi), 0, 1.0/24); err != nil {
		b.Fatal(err)
	}
	// A walk near the surface in small steps, as a block's nodes are.
	rng := lcgRNG(0.1)
	path := make([]geom.Vec3, 4096)
	x := geom.Vec3{0.72, 0.5, 0.5}
	for i := range path {
		x = x.Add(geom.Vec3{rng.next(), rng.next(), rng.next()}.Scale(h))
		if r := x.Sub(s0.Center).Norm(); r > 0.25 || r < 0.15 {
			x = geom.Vec3{0.72, 0.5, 0.5}
		}
		path[i] = x
	}
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for i := 0; pb.Next(); i++ {
			c.Sample(path[i&4095], 0.02)
		}
	})
}

func BenchmarkRigidSample(b *testing.B) {
	body, err := NewRigidBody(geom.Box{Min: geom.Vec3{-0.1, -0.1, -0.1}, Max: geom.Vec3{0.1, 0.1, 0.1}},
		[]TranslationKey{{T: 0, P: geom.Vec3{0.5, 0.5, 0.5}}, {T: 1, P: geom.Vec3{0.6, 0.5, 0.5}}},
		[]RotationKey{{T: 0, Q: Quat{W: 1}}, {T: 1, Q: QuatAxisAngle(geom.Vec3{0, 1, 0}, 1)}}, Surface{})
	if err != nil {
		b.Fatal(err)
	}
	b.RunParallel(func(pb *testing.PB) {
		x := geom.Vec3{0.62, 0.5, 0.5}
		for pb.Next() {
			body.Sample(x, 0.5)
		}
	})
}

// Outside Bounds, Sample looks nothing up: it reports the distance to the box, positive
// and no more than the distance to the moving plate, no normal and no velocity; inside,
// the interpolated field. Bounds holds the velocity grids too, and says nothing for a
// surface whose background is not positive.
func TestDeformingSampleOutsideBounds(t *testing.T) {
	const h, dt = 0.02, 1.0 / 24
	plate := geom.Box{Min: geom.Vec3{0, -0.1, -0.1}, Max: geom.Vec3{2 * h, 0.1, 0.1}}
	v := geom.Vec3{4 * h / dt, 0, 0}
	moved := geom.Box{Min: plate.Min.Add(v.Scale(dt)), Max: plate.Max.Add(v.Scale(dt))}
	lo, hi := geom.Vec3{-0.6, -0.6, -0.6}, geom.Vec3{0.6, 0.6, 0.6}
	var c DeformingLevelSet
	if err := c.SetKeyframes(keyframeFromShape(plate, uniformVelocity(v), h, 3, lo, hi),
		keyframeFromShape(moved, uniformVelocity(v), h, 3, lo, hi), 0, dt); err != nil {
		t.Fatal(err)
	}
	box, _ := c.Bounds(0)
	rng := lcgRNG(0.3)
	outside := 0
	for k := 0; k < 20000; k++ {
		tm := dt * rng.next()
		x := geom.Vec3{rng.next() - 0.5, rng.next() - 0.5, rng.next() - 0.5}.Scale(1.2)
		phi, n, vco := c.Sample(x, tm)
		at := geom.Box{Min: plate.Min.Add(v.Scale(tm)), Max: plate.Max.Add(v.Scale(tm))}
		exact, _ := at.Distance(x)
		if box.Contains(x) {
			raw, _, _ := c.Interpolate(x, tm)
			if (phi <= 0) != (raw <= 0) || phi > raw {
				t.Fatalf("x = %v inside the bounds: Sample %g, Interpolate %g", x, phi, raw)
			}
			continue
		}
		outside++
		boxDistance, _ := box.Distance(x)
		if math.Abs(phi-boxDistance) > 1e-12 || phi <= 0 || phi > exact || n != (geom.Vec3{}) || vco != (geom.Vec3{}) {
			t.Fatalf("x = %v outside the bounds: phi %g (box %g, plate %g), n %v, v_co %v", x, phi, boxDistance, exact, n, vco)
		}
	}
	if outside < 10000 {
		t.Fatalf("only %d of 20000 points outside the bounds %v", outside, box)
	}
	// A point one ulp outside a face is outside, at a positive clearance.
	x := geom.Vec3{math.Nextafter(box.Max[0], math.Inf(1)), 0, 0}
	if phi, _, _ := c.Sample(x, 0); !(phi > 0) {
		t.Errorf("one ulp outside the bounds' face: phi %g", phi)
	}

	a, b := keyframeFromShape(plate, uniformVelocity(v), h, 3, lo, hi), keyframeFromShape(moved, uniformVelocity(v), h, 3, lo, hi)
	slow := geom.Vec3{1, 0, 0}
	a.Velocity.Background = levelset.Vec3f{float32(slow[0]), 0, 0} // moving everywhere: no shortcut
	if err := c.SetKeyframes(a, b, 0, dt); err != nil {
		t.Fatal(err)
	}
	far := geom.Vec3{0.55, 0.55, 0.55}
	if _, _, vco := c.Sample(far, 0); vco != slow {
		t.Errorf("a velocity background %v: Sample far away gives v_co %v", slow, vco)
	}
	a.Surface.Background = -a.Surface.Background
	if err := c.SetKeyframes(a, b, 0, dt); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.Bounds(0); ok {
		t.Error("Bounds vouches for a surface whose background is negative")
	}
}
