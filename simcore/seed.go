package simcore

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"

	"snowtools/levelset/geom"
	"snowtools/levelset/parallel"
)

// Source describes a volume of snow to fill with particles.
type Source struct {
	Shape    geom.Shape
	Bounds   geom.Box // a box that contains the shape; seeding looks only here
	Material Material
	PerCell  int       // particles per grid cell; section 10 found 4-10 plausible
	Seed     uint64    // random seed: the same seed gives the same particles
	Velocity geom.Vec3 // initial velocity (m/s)
	Spin     geom.Vec3 // initial angular velocity (rad/s) about Center
	Center   geom.Vec3

	Pattern   Pattern   // how points are placed in a cell; "" is PatternRandom
	Variation Variation // spatially varying parameters (section 10); the zero value varies nothing
	Workers   int       // goroutines for Fill; 0 means GOMAXPROCS. The result does not depend on it.
}

// Pattern names a way of placing the PerCell points of a grid cell.
type Pattern string

// The sampling patterns of Fill. Each places points in every cell of size h (the
// cells (i, j, k) of [ih, (i+1)h) x ..., so that seeding lines up with the
// simulation grid) and keeps those strictly inside the shape (phi < 0) and in Bounds.
const (
	// PatternRandom: PerCell independent uniform points per cell, drawn from one
	// PCG stream in cell order (i, then j, then k fastest), three draws (x, y, z)
	// per point. The stream also advances over cells that hold no snow, so the
	// particles of a seed are those of the first Fill, which tested every point.
	PatternRandom Pattern = "random"
	// PatternJittered: stratified. The cell is split into k^3 sub-cells with
	// k = ceil(PerCell^(1/3)); PerCell distinct sub-cells are chosen at random (all of
	// them when PerCell = k^3, as for 1, 8, 27, 64) and each gets one uniform point.
	// No sub-cell of side h/k holds two points, so clumps and holes of a cell's size
	// cannot occur.
	PatternJittered Pattern = "jittered"
	// PatternPoisson: blue noise. Dart throwing with minimum distance
	// r = PoissonSpacing h / PerCell^(1/3) (see PoissonSpacing), PerCell darts per
	// cell, cells in the 8 parity classes of (i mod 2, j mod 2, k mod 2) one class
	// after another (cells of one class share no face, edge or corner, so they run in
	// parallel without reading each other's points). A dart is a uniform point of its
	// cell, accepted when it is at least r from every point placed so far; a point
	// takes up to PoissonAttempts darts and is left out when all of them fail.
	PatternPoisson Pattern = "poisson"
)

// Patterns lists the valid patterns.
func Patterns() []Pattern { return []Pattern{PatternRandom, PatternJittered, PatternPoisson} }

// Validate reports an unknown pattern, listing the valid ones.
func (p Pattern) Validate() error {
	switch p {
	case "", PatternRandom, PatternJittered, PatternPoisson:
		return nil
	}
	return fmt.Errorf("sampling pattern %q: must be one of %q", string(p), Patterns())
}

// lipschitzShape is a Shape that knows a bound L on |phi(p) - phi(q)| / |p - q|
// (voxelize.MeshShape, levelset.GridShape). Any other Shape is taken to be a signed
// distance or a min/max of signed distances, with L = 1.
type lipschitzShape interface{ Lipschitz() float64 }

