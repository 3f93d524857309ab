package simcore

// Step advances the simulation by dt with the full method of section 4.1. The stages,
// in the paper's numbering:
//
//  1. rasterize mass and momentum to the grid (normalized weights: momentum is conserved);
//  2. first step only: particle densities rho_p^0 and volumes V_p^0 from the grid mass;
//  3. grid forces of equation (6) from the stress of equation (1) with the hardened
//     Lamé parameters of equation (2), plus the presses' external forces (press.go);
//     then, for sintering snow, Ye and Sugimoto's pressure sintering (sintering.go)
//     updates the particles' density and parameters;
//  4. grid velocities v* by equation (10) plus gravity;
//  5. grid-based body collisions (section 8);
//  6. v^{n+1} = v* (explicit), or the solution of equation (9) (semi-implicit);
//  7. F_E update and plasticity (section 7, equations 11-12);
//  8. PIC/FLIP blend of particle velocities;
//  9. particle-based body collisions (section 8);
//  10. advection x^{n+1} = x^n + dt v^{n+1}.
//
// Stages 1 and 3 share one pass because they scatter with the same weights, and the
// stress they need is the one stage 7 of the previous step computed with its SVD.
func (s *Sim) Step(dt float64) error {
	t1 := s.Time + dt
	s.Prepare() // 2, on the first step: ahead of 1 because the presses act on V_p^0
	s.pressed = pressing(s.pressed, s.Presses, s.Time)
	s.binParticles() // the sparse grid of this step: blocks that some kernel reaches
	s.rasterize()    // 1 and 3
	if s.sintering(s.Time) {
		s.sinter(dt) // between 3 and 4: Ye and Sugimoto's pressure sintering
	}
	if s.semiImplicit() {
		s.implicit.resizeNodes(len(s.grid.blocks) * blockNodes)
		s.linearise() // the Hessian of (9) at F_E^n
	}
	s.updateGrid(dt, t1) // 4, 5, and 6 when explicit
	if s.semiImplicit() {
		if err := s.solveImplicit(dt); err != nil { // 6
			return err
		}
	}
	if err := s.updateParticles(dt, t1); err != nil { // 7, 8, 9, 10
		return err
	}
	s.Time = t1
	s.Steps++
	return nil
}
