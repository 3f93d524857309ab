package preview

import (
	"bytes"
	"image"
	"image/color"
	"math"
	"slices"
	"testing"

	"snowtools/levelset/geom"
)

var black = color.RGBA{0, 0, 0, 255}

// countUnlike returns the number of pixels of img that differ from c.
func countUnlike(img *image.RGBA, c color.RGBA) int {
	n := 0
	for i := 0; i < len(img.Pix); i += 4 {
		if img.Pix[i] != c.R || img.Pix[i+1] != c.G || img.Pix[i+2] != c.B {
			n++
		}
	}
	return n
}

// A ball of radius R whose centre is d from the eye, on the optical axis, is
// seen inside the cone of half-angle asin(R/d), so it is a disc of radius
// f tan(asin(R/d)) pixels. A ball of many small random particles must cover
// the same area within 2% in radius.
func TestBallIsDiscOfPerspectiveRadius(t *testing.T) {
	const (
		ballR, dist = 1.0, 5.0
		size, fov   = 400, 40.0
	)
	pts := Points{Pos: randomBall(3, 200_000, geom.Vec3{0, 0, -dist}, ballR), Radius: 0.01}
	cam := Camera{Eye: geom.Vec3{}, Target: geom.Vec3{0, 0, -1}, FovY: fov}
	img := Render(pts, cam, Options{Width: size, Height: size, Supersample: 1, Background: black, Ground: GroundNone})

	focal := size / 2 / math.Tan(fov/2*math.Pi/180)
	want := focal * math.Tan(math.Asin(ballR/dist))
	got := math.Sqrt(float64(countUnlike(img, black)) / math.Pi)
	t.Logf("disc radius %.2f px, f tan(asin(R/d)) = %.2f px", got, want)
	if math.Abs(got-want) > 0.02*want {
		t.Errorf("ball disc radius %.2f px, want %.2f px (f = %.1f px)", got, want, focal)
	}
}

// luminanceAround returns the mean Rec. 709 luma of the 5x5 pixels around the
// projection of world point p.
func luminanceAround(t *testing.T, img *image.RGBA, cam Camera, p geom.Vec3) float64 {
	t.Helper()
	v := cam.view(img.Rect.Dx(), img.Rect.Dy())
	px, py, ok := v.project(p)
	if !ok {
		t.Fatalf("%v is behind the camera", p)
	}
	sum := 0.0
	for y := int(py) - 2; y <= int(py)+2; y++ {
		for x := int(px) - 2; x <= int(px)+2; x++ {
			c := img.RGBAAt(x, y)
			sum += 0.2126*float64(c.R) + 0.7152*float64(c.G) + 0.0722*float64(c.B)
		}
	}
	return sum / 25
}

// A ball resting on the ground, lit from +x and above, shades the ground on
// its -x side: those pixels are clearly darker than open ground.
func TestBallShadowsTheGround(t *testing.T) {
	const r = 0.3
	pts := Points{Pos: randomBall(4, 60_000, geom.Vec3{0, r, 0}, r), Radius: 0.006}
	cam := Camera{Eye: geom.Vec3{0, 1.2, 2.5}, Target: geom.Vec3{0, 0.2, 0}}
	img := Render(pts, cam, Options{Width: 320, Height: 240, LightDir: geom.Vec3{1, 1, 0}, Ground: GroundAt})
	// The shadow of the ball's centre falls at x = -r (the light is at 45
	// degrees); the shadow spans x in [-r - r sqrt 2, -r + r sqrt 2]. Both
	// samples are off the grid lines.
	shadowed := luminanceAround(t, img, cam, geom.Vec3{-0.55, 0, 0.05})
	open := luminanceAround(t, img, cam, geom.Vec3{0.75, 0, 0.05})
	t.Logf("luma in shadow %.1f, in the open %.1f", shadowed, open)
	if shadowed > 0.75*open {
		t.Errorf("ground in the ball's shadow has luma %.1f, open ground %.1f: no visible shadow", shadowed, open)
	}
}

// Particles behind the eye, across the eye plane, or with NaN positions are
// not drawn: the picture is the bare background.
func TestHiddenParticlesAreSkipped(t *testing.T) {
	nan := float32(math.NaN())
	behind := randomBall(5, 10_000, geom.Vec3{0, 0, 2}, 1) // the camera looks along -z
	pts := Points{Pos: append(behind,
		0, 0, 0, // at the eye
		0.5, 0, -0.005, // straddling the eye plane
		nan, 0, -3, 0, nan, -3, // NaN positions in front
	), Radius: 0.01}
	cam := Camera{Eye: geom.Vec3{}, Target: geom.Vec3{0, 0, -1}}
	img := Render(pts, cam, Options{Width: 160, Height: 120, Background: black, Ground: GroundNone})
	if n := countUnlike(img, black); n != 0 {
		t.Errorf("%d pixels drawn; particles behind the camera or NaN must not appear", n)
	}
}

