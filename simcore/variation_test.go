package simcore

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"snowtools/levelset/geom"
)

// The noise is deterministic, in [-1, 1], uses most of that range with mean near 0,
// is continuous with the derivative bound of its doc comment (also across lattice
// planes), and differs between seeds.
func TestNoise(t *testing.T) {
	a, b := Noise{Seed: 1}, Noise{Seed: 2}
	rng := rand.New(rand.NewPCG(1, 1))
	lo, hi, sum, same := 1.0, -1.0, 0.0, 0
	n := 20000
	bound := 3.75 * math.Sqrt(3) // |grad n| per lattice unit
	for range n {
		p := geom.Vec3{rng.Float64()*20 - 10, rng.Float64()*20 - 10, rng.Float64()*20 - 10}
		v := a.At(p)
		if v != a.At(p) || v != (Noise{Seed: 1}).At(p) {
			t.Fatalf("At(%v) is not deterministic", p)
		}
		if v < -1 || v > 1 {
			t.Fatalf("At(%v) = %g outside [-1, 1]", p, v)
		}
		lo, hi, sum = min(lo, v), max(hi, v), sum+v
		if b.At(p) == v {
			same++
		}
		d := geom.Vec3{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}.Unit().Scale(1e-3)
		if dv := math.Abs(a.At(p.Add(d)) - v); dv > bound*1e-3 {
			t.Fatalf("|n(p + d) - n(p)| = %g for |d| = 1e-3 at %v: more than %g", dv, p, bound*1e-3)
		}
	}
	mean := sum / float64(n)
	t.Logf("value noise over %d points: range [%.3f, %.3f], mean %.4f", n, lo, hi, mean)
	if lo > -0.8 || hi < 0.8 || math.Abs(mean) > 0.05 {
		t.Errorf("range [%g, %g], mean %g: want most of [-1, 1] and a mean near 0", lo, hi, mean)
	}
	if same > 0 {
		t.Errorf("seeds 1 and 2 agree at %d points", same)
	}
	// Across a lattice plane: the values on either side of x = 3 meet.
	for _, y := range []float64{0.1, 2.7, -5.3} {
		p := geom.Vec3{3, y, 0.4}
		if d := math.Abs(a.At(geom.Vec3{math.Nextafter(3, 0), y, 0.4}) - a.At(p)); d > 1e-12 {
			t.Errorf("jump %g across the lattice plane x = 3", d)
		}
	}
	// At lattice points the noise is the lattice value, which the seed moves.
	if a.At(geom.Vec3{1, 2, 3}) == b.At(geom.Vec3{1, 2, 3}) {
		t.Errorf("seeds 1 and 2 give the same lattice value")
	}
}

