package main

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"snowtools/cmd/internal/cli"
	"snowtools/cmd/internal/colormap"
	"snowtools/cmd/internal/preview"
	"snowtools/levelset/geom"
)

// compareSpacing is the particle spacing of the comparison fixtures: a coarse ball
// (about 700 particles) keeps the tests fast.
const compareSpacing = 0.04

// writeRun writes a run into dir/name: a ball falling from y, moved by dx along x,
// at the given frames, with its PhysicalDensity scaled by rho; it returns the
// pattern and the balls by frame.
func writeRun(t *testing.T, dir, name string, frames []int, dx, y, rho float64) (string, map[int]*snowball) {
	t.Helper()
	folder := filepath.Join(dir, name)
	if err := os.MkdirAll(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	balls := map[int]*snowball{}
	for _, f := range frames {
		b := newBall(y-0.05*float64(f), uint64(f), compareSpacing)
		for i := range b.len() {
			b.pos[3*i] += float32(dx)
			b.rho[i] *= float32(rho)
		}
		b.writePRT(t, filepath.Join(folder, fmt.Sprintf("snow.%04d.prt", f)), f)
		balls[f] = b
	}
	return filepath.Join(folder, "snow.####.prt"), balls
}

// span returns the frames a to b.
func span(a, b int) []int {
	var s []int
	for f := a; f <= b; f++ {
		s = append(s, f)
	}
	return s
}

// prepareComparison parses the arguments and renders every cell as the command
// would, and returns the comparison to inspect.
func prepareComparison(t *testing.T, args ...string) *comparison {
	t.Helper()
	s, err := parseFlags(append([]string{"-to", "compare"}, args...), os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	jobs, conv, err := plan(s)
	if err != nil {
		t.Fatal(err)
	}
	c := conv.(*comparison)
	for _, j := range jobs {
		if r := c.convert(j, 1); r.err != nil {
			t.Fatal(r.err)
		}
	}
	return c
}

// findCell returns where cell appears pixel for pixel in picture, and how often.
func findCell(picture, cell image.Image) (image.Point, int) {
	pb, cb := picture.Bounds(), cell.Bounds()
	var at image.Point
	found := 0
	for y := pb.Min.Y; y+cb.Dy() <= pb.Max.Y; y++ {
	search:
		for x := pb.Min.X; x+cb.Dx() <= pb.Max.X; x++ {
			for cy := range cb.Dy() {
				for cx := range cb.Dx() {
					if picture.At(x+cx, y+cy) != cell.At(cb.Min.X+cx, cb.Min.Y+cy) {
						continue search
					}
				}
			}
			at, found = image.Pt(x, y), found+1
		}
	}
	return at, found
}

// The command end to end: every cell of the table is the picture -to png draws of
// that run at that frame with the same camera, rows in the order of the inputs and
// columns in frame order, each exactly once; the log names the table.
func TestCompareTable(t *testing.T) {
	dir := t.TempDir()
	var inputs []string
	for r, name := range []string{"ball_p1_sinter", "ball_p3", "ball_p5_sinter"} {
		in, _ := writeRun(t, dir, name, span(1, 5), 0.3*float64(r), 0.6, 1)
		inputs = append(inputs, in)
	}
	view := []string{"-size", "64x48", "-ss", "1", "-eye", "0.5,0.6,2.5", "-target", "0.3,0.3,0", "-ground", "0", "-radius", "0.02"}
	out := filepath.Join(dir, "figs", "compare.png")
	args := append(append([]string{"-to", "compare", "-frames", "5,1-3", "-every", "2"}, view...), out)
	log := mustExport(t, append(args, inputs...)...)
	if !strings.Contains(log, "comparison of 3 runs at 3 frames") || !strings.Contains(log, out) {
		t.Errorf("log: %s", log)
	}
	picture := decodePNG(t, out)
	var xs, ys [3]int
	for r, in := range inputs {
		for c, f := range []int{1, 3, 5} {
			single := filepath.Join(dir, fmt.Sprintf("cell%d%d.png", r, c))
			mustExport(t, append(append([]string{"-to", "png", "-frames", fmt.Sprint(f)}, view...), in, single)...)
			at, n := findCell(picture, decodePNG(t, single))
			if n != 1 {
				t.Fatalf("run %d frame %d appears %d times in the table", r, f, n)
			}
			if c == 0 {
				ys[r] = at.Y
			} else if at.Y != ys[r] {
				t.Errorf("run %d: frame %d at y %d, frame 1 at y %d", r, f, at.Y, ys[r])
			}
			if r == 0 {
				xs[c] = at.X
			} else if at.X != xs[c] {
				t.Errorf("frame %d: run %d at x %d, run 0 at x %d", f, r, at.X, xs[c])
			}
		}
	}
	if !(xs[0] < xs[1] && xs[1] < xs[2] && ys[0] < ys[1] && ys[1] < ys[2]) {
		t.Errorf("cells at x %v, y %v: not frames left to right and runs top to bottom", xs, ys)
	}
	// Labels to the left and above: the first cell is not in the corner.
	if xs[0] < 40 || ys[0] < 13 {
		t.Errorf("first cell at %d, %d: no room for the labels", xs[0], ys[0])
	}
	b := picture.Bounds()
	if b.Dx() < xs[2]+64 || b.Dy() < ys[2]+48 {
		t.Errorf("picture %v", b)
	}
	entries, _ := os.ReadDir(filepath.Dir(out))
	if len(entries) != 1 {
		t.Errorf("output folder holds %d files: a temporary file was left", len(entries))
	}
}

// darkCentre returns the number of dark pixels (particles coloured black over a
// light sky) of a cell and their mean x and y.
func darkCentre(img image.Image) (n int, x, y float64) {
	b := img.Bounds()
	for py := b.Min.Y; py < b.Max.Y; py++ {
		for px := b.Min.X; px < b.Max.X; px++ {
			c := color.RGBAModel.Convert(img.At(px, py)).(color.RGBA)
			if max(c.R, c.G, c.B) < 70 {
				n, x, y = n+1, x+float64(px), y+float64(py)
			}
		}
	}
	return n, x / float64(max(n, 1)), y / float64(max(n, 1))
}

// One camera frames the selected frames of all runs: a ball left of the origin and
// one right of it appear left and right of the centre, both whole and the same
// size, instead of each centred by a camera of its own. The ground is under the
// lowest particle of any run.
func TestCompareSharedCamera(t *testing.T) {
	dir := t.TempDir()
	left, leftBalls := writeRun(t, dir, "left", span(1, 3), -1, 0.6, 1)
	right, rightBalls := writeRun(t, dir, "right", span(1, 3), 1, 0.3, 1)
	c := prepareComparison(t, "-size", "96x64", "-ss", "1", "-azimuth", "0", "-elevation", "0", "-ground", "none",
		"-color", "Density", "-color-range", "100:200", "-colormap", "magma", "-radius", "0.02",
		filepath.Join(dir, "c.png"), left, right)
	if len(c.cells) != 6 {
		t.Fatalf("%d cells", len(c.cells))
	}
	for col := range 3 {
		nl, xl, yl := darkCentre(c.cells[col])
		nr, xr, yr := darkCentre(c.cells[3+col])
		if nl < 20 || nr < 20 || math.Abs(float64(nl-nr)) > 0.25*float64(nl) {
			t.Errorf("column %d: %d and %d ball pixels: a ball is missing or framed differently", col, nl, nr)
		}
		if xl > 48-12 || xr < 48+12 {
			t.Errorf("column %d: balls centred at x %.1f and %.1f, want left and right of 48", col, xl, xr)
		}
		if yr <= yl {
			t.Errorf("column %d: the lower ball is at y %.1f, the higher at %.1f", col, yr, yl)
		}
	}
	// The camera is the one that frames the box of both runs' frames.
	lo := geom.Vec3{math.Inf(1), math.Inf(1), math.Inf(1)}
	hi := lo.Scale(-1)
	for _, balls := range []map[int]*snowball{leftBalls, rightBalls} {
		for _, b := range balls {
			blo, bhi := pointBounds(b.pos)
			lo, hi = lo.Min(geom.Vec3(blo)), hi.Max(geom.Vec3(bhi))
		}
	}
	if want := preview.Frame(lo, hi, 96.0/64, 0, 0, preview.DefaultFov); c.camera != want {
		t.Errorf("camera %+v, want %+v: the one that frames both runs", c.camera, want)
	}

	// With the ground: at the bottom of the lowest sphere of either run.
	c = prepareComparison(t, "-size", "32x24", "-ss", "1", "-radius", "0.02", filepath.Join(dir, "g.png"), left, right)
	if c.opt.Ground != preview.GroundAt || !closeTo(c.opt.GroundHeight, lo[1]-0.02, 1e-6, 1) {
		t.Errorf("ground %v at %g, want at %g", c.opt.Ground, c.opt.GroundHeight, lo[1]-0.02)
	}
}

// -color without -color-range colours every picture over one range: the union of the
// pictures' own ranges, so a run twice as dense shows as such. -color-range wins.
func TestCompareSharedColorRange(t *testing.T) {
	dir := t.TempDir()
	a, aBalls := writeRun(t, dir, "a", span(1, 2), 0, 0.6, 1)
	b, bBalls := writeRun(t, dir, "b", span(1, 2), 0, 0.6, 2)
	args := []string{"-size", "32x24", "-ss", "1", "-color", "PhysicalDensity", filepath.Join(dir, "c.png"), a, b}
	c := prepareComparison(t, args...)
	want := colormap.Range{Lo: math.Inf(1), Hi: math.Inf(-1)}
	for _, balls := range []map[int]*snowball{aBalls, bBalls} {
		for _, ball := range balls {
			r := colormap.Robust(ball.rho)
			want = colormap.Range{Lo: min(want.Lo, r.Lo), Hi: max(want.Hi, r.Hi)}
		}
	}
	if !c.shared || c.s.colorRange == nil || *c.s.colorRange != want {
		t.Fatalf("colour range %v (shared %v), want %v", c.s.colorRange, c.shared, want)
	}
	if want.Hi < 1.5*want.Lo {
		t.Fatalf("fixture: range %v does not span both runs", want)
	}
	log := mustExport(t, append([]string{"-to", "compare"}, args...)...)
	if !strings.Contains(log, fmt.Sprintf("PhysicalDensity from %.4g to %.4g in every picture", want.Lo, want.Hi)) {
		t.Errorf("log does not give the range: %s", log)
	}

	c = prepareComparison(t, append([]string{"-color-range", "0:1000"}, args...)...)
	if c.shared || *c.s.colorRange != (colormap.Range{Lo: 0, Hi: 1000}) {
		t.Errorf("-color-range: %v (shared %v)", *c.s.colorRange, c.shared)
	}
}

// Without -frames the columns are spread over the frames every input has, or every
// Nth of them with -every; one input is a comparison of one row.
func TestCompareDefaultFrames(t *testing.T) {
	dir := t.TempDir()
	a, _ := writeRun(t, dir, "a", span(1, 10), 0, 0.6, 1)
	b, _ := writeRun(t, dir, "b", span(2, 12), 0, 0.6, 1)
	for _, tc := range []struct {
		flags, inputs []string
		want          []int
	}{
		{nil, []string{a, b}, []int{2, 4, 5, 7, 8, 10}},
		{[]string{"-every", "3"}, []string{a, b}, []int{2, 5, 8}},
		{[]string{"-every", "3"}, []string{a}, []int{1, 4, 7, 10}},
		{[]string{"-frames", "10-12"}, []string{b}, []int{10, 11, 12}},
	} {
		args := append(append(tc.flags, "-size", "16x16", "-ss", "1", filepath.Join(dir, "c.png")), tc.inputs...)
		c := prepareComparison(t, args...)
		if !reflect.DeepEqual(c.frames, tc.want) {
			t.Errorf("%v: frames %v, want %v", args, c.frames, tc.want)
		}
		if len(c.jobs) != len(tc.want)*len(tc.inputs) {
			t.Errorf("%v: %d jobs", args, len(c.jobs))
		}
		for i, j := range c.jobs {
			if j.index != i || j.in.Number != tc.want[i%len(tc.want)] || !strings.HasPrefix(j.in.Path, filepath.Dir(tc.inputs[i/len(tc.want)])) {
				t.Errorf("%v: job %d is frame %d of %s", args, i, j.in.Number, j.in.Path)
			}
		}
	}
}

// Column labels give the frame and the time when the inputs agree on it; when they
// do not, the number alone, and the log says why.
func TestCompareColumnLabels(t *testing.T) {
	nan := math.NaN()
	c := &comparison{
		frames: []int{24, 48, 72},
		labels: []string{"a", "b"},
		times: []float64{
			1, 2, nan, // a
			1, 2.5, nan, // b: another frame rate from frame 48 on
		},
	}
	var log bytes.Buffer
	got := labelColumns(c.frames, c.columnTimes(&log))
	if want := []string{"frame 24 (1 s)", "frame 48", "frame 72"}; !reflect.DeepEqual(got, want) {
		t.Errorf("labels %q, want %q", got, want)
	}
	if !strings.Contains(log.String(), "frame 48 is at different times in the inputs (2 s in a, 2.5 s in b)") {
		t.Errorf("log: %s", log.String())
	}
	c.times = []float64{1.0 / 24, nan, 5.0 / 3, nan, nan, 5.0 / 3}
	if got := labelColumns(c.frames, c.columnTimes(&log)); !reflect.DeepEqual(got, []string{"frame 24 (0.04167 s)", "frame 48", "frame 72 (1.667 s)"}) {
		t.Errorf("labels %q", got)
	}
}

// Rows are named by their folders, with as many folder names as it takes to tell
// them apart, or by their files when they share a folder.
func TestCompareDefaultLabels(t *testing.T) {
	cwd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ inputs, want []string }{
		{[]string{"runs/ball_p1_sinter/snow.####.prt", "runs/ball_p3/snow.0001.prt"}, []string{"ball_p1_sinter", "ball_p3"}},
		{[]string{"a/sim/snow.####.prt", "b/sim/snow.####.prt", "c/sim2/snow.####.prt"}, []string{"a/sim", "b/sim", "c/sim2"}},
		{[]string{"runs/p1.####.prt", "runs/p3.####.prt"}, []string{"p1.####.prt", "p3.####.prt"}},
		{[]string{"snow.####.prt", "other/snow.####.prt"}, []string{filepath.Base(cwd), "other"}},
		{[]string{"/x/one/s.prt"}, []string{"one"}},
	} {
		for i := range c.inputs {
			c.inputs[i] = filepath.FromSlash(c.inputs[i])
		}
		if got := defaultLabels(c.inputs); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%v: labels %q, want %q", c.inputs, got, c.want)
		}
	}
}

