package simcore

// Step advances the simulation by dt with the full method of section 4.1. The stages,
// in the paper's numbering, and the functions that carry them out:
//
//  1. rasterize mass and momentum to the grid, m_i = sum_p m_p w_ip and
//     m_i v_i^n = sum_p m_p v_p w_ip (normalized weights: momentum is conserved):
//     scatterParticle; with the APIC transfer, plus sum_p m_p w_ip C_p (x_i - x_p):
//     scatterAffineMomentum (apic.go);
//  2. first step only: particle densities rho_p^0 = sum_i m_i w_ip / h^3 and volumes
//     V_p^0 = m_p / rho_p^0: measureVolumes;
//  3. grid forces of equation (6) from the stress of equation (1) with the hardened
//     Lamé parameters of equation (2): scatterParticle; plus the presses' external
//     forces (press.go): scatterExternalForce; then, for sintering snow, Ye and
//     Sugimoto's pressure sintering updates the particles' density and parameters
//     (sintering.go);
//  4. grid velocities v* = v^n + dt (f / m + g), equation (10) plus gravity:
//     node.velocityStar;
//  5. grid-based body collisions (section 8) where snow touches a collider, and
//     elsewhere against surfaces that recede as fast as the snow approaches them:
//     markContacts, Sim.collideNode (contact.go);
//  6. v^{n+1} = v* (explicit): explicitVelocity, or the solution of equation (9)
//     (semi-implicit): solveImplicit;
//  7. F_E update and plasticity (section 7, equations 11-12): updateDeformation;
//  8. PIC/FLIP blend of particle velocities: blendPICFLIP (Config.flipAlpha); with
//     APIC, v_p = v_PIC and the affine velocity C_p: gatherAffine;
//  9. particle-based body collisions (section 8): Sim.collide;
//  10. advection x^{n+1} = x^n + dt v^{n+1}: advect.
//
// Stages that visit the same particles or nodes share a pass, which calls each stage's
// function in turn: rasterize (1 and 3, which scatter with the same weights in one
// loop), updateGrid (4, 5 and the explicit 6, node by node) and updateParticles (7 to
// 10, which gather the grid's velocities once per particle). The stress that stage 3
// needs is the one stage 7 of the previous step computed with its SVD.
//
// With Config.Sleep, groups of particles at rest sit steps out (sleep.go):
// binParticles leaves them out of this step's grid, updateGrid holds the nodes they
// share with awake snow still, and settle decides, after stage 10, which groups have
// rested long enough to sleep and which moving snow or colliders wake.
func (s *Sim) Step(dt float64) error {
	t1 := s.Time + dt
	s.Prepare() // 2, on the first step: ahead of 1 because the presses act on V_p^0
	s.pressed = pressing(s.pressed, s.cfg.Presses, s.Time)
	s.binParticles() // the sparse grid of this step: blocks that some kernel reaches
	s.rasterize()    // 1: m_i and m_i v_i^n; 3: f_i of (6) and the presses' forces
	if s.sintering(s.Time) {
		s.sinter(dt) // between 3 and 4: Ye and Sugimoto's pressure sintering
	}
	s.updateGrid(dt, t1) // 4: v* by (10) and gravity; 5: grid collisions; 6 (explicit): v^{n+1} = v*
	if s.semiImplicit() {
		if err := s.solveImplicit(dt); err != nil { // 6 (semi-implicit): v^{n+1} from (9)
			return err
		}
	}
	// 7: F_E by (11) and (12); 8: PIC/FLIP; 9: particle collisions; 10: x += dt v^{n+1}
	if err := s.updateParticles(dt, t1); err != nil {
		return err
	}
	s.settle(dt, t1) // with Config.Sleep: which groups rest, which wake (sleep.go)
	s.noteFreeze(t1)
	s.Time = t1
	s.Steps++
	return nil
}
