package main

import (
	"bytes"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"snowtools/simcore/particles"
)

// The footsteps_snow example at draft quality, through the first footprint (the right
// foot lands at 0.3 s and stands to 0.65 s): with [solver] sleep the log counts the
// snow asleep, most of the field sleeps while the foot stands in it, and the surface
// ends within a millimetre of the awake run's.
func TestFootstepsSnowSleeps(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates the example twice")
	}
	const frames = 14 // 0.58 s
	scene := filepath.Join("..", "..", "examples", "footsteps_snow.toml")
	surface := func(sleep string) (*particles.Shape, string) {
		t.Helper()
		dir := t.TempDir()
		var stderr bytes.Buffer
		args := []string{"-quality", "draft", "-frames", strconv.Itoa(frames), "-threads", "2", "-checkpoint", "0",
			"-set", "solver.sleep=" + sleep, "-o", dir, scene}
		if code := run(args, &bytes.Buffer{}, &stderr); code != 0 {
			t.Fatalf("snowsim %v: exit %d: %s", args, code, stderr.String())
		}
		fr := readFrame(t, filepath.Join(dir, fmt.Sprintf("snow.%04d.prt", frames)))
		pos, _, err := fr.Float32s("Position")
		if err != nil {
			t.Fatal(err)
		}
		s, err := particles.SummariseShape(pos, nil, 0.04)
		if err != nil {
			t.Fatal(err)
		}
		return s, stderr.String()
	}
	awake, awakeLog := surface("false")
	asleep, log := surface("true")
	if regexp.MustCompile(`asleep\)`).MatchString(awakeLog) {
		t.Errorf("the awake run's log counts snow asleep:\n%s", awakeLog)
	}
	counts := regexp.MustCompile(`frame (\d+)/\d+ .* (\d+) particles \((\d+) asleep\)`).FindAllStringSubmatch(log, -1)
	if len(counts) != frames {
		t.Fatalf("%d frames with a count of the snow asleep, want %d:\n%s", len(counts), frames, log)
	}
	for _, c := range counts {
		frame, _ := strconv.Atoi(c[1])
		n, _ := strconv.Atoi(c[2])
		sleeping, _ := strconv.Atoi(c[3])
		// Frame 10 on (0.42 s): the foot stands in its print, the rest of the field rests.
		if frame >= 10 && sleeping < n/2 {
			t.Errorf("frame %d: %d of %d particles asleep while the foot stands, want half or more", frame, sleeping, n)
		}
	}
	d := asleep.DifferenceFrom(awake)
	if largest := d.Max * 0.04; !(largest < 1e-3) || d.Shared < 0.95 {
		t.Errorf("the sleeping run's surface is %.2f mm from the awake run's at most (want under 1 mm), %.1f%% of the cells shared",
			1e3*largest, 100*d.Shared)
	}
}