// Fill adds the particles of src to p and returns how many it added: the points of
// src.Pattern that lie inside the shape (phi < 0) and in Bounds, each with mass
// rho_0 h^3 / PerCell and rest density Rho0 = rho_0 (rho_0 the particle's own density
// after Variation, h^3 / PerCell its share of the seeded volume), velocity
// Velocity + Spin x (x - Center), F_E = I, J_P = 1 and the material of Variation.
// A shape filled completely gets PerCell particles per h^3 of its volume (random,
// jittered: in expectation, to about 1/sqrt(N); poisson: a few tenths of a percent
// fewer, see PoissonSpacing).
//
// Cost: the shape's Distance is called at the centres of octree blocks of cells
// and only where needed at single points. A block of cells with centre c and
// half-diagonal R lies wholly outside when phi(c) > L R and wholly inside when
// phi(c) < -(L R + ShellThickness), with L the shape's Lipschitz bound (1 for a
// signed distance; see lipschitzShape); only blocks between those are split, and
// only the points of cells near the surface (or in the shell) are tested one by
// one. A shape whose phi is not L-Lipschitz (for example a "distance" that
// overestimates) must say so with a Lipschitz method, or cells may be misjudged.
// The Shape must be safe for concurrent use when Workers > 1.
func Fill(p *Particles, src Source, h float64) (int, error) {
	if err := src.Material.Validate(); err != nil {
		return 0, err
	}
	if src.PerCell < 1 || src.PerCell > maxPerCell {
		return 0, fmt.Errorf("particles per cell %d: must be in [1, %d]", src.PerCell, maxPerCell)
	}
	if !(h > 0) || math.IsInf(h, 0) {
		return 0, fmt.Errorf("grid spacing %g: must be finite and positive", h)
	}
	if !src.Bounds.Min.IsFinite() || !src.Bounds.Max.IsFinite() {
		return 0, fmt.Errorf("seeding bounds %v to %v: must be finite", src.Bounds.Min, src.Bounds.Max)
	}
	size := src.Bounds.Size()
	if cells := (size[0]/h + 2) * (size[1]/h + 2) * (size[2]/h + 2); cells > maxSeedCells {
		return 0, fmt.Errorf("seeding bounds %v to %v hold about %.3g cells of %g m: more than %g; make the bounds fit the shape",
			src.Bounds.Min, src.Bounds.Max, cells, h, float64(maxSeedCells))
	}
	if err := src.Pattern.Validate(); err != nil {
		return 0, err
	}
	if err := src.Variation.ValidateFor(src.Material); err != nil {
		return 0, err
	}
	f := newFiller(p, &src, h)
	if f.cells() == 0 {
		return 0, nil
	}
	f.classify()
	switch src.Pattern {
	case PatternJittered:
		f.jittered()
	case PatternPoisson:
		f.poisson()
	default:
		f.random()
	}
	return f.added, nil
}

// Limits of Fill: the seeding box costs one to five bytes per cell of scratch
// memory even where it holds no snow.
const (
	maxPerCell   = 4096
	maxSeedCells = 1 << 28
)

// Cell classes of the seeding grid.
const (
	cellOut   uint8 = iota // wholly outside: no point can be inside
	cellDeep               // wholly inside and deeper than the shell: no point needs phi
	cellMixed              // each point needs phi
)

// filler holds the state of one Fill.
type filler struct {
	p       *Particles
	src     *Source
	h       float64
	lo      [3]int // the first cell on each axis
	n       [3]int // cells on each axis
	class   []uint8
	phiC    []float32 // phi at the centre of each cellMixed cell (when lip is finite)
	lip     float64   // Lipschitz bound of phi; +Inf: test every point
	shell   float64   // shell thickness (0 for none)
	workers int
	added   int

	varies bool              // Variation changes something: the material is per particle
	rho0   float64           // the material's rho_0, when !varies
	pm     ParticleMaterial  // when !varies
	ps     ParticleSintering // when !varies
}

func newFiller(p *Particles, src *Source, h float64) *filler {
	f := &filler{p: p, src: src, h: h, lip: 1, shell: src.Variation.ShellThickness, workers: src.Workers}
	if ls, ok := src.Shape.(lipschitzShape); ok {
		f.lip = ls.Lipschitz()
	}
	if f.workers <= 0 {
		f.workers = runtime.GOMAXPROCS(0)
	}
	for a := 0; a < 3; a++ {
		f.lo[a] = int(math.Floor(src.Bounds.Min[a] / h))
		f.n[a] = max(0, int(math.Ceil(src.Bounds.Max[a]/h))-f.lo[a])
		if src.Pattern == PatternPoisson && f.n[a] > 0 {
			f.lo[a]-- // a ring of cells that only hold darts: see poisson
			f.n[a] += 2
		}
	}
	f.varies = src.Variation.active()
	f.rho0 = src.Material.Density
	f.pm, f.ps = src.Material.PerParticle(), src.Material.PerParticleSintering()
	return f
}

// particleMass returns the mass of a particle of density rho0: rho0 h^3 / PerCell, the
// density times the particle's share of the seeded volume.
func (f *filler) particleMass(rho0 float64) float64 {
	return rho0 * f.h * f.h * f.h / float64(f.src.PerCell)
}

// cells returns the number of cells in the seeding box.
func (f *filler) cells() int { return f.n[0] * f.n[1] * f.n[2] }

// index returns the linear index of cell (i, j, k) relative to lo, k fastest.
func (f *filler) index(i, j, k int) int { return (i*f.n[1]+j)*f.n[2] + k }

// seedPoint is a candidate point: eval says that phi must still be computed;
// otherwise phi is known (or -Inf for a point deep inside, whose phi is not needed).
type seedPoint struct {
	x    geom.Vec3
	phi  float64
	eval bool
}

