package simcore

import (
	"math"
	"math/rand/v2"
	"snowtools/levelset/geom"
	"snowtools/simcore/linalg"
	"testing"
)

// energy is equation (1): Psi = mu ||F - R||_F^2 + lambda/2 (J - 1)^2 with R from the
// polar decomposition of F.
func energy(f linalg.Mat3, mu, lambda float64) float64 {
	r, _ := linalg.Polar3(f)
	j := f.Det()
	return mu*f.Sub(r).FrobeniusNorm()*f.Sub(r).FrobeniusNorm() + lambda/2*(j-1)*(j-1)
}

// The stress that the forces use, V^0 dPsi/dF F^T, is the derivative of equation (1)
// with the hardened Lamé parameters of equation (2): compare with finite differences.
func TestKirchhoffStressIsEnergyDerivative(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	pm := DefaultMaterial.PerParticle()
	for n := 0; n < 200; n++ {
		var f linalg.Mat3
		for i := range f {
			f[i] = linalg.Identity3[i] + 0.2*(rng.Float64()-0.5)
		}
		jp := 0.8 + 0.4*rng.Float64()
		vol0 := 1e-6 * (1 + rng.Float64())
		u, sig, _ := linalg.SVD3(f)
		mu, lambda := pm.hardened(jp)
		st := kirchhoffStress(u, sig, sig[0]*sig[1]*sig[2], vol0, mu, lambda)
		tau := linalg.Mat3{
			float64(st[0]), float64(st[3]), float64(st[4]),
			float64(st[3]), float64(st[1]), float64(st[5]),
			float64(st[4]), float64(st[5]), float64(st[2]),
		}
		wantMu := float64(pm.Mu0) * math.Exp(float64(pm.Xi)*(1-jp))
		if math.Abs(mu-wantMu) > 1e-9*wantMu {
			t.Fatalf("hardened mu = %g, want mu0 exp(xi (1 - J_P)) = %g", mu, wantMu)
		}
		const e = 1e-6
		var dPsi linalg.Mat3
		for k := range f {
			fp, fm := f, f
			fp[k] += e
			fm[k] -= e
			dPsi[k] = (energy(fp, mu, lambda) - energy(fm, mu, lambda)) / (2 * e)
		}
		want := dPsi.Mul(f.T()).Scale(vol0)
		if err := tau.Sub(want).FrobeniusNorm(); err > 1e-5*want.FrobeniusNorm()+1e-9 {
			t.Fatalf("F=%v J_P=%g: stress %v, finite differences %v", f, jp, tau, want)
		}
	}
}

// Stage 7 clamps the singular values of F_E into [1 - theta_c, 1 + theta_s], keeps
// det F = J_E J_P, and leaves F_E alone inside the elastic range.
func TestPlasticityClamp(t *testing.T) {
	p := &Particles{}
	p.Add(geom.Vec3{}, geom.Vec3{}, 1, DefaultMaterial.PerParticle())
	p.Vol0[0] = 1
	s := &Sim{P: p}
	// A velocity gradient that stretches x by 5% and compresses y by 5% in dt = 1.
	gradV := linalg.Diag(geom.Vec3{0.05, -0.05, 0.001})
	jE, _, _ := s.updateDeformation(0, 1, &gradV)
	fe := p.FE[0].mat3()
	_, sig, _ := linalg.SVD3(fe)
	if math.Abs(sig[0]-(1+7.5e-3)) > 1e-6 || math.Abs(sig[2]-(1-2.5e-2)) > 1e-6 || math.Abs(sig[1]-1.001) > 1e-6 {
		t.Fatalf("clamped singular values %v, want [1.0075 1.001 0.975]", sig)
	}
	detF := 1.05 * 0.95 * 1.001
	if got := jE * float64(p.JP[0]); math.Abs(got-detF) > 1e-6 {
		t.Fatalf("J_E J_P = %g, want det F = %g", got, detF)
	}
	// Inside the elastic range nothing goes to plasticity.
	q := &Particles{}
	q.Add(geom.Vec3{}, geom.Vec3{}, 1, DefaultMaterial.PerParticle())
	q.Vol0[0] = 1
	gradV = linalg.Diag(geom.Vec3{0.005, -0.01, 0})
	(&Sim{P: q}).updateDeformation(0, 1, &gradV)
	if q.JP[0] != 1 {
		t.Fatalf("elastic deformation changed J_P to %g", q.JP[0])
	}
	if got := q.FE[0].mat3(); math.Abs(got[0]-1.005) > 1e-7 || math.Abs(got[4]-0.99) > 1e-7 {
		t.Fatalf("F_E = %v, want diag(1.005, 0.99, 1)", got)
	}
}

// The elastic shortcut of stage 7 agrees with the SVD: singularValuesWithin decides as
// the singular values do, nearRotation is the polar rotation, and kirchhoffStressPolar
// is kirchhoffStress.
func TestElasticShortcutMatchesSVD(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	pm := DefaultMaterial.PerParticle()
	lo, hi := 1-float64(pm.ThetaC), 1+float64(pm.ThetaS)
	inside := 0
	for n := 0; n < 20000; n++ {
		// Singular values around the yield limits, some inverted.
		var sig geom.Vec3
		for k := range sig {
			sig[k] = 0.96 + 0.06*rng.Float64()
		}
		if n%10 == 0 {
			sig[2] = -sig[2]
		}
		f := linalg.RandomRotation(rng).Mul(linalg.Diag(sig)).Mul(linalg.RandomRotation(rng).T())
		want, nearLimit := true, false
		for _, x := range sig {
			want = want && x > lo && x < hi
			nearLimit = nearLimit || math.Abs(x-lo) < 1e-12 || math.Abs(x-hi) < 1e-12
		}
		if nearLimit {
			continue // within rounding of a limit, where either answer is right
		}
		if got := singularValuesWithin(&f, lo, hi); got != want {
			t.Fatalf("sigma %v: singularValuesWithin = %v", sig, got)
		}
		if !want {
			continue
		}
		inside++
		r, _ := linalg.Polar3(f)
		var near linalg.Mat3
		nearRotation(&near, &f)
		if d := near.Sub(r).FrobeniusNorm(); d > 1e-14 {
			t.Fatalf("sigma %v: nearRotation differs from Polar3 by %g", sig, d)
		}
		u, s, _ := linalg.SVD3(f)
		jE := f.Det()
		mu, lambda := pm.hardened(0.9 + 0.2*rng.Float64())
		a := kirchhoffStress(u, s, jE, 1e-6, mu, lambda)
		var b sym3f
		kirchhoffStressPolar(&b, &f, &near, jE, 1e-6, mu, lambda)
		scale := 0.0
		for k := range a {
			scale = max(scale, math.Abs(float64(a[k])))
		}
		for k := range a {
			if math.Abs(float64(a[k]-b[k])) > 1e-6*scale {
				t.Fatalf("sigma %v: stress %v from the SVD, %v from the polar rotation", sig, a, b)
			}
		}
	}
	if inside < 1000 {
		t.Fatalf("only %d of the samples were elastic", inside)
	}
}
