package simcore

import (
	"math"
	"strings"
	"testing"

	"snowtools/levelset/geom"
)

// Equations (3)-(5) against hand-computed stress states.
func TestVonMises(t *testing.T) {
	for _, c := range []struct {
		name string
		s    [6]float64 // xx yy zz xy xz yz
		want float64
	}{
		{"uniaxial", [6]float64{250, 0, 0, 0, 0, 0}, 250},
		{"hydrostatic", [6]float64{-7, -7, -7, 0, 0, 0}, 0},
		{"pure shear xy", [6]float64{0, 0, 0, 4, 0, 0}, 4 * math.Sqrt(3)},
		{"pure shear xz", [6]float64{0, 0, 0, 0, -2, 0}, 2 * math.Sqrt(3)},
		// VM1 = ((10+4)^2 + (-4-6)^2 + (6-10)^2) / 2 = 156, VM2 = 3 (2^2 + 1^2 + 0) = 15.
		{"general", [6]float64{10, -4, 6, 2, 0, 1}, math.Sqrt(171)},
	} {
		if got := VonMises(c.s); math.Abs(got-c.want) > 1e-12*math.Max(1, c.want) {
			t.Errorf("%s: von Mises %.15g, want %.15g", c.name, got, c.want)
		}
	}
}

// Equation (2) with (6), by hand: rho = 200, rho_max = 700 (rho_r = 2/7), sigma_m = 1000,
// |b| = 2, dt = 1e-3 with Table 1's C1 = 5e-7 and C2 = 1e-3: the rate is
// 5e-7 * 1000 * 3.5 + 1e-3 * 2 = 3.75e-3, so rho' = 200 + 1e-3 * 200 * 3.75e-3.
func TestDensify(t *testing.T) {
	l := SinteringLaw{MaxDensity: 700, C1: 5e-7, C2: 1e-3}
	if got, want := l.Densify(200, 1000, 2, 1e-3), 200.00075; math.Abs(got-want) > 1e-12 {
		t.Errorf("rho' = %.15g, want %.15g", got, want)
	}
	if got := l.Densify(200, 0, 0, 1); got != 200 {
		t.Errorf("without stress or force rho' = %g, want 200", got)
	}
	// Density never exceeds rho_max, however long the step or strong the press.
	rho := 650.0
	for k := 0; k < 100; k++ {
		rho = l.Densify(rho, 1e9, 1e6, 1e-2)
		if rho > l.MaxDensity {
			t.Fatalf("step %d: rho = %g above rho_max %g", k, rho, l.MaxDensity)
		}
	}
	if rho != l.MaxDensity {
		t.Errorf("hard pressing ends at rho = %g, want rho_max %g", rho, l.MaxDensity)
	}
}

// Equations (7)-(8): at the initial relative density the particle keeps E0 and nu0; at
// full density, by hand for rho_r^0 = 1/2 and C3 = -9: E = E0 exp(-9 (1/2 - 1)) =
// E0 exp(4.5), nu = nu0 sqrt(1/1) / sqrt((1/2) / (3 - 1)) = 2 nu0.
func TestElasticity(t *testing.T) {
	l := SinteringLaw{MaxDensity: 800, C3: -9}
	const e0, nu0, rhoR0 = 1.4e5, 0.2, 0.5
	eMax, nuMax := l.Maxima(e0, nu0, rhoR0)
	for _, c := range []struct {
		rhoR, e, nu float64
	}{
		{rhoR0, e0, nu0},
		{1, e0 * math.Exp(4.5), 2 * nu0},
		// rho_r = 3/4: E = E0 exp(-9 (1/2 - 3/4)) = E0 exp(2.25); nu = nu0 sqrt(0.75/1.5) / sqrt(0.25) = nu0 sqrt(2).
		{0.75, e0 * math.Exp(2.25), nu0 * math.Sqrt(2)},
	} {
		e, nu := l.Elasticity(c.rhoR, eMax, nuMax)
		if math.Abs(e-c.e) > 1e-9*c.e || math.Abs(nu-c.nu) > 1e-12 {
			t.Errorf("rho_r = %g: E = %.10g, nu = %.12g; want %.10g, %.12g", c.rhoR, e, nu, c.e, c.nu)
		}
	}
}

// Equation (9) as a rate, by hand: xi = 10, C4 = 1e-3, C5 = 1e-3, sigma_m = 500, |b| = 3,
// dt = 0.01: xi' = 10 + 0.01 * (0.5 + 0.003).
func TestHarden(t *testing.T) {
	l := SinteringLaw{C4: 1e-3, C5: 1e-3}
	if got, want := l.Harden(10, 500, 3, 0.01), 10.00503; math.Abs(got-want) > 1e-12 {
		t.Errorf("xi' = %.15g, want %.15g", got, want)
	}
	// Two half steps harden as much as one whole step: no dependence on the step count.
	half := l.Harden(l.Harden(10, 500, 3, 0.005), 500, 3, 0.005)
	if math.Abs(half-l.Harden(10, 500, 3, 0.01)) > 1e-12 {
		t.Errorf("two half steps give %.15g, one step %.15g", half, l.Harden(10, 500, 3, 0.01))
	}
}

