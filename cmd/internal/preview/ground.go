package preview

import (
	"math"

	"snowtools/levelset/geom"
	"snowtools/levelset/parallel"
)

// groundPlane is the horizontal plane y = height under the particles. It is a
// matte grey with a grid of 1 m and 10 cm lines, so that scale reads, and it
// takes the particles' shadow, so that heights and contact read. With distance
// it fades into the horizon colour (a fog that starts behind the particles),
// which also hides the grid's aliasing far away.
type groundPlane struct {
	height float64
	// The fog is 1 - exp(-((dist - fogStart)/fogDistance)^2) beyond fogStart
	// from the eye and nothing nearer, so the ground around the particles keeps
	// its full contrast and the horizon is soft.
	fogStart, fogDistance float64
	// contact says where particles are near enough to darken the ground.
	contact *contactGrid
	// hole is where a mesh covers the ground, which is not drawn there (nil:
	// nowhere); receiver is the plane's normal for shadow lookups when a mesh
	// is in the shadow map (see meetMesh), zero otherwise.
	hole     *footprint
	receiver geom.Vec3
}

// groundUnderMesh lowers the ground plane under a mesh by this fraction of the
// mesh's size, so that where the plane runs under the mesh's edge at the same
// height (the rim) the mesh is nearer and wins the depth test.
const groundUnderMesh = 1e-4

// meetMesh makes the plane give way to mesh m: it is not drawn where m's
// footprint covers it (so that a print below the rim is not hidden by the plane
// at rim height), it sits a hair below m's edge, and its shadow lookups follow its
// own plane (visibility's receiver-plane bias), because the mesh next to it
// in the shadow map is nearly coplanar with it.
func (g *groundPlane) meetMesh(m *Mesh) {
	g.hole = m.footprint
	g.height -= groundUnderMesh * m.hi.Sub(m.lo).Norm()
	g.receiver = geom.Vec3{0, 1, 0}
}

// The grid: lines every gridMajor and gridMinor metres, at least one output
// pixel wide (wider when near: majorWidth, minorWidth metres), darkening the
// ground by majorInk and minorInk. A family of lines fades out as its spacing
// shrinks from gridFadeFull to gridFadeGone output pixels.
const (
	gridMajor, gridMinor   = 1.0, 0.1
	majorWidth, minorWidth = 0.012, 0.003
	majorInk, minorInk     = 0.35, 0.12
	gridFadeFull           = 12.0
	gridFadeGone           = 4.0
)

// newGroundPlane returns the plane y = height under the particles, whose box
// is [lo, hi], seen through v, with occlusion radius reach. The fog depends on the
// camera alone (its distance to the target), not on the particles, so that the
// ground of a sequence seen by one camera stays the same from frame to frame.
func newGroundPlane(height float64, pts Points, lo, hi geom.Vec3, v *view, reach float64) *groundPlane {
	toTarget := max(v.target.Sub(v.eye).Norm(), 1e-3)
	return &groundPlane{
		height:      height,
		fogStart:    fogStartScale * toTarget,
		fogDistance: fogScale * toTarget,
		contact:     newContactGrid(pts, lo, hi, height, reach),
	}
}

// The fog starts at fogStartScale times the eye's distance to its target (behind
// the particles of a box that Frame framed, whose far corners are at about 1.3
// times that distance) and fades over fogScale times that distance.
const fogStartScale, fogScale = 1.4, 3.0

// groundID marks the supersamples of the depth buffer where the ground is the
// nearest surface (particles have their index, the background -1).
const groundID = -2

// composite writes the ground into the depth buffer: wherever the ray meets the
// plane nearer than any particle or mesh, and outside the mesh's footprint, the
// depth becomes the plane's, s f, and the id groundID. Screen-space occlusion
// then sees the ground like any surface.
func (g *groundPlane) composite(v *view, buf *depthBuffer, workers int) {
	// The ray through (px, py) has the world direction
	// d = right (px - cx) + up (cy - py) + fwd f, so it meets the plane at
	// s = (height - eye.y)/d.y, depth s f; the hit's x and z, eye + s d, are
	// needed only to look up the mesh's footprint.
	rise := g.height - v.eye[1]
	parallel.Ranges(workers, buf.height, resolveRows, func(_, lo, hi int) {
		for y := lo; y < hi; y++ {
			qy := v.cy - (float64(y) + 0.5)
			rowY := v.up[1]*qy + v.fwd[1]*v.focal
			rowX, rowZ := v.up[0]*qy+v.fwd[0]*v.focal, v.up[2]*qy+v.fwd[2]*v.focal
			for x := range buf.width {
				qx := float64(x) + 0.5 - v.cx
				s := rise / (v.right[1]*qx + rowY)
				k := y*buf.width + x
				if !(s > 0 && float32(s*v.focal) < buf.depth[k]) {
					continue
				}
				if g.hole != nil && g.hole.covers(v.eye[0]+s*(v.right[0]*qx+rowX), v.eye[2]+s*(v.right[2]*qx+rowZ)) {
					continue
				}
				buf.depth[k], buf.id[k] = float32(s*v.focal), groundID
			}
		}
	})
}