// Fill with a shell and noise: shell particles (phi > -thickness) have the shell
// stiffness and density (so mass), the others do not; every particle's E_0 and
// theta_s vary by the same noise value within the requested amplitudes.
func TestFillVariation(t *testing.T) {
	ball := geom.Sphere{Center: geom.Vec3{0.5, 0.5, 0.5}, Radius: 0.3}
	h := 0.04
	v := Variation{NoiseScale: 0.1, NoiseSeed: 3, StiffnessNoise: 0.4, StretchNoise: 0.2,
		ShellThickness: 0.05, ShellStiffness: 4, ShellDensity: 1.5}
	src := Source{Shape: ball, Bounds: geom.Box{Min: geom.Vec3{0.2, 0.2, 0.2}, Max: geom.Vec3{0.8, 0.8, 0.8}},
		Material: DefaultMaterial, PerCell: 8, Seed: 1, Pattern: PatternJittered, Variation: v}
	p := &Particles{}
	n, err := Fill(p, src, h)
	if err != nil {
		t.Fatal(err)
	}
	base := DefaultMaterial.PerParticle()
	baseMass := DefaultMaterial.Density * h * h * h / 8
	shell, loE, hiE := 0, math.Inf(1), math.Inf(-1)
	for i, x := range p.X {
		phi, _ := ball.Distance(x)
		nz := Noise{Seed: 3}.At(x.Scale(1 / 0.1))
		eRatio := float64(p.Mat[i].Mu0) / float64(base.Mu0)
		sRatio := float64(p.Mat[i].ThetaS) / float64(base.ThetaS)
		mRatio := float64(p.Mass[i]) / baseMass
		wantE, wantM := 1+0.4*nz, 1.0
		if phi > -0.05 {
			shell++
			wantE, wantM = 4*wantE, 1.5
		}
		if math.Abs(eRatio/wantE-1) > 1e-6 || math.Abs(sRatio/(1+0.2*nz)-1) > 1e-6 || math.Abs(mRatio/wantM-1) > 1e-6 {
			t.Fatalf("particle at %v (phi %g, noise %g): E ratio %g, theta_s ratio %g, mass ratio %g", x, phi, nz, eRatio, sRatio, mRatio)
		}
		if want := float32(wantM * DefaultMaterial.Density); p.Rho0[i] != want {
			t.Fatalf("particle at %v (phi %g): rest density %g, want %g", x, phi, p.Rho0[i], want)
		}
		if phi <= -0.05 {
			loE, hiE = min(loE, eRatio), max(hiE, eRatio)
		}
		if r := float64(p.Mat[i].Lambda0) / float64(p.Mat[i].Mu0); math.Abs(r-float64(base.Lambda0)/float64(base.Mu0)) > 1e-5 {
			t.Fatalf("lambda_0 / mu_0 = %g: nu changed", r)
		}
	}
	// The shell of a ball: 1 - ((R - T)/R)^3 of the particles.
	wantShell := 1 - math.Pow(0.25/0.3, 3)
	t.Logf("%d particles, %.1f%% in the shell (%.1f%% by volume); inner E_0 ratio in [%.3f, %.3f]",
		n, 100*float64(shell)/float64(n), 100*wantShell, loE, hiE)
	if math.Abs(float64(shell)/float64(n)-wantShell) > 0.02 {
		t.Errorf("%d of %d particles in the shell, want about %.1f%%", shell, n, 100*wantShell)
	}
	if loE < 0.6-1e-6 || hiE > 1.4+1e-6 || hiE-loE < 0.4 {
		t.Errorf("inner E_0 ratio in [%g, %g]: want a good part of [0.6, 1.4]", loE, hiE)
	}
}

// The zero Variation leaves the material alone, and Material is exact about the
// shell boundary.
func TestVariationMaterial(t *testing.T) {
	var zero Variation
	if zero.active() || zero.Material(DefaultMaterial, geom.Vec3{1, 2, 3}, -0.001) != DefaultMaterial {
		t.Errorf("the zero Variation changes the material")
	}
	v := Variation{ShellThickness: 0.1, ShellDensity: 2}
	if m := v.Material(DefaultMaterial, geom.Vec3{}, -0.099); m.Density != 800 || m.YoungsModulus != DefaultMaterial.YoungsModulus {
		t.Errorf("in the shell: %+v", m)
	}
	if m := v.Material(DefaultMaterial, geom.Vec3{}, -0.1); m != DefaultMaterial {
		t.Errorf("at phi = -thickness: %+v", m)
	}
}