// centre returns the centre of cell (i, j, k) (relative indices).
func (f *filler) centre(i, j, k int) geom.Vec3 {
	return geom.Vec3{(float64(f.lo[0]+i) + 0.5) * f.h, (float64(f.lo[1]+j) + 0.5) * f.h, (float64(f.lo[2]+k) + 0.5) * f.h}
}

// candidate returns the seedPoint for x in cell c (a linear index) with centre
// centre, or false when the point can be dropped at once: its cell is cellOut, it is
// outside Bounds, or, in a cellMixed cell, the centre's phi_c decides it,
//
//	phi_c - L |x - centre| > 0   (outside), or
//	phi_c + L |x - centre| < -T  (deep inside: phi is not needed),
//
// which spares about half the Distance calls of the cells that the surface crosses.
func (f *filler) candidate(x geom.Vec3, c int, centre geom.Vec3) (seedPoint, bool) {
	class := f.class[c]
	if class == cellOut || !f.src.Bounds.Contains(x) {
		return seedPoint{}, false
	}
	if class == cellMixed && f.phiC != nil {
		pc := float64(f.phiC[c])
		reach := f.lip*x.Sub(centre).Norm()*(1+1e-7) + math.Abs(pc)*1e-6 + f.h*1e-9 // rounding, float32
		switch {
		case pc-reach > 0:
			return seedPoint{}, false
		case pc+reach < -f.shell:
			class = cellDeep
		}
	}
	return seedPoint{x: x, phi: math.Inf(-1), eval: class == cellMixed}, true
}

// flushSize is how many candidates are gathered before their phi is computed in
// parallel and the survivors become particles: it bounds Fill's scratch memory.
const flushSize = 1 << 16

// flush computes phi for the candidates that need it, in parallel, then adds the
// points inside (phi < 0) to the particles, in candidate order.
func (f *filler) flush(pts []seedPoint) []seedPoint {
	parallel.Ranges(f.workers, len(pts), 1024, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			if pts[i].eval {
				pts[i].phi, _ = f.src.Shape.Distance(pts[i].x)
			}
		}
	})
	// The velocity field Velocity + Spin x (x - Center) has the gradient [Spin x]: the
	// affine velocity an APIC particle starts with, so that the first transfer keeps the
	// spin whole (the solver drops it for the other transfer).
	w := f.src.Spin
	spinGradient := Mat3f{0, float32(-w[2]), float32(w[1]), float32(w[2]), 0, float32(-w[0]), float32(-w[1]), float32(w[0]), 0}
	inside := 0
	for i := range pts {
		if pts[i].phi < 0 {
			inside++
		}
	}
	next := f.p.Len()
	f.p.extend(inside)
	for i := range pts {
		if pts[i].phi >= 0 {
			continue
		}
		x := pts[i].x
		rho0, pm, ps := f.rho0, f.pm, f.ps
		if f.varies {
			m := f.src.Variation.Material(f.src.Material, x, pts[i].phi)
			rho0, pm, ps = m.Density, m.PerParticle(), m.PerParticleSintering()
		}
		v := f.src.Velocity.Add(f.src.Spin.Cross(x.Sub(f.src.Center)))
		f.p.set(next, x, v, f.particleMass(rho0), pm)
		f.p.Rho0[next] = float32(rho0)
		f.p.setSintering(next, ps)
		f.p.setAffine(next, spinGradient)
		next++
	}
	f.added += inside
	return pts[:0]
}

// random places PerCell uniform points per cell from one sequential PCG stream:
// exactly the points the first version of Fill made for the same seed.
func (f *filler) random() {
	rng := rand.New(rand.NewPCG(f.src.Seed, 0x5eed5eed))
	h := f.h
	pts := make([]seedPoint, 0, flushSize+f.src.PerCell)
	for i := 0; i < f.n[0]; i++ {
		for j := 0; j < f.n[1]; j++ {
			for k := 0; k < f.n[2]; k++ {
				c := f.index(i, j, k)
				centre := f.centre(i, j, k)
				ci, cj, ck := float64(f.lo[0]+i), float64(f.lo[1]+j), float64(f.lo[2]+k)
				for range f.src.PerCell {
					x := geom.Vec3{(ci + rng.Float64()) * h, (cj + rng.Float64()) * h, (ck + rng.Float64()) * h}
					if sp, ok := f.candidate(x, c, centre); ok {
						pts = append(pts, sp)
					}
				}
			}
			if len(pts) >= flushSize {
				pts = f.flush(pts)
			}
		}
	}
	f.flush(pts)
}
