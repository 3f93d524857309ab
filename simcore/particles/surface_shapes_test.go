package particles

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"snowtools/levelset"
	"snowtools/levelset/geom"
)

// TestSurfaceOfABlock: a resting block of 20 x 12 x 16 cells keeps its volume, and its
// faces are flat. Measured at dx = h with smoothing of one voxel: volume 0.9985 of
// N m / rho (the faces lie 0.108 dx out, the edges and corners are rounded); the face
// crossings deviate from their plane by 0.019 dx (std), 0.070 dx at most; |grad phi|
// near the faces within 2.1% of 1.
func TestSurfaceOfABlock(t *testing.T) {
	lo, hi := geom.Vec3{-1, -0.3, 0.2}, geom.Vec3{1, 0.9, 1.8}
	pos, radius, volume := seedJittered(lo, hi, testH, testRho, 2, func(geom.Vec3) bool { return true })
	dx := testH
	g := surfaceOf(t, pos, radius, SurfaceOptions{VoxelSize: dx, Smoothing: 1})
	ratio := enclosedVolume(g) / volume
	// Each crossing near a face, 3 voxels or more from the block's edges, against that
	// face's plane.
	var offsets []geom.Vec3
	inner := geom.Box{Min: lo, Max: hi}.Expand(-3 * dx)
	for _, p := range zeroCrossings(g) {
		for axis := range 3 {
			u, v := (axis+1)%3, (axis+2)%3
			if p[u] < inner.Min[u] || p[u] > inner.Max[u] || p[v] < inner.Min[v] || p[v] > inner.Max[v] {
				continue
			}
			if d := p[axis] - hi[axis]; math.Abs(d) < dx {
				offsets = append(offsets, geom.Vec3{d})
			}
			if d := lo[axis] - p[axis]; math.Abs(d) < dx {
				offsets = append(offsets, geom.Vec3{d})
			}
		}
	}
	mean, spread := meanAndSpread(offsets, func(p geom.Vec3) float64 { return p[0] })
	worst := 0.0
	for _, o := range offsets {
		worst = max(worst, math.Abs(o[0]-mean))
	}
	t.Logf("block: volume %.4f of N m / rho; %d face crossings: outward offset %.3f dx, std %.3f dx, largest deviation %.3f dx",
		ratio, len(offsets), mean/dx, spread/dx, worst/dx)
	if math.Abs(ratio-1) > 0.03 {
		t.Errorf("block volume %.4f of N m / rho, want within 3%%", ratio)
	}
	if math.Abs(mean) > dx/2 || spread > 0.1*dx || worst > 0.3*dx {
		t.Errorf("faces: offset %.3f dx, std %.3f dx, largest deviation %.3f dx; want within 0.5, 0.1 and 0.3 dx", mean/dx, spread/dx, worst/dx)
	}
	// Near one face only: at most one coordinate beyond the inner box.
	checkBand(t, g, 3, func(p geom.Vec3) bool {
		beyond := 0
		for a := range 3 {
			if p[a] < inner.Min[a]+dx || p[a] > inner.Max[a]-dx {
				beyond++
			}
		}
		return beyond <= 1
	})
}

// TestThinSheetSurvives: a sheet two particle layers thick (one cell, h) survives
// the closing and the smoothing: phi < 0 in its middle plane everywhere away from its
// edges, and its thickness at the centre stays near h. Measured (dx = h/2, smoothing
// one voxel): thickness 1.14 h at the centre, the middle plane's largest phi -0.74 dx.
// (At dx = h the sheet is one voxel thick and the default closing of one voxel opens
// holes in it once smoothed: largest phi +0.98 dx; a closing of 2 voxels keeps it,
// -0.07 dx.)
func TestThinSheetSurvives(t *testing.T) {
	lo, hi := geom.Vec3{-0.8, 0, -0.8}, geom.Vec3{0.8, testH, 0.8}
	pos, radius, _ := seedJittered(lo, hi, testH, testRho, 3, func(geom.Vec3) bool { return true })
	dx := testH / 2
	g := surfaceOf(t, pos, radius, SurfaceOptions{VoxelSize: dx, Smoothing: 1})
	s := levelset.NewFloatSampler(g)
	highest := math.Inf(-1)
	for x := -0.6; x <= 0.6; x += dx / 3 {
		for z := -0.6; z <= 0.6; z += dx / 3 {
			highest = max(highest, s.Sample(geom.Vec3{x, testH / 2, z}))
		}
	}
	// The thickness at the centre: the zero crossings of phi along y.
	crossing := func(from, to float64) float64 {
		a, b := from, to
		for range 50 {
			m := (a + b) / 2
			if (s.Sample(geom.Vec3{0, m, 0}) < 0) == (s.Sample(geom.Vec3{0, a, 0}) < 0) {
				a = m
			} else {
				b = m
			}
		}
		return a
	}
	thickness := crossing(testH/2, testH/2+5*dx) - crossing(testH/2, testH/2-5*dx)
	t.Logf("sheet: largest phi on the middle plane %.3f dx, thickness at the centre %.3f h", highest/dx, thickness/testH)
	if highest >= 0 {
		t.Errorf("the sheet has a hole: phi = %.3g dx in its middle plane", highest/dx)
	}
	if thickness < 0.8*testH || thickness > 1.3*testH {
		t.Errorf("the sheet is %.3f h thick, want within -20%% and +30%% of h", thickness/testH)
	}
}

