package main

import (
	"fmt"
	"math"

	"snowtools/cmd/internal/budget"
	"snowtools/cmd/internal/scene"
	"snowtools/levelset/geom"
	"snowtools/simcore"
)

// Peak memory of a run, per particle and per grid cell the snow fills. Measured
// as peak RSS (/usr/bin/time) of one-frame runs (fps 2000: 4 steps), 2 threads, of a
// sphere of radius 0.3 m at h = 0.01 m: 904,712 particles at 8 per cell and 113,051
// at 1 per cell (113,051 cells both times); the two runs give the two constants
// exactly, with runtimeBytes for the rest:
//
//	integrator      8 per cell   1 per cell   per particle   per cell
//	explicit        173 MiB      50.5 MiB     162 B          157 B
//	semi-implicit   296 MiB      148 MiB      196 B          1,025 B
//
// The grid's share is per cell, since the sparse grid follows the snow's cells
// whatever the particles per cell; the semi-implicit integrator adds its solver's
// vectors per node, and its particles their stiffness (96 B). Snow that spreads out
// during the run fills more cells than it was seeded in, so the estimate is of the
// start, the least the run will need. TestMemoryEstimate checks the constants
// against a smaller run.
const (
	explicitBytesPerParticle     = 165
	explicitBytesPerCell         = 160
	semiImplicitBytesPerParticle = 200
	semiImplicitBytesPerCell     = 1030
	// runtimeBytes is what a run holds besides its snow: the program, the Go
	// runtime, the scene.
	runtimeBytes = 16 << 20
)

// seedSamples is the lattice, per axis, on which estimateParticles tests which part
// of a source's box is inside its shape.
const seedSamples = 24

// memoryEstimate is what the run will hold: the particles that seeding will make,
// and the bytes they and their grid take at the peak.
type memoryEstimate struct {
	particles, cells float64
	bytes            int64
}

// estimateMemory estimates a snow scene's peak memory before seeding: each source's
// particles (estimateParticles), times the measured bytes per particle and per cell.
func estimateMemory(sc *scene.Scene) memoryEstimate {
	var e memoryEstimate
	for _, src := range sc.Sources {
		particles, cells := estimateParticles(src, sc.Config.Domain, sc.Config.H)
		e.particles += particles
		e.cells += cells
	}
	perParticle, perCell := float64(explicitBytesPerParticle), float64(explicitBytesPerCell)
	if sc.Config.Integrator != simcore.Explicit { // auto may take semi-implicit steps
		perParticle, perCell = semiImplicitBytesPerParticle, semiImplicitBytesPerCell
	}
	bytes := e.particles*perParticle + e.cells*perCell + runtimeBytes
	e.bytes = int64(min(bytes, math.MaxInt64/2))
	return e
}

// estimateParticles estimates how many particles simcore.Fill makes of src at grid
// spacing h, and how many cells they fill: the volume of the part of src.Bounds in
// the domain, times the fraction of it inside the shape, over h^3, times PerCell.
// The fraction is that of the centres of seedSamples^3 equal sub-boxes that are
// inside the shape, so that the shape is read at a few thousand points whatever h
// is, and an absurd h is caught at once.
func estimateParticles(src simcore.Source, domain geom.Box, h float64) (particles, cells float64) {
	box := geom.Box{Min: src.Bounds.Min.Max(domain.Min), Max: src.Bounds.Max.Min(domain.Max)}
	size := box.Size()
	if !(size[0] > 0 && size[1] > 0 && size[2] > 0) {
		return 0, 0
	}
	step := size.Scale(1.0 / seedSamples)
	inside := 0
	for i := range seedSamples {
		for j := range seedSamples {
			for k := range seedSamples {
				p := box.Min.Add(geom.Vec3{(float64(i) + 0.5) * step[0], (float64(j) + 0.5) * step[1], (float64(k) + 0.5) * step[2]})
				if phi, _ := src.Shape.Distance(p); phi < 0 {
					inside++
				}
			}
		}
	}
	cells = size[0] * size[1] * size[2] / (h * h * h) * float64(inside) / (seedSamples * seedSamples * seedSamples)
	return cells * float64(src.PerCell), cells
}

// reservation returns how many particles to make room for before seeding
// (simcore.Particles.Reserve), so that seeding allocates each particle channel once:
// the estimate plus reserveMargin. Estimates fall within 0.5% of the seeded count
// (TestEstimateParticles); the excess costs no resident memory.
func reservation(e memoryEstimate) int {
	return int(min(e.particles*(1+reserveMargin)+reserveSlack, math.MaxInt32))
}

// The margin of reservation: a fraction of the estimate, and a few particles for
// scenes so small that a percent is none.
const (
	reserveMargin = 0.03
	reserveSlack  = 64
)

// checkMemory refuses a scene whose estimate exceeds the budget, before anything is
// allocated for it.
func checkMemory(e memoryEstimate, b budget.Budget) error {
	return b.Check(fmt.Sprintf("%.3g particles (%.3g grid cells)", e.particles, e.cells), e.bytes)
}
