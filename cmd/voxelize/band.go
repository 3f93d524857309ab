package main

import (
	"fmt"
	"math"
)

// kernelVoxels is the part of the automatic band that does not come from motion:
// OpenVDB's customary half-width of three voxels, which covers the simulator's
// interpolation kernel and a central-difference stencil.
const kernelVoxels = 3

// defaultMaxBand caps the automatic band: kernelVoxels plus 9 voxels of motion a
// frame. A skinned character's fastest vertex (a hand or a foot in a kick) can ask
// for 20, and the band's voxels grow with its width while the time to make them
// grows faster (each leaf meets more triangles): spot at 128 voxels across, on one
// thread, end to end, has 0.19 M voxels in 0.33 s of CPU at band 3, 0.76 M in 1.65 s
// at 12 and 1.3 M in 4.4 s at 20.
// Beyond the cap the collider is still exact near the surface; only the surface's
// interpolation between frames, which needs the band to reach as far as the surface
// moves in a frame, falls short where it moves more than 9 voxels.
const defaultMaxBand = 12

// bandCap is the automatic band of each frame, capped, and the frames it capped.
type bandCap struct {
	capped      int     // frames whose motion asked for more than the cap
	widest      float64 // the widest band asked for, in voxels
	widestFrame int
}

// automatic returns the band for a frame whose vertices move at most displacement
// metres to a neighbouring frame: kernelVoxels plus that motion in voxels, at most
// maxBand. The first time it caps a band it returns a note for the log.
//
// The band asked for stays a float64 until it is known to be at most maxBand: a vertex
// thrown 1e300 m or to infinity asks for more voxels than an int holds, and converting
// such a value to an int is not defined in Go (it gave a band of
// -9223372036854775805 voxels). A NaN displacement fails the comparison and is capped
// too.
func (b *bandCap) automatic(frame int, displacement, voxel float64, maxBand int) (band int, note string) {
	motion := math.Ceil(displacement / voxel)
	need := kernelVoxels + motion
	if need <= float64(maxBand) {
		return int(need), ""
	}
	b.capped++
	if need > b.widest || b.capped == 1 {
		b.widest, b.widestFrame = need, frame
	}
	if b.capped == 1 {
		note = fmt.Sprintf("frame %d: a vertex moves %.3g m (%.6g voxels) to a neighbouring frame, which needs a band of %.6g voxels: capped at -max-band %d, so snowsim's collider lags where the surface moves more than %d voxels a frame (raise -max-band to cover it)",
			frame, displacement, motion, need, maxBand, maxBand-kernelVoxels)
	}
	return maxBand, note
}

// summary says how many frames were capped, when more than the one already noted.
func (b *bandCap) summary(maxBand int) string {
	if b.capped < 2 {
		return ""
	}
	return fmt.Sprintf("%d frames needed a band wider than -max-band %d, the widest %.6g voxels (frame %d)", b.capped, maxBand, b.widest, b.widestFrame)
}