func TestSinteringLawValidate(t *testing.T) {
	good := SinteringLaw{MaxDensity: 917, C1: 5e-7, C2: 1e-3, C3: -9, C4: 1e-3, C5: 1e-3}
	if err := good.Validate(400, 0.2); err != nil {
		t.Errorf("snow of 400 kg/m^3 towards ice: %v", err)
	}
	for _, c := range []struct {
		law       SinteringLaw
		rho0, nu0 float64
		want      string
	}{
		{SinteringLaw{MaxDensity: 300, C3: -9}, 400, 0.2, "rho_max"},
		{SinteringLaw{MaxDensity: 917, C1: -1}, 400, 0.2, "C1"},
		{SinteringLaw{MaxDensity: 917, C3: math.NaN()}, 400, 0.2, "C3"},
		// Table 1's 2D snow (100 of 700 kg/m^3) would reach nu = 0.87 at full density.
		{SinteringLaw{MaxDensity: 700, C3: -9}, 100, 0.2, "Poisson"},
	} {
		err := c.law.Validate(c.rho0, c.nu0)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v with rho0 %g, nu0 %g: error %v, want one naming %q", c.law, c.rho0, c.nu0, err, c.want)
		}
	}
}

// sinteringBlock is a block of snow, 20 x 10 x 20 cm at h = 2 cm, resting on the floor
// under gravity, of a material that sinters by law (nil: it does not).
func sinteringBlock(t *testing.T, law *SinteringLaw, window [2]float64) *Sim {
	cfg := DefaultConfig()
	cfg.H = 0.02
	cfg.Domain = geom.Box{Min: geom.Vec3{0, 0, 0}, Max: geom.Vec3{0.4, 0.3, 0.4}}
	cfg.SinterStart, cfg.SinterEnd = window[0], window[1]
	m := DefaultMaterial
	m.Sintering = law
	return newBlock(t, cfg, geom.Box{Min: geom.Vec3{0.1, 0.02, 0.1}, Max: geom.Vec3{0.3, 0.12, 0.3}}, m, geom.Vec3{})
}

// stepFor advances s by d seconds at its stable step.
func stepFor(t *testing.T, s *Sim, d float64) {
	t.Helper()
	if _, err := s.Advance(s.Time + d); err != nil {
		t.Fatal(err)
	}
}

// Without a sintering law, or outside the window, the particles' parameters never
// change; inside it, the loaded snow densifies (never beyond rho_max) and its Young's
// modulus and hardening grow, each particle more where it carries more stress.
func TestSinteringInTheStep(t *testing.T) {
	law := &SinteringLaw{MaxDensity: 917, C1: 2e-3, C2: 1e-3, C3: -9, C4: 1e-2, C5: 1e-3}
	initial := DefaultMaterial
	initial.Sintering = law
	start, startSinter := initial.PerParticle(), initial.PerParticleSintering()

	off := sinteringBlock(t, nil, [2]float64{})
	closed := sinteringBlock(t, law, [2]float64{0.5, 0.6}) // opens after the run
	on := sinteringBlock(t, law, [2]float64{})
	for _, s := range []*Sim{off, closed, on} {
		stepFor(t, s, 0.05)
	}
	if off.P.Sinter != nil {
		t.Error("snow without a sintering law carries sintering state")
	}
	for name, s := range map[string]*Sim{"no law": off, "closed window": closed} {
		for i := range s.P.Mat {
			m := s.P.Mat[i]
			if m.Mu0 != start.Mu0 || m.Lambda0 != start.Lambda0 || m.Xi != start.Xi {
				t.Fatalf("%s: particle %d changed: %+v", name, i, m)
			}
		}
	}
	grew, stressedMore := 0, 0
	for i := range on.P.Mat {
		m, rho := on.P.Mat[i], on.P.Sinter[i].Density
		if rho > 917 {
			t.Fatalf("particle %d: density %g above rho_max", i, rho)
		}
		if rho < startSinter.Density || m.Mu0 < start.Mu0 || m.Xi < start.Xi {
			t.Fatalf("particle %d: sintering went backwards: %+v, rho %g from %+v, rho %g", i, m, rho, start, startSinter.Density)
		}
		if rho > startSinter.Density && m.Mu0 > start.Mu0 && m.Xi > start.Xi {
			grew++
		}
		// The bottom layer carries the block's weight; the top layer nothing.
		if on.P.X[i][1] < 0.04 && rho > startSinter.Density {
			stressedMore++
		}
	}
	t.Logf("%d of %d particles densified; %d in the bottom layer", grew, on.P.Len(), stressedMore)
	if grew < on.P.Len()/2 {
		t.Errorf("only %d of %d particles sintered", grew, on.P.Len())
	}
	bottom, top := layerDensity(on.P, 0, 0.04), layerDensity(on.P, 0.09, 1)
	t.Logf("mean sintered density: bottom layer %.4f kg/m^3, top %.4f", bottom, top)
	if !(bottom > top) {
		t.Errorf("the bottom layer (%.4f kg/m^3) should sinter more than the top (%.4f)", bottom, top)
	}
}

// layerDensity returns the mean sintered density of the particles with heights in [lo, hi).
func layerDensity(p *Particles, lo, hi float64) float64 {
	sum, n := 0.0, 0
	for i, x := range p.X {
		if x[1] >= lo && x[1] < hi {
			sum += float64(p.Sinter[i].Density)
			n++
		}
	}
	return sum / float64(n)
}

// Pressed hard and long, the snow reaches rho_max and stays there.
func TestSinteringStopsAtMaxDensity(t *testing.T) {
	law := &SinteringLaw{MaxDensity: 450, C1: 10, C3: -9}
	s := sinteringBlock(t, law, [2]float64{})
	stepFor(t, s, 0.05)
	full := 0
	for i := range s.P.Mat {
		d := s.P.Sinter[i].Density
		if d > 450 {
			t.Fatalf("particle %d: density %g above rho_max 450", i, d)
		}
		if d == 450 {
			full++
		}
	}
	if full == 0 {
		t.Error("no particle reached rho_max")
	}
}
