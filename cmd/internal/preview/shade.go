package preview

import (
	"snowtools/levelset/geom"
)

// shader turns one supersample of the depth buffer into a display colour.
type shader struct {
	view        *view
	pts         Points
	mesh        *Mesh        // the ground mesh, the objects and the snow (joinMeshes); nil: none
	firstObject int32        // mesh's triangles from this one on are the objects'
	firstSnow   int32        // and from this one on the snow's
	objects     rgb          // linear albedo of the objects
	gbuf        *depthBuffer // particles, mesh (meshID) and ground (groundID) composited
	shadow      *shadowMap
	ground      *groundPlane // nil: no ground
	toLight     geom.Vec3
	supersample int
	aoRadius    float64 // world radius of the occlusion neighbourhood
	aoPatterns  [][aoTaps]tapOffset
	flat        *rgb // flat background in display light; nil: the sky
	snow        rgb  // linear albedo of particles without a colour
	colored     bool
}

// newShader prepares the shading of the depth buffer gbuf, seen through v: the
// key light and its shadow map over the bounds of the particles and the meshes,
// the ground plane (composited into gbuf) and the occlusion's radius.
func newShader(pts Points, v *view, gbuf *depthBuffer, meshes joinedMesh, opt Options) *shader {
	sh := &shader{
		view: v, pts: pts, gbuf: gbuf, toLight: opt.keyLight(v), supersample: opt.Supersample,
		snow: rgbOfBytes(snowColor[0], snowColor[1], snowColor[2]), colored: pts.hasColor(),
		firstObject: meshes.firstObject, firstSnow: meshes.firstSnow, objects: objectAlbedo,
	}
	if opt.Background != nil {
		flat := linearOf(opt.Background)
		sh.flat = &flat
	}
	if opt.ObjectColor != nil {
		sh.objects = linearOf(opt.ObjectColor)
	}
	lo, hi, found := pts.bounds(opt.Workers)
	groundHeight := lo[1] // GroundAuto: under the lowest particle
	if mlo, mhi, ok := meshes.Bounds(); ok {
		sh.mesh = meshes.Mesh
		if found {
			lo, hi = lo.Min(mlo), hi.Max(mhi)
		} else {
			lo, hi, found = mlo, mhi, true
			groundHeight = mlo[1] // no particles: under the lowest object
		}
	}
	if rim, ok := opt.Mesh.RimHeight(); ok {
		groundHeight = rim // GroundAuto: continuing the ground mesh's edge
	}
	if !found { // nothing to draw: the ground, if any, around what the camera looks at
		lo, hi = v.target, v.target
	}
	sh.shadow = buildShadowMap(pts, sh.mesh, lo, hi, sh.toLight, opt.ShadowMapSize, opt.Workers)
	sh.aoRadius = max(aoRadiusInRadii*float64(pts.Radius), aoRadiusOfScene*hi.Sub(lo).Norm())
	sh.aoPatterns = aoPatterns(opt.Supersample)
	switch {
	case opt.Ground == GroundAuto && found:
		sh.ground = newGroundPlane(groundHeight, pts, lo, hi, v, sh.aoRadius)
	case opt.Ground == GroundAt:
		sh.ground = newGroundPlane(opt.GroundHeight, pts, lo, hi, v, sh.aoRadius)
	}
	if sh.ground != nil {
		if opt.Mesh.drawable() {
			sh.ground.meetMesh(opt.Mesh)
		}
		sh.ground.composite(v, gbuf, opt.Workers)
	}
	return sh
}

// sample returns the display colour of supersample (x, y): the particle, the
// mesh or the ground seen there, or else the background.
func (sh *shader) sample(x, y int) rgb {
	k := y*sh.gbuf.width + x
	switch id := sh.gbuf.id[k]; {
	case id == -1:
		v := sh.view
		return sh.background(v.toWorld(v.rayCamera(float64(x)+0.5, float64(y)+0.5)).Unit())
	case id == groundID:
		return sh.ground.shade(sh, x, y, 1)
	case id <= firstMeshID:
		return sh.meshSurface(triangleOf(id), x, y, 1)
	default:
		return sh.particle(id, sh.gbuf.depth[k], x, y)
	}
}

// particle returns the display colour of sphere id seen at depth z through
// supersample (x, y).
func (sh *shader) particle(id int32, z float32, x, y int) rgb {
	v := sh.view
	hit, n := v.sphereHit(sh.pts, id, z, float64(x)+0.5, float64(y)+0.5)
	albedo := sh.snow
	if sh.colored {
		c := sh.pts.Color[3*id : 3*id+3]
		albedo = rgb{byteToLinear[c[0]], byteToLinear[c[1]], byteToLinear[c[2]]}
	}
	// The occlusion keeps the sphere's true normal; the lighting takes the
	// flattened one.
	ns := n.Add(v.eye.Sub(hit).Unit().Scale(beadFlattening)).Unit()
	light := hemisphere(ns).scale(sh.blockOcclusion(x, y, 1, hit, n))
	if lambert := diffuse(ns, sh.toLight); lambert > 0 {
		light = light.add(sunRadiance.scale(lambert * sh.shadow.visibility(hit, geom.Vec3{}, pcfRotatedGrid)))
	}
	return toneMap(albedo.mul(light))
}

// beadFlattening leans the shading normal towards the eye, n' = unit(n + b e):
// packed spheres then read less as beads and more as a snow surface, while
// the clump's form still comes through the shadow map and occlusion.
const beadFlattening = 0.3

// background returns the display colour seen in the unit world direction d.
func (sh *shader) background(d geom.Vec3) rgb {
	if sh.flat != nil {
		return *sh.flat
	}
	return skyAt(d)
}
