package preview

import (
	"math"
	"testing"

	"snowtools/levelset/geom"
)

// Every corner of a framed box is inside the picture, with the margin, and
// close to it on at least one side (the box fills the frame).
func TestFrameKeepsBoxCornersInside(t *testing.T) {
	boxes := [][2]geom.Vec3{
		{{-1, 0, -1}, {1, 0.6, 1}},
		{{0, 0, 0}, {10, 1, 0.2}},
		{{-0.05, 2, 3}, {0.05, 5, 3.1}},
	}
	views := []struct{ aspect, az, el, fov float64 }{
		{16.0 / 9, DefaultAzimuth, DefaultElevation, DefaultFov},
		{1, -120, 60, 20},
		{0.5, 10, 5, 50},
	}
	const width = 800
	for _, box := range boxes {
		for _, vw := range views {
			height := int(math.Round(width / vw.aspect))
			cam := Frame(box[0], box[1], vw.aspect, vw.az, vw.el, vw.fov)
			v := cam.view(width, height)
			nearest := math.Inf(1) // smallest distance of a corner to the edges, in pixels
			for k := range 8 {
				px, py, ok := v.project(boxCorner(box[0], box[1], k))
				if !ok {
					t.Fatalf("box %v view %+v: corner %d behind the eye", box, vw, k)
				}
				toEdge := min(px, float64(width)-px, py, float64(height)-py)
				if toEdge < 0 {
					t.Errorf("box %v view %+v: corner %d at (%.1f, %.1f) outside %dx%d", box, vw, k, px, py, width, height)
				}
				nearest = min(nearest, toEdge)
			}
			// The binding corner is frameMargin of the half picture from the edge
			// along its axis: m W/2 or m H/2.
			if most := frameMargin*float64(max(width, height))/2 + 1; nearest > most {
				t.Errorf("box %v view %+v: nearest corner %.1f px from the edge; the box does not fill the frame", box, vw, nearest)
			}
			if again := Frame(box[0], box[1], vw.aspect, vw.az, vw.el, vw.fov); again != cam {
				t.Errorf("Frame is not a function of its arguments: %+v then %+v", cam, again)
			}
		}
	}
}

// A box that is one point, or no box at all, still gives a usable camera.
func TestFrameDegenerateBoxes(t *testing.T) {
	inf := math.Inf(1)
	for _, box := range [][2]geom.Vec3{
		{{1, 2, 3}, {1, 2, 3}},
		{{inf, inf, inf}, {-inf, -inf, -inf}},
		{{math.NaN(), 0, 0}, {1, 1, 1}},
	} {
		cam := Frame(box[0], box[1], 1, DefaultAzimuth, DefaultElevation, 0)
		if !cam.Eye.IsFinite() || !cam.Target.IsFinite() || cam.Eye == cam.Target || cam.FovY != DefaultFov {
			t.Errorf("box %v: camera %+v", box, cam)
		}
	}
}

// The camera basis is orthonormal, with (right, up, -forward) right-handed as
// in OpenGL, even looking straight down.
func TestViewBasis(t *testing.T) {
	for _, cam := range []Camera{
		{Eye: geom.Vec3{0, 0, 5}},
		{Eye: geom.Vec3{0, 10, 0}, Target: geom.Vec3{0, 0, 0}},
		{Eye: geom.Vec3{3, 1, -2}, Target: geom.Vec3{0, 0.5, 0}, Up: geom.Vec3{0, 0, 1}},
	} {
		v := cam.view(100, 100)
		if math.Abs(v.right.Cross(v.up).Dot(v.fwd)+1) > 1e-12 || math.Abs(v.right.Dot(v.up)) > 1e-12 || math.Abs(v.up.Dot(v.fwd)) > 1e-12 {
			t.Errorf("camera %+v: basis %v %v %v", cam, v.right, v.up, v.fwd)
		}
		if px, py, _ := v.project(cam.Target); math.Abs(px-50) > 1e-9 || math.Abs(py-50) > 1e-9 {
			t.Errorf("camera %+v: target at (%g, %g), want the centre", cam, px, py)
		}
	}
}
