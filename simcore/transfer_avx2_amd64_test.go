package simcore

import (
	"bytes"
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"

	"snowtools/levelset/geom"
	"snowtools/simcore/linalg"
)

// multiplyAdd is x*y + z as this build compiles it: not inlined, so that the
// compiler can neither fold it nor load an operand from memory into the multiply
// (which keeps it from fusing).
//
//go:noinline
func multiplyAdd(x, y, z float64) float64 { return x*y + z }

// skipUnlessBitExact skips t unless the AVX2 loops run here and this build's Go loops
// are their bit-exact reference. The Go specification lets the compiler fuse x*y + z
// into one rounding, and the amd64 compiler does so at GOAMD64=v3 and above, where the
// Go loops then differ from the AVX2 ones in the last bit (such builds only run on
// CPUs with AVX2, so they never take the Go loops outside these tests).
func skipUnlessBitExact(t *testing.T) {
	t.Helper()
	if !useAVX2 {
		t.Skip("this CPU has no AVX2")
	}
	// (1 + 2^-30)(1 - 2^-30) - 1 is -2^-60 fused, 0 once the product is rounded.
	if multiplyAdd(1+0x1p-30, 1-0x1p-30, -1) != 0 {
		t.Skip("this build fuses multiply-adds in Go code (GOAMD64=v3 or above): the Go loops are not the AVX2 loops' bitwise reference")
	}
}

// sameBits reports whether *a and *b hold the same bytes: unlike ==, it tells -0 from
// +0, and a NaN is the same as itself. T must be made of floats only (no padding).
func sameBits[T any](a, b *T) bool {
	n := unsafe.Sizeof(*a)
	return bytes.Equal(unsafe.Slice((*byte)(unsafe.Pointer(a)), n), unsafe.Slice((*byte)(unsafe.Pointer(b)), n))
}

// sameNodes is sameBits for each node of two windows, the pad (which the AVX2 scatter
// adds zeros to) left out.
func sameNodes(a, b *window[node]) bool {
	for x := range a {
		for y := range a[x] {
			for z := range a[x][y] {
				p, q := &a[x][y][z], &b[x][y][z]
				if !sameBits(&p.mass, &q.mass) || !sameBits(&p.momentum, &q.momentum) || !sameBits(&p.force, &q.force) {
					return false
				}
			}
		}
	}
	return true
}

// randomKernel returns the kernel of a random position and a random stencil offset in
// a window.
func randomKernel(rng *rand.Rand) (ker kernel, ox, oy, oz int) {
	kernelAt(geom.Vec3{rng.Float64(), rng.Float64(), rng.Float64()}, 1/0.01, &ker)
	return ker, rng.IntN(blockWidth), rng.IntN(blockWidth), rng.IntN(blockWidth)
}

// randomValue returns a value of random sign and magnitude over 12 decades, or zero.
func randomValue(rng *rand.Rand) float64 {
	if rng.IntN(16) == 0 {
		return 0
	}
	return (2*rng.Float64() - 1) * math.Pow(10, 6-12*rng.Float64())
}

// TestTransfersAVX2SameBits checks that the AVX2 loops of the scatter and the gather
// give the Go loops' results to the bit, on random kernels, offsets and values (and
// random window contents to add to).
func TestTransfersAVX2SameBits(t *testing.T) {
	skipUnlessBitExact(t)
	rng := rand.New(rand.NewPCG(1, 25))
	var winGo, winAVX window[node]
	var vel window[nodeVelocity]
	for trial := range 2000 {
		ker, ox, oy, oz := randomKernel(rng)
		m := math.Abs(randomValue(rng))
		v := geom.Vec3{randomValue(rng), randomValue(rng), randomValue(rng)}
		var st sym3f
		for k := range st {
			st[k] = float32(randomValue(rng))
		}
		if trial%100 == 0 { // what the scatter adds to, up to a few particles' worth
			for x := range winGo {
				for y := range winGo[x] {
					for z := range winGo[x][y] {
						n := node{mass: math.Abs(randomValue(rng)),
							momentum: geom.Vec3{randomValue(rng), randomValue(rng), randomValue(rng)},
							force:    geom.Vec3{randomValue(rng), randomValue(rng), randomValue(rng)}}
						winGo[x][y][z], winAVX[x][y][z] = n, n
						vel[x][y][z] = nodeVelocity{n.momentum, n.force}
					}
				}
			}
		}
		scatterParticleGo(&winGo, &ker, ox, oy, oz, m, v, &st, 100)
		scatterParticle(&winAVX, &ker, ox, oy, oz, m, &v, &st, 100)
		if !sameNodes(&winGo, &winAVX) {
			t.Fatalf("trial %d: the AVX2 scatter differs from the Go one", trial)
		}
		vGo, dvGo, gGo := interpolateGo(&vel, &ker, ox, oy, oz)
		vAVX, dvAVX, gAVX := interpolate(&vel, &ker, ox, oy, oz)
		if !sameBits(&vGo, &vAVX) || !sameBits(&dvGo, &dvAVX) || !sameBits(&gGo, &gAVX) {
			t.Fatalf("trial %d: the AVX2 gather gives %v %v %v, the Go one %v %v %v", trial, vAVX, dvAVX, gAVX, vGo, dvGo, gGo)
		}
	}
}

