// Package collider is what snow collides with (section 8 of Stomakhin et al. 2013):
// the Collider interface of signed distance, normal and velocity at a time, the contact
// modes (separate with Coulomb friction, slip, sticky) and their velocity response, and
// the kinds of body: analytic shapes moving at a constant velocity, rigid bodies on
// keyframed paths, and deforming level sets interpolated between voxelized frames, with
// the sequencing that hands them their keyframes as the simulation time passes. The
// MPM solver (simcore) and the height-field ground (simcore/heightfield) both use it.
package collider
