package preview

import (
	"math"

	"snowtools/levelset/geom"
)

// The default background is an overcast-to-clear sky in display light: pale
// near the horizon, a soft blue overhead, and a neutral grey below the horizon
// (seen only without a ground plane).
var (
	skyZenith  = rgbOfBytes(118, 156, 206)
	skyHorizon = rgbOfBytes(224, 230, 238)
	skyBelow   = rgbOfBytes(160, 162, 166)
)

// rgbOfBytes returns the linear colour of sRGB bytes.
func rgbOfBytes(r, g, b uint8) rgb { return rgb{byteToLinear[r], byteToLinear[g], byteToLinear[b]} }

// skyAt returns the sky's display colour in the unit world direction d:
// horizon to zenith as sqrt(d.y) above the horizon (the blue deepens quickly
// and then slowly), horizon to skyBelow as sqrt(-d.y) below it.
func skyAt(d geom.Vec3) rgb {
	if d[1] >= 0 {
		return lerp(skyHorizon, skyZenith, math.Sqrt(min(d[1], 1)))
	}
	return lerp(skyHorizon, skyBelow, math.Sqrt(min(-d[1], 1)))
}