// TestSurfaceOfFewParticles: one particle is a sphere of its radius, coincident particles
// are one, two overlapping ones are their union's closed surface, and none is an empty
// grid.
func TestSurfaceOfFewParticles(t *testing.T) {
	const dx = 0.1
	opt := SurfaceOptions{VoxelSize: dx, RadiusScale: 1}
	empty := surfaceOf(t, nil, nil, opt)
	if empty.LeafCount() != 0 || len(empty.Tiles()) != 0 || empty.Background != 3*dx {
		t.Errorf("no particles: %d leaves, %d tiles, background %g; want an empty grid of background %g",
			empty.LeafCount(), len(empty.Tiles()), empty.Background, 3*dx)
	}
	r := float32(0.4) // 4 voxels
	one := surfaceOf(t, []float32{0.33, -0.21, 0.05}, []float32{r}, opt)
	centre := geom.Vec3{0.33, -0.21, 0.05}
	mean, spread := meanAndSpread(zeroCrossings(one), func(p geom.Vec3) float64 { return p.Sub(centre).Norm() })
	// A sphere is its own closing. Measured: radius r - 0.29 dx, spread 0.06 dx: the
	// redistance of the dilated sphere overestimates depth (closing D = r = 4 voxels).
	// (With smoothing of one voxel: r - 0.45 dx, its sigma^2 / (r + D) and that error.)
	t.Logf("one particle of radius %g dx: surface radius %+.3f dx from it, spread %.3f dx", r/dx, (mean-float64(r))/dx, spread/dx)
	if math.Abs(mean-float64(r)) > 0.4*dx || spread > 0.1*dx {
		t.Errorf("one particle: surface radius %.4f (spread %.3g), want %g within 0.4 dx", mean, spread, r)
	}
	twice := surfaceOf(t, []float32{0.33, -0.21, 0.05, 0.33, -0.21, 0.05}, []float32{r, r}, opt)
	if !sameGrid(one, twice) {
		t.Error("two coincident particles differ from one")
	}
	two := surfaceOf(t, []float32{0, 0, 0, 0.5, 0, 0}, []float32{r, r}, opt)
	s := levelset.NewFloatSampler(two)
	// Inside both centres and between them (the closing fills the waist), outside beyond.
	for _, c := range []struct {
		p      geom.Vec3
		inside bool
	}{{geom.Vec3{0, 0, 0}, true}, {geom.Vec3{0.25, 0, 0}, true}, {geom.Vec3{0.5, 0.3, 0}, true}, {geom.Vec3{0.25, 0.45, 0}, false}, {geom.Vec3{1, 0, 0}, false}} {
		if phi := s.Sample(c.p); (phi < 0) != c.inside {
			t.Errorf("two particles: phi(%v) = %.3g, want inside %v", c.p, phi, c.inside)
		}
	}
	checkBand(t, two, 3, nil) // two spheres: kinks along their medial plane
}

