// Package preview renders particle frames to pictures without a DCC: a small
// software renderer that draws each particle as a shaded sphere, so that a
// technical director can judge a snow simulation from a PNG, a contact sheet or
// an animated GIF.
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
//     and drawn nearest first so hidden ones are rejected cheaply.
//  2. Shadow map (shadow.go): the same splatting from the key light, in an
//     orthographic projection that covers the particles' bounds.
//  3. Shade (shade.go, light.go, occlusion.go, ground.go, sky.go): per
//     supersample, the sphere's normal at the hit gives wrapped Lambert light
//     from the key light, attenuated by the shadow map, plus a hemispheric
//     sky/ground ambient darkened by screen-space ambient occlusion; rays that
//     miss the particles see a ground plane with a 1 m / 10 cm grid, the
//     particles' shadow and contact darkening, or a soft sky.
//  4. Resolve (resolve.go, color.go): radiance is tone mapped with a filmic
//     curve, the supersamples of each output pixel are averaged (a box
//     filter) and encoded as sRGB. Pixels that see only ground or only sky
//     are shaded once.
//
// ContactSheet and WriteGIF turn a rendered sequence into one picture or an
// animation; Grid lays several runs out side by side, a row per run.
package preview
