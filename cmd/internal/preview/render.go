package preview

import "image"

// Render draws the particles as shaded spheres, and opt.Mesh, opt.Objects and opt.Snow if any, seen by cam
// and returns the picture (see the package documentation for the passes).
// Particles behind the eye, outside the picture or with a non-finite position
// are skipped; triangles are clipped by a near plane just in front of the eye.
// The result depends only on the arguments, not on opt.Workers.
func Render(pts Points, cam Camera, opt Options) *image.RGBA {
	opt = opt.withDefaults()
	ss := opt.Supersample
	v := cam.view(opt.Width*ss, opt.Height*ss)
	gbuf := newDepthBuffer(v.width, v.height, true)
	meshes := joinMeshes(opt.Mesh, opt.Objects, opt.Snow)
	if meshes.drawable() {
		rasterizeMesh(meshes.Mesh, cameraProjection(&v), gbuf, opt.Workers)
	}
	splatSpheres(pts, &cameraSplat{pts: pts, view: &v, radius: float64(pts.Radius)}, gbuf, opt.Workers)
	return resolve(newShader(pts, &v, gbuf, meshes, opt), opt.Width, opt.Height, opt.Workers)
}
