package mesher

import (
	"runtime"

	"snowtools/levelset"
	"snowtools/levelset/geom"
	"snowtools/levelset/parallel"
)

// SampleVelocities returns the trilinear sample of the vector grid v at every
// vertex of m, for m.Velocities (a motion-blur attribute): the velocity grid of a
// frame sampled at its surface. v may have its own transform. Voxels v does not
// hold give its background, as in OpenVDB's BoxSampler. threads <= 0 means one per
// CPU; the result does not depend on it.
func SampleVelocities(m *geom.Mesh, v *levelset.Vec3Grid, threads int) []geom.Vec3 {
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	out := make([]geom.Vec3, len(m.Positions))
	const chunk = 4096 // vertices per task: enough to pay for a sampler
	parallel.Ranges(threads, len(out), chunk, func(_, lo, hi int) {
		s := levelset.NewVec3Sampler(v)
		for i := lo; i < hi; i++ {
			out[i] = s.Sample(m.Positions[i])
		}
	})
	return out
}
