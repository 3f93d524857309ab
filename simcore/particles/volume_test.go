package particles

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"snowtools/levelset"
	"snowtools/simcore/bspline"
)

// randomCloud returns n particles in a box around the origin (so that negative voxel
// coordinates are exercised), with masses and velocities.
func randomCloud(n int, seed uint64) (pos, mass, vel []float32) {
	rng := rand.New(rand.NewPCG(seed, 1))
	pos, mass, vel = make([]float32, 3*n), make([]float32, n), make([]float32, 3*n)
	for p := 0; p < n; p++ {
		for a := 0; a < 3; a++ {
			pos[3*p+a] = float32(rng.Float64()*0.6 - 0.3)
			vel[3*p+a] = float32(rng.NormFloat64())
		}
		mass[p] = float32(1e-4 * (0.5 + rng.Float64()))
	}
	return pos, mass, vel
}

// gridSum returns sum_i f(value_i) over the active voxels of g.
func gridSum[T levelset.Value](g *levelset.Grid[T], f func(levelset.Coord, T) float64) float64 {
	s := 0.0
	g.ForEachActive(func(c levelset.Coord, v T) { s += f(c, v) })
	return s
}

func TestVolumeConservesMassAndMomentum(t *testing.T) {
	pos, mass, vel := randomCloud(20000, 7)
	var m, px float64
	for p := range mass {
		m += float64(mass[p])
		px += float64(mass[p]) * float64(vel[3*p])
	}
	for _, filter := range []float64{1, 1.5, 2.5} {
		dx := 0.02
		v, err := RasterizeVolume(pos, mass, []PointAttribute{{Name: "velocity", Arity: 3, Values: vel}},
			VolumeOptions{VoxelSize: dx, Filter: filter})
		if err != nil {
			t.Fatal(err)
		}
		cell := dx * dx * dx
		gm := gridSum(v.Density, func(_ levelset.Coord, rho float32) float64 { return float64(rho) * cell })
		if rel := math.Abs(gm-m) / m; rel > 1e-6 {
			t.Errorf("filter %g: sum rho dx^3 = %.9g, sum m_p = %.9g (relative %.2g, want <= 1e-6)", filter, gm, m, rel)
		}
		// The velocity grid is the mass-weighted average, so rho v dx^3 sums to the momentum.
		vel := v.Attributes[0].Vec3
		gp := gridSum(v.Density, func(c levelset.Coord, rho float32) float64 {
			return float64(rho) * cell * float64(vel.Get(c)[0])
		})
		if rel := math.Abs(gp-px) / math.Abs(px); rel > 1e-5 {
			t.Errorf("filter %g: grid momentum %.9g, particles %.9g (relative %.2g)", filter, gp, px, rel)
		}
		if v.Density.ActiveVoxelCount() != vel.ActiveVoxelCount() {
			t.Errorf("filter %g: %d density voxels but %d velocity voxels", filter, v.Density.ActiveVoxelCount(), vel.ActiveVoxelCount())
		}
	}
}

// With filter 1 the weights are the solver's: one particle spreads over 4x4x4 nodes
// as N(X - i) N(Y - j) N(Z - k).
func TestVolumeUsesTheSolverKernel(t *testing.T) {
	dx := 0.1
	x := [3]float64{0.123, -0.0567, 0.31}
	m := float32(2)
	v, err := RasterizeVolume([]float32{float32(x[0]), float32(x[1]), float32(x[2])}, []float32{m}, nil, VolumeOptions{VoxelSize: dx})
	if err != nil {
		t.Fatal(err)
	}
	if got := v.Density.ActiveVoxelCount(); got != 64 {
		t.Errorf("%d active voxels, want the 64 of the stencil", got)
	}
	worst := 0.0
	v.Density.ForEachActive(func(c levelset.Coord, rho float32) {
		w := 1.0
		for a := 0; a < 3; a++ {
			w *= bspline.N(float64(float32(x[a]))/dx - float64(c[a]))
		}
		want := float64(m) * w / (dx * dx * dx)
		worst = max(worst, math.Abs(float64(rho)-want)/want)
	})
	if worst > 1e-6 {
		t.Errorf("densities differ from m N(X-i) N(Y-j) N(Z-k) / dx^3 by up to %.2g (relative)", worst)
	}
}

