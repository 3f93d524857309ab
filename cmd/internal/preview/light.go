package preview

import (
	"snowtools/levelset/geom"
)

// The lighting is a sun and a sky, in radiance units where a white Lambert
// surface facing a full sun unoccluded reflects about sunRadiance:
//
//	L = albedo (sun max(0, wrap(n.l)) V + ambient(n) A)
//
// with V the shadow map's visibility and A the ambient occlusion. The sky is
// blue and the sun warm, so what the sun does not reach turns the soft blue of
// snow in shade.
var (
	sunRadiance = rgb{1.00, 0.95, 0.87}.scale(2.3)
	skyAmbient  = rgb{0.50, 0.63, 0.90}.scale(0.75)
	// groundBounce is the light the ground reflects upwards: its albedo times
	// the light it gets, for a sun about 45 degrees up (n.l = 0.7).
	groundBounce = groundAlbedo.mul(sunRadiance.scale(0.7).add(skyAmbient))
	// groundAlbedo is a neutral, slightly warm grey: dark enough that white snow
	// stands off it, light enough that blue shadows read on it.
	groundAlbedo = rgb{0.13, 0.125, 0.12}
)

// lightWrap widens the Lambert lobe: wrap(c) = (c + w)/(1 + w), a cheap
// stand-in for the light that snow scatters beneath its surface.
const lightWrap = 0.15

// diffuse returns the wrapped Lambert factor max(0, (n.l + w)/(1 + w)).
func diffuse(n, toLight geom.Vec3) float64 {
	return max(0, (n.Dot(toLight)+lightWrap)/(1+lightWrap))
}

// hemisphere returns the ambient light on a surface with unit normal n: the sky
// above and the ground's bounce below, blended by (1 + n.y)/2 (the sky's share
// of what the surface sees, for an unobstructed horizon).
func hemisphere(n geom.Vec3) rgb {
	return lerp(groundBounce, skyAmbient, 0.5+0.5*n[1])
}
