package particles

import (
	"fmt"

	"snowtools/levelset"
	"snowtools/levelset/parallel"
)

// MaskFog returns density (a fog volume from RasterizeVolume) cut by the level set
// surface (from SurfaceLevelSet, on the same voxel size and index space), so that the
// fog ends where the surface is rather than fading over the kernel's width:
//
//	rho'(x) = rho(x) S(-phi(x) / dx),   S(t) = 3t^2 - 2t^3 on [0, 1], 0 below, 1 above,
//
// a smooth step from 0 at the surface to 1 one voxel inside it. Voxels on or outside
// the surface (phi >= 0) are dropped: inactive, with the background 0. Deep inside
// (phi <= -dx) the density is unchanged. The result does not depend on threads.
func MaskFog(density, surface *levelset.FloatGrid, threads int) (*levelset.FloatGrid, error) {
	if density.Transform != surface.Transform {
		return nil, fmt.Errorf("mask fog: the density grid (voxel %g m, origin %v) and the surface (voxel %g m, origin %v) must share one transform",
			density.VoxelSize, density.Origin, surface.VoxelSize, surface.Origin)
	}
	leaves := density.Leaves()
	masked := make([]*levelset.Leaf[float32], len(leaves))
	accessors := make([]*levelset.Accessor[float32], max(threads, 1))
	invDx := 1 / surface.VoxelSize
	parallel.For(max(threads, 1), len(leaves), func(w, i int) {
		if accessors[w] == nil {
			accessors[w] = surface.Accessor()
		}
		acc, in := accessors[w], leaves[i]
		out := &levelset.Leaf[float32]{Origin: in.Origin}
		in.Active.ForEachOn(func(n int) {
			t := -float64(acc.Get(levelset.LeafCoord(in.Origin, n))) * invDx
			if t <= 0 {
				return
			}
			out.Values[n] = in.Values[n] * float32(smoothStep(t))
			out.Active.Set(n, true)
		})
		if !out.Active.IsEmpty() {
			masked[i] = out
		}
	})
	out := levelset.NewGrid(density.Transform, float32(0))
	for _, l := range masked {
		if l != nil {
			out.AddLeaf(l)
		}
	}
	return out, nil
}

// smoothStep is 3t^2 - 2t^3 clamped to [0, 1]: C^1, 0 at t <= 0 and 1 at t >= 1.
func smoothStep(t float64) float64 {
	t = min(max(t, 0), 1)
	return t * t * (3 - 2*t)
}
