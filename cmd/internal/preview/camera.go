package preview

import (
	"math"

	"snowtools/levelset/geom"
)

// Camera is a perspective pinhole camera looking from Eye at Target.
type Camera struct {
	Eye, Target geom.Vec3
	// Up is the world direction that appears upwards in the picture; zero means +Y.
	Up geom.Vec3
	// FovY is the vertical field of view in degrees; zero means DefaultFov.
	FovY float64
}

// The view that Frame is usually called with: a 3/4 view from slightly above,
// with a moderate telephoto that keeps perspective distortion low.
const (
	DefaultAzimuth   = 35.0 // degrees about +Y, measured from +Z towards +X
	DefaultElevation = 25.0 // degrees above the horizon
	DefaultFov       = 35.0 // vertical field of view, degrees
)

// frameMargin is the fraction of the half-picture kept free around a framed box.
const frameMargin = 0.06

// Frame returns the camera that looks at the centre c of the box [lo, hi] from
// the direction
//
//	u = (cos e sin a, sin e, cos e cos a)   (a = azimuthDeg, e = elevationDeg)
//
// at the smallest distance D for which every corner of the box lies inside a
// picture of the given aspect (width/height) with a small margin. With the
// camera basis right r, up v and forward -u, corner c + o is at depth D - o.u,
// so it is inside when |o.r| <= tx (D - o.u) and |o.v| <= ty (D - o.u), where
// ty = (1 - margin) tan(fov/2) and tx = aspect ty: D is the largest of
// o.u + |o.r|/tx and o.u + |o.v|/ty over the eight corners. The result depends
// on the box alone, so one box for a whole sequence gives a still camera.
// fovDeg <= 0 means DefaultFov and aspect <= 0 means 1; an empty or non-finite
// box frames the cube [-1, 1]^3.
func Frame(lo, hi geom.Vec3, aspect, azimuthDeg, elevationDeg, fovDeg float64) Camera {
	if !lo.IsFinite() || !hi.IsFinite() || lo[0] > hi[0] || lo[1] > hi[1] || lo[2] > hi[2] {
		lo, hi = geom.Vec3{-1, -1, -1}, geom.Vec3{1, 1, 1}
	}
	if fovDeg <= 0 || fovDeg >= 180 {
		fovDeg = DefaultFov
	}
	if aspect <= 0 || math.IsNaN(aspect) || math.IsInf(aspect, 0) {
		aspect = 1
	}
	a, e := azimuthDeg*math.Pi/180, elevationDeg*math.Pi/180
	toEye := geom.Vec3{math.Cos(e) * math.Sin(a), math.Sin(e), math.Cos(e) * math.Cos(a)}
	right, up, _ := basis(toEye.Scale(-1), geom.Vec3{0, 1, 0})
	ty := (1 - frameMargin) * math.Tan(fovDeg*math.Pi/360)
	tx := aspect * ty
	centre := lo.Add(hi).Scale(0.5)
	dist := 0.0
	for corner := range 8 {
		o := centre.Sub(boxCorner(lo, hi, corner))
		along := o.Dot(toEye)
		dist = max(dist, along+math.Abs(o.Dot(right))/tx, along+math.Abs(o.Dot(up))/ty)
	}
	if dist <= 0 {
		dist = 1 // a box of one point: any distance frames it
	}
	return Camera{Eye: centre.Add(toEye.Scale(dist)), Target: centre, Up: geom.Vec3{0, 1, 0}, FovY: fovDeg}
}

// boxCorner returns corner k (bit 0: x, bit 1: y, bit 2: z; set means hi) of [lo, hi].
func boxCorner(lo, hi geom.Vec3, k int) geom.Vec3 {
	c := lo
	for axis := range 3 {
		if k>>axis&1 == 1 {
			c[axis] = hi[axis]
		}
	}
	return c
}

// basis returns the orthonormal camera basis for a view along forward: right
// = forward x up, normalised, and the true up = right x forward, so that
// (right, up, -forward) is right-handed as in OpenGL. When up is (nearly)
// parallel to forward, world +Z (or +X) stands in for it.
func basis(forward, up geom.Vec3) (right, trueUp, fwd geom.Vec3) {
	fwd = forward.Unit()
	if up == (geom.Vec3{}) {
		up = geom.Vec3{0, 1, 0}
	}
	for _, candidate := range []geom.Vec3{up, {0, 0, 1}, {1, 0, 0}} {
		right = fwd.Cross(candidate.Unit())
		if right.Norm() > 1e-6 {
			break
		}
	}
	right = right.Unit()
	return right, right.Cross(fwd), fwd
}

// view is a Camera bound to a picture size: the camera basis and the pinhole
// projection. A camera-space point (x, y, z) (x right, y up, z forward, in
// metres) lands on the pixel coordinates
//
//	px = cx + f x/z,   py = cy - f y/z
//
// where f = (height/2) / tan(fovY/2) is the focal length in pixels and (cx, cy)
// the picture centre; pixel (i, j) covers [i, i+1) x [j, j+1), so its centre is
// at (i + 0.5, j + 0.5). The ray through pixel coordinates (px, py) has the
// camera-space direction (px - cx, cy - py, f).
type view struct {
	eye, target    geom.Vec3
	right, up, fwd geom.Vec3
	focal, cx, cy  float64
	width, height  int
}

func (c Camera) view(width, height int) view {
	fov := c.FovY
	if fov <= 0 || fov >= 180 {
		fov = DefaultFov
	}
	right, up, fwd := basis(c.Target.Sub(c.Eye), c.Up)
	return view{
		eye: c.Eye, target: c.Target, right: right, up: up, fwd: fwd,
		focal: float64(height) / 2 / math.Tan(fov*math.Pi/360),
		cx:    float64(width) / 2, cy: float64(height) / 2,
		width: width, height: height,
	}
}

// toCamera returns p in camera space: (p - eye) . (right, up, fwd).
func (v *view) toCamera(p geom.Vec3) geom.Vec3 {
	d := p.Sub(v.eye)
	return geom.Vec3{d.Dot(v.right), d.Dot(v.up), d.Dot(v.fwd)}
}

// rayCamera returns the camera-space direction (px - cx, cy - py, f) of the ray
// through pixel coordinates (px, py); its z component is the focal length, so a
// point s times along it is at depth z = s f.
func (v *view) rayCamera(px, py float64) geom.Vec3 {
	return geom.Vec3{px - v.cx, v.cy - py, v.focal}
}

// toWorld turns a camera-space direction into a world-space one.
func (v *view) toWorld(d geom.Vec3) geom.Vec3 {
	return v.right.Scale(d[0]).Add(v.up.Scale(d[1])).Add(v.fwd.Scale(d[2]))
}

// project returns the pixel coordinates of world point p and whether it is in
// front of the eye.
func (v *view) project(p geom.Vec3) (px, py float64, ok bool) {
	c := v.toCamera(p)
	if c[2] <= 0 {
		return 0, 0, false
	}
	return v.cx + v.focal*c[0]/c[2], v.cy - v.focal*c[1]/c[2], true
}