// Particles on a lattice, ppc per cell, give the density ppc m / dx^3 inside.
func TestVolumeUniformLattice(t *testing.T) {
	dx := 0.05
	var pos, mass []float32
	const side = 24 // particles a side, two per voxel
	for i := 0; i < side; i++ {
		for j := 0; j < side; j++ {
			for k := 0; k < side; k++ {
				pos = append(pos, float32((float64(i)+0.25)*dx/2), float32((float64(j)+0.25)*dx/2), float32((float64(k)+0.25)*dx/2))
				mass = append(mass, 0.01)
			}
		}
	}
	v, err := RasterizeVolume(pos, mass, nil, VolumeOptions{VoxelSize: dx, Threads: 2})
	if err != nil {
		t.Fatal(err)
	}
	want := 8 * 0.01 / (dx * dx * dx)
	for i := int32(3); i < side/2-3; i++ {
		got := float64(v.Density.Get(levelset.Coord{i, 5, 6}))
		if math.Abs(got-want) > 1e-4*want {
			t.Fatalf("density at voxel (%d, 5, 6) = %g, want %g", i, got, want)
		}
	}
}

func TestVolumeIndependentOfThreads(t *testing.T) {
	pos, mass, vel := randomCloud(5000, 3)
	attrs := []PointAttribute{{Name: "velocity", Arity: 3, Values: vel}, {Name: "speed", Arity: 1, Values: mass}}
	one, err := RasterizeVolume(pos, mass, attrs, VolumeOptions{VoxelSize: 0.03, Filter: 1.3, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	four, err := RasterizeVolume(pos, mass, attrs, VolumeOptions{VoxelSize: 0.03, Filter: 1.3, Threads: 4})
	if err != nil {
		t.Fatal(err)
	}
	diff := 0
	one.Density.ForEachActive(func(c levelset.Coord, rho float32) {
		if four.Density.Get(c) != rho || four.Attributes[0].Vec3.Get(c) != one.Attributes[0].Vec3.Get(c) ||
			four.Attributes[1].Float.Get(c) != one.Attributes[1].Float.Get(c) {
			diff++
		}
	})
	if diff != 0 || one.Density.ActiveVoxelCount() != four.Density.ActiveVoxelCount() {
		t.Errorf("1 and 4 threads differ in %d voxels", diff)
	}
}

func TestVolumeErrors(t *testing.T) {
	nan := float32(math.NaN())
	cases := []struct {
		pos, mass []float32
		attrs     []PointAttribute
		opt       VolumeOptions
		want      string
	}{
		{[]float32{0, 0, 0, 1, nan, 0}, []float32{1, 1}, nil, VolumeOptions{VoxelSize: 1}, "particle 1"},
		{[]float32{0, 0, 0, 1e20, 0, 0}, []float32{1, 1}, nil, VolumeOptions{VoxelSize: 1e-3}, "particle 1"},
		{[]float32{0, 0}, []float32{1}, nil, VolumeOptions{VoxelSize: 1}, "2 position values"},
		{[]float32{0, 0, 0}, []float32{1}, nil, VolumeOptions{}, "voxel size"},
		{[]float32{0, 0, 0}, []float32{1}, nil, VolumeOptions{VoxelSize: 1, Filter: 0.5}, "filter"},
		{[]float32{0, 0, 0}, []float32{1}, []PointAttribute{{Name: "v", Arity: 2, Values: []float32{1, 2}}}, VolumeOptions{VoxelSize: 1}, "arity 2"},
		{[]float32{0, 0, 0}, []float32{1}, []PointAttribute{{Name: "v", Arity: 3}}, VolumeOptions{VoxelSize: 1}, `"v": 0 values`},
	}
	for _, c := range cases {
		_, err := RasterizeVolume(c.pos, c.mass, c.attrs, c.opt)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("got %v, want an error containing %q", err, c.want)
		}
	}
}

// BenchmarkRasterizeVolume reports particles per second for a million particles at
// 8 per voxel, with a velocity grid, on the simulation grid (filter 1) and blurred
// (filter 2), and for the density alone at filter 2 (export -to surface's fog).
func BenchmarkRasterizeVolume(b *testing.B) {
	pos, mass, vel := randomCloud(1_000_000, 11)
	velocity := []PointAttribute{{Name: "velocity", Arity: 3, Values: vel}}
	// 0.6 m at 0.012 m is 50^3 voxels: 8 particles per voxel.
	for _, c := range []struct {
		name   string
		filter float64
		attrs  []PointAttribute
	}{{"filter=1", 1, velocity}, {"filter=2", 2, velocity}, {"density,filter=2", 2, nil}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := RasterizeVolume(pos, mass, c.attrs, VolumeOptions{VoxelSize: 0.012, Filter: c.filter}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)*float64(len(mass))/b.Elapsed().Seconds(), "particles/s")
		})
	}
}
