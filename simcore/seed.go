package simcore

import (
	"fmt"
	"math"
	"math/rand/v2"

	"snowtools/levelset"
)

// Source describes a volume of snow to fill with particles.
type Source struct {
	Shape    levelset.Shape
	Bounds   levelset.Bounds // a box that contains the shape; seeding looks only here
	Material Material
	PerCell  int    // particles per grid cell; section 10 found 4-10 plausible
	Seed     uint64 // random seed: the same seed gives the same particles
	Velocity Vec3   // initial velocity (m/s)
	Spin     Vec3   // initial angular velocity (rad/s) about Center
	Center   Vec3
}

// Fill adds the particles of src to p: PerCell uniformly random points in every cell of
// size h that fall inside the shape, each with mass rho_0 h^3 / PerCell, velocity
// Velocity + Spin x (x - Center), F_E = I and J_P = 1. It returns how many it added.
func Fill(p *Particles, src Source, h float64) (int, error) {
	if err := src.Material.Validate(); err != nil {
		return 0, err
	}
	if src.PerCell < 1 {
		return 0, fmt.Errorf("particles per cell %d: must be >= 1", src.PerCell)
	}
	rng := rand.New(rand.NewPCG(src.Seed, 0x5eed5eed))
	mass := src.Material.Density * h * h * h / float64(src.PerCell)
	pm := src.Material.PerParticle()
	var lo, hi [3]int
	for a := 0; a < 3; a++ {
		lo[a] = int(math.Floor(src.Bounds.Min[a] / h))
		hi[a] = int(math.Ceil(src.Bounds.Max[a] / h))
	}
	added := 0
	for i := lo[0]; i < hi[0]; i++ {
		for j := lo[1]; j < hi[1]; j++ {
			for k := lo[2]; k < hi[2]; k++ {
				for n := 0; n < src.PerCell; n++ {
					x := Vec3{
						(float64(i) + rng.Float64()) * h,
						(float64(j) + rng.Float64()) * h,
						(float64(k) + rng.Float64()) * h,
					}
					if phi, _ := src.Shape.Distance(x); phi >= 0 || !src.Bounds.Contains(x) {
						continue
					}
					v := src.Velocity.Add(src.Spin.Cross(x.Sub(src.Center)))
					p.Add(x, v, mass, pm)
					added++
				}
			}
		}
	}
	return added, nil
}
