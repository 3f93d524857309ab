package preview

import (
	"math"

	"snowtools/levelset/geom"
)

// shadowMap holds, for a grid of parallel rays from the key light (w points
// away from the light), the depth along the light of the first surface each
// ray meets: a particle's sphere or, when there is one, a mesh triangle.
type shadowMap struct {
	orthoGrid
	radius float64
	buf    *depthBuffer
}

const (
	// texelsPerRadius is the shadow map's resolution target: fine enough that one
	// particle casts a round shadow, when ShadowMapSize allows.
	texelsPerRadius = 2.0
	// minShadowMapSize keeps coarse particles from getting a blocky map.
	minShadowMapSize = 256
)

// buildShadowMap splats the particles, and rasterizes the mesh if not nil,
// from direction toLight into an orthographic map that covers the box
// [lo, hi] seen from the light, with square texels, at most maxSize along the
// longer side. Without a mesh the texels need only resolve a particle
// (texelsPerRadius per radius, but at least minShadowMapSize along that side);
// a mesh's long straight shadow edges take the full maxSize.
func buildShadowMap(pts Points, mesh *Mesh, lo, hi, toLight geom.Vec3, maxSize, workers int) *shadowMap {
	u, v, w := basis(toLight.Scale(-1), geom.Vec3{0, 1, 0})
	m := &shadowMap{radius: float64(pts.Radius)}
	m.orthoGrid = newOrthoGrid(u, v, w, lo, hi, func(extent float64) float64 {
		size := float64(maxSize)
		if m.radius > 0 && !mesh.drawable() {
			size = math.Min(size, math.Max(extent/(m.radius/texelsPerRadius), minShadowMapSize))
		}
		return extent / size
	})
	m.buf = newDepthBuffer(m.width, m.height, false)
	splatSpheres(pts, &lightSplat{pts: pts, m: m}, m.buf, workers)
	if mesh.drawable() {
		rasterizeMesh(mesh, orthoProjection(&m.orthoGrid), m.buf, workers)
	}
	return m
}

// lightSplat draws particles as spheres into a shadow map.
type lightSplat struct {
	pts Points
	m   *shadowMap
}

// footprint returns the texels whose centres lie within the sphere's disc and
// the depth of its nearest point along the light, w - r.
func (s *lightSplat) footprint(i int) (rect, float32) {
	p, ok := s.pts.position(i)
	if !ok || !(s.m.radius > 0) {
		return emptyRect, 0
	}
	tu, tv, w := s.m.toMap(p)
	rt := s.m.radius / s.m.texel
	return clampRect(tu-rt, tu+rt, tv-rt, tv+rt, s.m.buf.width, s.m.buf.height), float32(w - s.m.radius)
}

// draw keeps, per texel, the nearer of the stored depth and the sphere's front
// surface w - sqrt(r^2 - rho^2), rho the texel centre's distance from the
// sphere's axis along the light.
func (s *lightSplat) draw(sp *splat, buf *depthBuffer) {
	tu, tv, w := s.m.toMap(vec3Of(sp.centre))
	r := sp.r
	r2 := s.m.radius * s.m.radius
	t := s.m.texel
	nearest := float32(w - s.m.radius)
	for y := r.y0; y <= r.y1; y++ {
		dv := (float64(y) + 0.5 - tv) * t
		row := int(y) * buf.width
		for x := r.x0; x <= r.x1; x++ {
			if buf.depth[row+int(x)] <= nearest {
				continue
			}
			du := (float64(x) + 0.5 - tu) * t
			h := r2 - du*du - dv*dv
			if h < 0 {
				continue
			}
			if z, k := float32(w-math.Sqrt(h)), row+int(x); z < buf.depth[k] {
				buf.depth[k] = z
			}
		}
	}
}

// Shadow lookups average taps (percentage-closer filtering) spread over about
// 2 pcfSpread radii, so that single particles cast soft round shadows; the
// receiver is moved biasTexels texels towards the light against
// self-shadowing from the texels' discretisation.
const (
	pcfSpread  = 0.6
	biasTexels = 1.5
	// translucency is the length, in radii, over which light that has entered
	// snow fades: a tap occluded by a surface d in front of the receiver passes
	// exp(-d / (translucency r)). Light reaches a particle or two into a clump,
	// which softens the terminator as subsurface scattering does, while the
	// inside of a clump stays dark.
	translucency = 1.0
)

// Tap offsets in units of the spread. Particles are shaded per supersample, and
// the supersamples of a pixel are averaged, so four taps on a rotated grid do
// (four distinct rows and columns, like a 4x4 grid); the ground is shaded once
// per pixel, and its shadow edges are long and straight, so it takes a 3x3 grid.
var (
	pcfRotatedGrid = [][2]float64{{-0.25, -0.75}, {0.75, -0.25}, {0.25, 0.75}, {-0.75, 0.25}}
	pcfSquareGrid  = [][2]float64{{-0.5, -0.5}, {0, -0.5}, {0.5, -0.5}, {-0.5, 0}, {0, 0}, {0.5, 0}, {-0.5, 0.5}, {0, 0.5}, {0.5, 0.5}}
)

// visibility returns the fraction of the key light that reaches world point p:
// the mean over the taps of 1 where p is in front of the first surface along the
// light and exp(-d/(translucency r)) where it lies d behind it. Points outside
// the map are lit.
//
// A receiver on a surface with unit normal n (a mesh, the ground; zero for a
// particle) is compared, at each tap, with its own plane continued to the tap's
// texel centre rather than with its own depth: a step across the light of
// texel (du u + dv v) stays on the plane n . x = const when the depth grows by
//
//	dw = texel (du n.u + dv n.v) / (n.l),   n.l = -n.w at least minReceiverCos,
//
// so that a sloped surface in the map does not shadow itself between the taps
// (receiver-plane depth bias).
func (m *shadowMap) visibility(p, n geom.Vec3, taps [][2]float64) float64 {
	tu, tv, depth := m.toMap(p)
	spread := max(1, 2*pcfSpread*m.radius/m.texel)
	if tu+spread < 0 || tv+spread < 0 || tu-spread >= float64(m.buf.width) || tv-spread >= float64(m.buf.height) {
		return 1
	}
	depth -= biasTexels * m.texel
	var slopeU, slopeV float64
	if n != (geom.Vec3{}) {
		cos := max(-n.Dot(m.w), minReceiverCos)
		slopeU, slopeV = m.texel*n.Dot(m.u)/cos, m.texel*n.Dot(m.v)/cos
	}
	fade := -1 / (translucency * m.radius)
	sum := 0.0
	for _, tap := range taps {
		x, y := int(math.Floor(tu+tap[0]*spread)), int(math.Floor(tv+tap[1]*spread))
		if x < 0 || y < 0 || x >= m.buf.width || y >= m.buf.height {
			sum++
			continue
		}
		receiver := depth
		if slopeU != 0 || slopeV != 0 {
			receiver += (float64(x)+0.5-tu)*slopeU + (float64(y)+0.5-tv)*slopeV
		}
		if d := receiver - float64(m.buf.depth[y*m.buf.width+x]); d <= 0 {
			sum++
		} else if e := d * fade; e > opaqueExponent {
			sum += math.Exp(e)
		}
	}
	return sum / float64(len(taps))
}

// minReceiverCos bounds the receiver-plane slope for surfaces that the light
// grazes (at most 1/minReceiverCos texels of depth per texel).
const minReceiverCos = 0.1

// opaqueExponent is where exp(d * fade) is taken as 0 (it is below 1e-4).
const opaqueExponent = -9.2
