package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"snowtools/cmd/internal/meshfile"
	"snowtools/cmd/internal/seq"
	"snowtools/formats/abc"
	"snowtools/formats/abc/abctest"
	"snowtools/formats/prt"
	"snowtools/simcore/particles"
)

func g9(v float32) string { return strconv.FormatFloat(float64(v), 'g', 9, 64) }

// expectedPoints is what the judge's read_ours prints for the archive that -to abc
// writes from the balls of writeSequence: every sample, every value.
func expectedPoints(balls []*snowball) string {
	var b strings.Builder
	line := func(parts ...any) { fmt.Fprintln(&b, parts...) }
	line("application", "snowtools export")
	line("points", "/snow", "samples", len(balls))
	for k := range balls {
		line("time", k, strconv.FormatFloat(float64(k+1)/24, 'g', 9, 64))
	}
	for k, ball := range balls {
		n := ball.len()
		line("sample", k, "count", n)
		for i := 0; i < n; i++ {
			line("P", g9(ball.pos[3*i]), g9(ball.pos[3*i+1]), g9(ball.pos[3*i+2]))
		}
		for _, id := range ball.id {
			line("id", id)
		}
		for i := 0; i < n; i++ {
			line("v", g9(ball.vel[3*i]), g9(ball.vel[3*i+1]), g9(ball.vel[3*i+2]))
		}
		for i := 0; i < n; i++ {
			line("width", g9(2*float32(particles.SphereRadius(float64(ball.mass[i]), float64(ball.rho[i])))))
		}
		lo, hi := pointBounds(ball.pos)
		line("bounds", g9(float32(lo[0])), g9(float32(lo[1])), g9(float32(lo[2])), g9(float32(hi[0])), g9(float32(hi[1])), g9(float32(hi[2])))
		for _, ch := range []struct {
			name  string
			value func(i int) float32
		}{
			{"Density", func(i int) float32 { return 1 + float32(i%7)/10 }},
			{"Mass", func(i int) float32 { return ball.mass[i] }},
			{"PhysicalDensity", func(i int) float32 { return ball.rho[i] }},
			{"PlasticJ", func(i int) float32 { return 1 - float32(i%5)/20 }},
		} {
			line("arb", ch.name, "float32_t", "scope", "var", "arrayExtent", 1, "values", n)
			for i := 0; i < n; i++ {
				line(g9(ch.value(i)))
			}
		}
	}
	return b.String()
}

// TestExportABCJudged: the Alembic library reads the archive of a three-frame sequence
// with every value export put in (positions, IDs, velocities, widths = the particles'
// volume-equivalent diameters, the float channels as arbitrary geometry parameters),
// three samples at 24 fps from frame 1's time, 1/24 s; abcecho lists the properties
// with three samples each.
func TestExportABCJudged(t *testing.T) {
	readOurs := abctest.Program(t, "read_ours")
	// Balls of a few hundred particles: the judge prints 13 lines a particle.
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "sim"), 0o755); err != nil {
		t.Fatal(err)
	}
	var balls []*snowball
	for f := 1; f <= 3; f++ {
		b := newBall(0.6-0.1*float64(f-1), uint64(f), 0.04)
		b.writePRT(t, filepath.Join(dir, "sim", fmt.Sprintf("snow.%04d.prt", f)), f)
		balls = append(balls, b)
	}
	pattern := filepath.Join(dir, "sim", "snow.####.prt")
	out := filepath.Join(dir, "snow.abc")
	log := mustExport(t, "-to", "abc", "-fps", "24", pattern, out)
	if !strings.Contains(log, "Points /snow, 3 samples at 24 fps from 0.0416667 s (frame 1)") {
		t.Errorf("log: %s", log)
	}
	cmd := exec.Command(readOurs, out)
	got, err := cmd.Output()
	if err != nil {
		t.Fatalf("read_ours: %v", err)
	}
	want := expectedPoints(balls)
	gl, wl := strings.Split(string(got), "\n"), strings.Split(want, "\n")
	t.Logf("read_ours printed %d lines", len(gl))
	for i := range max(len(gl), len(wl)) {
		var g, w string
		if i < len(gl) {
			g = gl[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if g != w {
			t.Fatalf("line %d: the library reads %q, export wrote %q", i+1, g, w)
		}
	}
	echo, err := exec.Command(abctest.Tool(t, "abcecho"), out).Output()
	if err != nil {
		t.Fatal(err)
	}
	n := balls[len(balls)-1].len() // abcecho gives the last sample's size
	for _, w := range []string{"file written by: snowtools export", "Object name=/snow",
		fmt.Sprintf("name=P;interpretation=point;datatype=float32_t[3];arraysize=%d;numsamps=3", n),
		fmt.Sprintf("name=.widths;interpretation=;datatype=float32_t;arraysize=%d;numsamps=3", n),
		fmt.Sprintf("name=PlasticJ;interpretation=;datatype=float32_t;arraysize=%d;numsamps=3", n)} {
		if !strings.Contains(string(echo), w) {
			t.Errorf("abcecho does not list %q", w)
		}
	}
}

// The frame rate comes from the FrameRate metadata snowsim writes, else -fps; a
// sequence without either is refused, and so is a gap, which a uniform sampling cannot
// hold. A failed frame leaves no archive and no temporary file behind.
func TestExportABCErrors(t *testing.T) {
	var h prt.Header
	h.SetMeta(prt.MetaUint32("", "FrameRate", 30000, 1001))
	if fps, err := (&abcSettings{}).frameRate(&frame{Frame: &prt.Frame{Header: h}}); err != nil || math.Abs(fps-29.97) > 0.001 {
		t.Errorf("FrameRate 30000/1001: %g fps, %v", fps, err)
	}
	dir := t.TempDir()
	pattern, _ := writeSequence(t, dir, 4)
	out := filepath.Join(dir, "snow.abc")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-to", "abc", pattern, out}, "give the sequence's frame rate with -fps"},
		{[]string{"-to", "abc", "-fps", "24", pattern, filepath.Join(dir, "snow.####.abc")}, "holds the whole sequence"},
		{[]string{"-to", "ply", "-fps", "24", pattern, filepath.Join(dir, "x.####.ply")}, "-fps applies to -to abc and surface"},
		{[]string{"-to", "abc", "-fps", "24", "-drop", "Nope", pattern, out}, "-keep/-drop Nope: no such channel"},
	} {
		code, log := runExport(t, c.args...)
		if code == 0 || !strings.Contains(log, c.want) {
			t.Errorf("%v: exit %d, %s", c.args, code, log)
		}
	}
	os.Remove(filepath.Join(dir, "sim", "snow.0003.prt"))
	if code, log := runExport(t, "-to", "abc", "-fps", "24", pattern, out); code == 0 || !strings.Contains(log, "frames 2 and 4: the sequence has a gap") {
		t.Errorf("a gap: exit %d, %s", code, log)
	}
	truncateHalf(t, filepath.Join(dir, "sim", "snow.0002.prt"))
	if code, log := runExport(t, "-to", "abc", "-fps", "24", "-frames", "1-2", pattern, out); code == 0 || !strings.Contains(log, "nothing was written") {
		t.Errorf("a damaged frame: exit %d, %s", code, log)
	}
	left, _ := filepath.Glob(filepath.Join(dir, "*abc*"))
	if len(left) > 0 {
		t.Errorf("left behind: %v", left)
	}
}