// intersect returns the parameter s > 0 at which the ray eye + s d meets the
// plane, s = (height - eye.y) / d.y, and whether it does.
func (g *groundPlane) intersect(eye, d geom.Vec3) (float64, bool) {
	if d[1] == 0 {
		return 0, false
	}
	s := (g.height - eye[1]) / d[1]
	return s, s > 0
}

// shade returns the display colour of the ground seen through the n x n block
// of supersamples whose top-left one is (x, y), filtered over the whole block:
// the ray through the block's centre, grid lines box-filtered over its
// footprint and occlusion averaged over its supersamples. Shading a pixel whose
// supersamples all see the ground as one block costs one sample instead of n^2.
func (g *groundPlane) shade(sh *shader, x, y, n int) rgb {
	v := sh.view
	half := float64(n) / 2
	d := v.toWorld(v.rayCamera(float64(x)+half, float64(y)+half))
	s, _ := g.intersect(v.eye, d)
	p := v.eye.Add(d.Scale(s))
	// The world footprint of one supersample: with s = (h - eye.y)/d.y, moving the
	// ray one supersample right (d += right) or down (d -= up) moves the hit by
	//   dP/dx = s (right - d right.y/d.y),   dP/dy = s (d up.y/d.y - up);
	// the footprint along world x and z is the larger move (a GPU's fwidth).
	dx := v.right.Sub(d.Scale(v.right[1] / d[1])).Scale(s)
	dy := d.Scale(v.up[1] / d[1]).Sub(v.up).Scale(s)
	footX, footZ := max(math.Abs(dx[0]), math.Abs(dy[0])), max(math.Abs(dx[2]), math.Abs(dy[2]))
	filter, pixel := float64(n), float64(sh.supersample)
	ink := 1 - majorInk*gridLines(p[0], p[2], footX, footZ, filter, pixel, gridMajor, majorWidth)
	ink *= 1 - minorInk*gridLines(p[0], p[2], footX, footZ, filter, pixel, gridMinor, minorWidth)

	light := skyAmbient
	if g.contact.near(p) {
		light = light.scale(sh.blockOcclusion(x, y, n, p, geom.Vec3{0, 1, 0}))
	}
	if sh.toLight[1] > 0 {
		light = light.add(sunRadiance.scale(sh.toLight[1] * sh.shadow.visibility(p, g.receiver, pcfSquareGrid)))
	}
	colour := toneMap(groundAlbedo.scale(ink).mul(light))
	beyond := max(0, s*d.Norm()-g.fogStart) / g.fogDistance
	if beyond == 0 {
		return colour
	}
	fog := 1 - math.Exp(-beyond*beyond)
	return lerp(colour, sh.background(geom.Vec3{d[0], 0, d[2]}.Unit()), fog)
}

// gridLines returns how much of a footprint of filter supersamples around
// (x, z) the lines of one grid family cover, given one supersample's footprint
// (footX by footZ metres) and the output pixel's size in supersamples: lines
// along both axes, at least one output pixel wide, combined as
// 1 - (1 - cx)(1 - cz), times the family's fade with distance.
func gridLines(x, z, footX, footZ, filter, pixel, spacing, width float64) float64 {
	pixels := spacing / (pixel * max(footX, footZ)) // spacing in output pixels
	fade := min(max((pixels-gridFadeGone)/(gridFadeFull-gridFadeGone), 0), 1)
	if fade == 0 {
		return 0
	}
	cx := lineCoverage(x, filter*footX, spacing, max(width, pixel*footX))
	cz := lineCoverage(z, filter*footZ, spacing, max(width, pixel*footZ))
	return fade * (1 - (1-cx)*(1-cz))
}

// lineCoverage returns the fraction of the interval [x - f/2, x + f/2] that
// lies on the nearest line of width w centred on a multiple of spacing: the
// exact box-filtered line, which keeps thin lines from flickering.
func lineCoverage(x, f, spacing, w float64) float64 {
	d := math.Abs(x - spacing*math.Round(x/spacing))
	overlap := min(d+f/2, w/2) - max(d-f/2, -w/2)
	return min(max(overlap/f, 0), 1)
}