func TestPresets(t *testing.T) {
	names := PresetNames()
	if !slices.IsSorted(names) || !slices.Equal(names, []string{"default", "icy", "packing", "powder", "slush", "snowball", "wet"}) {
		t.Errorf("PresetNames() = %q", names)
	}
	get := func(name string) Material {
		m, err := Preset(name)
		if err != nil {
			t.Fatal(err)
		}
		if err := m.Validate(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		return m
	}
	for _, name := range names {
		get(name)
	}
	def, powder, wet, icy, slush := get("default"), get("powder"), get("wet"), get("icy"), get("slush")
	if def != DefaultMaterial || get("packing") != wet {
		t.Errorf("default %+v, packing %+v", def, get("packing"))
	}
	// Section 5: powder has smaller thetas and wet larger; icy has higher xi and E_0
	// and slush (muddy) lower.
	if !(powder.CriticalCompression < def.CriticalCompression && powder.CriticalStretch < def.CriticalStretch) {
		t.Errorf("powder %+v", powder)
	}
	if !(wet.CriticalCompression > def.CriticalCompression && wet.CriticalStretch > def.CriticalStretch) {
		t.Errorf("wet %+v", wet)
	}
	if !(icy.Hardening > def.Hardening && icy.YoungsModulus > def.YoungsModulus) {
		t.Errorf("icy %+v", icy)
	}
	if !(slush.Hardening < def.Hardening && slush.YoungsModulus < def.YoungsModulus) {
		t.Errorf("slush %+v", slush)
	}
	// snowball: Table 2 but for nu, which puts nu theta_c at theta_s (docs/fracture.md,
	// point 1).
	want := def
	want.PoissonRatio = 0.3
	if ball := get("snowball"); ball != want || math.Abs(ball.PoissonRatio*ball.CriticalCompression-ball.CriticalStretch) > 1e-15 {
		t.Errorf("snowball %+v, want Table 2 with nu 0.3", ball)
	}
	_, err := Preset("fluffy")
	if err == nil || !strings.Contains(err.Error(), `"fluffy"`) || !strings.Contains(err.Error(), `"powder"`) {
		t.Errorf("unknown preset: %v", err)
	}
}

// The chunk pattern's factors: theta_c and theta_s scale by SeamStrength^(1-t)
// ChunkStrength^t and E_0 by the stiffness factors alike, t from ChunkCore; cores
// (t = 1) get the chunk factors exactly; the noise and the shell multiply on top, and
// the pattern is the same for the same seed.
func TestVariationChunks(t *testing.T) {
	v := Variation{NoiseScale: 0.05, NoiseSeed: 9, StiffnessNoise: 0.3, StretchNoise: 0.2,
		ShellThickness: 0.02, ShellStiffness: 3, ShellDensity: 1.5,
		ChunkSize: 0.06, SeamWidth: 0.02, ChunkStrength: 10, SeamStrength: 0.2, ChunkStiffness: 2, SeamStiffness: 0.3}
	if err := v.ValidateFor(DefaultMaterial); err != nil {
		t.Fatal(err)
	}
	base := DefaultMaterial
	rng := rand.New(rand.NewPCG(8, 9))
	cores, seams := 0, 0
	for range 5000 {
		x := geom.Vec3{rng.Float64(), rng.Float64(), rng.Float64()}
		phi := -0.04 * rng.Float64()
		m := v.Material(base, x, phi)
		if m != v.Material(base, x, phi) {
			t.Fatalf("Material at %v is not deterministic", x)
		}
		tc := v.ChunkCore(x)
		n := Noise{Seed: 9}.At(x.Scale(1 / 0.05))
		strength := math.Pow(0.2, 1-tc) * math.Pow(10, tc)
		wantE := base.YoungsModulus * (1 + 0.3*n) * math.Pow(0.3, 1-tc) * math.Pow(2, tc)
		wantRho := base.Density
		if phi > -0.02 {
			wantE, wantRho = 3*wantE, 1.5*wantRho
		}
		near := func(got, want float64) bool { return math.Abs(got/want-1) < 1e-12 }
		if !near(m.CriticalCompression, base.CriticalCompression*strength) ||
			!near(m.CriticalStretch, base.CriticalStretch*(1+0.2*n)*strength) ||
			!near(m.YoungsModulus, wantE) || m.Density != wantRho || m.Hardening != base.Hardening || m.PoissonRatio != base.PoissonRatio {
			t.Fatalf("at %v (phi %g, t %g, n %g): %+v", x, phi, tc, n, m)
		}
		switch tc {
		case 1:
			cores++
			if !near(m.CriticalCompression, 10*base.CriticalCompression) {
				t.Fatalf("core at %v: theta_c %g", x, m.CriticalCompression)
			}
		case 0:
			t.Fatalf("a random point %v on a face", x)
		default:
			seams++
		}
	}
	t.Logf("chunks 0.06 m, seams 0.02 m: %d cores, %d in the seam bands", cores, seams)
	if cores == 0 || seams == 0 {
		t.Errorf("%d cores and %d seam points: want both", cores, seams)
	}
	// Another seed moves the pattern; the zero factors are 1, so no pattern is active.
	w := v
	w.NoiseSeed = 10
	if w.ChunkCore(geom.Vec3{0.3, 0.4, 0.5}) == v.ChunkCore(geom.Vec3{0.3, 0.4, 0.5}) {
		t.Errorf("seeds 9 and 10 give the same chunk pattern")
	}
	if (Variation{ChunkSize: 0.06, SeamWidth: 0.02}).active() {
		t.Errorf("a chunk pattern with unit factors is active")
	}
}

// Fill with a chunk pattern: the same particles and materials for any number of
// workers.
func TestFillChunksDeterministic(t *testing.T) {
	ball := geom.Sphere{Center: geom.Vec3{0.5, 0.5, 0.5}, Radius: 0.2}
	fill := func(workers int) *Particles {
		src := Source{Shape: ball, Bounds: geom.Box{Min: geom.Vec3{0.3, 0.3, 0.3}, Max: geom.Vec3{0.7, 0.7, 0.7}},
			Material: DefaultMaterial, PerCell: 8, Seed: 1, Pattern: PatternJittered, Workers: workers,
			Variation: Variation{NoiseSeed: 4, ChunkSize: 0.08, SeamWidth: 0.02, SeamStrength: 0.2, ChunkStiffness: 2}}
		p := &Particles{}
		if _, err := Fill(p, src, 0.02); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a, b := fill(1), fill(4)
	if !slices.Equal(a.X, b.X) || !slices.Equal(a.Mat, b.Mat) {
		t.Errorf("1 and 4 workers seed different particles or materials")
	}
	weak := 0
	for _, m := range a.Mat {
		if m.ThetaC < float32(DefaultMaterial.CriticalCompression) {
			weak++
		}
	}
	t.Logf("%d particles, %d weakened on the seams", a.Len(), weak)
	if weak == 0 || weak == a.Len() {
		t.Errorf("%d of %d particles on the seams", weak, a.Len())
	}
}

// Every chunk key is checked, by name, and the strongest strength factor must keep
// theta_c below 1.
func TestVariationChunkErrors(t *testing.T) {
	ok := Variation{ChunkSize: 0.06, SeamWidth: 0.02, SeamStrength: 0.2}
	for _, tc := range []struct {
		edit func(v *Variation)
		want string
	}{
		{func(v *Variation) { v.ChunkSize = -1 }, "chunk_size"},
		{func(v *Variation) { v.ChunkSize = math.NaN() }, "chunk_size"},
		{func(v *Variation) { v.SeamWidth = math.Inf(1) }, "seam_width"},
		{func(v *Variation) { v.SeamWidth = 0 }, "seam_width"},
		{func(v *Variation) { v.SeamWidth = 0.07 }, "seam_width"},
		{func(v *Variation) { v.ChunkStrength = -2 }, "chunk_strength"},
		{func(v *Variation) { v.SeamStrength = math.NaN() }, "seam_strength"},
		{func(v *Variation) { v.ChunkStiffness = math.Inf(1) }, "chunk_stiffness"},
		{func(v *Variation) { v.SeamStiffness = -0.1 }, "seam_stiffness"},
		{func(v *Variation) { v.ChunkSize, v.SeamWidth = 0, 0 }, "chunk_size"},    // factors without a pattern
		{func(v *Variation) { v.ChunkSize, v.SeamStrength = 0, 0 }, "chunk_size"}, // a seam width without a pattern
		{func(v *Variation) { v.ChunkStrength = 40 }, "chunk_strength"},           // theta_c 0.025 x 40 = 1
		{func(v *Variation) { v.ChunkStrength, v.SeamStrength = 20, 50 }, "seam_strength"},
	} {
		v := ok
		tc.edit(&v)
		err := v.ValidateFor(DefaultMaterial)
		var se *SettingError
		if !errors.As(err, &se) || se.Setting != tc.want {
			t.Errorf("%+v: error %v, want a SettingError for %s", v, err, tc.want)
		}
	}
	if err := ok.ValidateFor(DefaultMaterial); err != nil {
		t.Errorf("valid chunks: %v", err)
	}
	strong := ok
	strong.ChunkStrength = 39
	if err := strong.ValidateFor(DefaultMaterial); err != nil {
		t.Errorf("theta_c 0.025 x 39 = 0.975: %v", err)
	}
	// Fill refuses a pattern that makes the material invalid.
	strong.ChunkStrength = 40
	src := Source{Shape: geom.Sphere{Center: geom.Vec3{0.5, 0.5, 0.5}, Radius: 0.1},
		Bounds:   geom.Box{Min: geom.Vec3{0.4, 0.4, 0.4}, Max: geom.Vec3{0.6, 0.6, 0.6}},
		Material: DefaultMaterial, PerCell: 1, Variation: strong}
	if _, err := Fill(&Particles{}, src, 0.05); err == nil || !strings.Contains(err.Error(), "chunk_strength") {
		t.Errorf("Fill with theta_c x 40: %v", err)
	}
}