// TestSurfaceRejectsBadParticles: the error names the particle.
func TestSurfaceRejectsBadParticles(t *testing.T) {
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	good := []float32{0, 0, 0, 0.1, 0, 0, 0.2, 0, 0}
	for _, c := range []struct {
		name   string
		index  int
		pos    []float32
		radius []float32
	}{
		{"NaN position", 1, []float32{0, 0, 0, 0.1, nan, 0, 0.2, 0, 0}, []float32{0.05, 0.05, 0.05}},
		{"infinite position", 2, []float32{0, 0, 0, 0.1, 0, 0, 0.2, 0, -inf}, []float32{0.05, 0.05, 0.05}},
		{"zero radius", 0, good, []float32{0, 0.05, 0.05}},
		{"negative radius", 2, good, []float32{0.05, 0.05, -0.05}},
		{"NaN radius", 1, good, []float32{0.05, nan, 0.05}},
		{"infinite radius", 1, good, []float32{0.05, inf, 0.05}},
	} {
		_, err := SurfaceLevelSet(c.pos, c.radius, SurfaceOptions{VoxelSize: 0.1})
		var pe *ParticleError
		if !errors.As(err, &pe) || pe.Index != c.index {
			t.Errorf("%s: error %v, want a ParticleError for particle %d", c.name, err, c.index)
		}
	}
	if _, err := SurfaceLevelSet(good, []float32{0.05}, SurfaceOptions{VoxelSize: 0.1}); err == nil {
		t.Error("3 positions for 1 radius were accepted")
	}
	for _, o := range []SurfaceOptions{{}, {VoxelSize: 0.1, HalfWidth: -1}, {VoxelSize: 0.1, Smoothing: -1}, {VoxelSize: 0.1, RadiusScale: -2}} {
		if _, err := SurfaceLevelSet(good, []float32{0.05, 0.05, 0.05}, o); err == nil {
			t.Errorf("options %+v were accepted", o)
		}
	}
	// Beyond the limits the filters' band, and their memory, grow without bound: the
	// error names the option.
	for _, c := range []struct {
		opt  SurfaceOptions
		name string
	}{
		{SurfaceOptions{VoxelSize: 0.1, Smoothing: MaxSmoothing + 0.5}, "Smoothing"},
		{SurfaceOptions{VoxelSize: 0.1, Closing: MaxClosing + 0.5}, "Closing"},
		{SurfaceOptions{VoxelSize: 0.1, Closing: math.NaN()}, "Closing"},
	} {
		if _, err := SurfaceLevelSet(good, []float32{0.05, 0.05, 0.05}, c.opt); err == nil || !strings.Contains(err.Error(), c.name) {
			t.Errorf("options %+v: error %v, want one naming %s", c.opt, err, c.name)
		}
	}
	for _, o := range []SurfaceOptions{{VoxelSize: 0.1, Smoothing: MaxSmoothing}, {VoxelSize: 0.1, Closing: MaxClosing}} {
		if _, err := SurfaceLevelSet(good, []float32{0.05, 0.05, 0.05}, o); err != nil {
			t.Errorf("options %+v at the limit: %v", o, err)
		}
	}
}

// TestSurfaceIsDeterministic: the same grid, bit for bit, on 1 and 4 threads.
func TestSurfaceIsDeterministic(t *testing.T) {
	pos, radius, _, _ := ball()
	a := surfaceOf(t, pos, radius, SurfaceOptions{VoxelSize: testH / 2, Smoothing: 1, Threads: 1})
	b := surfaceOf(t, pos, radius, SurfaceOptions{VoxelSize: testH / 2, Smoothing: 1, Threads: 4})
	if !sameGrid(a, b) {
		t.Error("1 and 4 threads give different grids")
	}
}

// sameGrid reports whether a and b hold the same leaves (values and masks), tiles and
// background.
func sameGrid(a, b *levelset.FloatGrid) bool {
	la, lb := a.Leaves(), b.Leaves()
	if a.Background != b.Background || len(la) != len(lb) || !slices.Equal(a.Tiles(), b.Tiles()) {
		return false
	}
	for i := range la {
		if *la[i] != *lb[i] {
			return false
		}
	}
	return true
}

// TestMaskFog: the masked fog has no density on or outside the surface, the original
// density one voxel or more inside it, and a ramp between.
func TestMaskFog(t *testing.T) {
	pos, radius, _, _ := ball()
	dx := testH / 2
	mass := make([]float32, len(radius))
	for i := range mass {
		mass[i] = float32(testRho * math.Pow(testH/2, 3))
	}
	vol, err := RasterizeVolume(pos, mass, nil, VolumeOptions{VoxelSize: dx})
	if err != nil {
		t.Fatal(err)
	}
	surface := surfaceOf(t, pos, radius, SurfaceOptions{VoxelSize: dx, Smoothing: 1})
	masked, err := MaskFog(vol.Density, surface, 3)
	if err != nil {
		t.Fatal(err)
	}
	dropped, ramp, kept := 0, 0, 0
	vol.Density.ForEachActive(func(c levelset.Coord, rho float32) {
		phi := surface.Get(c)
		m, on := masked.Probe(c)
		switch {
		case phi >= 0:
			dropped++
			if on || m != 0 {
				t.Fatalf("voxel %v outside the surface (phi %g) keeps density %g", c, phi, m)
			}
		case phi <= -float32(dx):
			kept++
			if !on || m != rho {
				t.Fatalf("voxel %v deep inside (phi %g): density %g, want %g unchanged", c, phi, m, rho)
			}
		default:
			ramp++
			if !on || !(m > 0 && m <= rho) { // (= rho: phi within float32 rounding of -dx)
				t.Fatalf("voxel %v in the ramp (phi %g): density %g of %g", c, phi, m, rho)
			}
		}
	})
	t.Logf("fog: %d voxels dropped, %d in the ramp, %d unchanged", dropped, ramp, kept)
	if dropped == 0 || ramp == 0 || kept == 0 {
		t.Error("the test does not exercise every case")
	}
	other := levelset.NewGrid(levelset.Transform{VoxelSize: dx / 2}, float32(1))
	if _, err := MaskFog(vol.Density, other, 1); err == nil {
		t.Error("grids of different voxel sizes were accepted")
	}
}
