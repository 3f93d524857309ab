package preview

import (
	"image/color"
	"math"
	"runtime"

	"snowtools/levelset/geom"
)

// Options control Render. The zero value renders a 960x540 picture with 2x2
// supersampling, a sky gradient, a ground plane under the particles and the
// default key light.
type Options struct {
	// Width and Height are the picture size in pixels (default 960x540).
	Width, Height int
	// Supersample is the number of samples per pixel along each axis (default 2):
	// the frame is rendered Supersample times larger and box-filtered down.
	Supersample int
	// Background is a flat colour behind everything; nil draws a soft sky gradient.
	Background color.Color
	// Ground chooses the ground plane; GroundHeight is its height for GroundAt.
	Ground       GroundMode
	GroundHeight float64
	// LightDir points from the scene towards the key light (a sun: parallel
	// rays); zero means the default key, up and to the left of the camera.
	LightDir geom.Vec3
	// ShadowMapSize bounds the shadow map's longer side in texels (default 2048).
	ShadowMapSize int
	// Mesh is an optional triangle mesh drawn with the particles, such as the
	// ground of a height-field simulation (see NewMesh); nil draws none. It
	// casts and receives shadows, the camera should frame its Bounds too, and
	// GroundAuto then continues it with the ground plane at its RimHeight. The
	// ground plane (GroundAuto or GroundAt) is left out where the mesh covers it.
	Mesh *Mesh
	// Objects is an optional mesh drawn with the particles in ObjectColor, such as
	// a scene's colliders at the frame's time (package collidermesh); nil draws
	// none. Like Mesh it casts and receives
	// shadows and the camera should frame its Bounds; unlike Mesh it is not
	// ground: the ground plane neither takes its height from it nor leaves a hole
	// under it.
	Objects *Mesh
	// ObjectColor is the colour of Objects; nil is clay, sRGB (184, 124, 96), warm
	// and darker than the blue-white snow and the grey ground, so that snow on a
	// collider stands out from it.
	ObjectColor color.Color
	// Snow is an optional mesh drawn in the colour of particles without one (the
	// snow's blue-white), such as the surface meshed from the particles, drawn
	// instead of them; nil draws none. It is lit, shadowed and framed like Objects.
	Snow *Mesh
	// Workers is the number of goroutines (default GOMAXPROCS). The picture does
	// not depend on it.
	Workers int
}

// GroundMode chooses where the ground plane is.
type GroundMode int

const (
	// GroundAuto puts the ground under the frame's lowest particle: at the bottom
	// of its lowest sphere; with a mesh, at the mesh's RimHeight instead. For a
	// sequence, GroundAt keeps it from moving.
	GroundAuto GroundMode = iota
	// GroundAt puts the ground at y = Options.GroundHeight.
	GroundAt
	// GroundNone draws no ground.
	GroundNone
)

const (
	defaultWidth, defaultHeight = 960, 540
	defaultSupersample          = 2
	defaultShadowMapSize        = 2048
	// The default key light, relative to the camera: keyAzimuth degrees to the
	// left of the direction back towards the camera, keyElevation degrees up. It
	// lights the faces the camera sees and throws shadows to the right and back,
	// where the ground shows them.
	keyAzimuth, keyElevation = 100.0, 40.0
)

// withDefaults returns o with zero fields replaced by their defaults.
func (o Options) withDefaults() Options {
	if o.Width <= 0 {
		o.Width = defaultWidth
	}
	if o.Height <= 0 {
		o.Height = defaultHeight
	}
	if o.Supersample <= 0 {
		o.Supersample = defaultSupersample
	}
	if o.ShadowMapSize <= 0 {
		o.ShadowMapSize = defaultShadowMapSize
	}
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	return o
}

// keyLight returns the unit direction towards the key light: o.LightDir if set,
// else the default key for camera v, cos(e) (cos(a) b + sin(a) l) + sin(e) Y
// with b the horizontal direction back towards the camera and l its left.
func (o Options) keyLight(v *view) geom.Vec3 {
	if o.LightDir != (geom.Vec3{}) && o.LightDir.IsFinite() {
		return o.LightDir.Unit()
	}
	back := geom.Vec3{-v.fwd[0], 0, -v.fwd[2]}.Unit()
	if back == (geom.Vec3{}) { // looking straight up or down
		back = geom.Vec3{0, 0, 1}
	}
	left := back.Cross(geom.Vec3{0, 1, 0}) // back x Y points to the camera's left
	a, e := keyAzimuth*math.Pi/180, keyElevation*math.Pi/180
	return back.Scale(math.Cos(e) * math.Cos(a)).Add(left.Scale(math.Cos(e) * math.Sin(a))).
		Add(geom.Vec3{0, math.Sin(e), 0})
}