// -to surface writes its meshes to an .abc output as one PolyMesh sequence, with
// vertex velocities under -velocity: each sample is the mesh of the frame's .ply of
// the same run, to float32, and its velocities average the ball's fall, about
// -2 m/s along y (the particles' mean, sampled at the surface).
func TestExportSurfaceABC(t *testing.T) {
	dir := t.TempDir()
	pattern, _ := writeSequence(t, dir, 2)
	out := filepath.Join(dir, "surface.abc")
	plys := filepath.Join(dir, "mesh", "s.####.ply")
	mustExport(t, "-to", "surface", "-velocity", "-fps", "24", pattern, out, plys)
	a, err := abc.OpenFile(out)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	o, err := a.Find("/surface")
	if err != nil || o == nil {
		t.Fatalf("no /surface: %v", err)
	}
	m, err := o.PolyMesh()
	if err != nil {
		t.Fatal(err)
	}
	if m.NumSamples() != 2 || !m.HasVelocities() || m.TimeSampling().SampleTime(1) != 2.0/24 {
		t.Fatalf("%d samples, velocities %v, sample 1 at %g s", m.NumSamples(), m.HasVelocities(), m.TimeSampling().SampleTime(1))
	}
	for k := range 2 {
		s, err := m.Read(k)
		if err != nil {
			t.Fatal(err)
		}
		got := s.Mesh(abc.Identity)
		want, err := meshfile.Read(filepath.Join(dir, "mesh", fmt.Sprintf("s.%04d.ply", k+1)))
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Positions) != len(want.Positions) || len(got.Triangles) != len(want.Triangles) {
			t.Fatalf("sample %d: %d vertices %d triangles, the .ply %d and %d", k, len(got.Positions), len(got.Triangles), len(want.Positions), len(want.Triangles))
		}
		worst, vy := 0.0, 0.0
		for i := range got.Positions {
			worst = max(worst, got.Positions[i].Sub(want.Positions[i]).Norm())
			vy += got.Velocities[i][1] / float64(len(got.Velocities))
		}
		if !(vy > -2.2 && vy < -1.8) {
			t.Errorf("sample %d: mean vertex velocity along y %g m/s, want about -2", k, vy)
		}
		for i := range got.Triangles {
			if got.Triangles[i] != want.Triangles[i] {
				t.Fatalf("sample %d triangle %d: %v, the .ply's %v", k, i, got.Triangles[i], want.Triangles[i])
			}
		}
		if worst > 1e-6 {
			t.Errorf("sample %d: positions differ by up to %g", k, worst)
		}
	}
}

// A frame of an archive that was not written because an earlier one failed does not
// hide that failure, whichever outcome arrives first.
func TestCollectReportsTheFailedFrame(t *testing.T) {
	done := make(chan outcome, 2)
	done <- outcome{job{index: 4, in: seq.Frame{Number: 5, Path: "s.0005.prt"}}, result{err: errEarlierFrameFailed}}
	done <- outcome{job{index: 3, in: seq.Frame{Number: 4, Path: "s.0004.prt"}}, result{err: errors.New("truncated")}}
	close(done)
	tally := collect(done, make(chan struct{}), 2, time.Now(), "particles", io.Discard)
	if tally.failed == nil || tally.failed.Error() != "frame 4 (s.0004.prt): truncated" {
		t.Errorf("failure %v, want frame 4's", tally.failed)
	}
}
