package preview

import (
	"snowtools/levelset/geom"
)

// meshAlbedo is the linear albedo of a mesh: a light warm grey, sRGB
// (176, 169, 156), between dry sand and snow in shade, so that prints read by
// their shading while blue-white snow particles still stand off it.
var meshAlbedo = rgbOfBytes(176, 169, 156)

// objectAlbedo is the default linear albedo of Options.Objects: clay, sRGB
// (184, 124, 96).
var objectAlbedo = rgbOfBytes(184, 124, 96)

// meshSurface returns the display colour of triangle t of the meshes seen
// through the size x size block of supersamples whose top-left one is (x, y),
// shaded once for the ray through the block's centre: a supersample (size 1)
// with four shadow taps, or a whole pixel whose supersamples all see the mesh
// at about one depth (resolve) with the ground's nine, occlusion averaged over
// the block's supersamples either way. The hit point and its barycentric
// weights w come from the ray (view.meshHit); the shading normal is the corner
// normals (the vertex normals, or a solid's, see NewSolidMesh) interpolated,
//
//	n = unit(w0 n_a + w1 n_b + w2 n_c),
//
// turned to the side of the triangle's plane that the eye sees (so an open mesh
// seen from below is lit as its underside), and the light is that of the
// ground plane and the particles: the sun as Lambert's max(0, n.l) times the
// shadow map's visibility (receiver-plane biased on the triangle's plane), none
// where the triangle itself faces away from the sun, plus the sky and ground
// ambient darkened by screen-space occlusion (on the triangle's own normal, as
// particles take their spheres', so that smooth normals across a sharp crease
// do not make a flat face occlude itself).
func (sh *shader) meshSurface(t int32, x, y, size int) rgb {
	v, m := sh.view, sh.mesh
	half := float64(size) / 2
	hit, w, ok := v.meshHit(m, t, float64(x)+half, float64(y)+half)
	tri := m.triangles[t]
	a, b, c := m.positions[tri[0]], m.positions[tri[1]], m.positions[tri[2]]
	facet := b.Sub(a).Cross(c.Sub(a)).Unit()
	if !ok { // a ray in the triangle's plane: take its centre
		hit, w = a.Add(b).Add(c).Scale(1.0/3), [3]float64{1.0 / 3, 1.0 / 3, 1.0 / 3}
	}
	if facet.Dot(v.eye.Sub(hit)) < 0 {
		facet = facet.Scale(-1)
	}
	cn := m.shadingNormals(t)
	n := cn[0].Scale(w[0]).Add(cn[1].Scale(w[1])).Add(cn[2].Scale(w[2])).Unit()
	if n == (geom.Vec3{}) {
		n = facet
	} else if n.Dot(facet) < 0 {
		n = n.Scale(-1)
	}
	light := hemisphere(n).scale(sh.blockOcclusion(x, y, size, hit, facet))
	if lambert := n.Dot(sh.toLight); lambert > 0 && facet.Dot(sh.toLight) > 0 {
		taps := pcfRotatedGrid
		if size > 1 {
			taps = pcfSquareGrid
		}
		light = light.add(sunRadiance.scale(lambert * sh.shadow.visibility(hit, facet, taps)))
	}
	albedo := meshAlbedo
	switch {
	case t >= sh.firstSnow:
		albedo = sh.snow
	case t >= sh.firstObject:
		albedo = sh.objects
	}
	return toneMap(albedo.mul(light))
}

// smoothMeshDepth is the largest relative spread of depths, (max - min)/min,
// of a pixel whose supersamples all see the mesh that is shaded once as a
// whole: a surface seen at a grazing angle spreads a fraction of a percent
// over a pixel, while a rim in front of the floor of a print spreads more and
// keeps its supersamples, so that the silhouette stays antialiased.
const smoothMeshDepth = 0.005