// Misuse is a usage error naming the flag or argument; a frame some input lacks, no
// shared frame or a damaged frame fail naming the input and the frame, and nothing
// is written.
func TestCompareErrors(t *testing.T) {
	dir := t.TempDir()
	a, _ := writeRun(t, dir, "a", span(1, 3), 0, 0.6, 1)
	b, _ := writeRun(t, dir, "b", span(1, 2), 0, 0.6, 1)
	far, _ := writeRun(t, dir, "far", span(7, 8), 0, 0.6, 1)
	out := filepath.Join(dir, "out", "c.png")
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-labels", "one", out, a, b}, cli.ExitUsage, "-labels: 1 labels for 2 inputs"},
		{[]string{"-labels", "one,two,", out, a, b}, cli.ExitUsage, "-labels: 3 labels for 2 inputs"},
		{[]string{out}, cli.ExitUsage, "needs the output picture, then the inputs"},
		{[]string{a, b, out}, cli.ExitUsage, "writes one PNG, named before the inputs"},
		{[]string{filepath.Join(dir, "c.####.png"), a}, cli.ExitUsage, "without #### or %04d"},
		{[]string{"-frames", "1,,3", out, a, b}, cli.ExitUsage, `-frames "1,,3": "" is neither a frame`},
		{[]string{"-frames", "3-1", out, a, b}, cli.ExitUsage, `"3-1" is neither a frame A nor a range`},
		{[]string{"-frames", "0-1000", out, a, b}, cli.ExitUsage, "more than 50 frames; at most 50 columns"},
		{[]string{"-every", "-2", out, a, b}, cli.ExitUsage, "-every -2"},
		{[]string{"-sheet", "s.png", out, a, b}, cli.ExitUsage, "-sheet applies to -to png, not -to compare"},
		{[]string{"-size", "8x8", out, a, b}, cli.ExitUsage, "-size"},
		{[]string{"-frames", "1,3", out, a, b}, cli.ExitFailure, b + " has no frame 3 (it has frames 1-2)"},
		{[]string{"-frames", "1-4", out, b, a}, cli.ExitFailure, b + " has no frames 3, 4 (it has frames 1-2)"},
		{[]string{out, a, far}, cli.ExitFailure, "no frame number in common (" + a + " has frames 1-3, " + far + " has frames 7-8)"},
		{[]string{out, a, filepath.Join(dir, "none", "snow.####.prt")}, cli.ExitFailure, "none"},
	} {
		code, log := runExport(t, append([]string{"-to", "compare"}, c.args...)...)
		if code != c.code || !strings.Contains(log, c.want) {
			t.Errorf("%v: exit %d (want %d): %s (want %q)", c.args, code, c.code, log, c.want)
		}
	}
	if code, log := runExport(t, "-to", "ply", "-frames", "1,3", a, filepath.Join(dir, "p.####.ply")); code != cli.ExitUsage ||
		!strings.Contains(log, "a list of frames is for -to compare") {
		t.Errorf("-frames list for ply: exit %d: %s", code, log)
	}

	bad := filepath.Join(dir, "b", "snow.0002.prt")
	truncateHalf(t, bad)
	code, log := runExport(t, "-to", "compare", "-size", "16x16", "-ss", "1", "-radius", "0.02", out, a, b)
	if code != cli.ExitFailure || !strings.Contains(log, "frame 2 ("+bad+")") || !strings.Contains(log, "nothing was written") {
		t.Errorf("damaged frame: exit %d: %s", code, log)
	}
	code, log = runExport(t, "-to", "compare", "-color", "Velocity", "-size", "16x16", "-radius", "0.02", out, a, b)
	if code != cli.ExitFailure || !strings.Contains(log, "frame 2 ("+bad+")") {
		t.Errorf("damaged frame, colour range pass: exit %d: %s", code, log)
	}
	if entries, _ := os.ReadDir(filepath.Dir(out)); len(entries) != 0 {
		t.Errorf("a failed comparison left %d files", len(entries))
	}
}
