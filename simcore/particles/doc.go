// Package particles post-processes particle frames, whatever solver wrote them: density
// and attribute volumes rasterised with the solver's kernel (section 9 of Stomakhin et
// al. 2013), the surface as a narrow-band level set (SurfaceLevelSet) with MaskFog to
// cut a density volume at it, clusters, the lumps and powder that snow breaks into, and
// the shape measures by which two runs of a scene are compared (Shape).
// It does not link the solver.
package particles