// TestStepAVX2SameBits steps a snowball through its impact with and without the AVX2
// loops, with each transfer, and checks that every particle's state is the same to
// the bit.
func TestStepAVX2SameBits(t *testing.T) {
	skipUnlessBitExact(t)
	defer func() { useAVX2 = true }()
	for _, transfer := range []Transfer{PICFLIP, APIC} {
		t.Run(transfer.String(), func(t *testing.T) { stepsSameBits(t, transfer) })
	}
}

// stepsSameBits is TestStepAVX2SameBits with one transfer.
func stepsSameBits(t *testing.T, transfer Transfer) {
	run := func(avx bool) *Sim {
		useAVX2 = avx
		cfg := DefaultConfig()
		cfg.Transfer = transfer
		cfg.H = 0.02
		cfg.Domain = geom.Box{Max: geom.Vec3{0.6, 0.4, 0.6}}
		src := ballSource(geom.Vec3{0.3, 0.12, 0.3}, 0.1, DefaultMaterial, 1)
		src.Velocity = geom.Vec3{0.5, -3, 0}
		s := newSimOf(t, cfg, src)
		for range 60 {
			if err := s.Step(s.stableDt()); err != nil {
				t.Fatal(err)
			}
		}
		return s
	}
	a, b := run(false), run(true)
	if !sameBits(&a.Time, &b.Time) {
		t.Fatalf("time %v against %v", b.Time, a.Time)
	}
	for i := range a.P.X {
		same := sameBits(&a.P.X[i], &b.P.X[i]) && sameBits(&a.P.V[i], &b.P.V[i]) && sameBits(&a.P.FE[i], &b.P.FE[i]) && sameBits(&a.P.JP[i], &b.P.JP[i])
		if a.P.Affine != nil {
			same = same && sameBits(&a.P.Affine[i], &b.P.Affine[i])
		}
		if !same {
			t.Fatalf("particle %d: x %v v %v against %v %v", i, b.P.X[i], b.P.V[i], a.P.X[i], a.P.V[i])
		}
	}
	t.Logf("%d particles, %d steps, t = %.4g s: the same bits", a.P.Len(), a.Steps, a.Time)
}

// TestKernelAVX2SameBits checks that kernelAVX2 gives kernelAt's weights, slopes and
// first nodes to the bit, at random positions (negative ones included), on cell
// boundaries and just off them.
func TestKernelAVX2SameBits(t *testing.T) {
	skipUnlessBitExact(t)
	rng := rand.New(rand.NewPCG(2, 25))
	for trial := range 20000 {
		var x geom.Vec3
		for a := range x {
			switch rng.IntN(3) {
			case 0:
				x[a] = 200 * (rng.Float64() - 0.5)
			case 1: // a node
				x[a] = float64(rng.IntN(400)-200) * 0.01
			default: // next to a node
				x[a] = math.Nextafter(float64(rng.IntN(400)-200)*0.01, 2*rng.Float64()-1)
			}
		}
		invH := 1 / (0.005 + 0.05*rng.Float64())
		var kGo, kAVX kernel
		bGo, bAVX := kernelAtGo(x, invH, &kGo), kernelAt(x, invH, &kAVX)
		if bGo != bAVX || !sameBits(&kGo, &kAVX) {
			t.Fatalf("trial %d, x %v, 1/h %v: AVX2 base %v kernel %v, Go %v %v", trial, x, invH, bAVX, kAVX, bGo, kGo)
		}
	}
}

// TestNearRotationAVX2SameBits checks that nearRotationAVX2 gives nearRotation's
// rotation to the bit, on random rotations times stretches within 5% of 1.
func TestNearRotationAVX2SameBits(t *testing.T) {
	skipUnlessBitExact(t)
	rng := rand.New(rand.NewPCG(3, 25))
	for trial := range 20000 {
		q, w := linalg.RandomRotation(rng), linalg.RandomRotation(rng)
		var s linalg.Mat3
		for k := 0; k < 3; k++ {
			s[4*k] = 1 + 0.1*(rng.Float64()-0.5)
		}
		f := q.Mul(s).Mul(w)
		var rGo, rAVX linalg.Mat3
		nearRotationGo(&rGo, &f)
		nearRotation(&rAVX, &f)
		if !sameBits(&rGo, &rAVX) {
			t.Fatalf("trial %d, F = %v: AVX2 %v, Go %v", trial, f, rAVX, rGo)
		}
	}
}

// TestTrialElasticAVX2SameBits checks that trialElasticAVX2 gives trialElastic's
// F^_E to the bit, on random F_E and velocity gradients.
func TestTrialElasticAVX2SameBits(t *testing.T) {
	skipUnlessBitExact(t)
	rng := rand.New(rand.NewPCG(4, 25))
	fes := make([]Mat3f, 1000) // F_E in a slice, as the particles hold them
	for trial := range 20000 {
		fe := &fes[trial%len(fes)]
		var g linalg.Mat3
		for k := range fe {
			fe[k] = float32(randomValue(rng))
			g[k] = randomValue(rng)
		}
		dt := 1e-3 * rng.Float64()
		var fGo, fAVX linalg.Mat3
		trialElasticGo(&fGo, fe, &g, dt)
		trialElastic(&fAVX, fe, &g, dt)
		if !sameBits(&fGo, &fAVX) {
			t.Fatalf("trial %d: AVX2 %v, Go %v", trial, fAVX, fGo)
		}
	}
}