// A frame without particles still shows the ground it is asked for, and the
// sky above it.
func TestEmptyFrame(t *testing.T) {
	cam := Camera{Eye: geom.Vec3{0, 1, 3}, Target: geom.Vec3{0, 0, 0}}
	img := Render(Points{Radius: 0.01}, cam, Options{Width: 64, Height: 48, Ground: GroundAt})
	ground, sky := img.RGBAAt(32, 30), img.RGBAAt(32, 2)
	if ground == sky || ground.B > ground.R+10 {
		t.Errorf("ground pixel %v, sky pixel %v: no ground", ground, sky)
	}
	if blank := Render(Points{}, cam, Options{Width: 64, Height: 48}); blank.RGBAAt(32, 30) == ground {
		t.Errorf("GroundAuto drew a ground without particles")
	}
}

// The picture does not depend on the number of workers or on scheduling.
func TestRenderIsDeterministic(t *testing.T) {
	pts := clumpAndPowder()
	pts.Color = make([]uint8, len(pts.Pos))
	for i := range pts.Color {
		pts.Color[i] = uint8(200 + i%50)
	}
	lo, hi, _ := pts.Bounds()
	cam := Frame(lo, hi, 4.0/3, DefaultAzimuth, DefaultElevation, DefaultFov)
	opt := Options{Width: 240, Height: 180, Workers: 1}
	one := Render(pts, cam, opt)
	opt.Workers = 4
	for range 2 {
		if four := Render(pts, cam, opt); !bytes.Equal(one.Pix, four.Pix) {
			t.Fatalf("renders with 1 and 4 workers differ")
		}
	}
}

// Supersampling changes edges, not exposure: the mean colour of a picture
// hardly moves between 1, 2 and 3 samples per axis.
func TestSupersampleFactors(t *testing.T) {
	pts := clumpAndPowder()
	lo, hi, _ := pts.Bounds()
	cam := Frame(lo, hi, 4.0/3, DefaultAzimuth, DefaultElevation, DefaultFov)
	var means []float64
	for ss := 1; ss <= 3; ss++ {
		img := Render(pts, cam, Options{Width: 160, Height: 120, Supersample: ss})
		sum := 0
		for _, b := range img.Pix {
			sum += int(b)
		}
		means = append(means, float64(sum)/float64(len(img.Pix)))
	}
	for _, m := range means[1:] {
		if math.Abs(m-means[0]) > 3 {
			t.Errorf("mean byte value per supersampling 1, 2, 3: %.1f", means)
		}
	}
}

// Particle colours are used: red particles on a flat background look red.
func TestParticleColours(t *testing.T) {
	pts := Points{Pos: randomBall(6, 20_000, geom.Vec3{0, 0, -3}, 0.5), Radius: 0.01}
	pts.Color = bytes.Repeat([]byte{220, 30, 30}, pts.Len())
	cam := Camera{Eye: geom.Vec3{}, Target: geom.Vec3{0, 0, -1}}
	img := Render(pts, cam, Options{Width: 64, Height: 64, Background: black, Ground: GroundNone})
	c := img.RGBAAt(32, 32)
	if !(c.R > 2*c.G && c.R > 2*c.B) {
		t.Errorf("centre pixel %v is not red", c)
	}
}

// The default picture is the default size, and never clips large areas to
// pure white: the tone curve keeps sunlit snow below 255.
func TestDefaultsAndNoClipping(t *testing.T) {
	pts := clumpAndPowder()
	lo, hi, _ := pts.Bounds()
	img := Render(pts, Frame(lo, hi, 16.0/9, DefaultAzimuth, DefaultElevation, DefaultFov), Options{})
	if img.Rect.Dx() != defaultWidth || img.Rect.Dy() != defaultHeight {
		t.Fatalf("default size %v", img.Rect.Size())
	}
	if n := countUnlike(img, color.RGBA{255, 255, 255, 255}); n != len(img.Pix)/4 {
		t.Errorf("%d pixels clipped to pure white", len(img.Pix)/4-n)
	}
}

// bucketSort lists every element in each bucket its span meets, in the order
// of the input, and leaves out empty spans.
func TestBucketSort(t *testing.T) {
	spans := map[int32][2]int{7: {0, 0}, 3: {1, 0}, 5: {0, 2}, 1: {1, 1}, 9: {1, 2}}
	start, items := bucketSort([]int32{7, 3, 5, 1, 9}, 3, 2, func(e *int32) (int, int) { return spans[*e][0], spans[*e][1] })
	want := [][]int32{{7, 5}, {5, 1, 9}, {5, 9}}
	for b := range want {
		if got := items[start[b]:start[b+1]]; !slices.Equal(got, want[b]) {
			t.Errorf("bucket %d: %v, want %v", b, got, want[b])
		}
	}
}
