package preview

import (
	"fmt"
	"image"
	"image/png"
	"math"
	"os"
	"testing"

	"snowtools/levelset/geom"
)

// TestWriteSamples writes sample renders to /tmp/preview-*.png for a person to
// look at; it runs only with PREVIEW_SAMPLES=1.
func TestWriteSamples(t *testing.T) {
	if os.Getenv("PREVIEW_SAMPLES") == "" {
		t.Skip("set PREVIEW_SAMPLES=1 to write /tmp/preview-*.png")
	}
	ball := Points{Pos: randomBall(1, 200_000, geom.Vec3{0, 0.3, 0}, 0.3), Radius: 0.004}
	scenes := []struct {
		name string
		pts  Points
		w, h int
	}{
		{"ball", ball, 960, 540},
		{"clump-powder", clumpAndPowder(), 960, 540},
		{"heap-1M", snowHeap(1_000_000), 1280, 720},
	}
	for _, s := range scenes {
		lo, hi, _ := s.pts.Bounds()
		cam := Frame(lo, hi, float64(s.w)/float64(s.h), DefaultAzimuth, DefaultElevation, DefaultFov)
		img := Render(s.pts, cam, Options{Width: s.w, Height: s.h})
		writePNG(t, "/tmp/preview-"+s.name+".png", img)
	}
	writeSequenceSamples(t)
	writeMeshSamples(t)
}

// writeMeshSamples renders the footprint trail of BenchmarkMesh80k with a
// spray of particles over it, and the box pit from above.
func writeMeshSamples(t *testing.T) {
	mesh, err := NewMesh(footprintField())
	if err != nil {
		t.Fatal(err)
	}
	spray := Points{Pos: randomBall(5, 3000, geom.Vec3{0.45, 0.08, -0.12}, 0.07), Radius: 0.004}
	lo, hi, _ := mesh.Bounds()
	cam := Frame(lo, hi, 16.0/9, DefaultAzimuth, DefaultElevation, DefaultFov)
	writePNG(t, "/tmp/preview-footprints.png", Render(spray, cam, Options{Mesh: mesh}))
	writePNG(t, "/tmp/preview-pit-top.png", Render(Points{}, topView, Options{Width: 400, Height: 400,
		LightDir: geom.Vec3{1, 1, 0}, Mesh: pitGround(t)}))
}

// writeSequenceSamples renders a clump falling onto the ground and spreading,
// framed once from the union of the frames' bounds, as a contact sheet and a GIF.
func writeSequenceSamples(t *testing.T) {
	base := clumpAndPowder()
	const n = 8
	seq := make([]Points, n)
	var lo, hi geom.Vec3
	for k := range seq {
		// Frame k: lifted by 0.4 (1 - k/(n-1))^2 m and squashed towards the ground.
		lift := 0.4 * math.Pow(1-float64(k)/(n-1), 2)
		squash := 1 - 0.5*float64(k)/(n-1)
		pos := make([]float32, len(base.Pos))
		for i := 0; i < len(pos); i += 3 {
			pos[i], pos[i+2] = base.Pos[i]*float32(2-squash), base.Pos[i+2]*float32(2-squash)
			pos[i+1] = base.Pos[i+1]*float32(squash) + float32(lift)
		}
		seq[k] = Points{Pos: pos, Radius: base.Radius}
		l, h, _ := seq[k].Bounds()
		if k == 0 {
			lo, hi = l, h
		}
		lo, hi = lo.Min(l), hi.Max(h)
	}
	cam := Frame(lo, hi, 4.0/3, DefaultAzimuth, DefaultElevation, DefaultFov)
	frames := make([]image.Image, n)
	labels := make([]string, n)
	for k, pts := range seq {
		frames[k] = Render(pts, cam, Options{Width: 320, Height: 240, Ground: GroundAt})
		labels[k] = fmt.Sprintf("frame %d", k)
	}
	writePNG(t, "/tmp/preview-sheet.png", ContactSheet(frames, labels, 4))
	f, err := os.Create("/tmp/preview-anim.gif")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := WriteGIF(f, frames, 12); err != nil {
		t.Fatal(err)
	}
	t.Log("wrote /tmp/preview-anim.gif")
}

func writePNG(t *testing.T, path string, img image.Image) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, img); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s", path)
}
