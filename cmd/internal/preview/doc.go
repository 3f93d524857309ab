// Package preview renders particle frames to pictures without a DCC: a small
// software renderer that draws each particle as a shaded sphere, and optionally
// a triangle mesh with them (the ground of a height-field simulation, with its
// prints), so that a technical director can judge a snow simulation from a PNG,
// a contact sheet or an animated GIF.
//
// A frame is rendered in four passes, each parallel over horizontal bands or
// rows and each independent of goroutine scheduling, so that the same input
// always gives the same bytes:
//
//  1. Splat (splat.go, bands.go): every particle is a sphere impostor. Its
//     exact pixel rectangle on screen comes from the tangent planes through
//     the eye; each pixel in it intersects its own ray with the sphere and
//     keeps the nearest hit (depth and particle index) in a supersampled depth
//     buffer. Spheres are binned into horizontal bands, one worker per band,
//     and drawn nearest first so hidden ones are rejected cheaply. A mesh
//     (mesh.go, meshraster.go, raster.go) goes into the same buffer first, by
//     the same bands: each triangle, clipped by a near plane, is a convex
//     polygon whose pixel centres take the perspective-correct depth (1/z is
//     affine on the screen) and the triangle's id.
//  2. Shadow map (shadow.go, ortho.go): the same splatting and rasterizing from
//     the key light, in an orthographic projection that covers the bounds of
//     the particles and the mesh, so that each shadows the other and itself.
//  3. Shade (shade.go, light.go, occlusion.go, ground.go, meshshade.go,
//     sky.go): per supersample, the sphere's normal at the hit gives wrapped
//     Lambert light from the key light, attenuated by the shadow map, plus a
//     hemispheric sky/ground ambient darkened by screen-space ambient
//     occlusion; a mesh hit is lit the same way with its vertex normals
//     interpolated at the hit; rays that miss them see a ground plane with a
//     1 m / 10 cm grid (left out where a mesh covers it, footprint.go), the
//     shadows and contact darkening, or a soft sky.
//  4. Resolve (resolve.go, color.go): radiance is tone mapped with a filmic
//     curve, the supersamples of each output pixel are averaged (a box
//     filter) and encoded as sRGB. Pixels that see only ground, only sky or
//     only a smooth stretch of mesh are shaded once.
//
// ContactSheet and WriteGIF turn a rendered sequence into one picture or an
// animation; Grid lays several runs out side by side, a row per run.
package preview
