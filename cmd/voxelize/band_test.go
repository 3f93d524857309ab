package main

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"
)

// The automatic band is 3 voxels plus the frame's motion, at most -max-band; the
// first capped frame is noted with what it needed, and the run's end counts them.
func TestAutomaticBandCap(t *testing.T) {
	var b bandCap
	for _, tc := range []struct {
		frame        int
		displacement float64 // metres, at 0.1 m voxels
		band         int
		note         string
	}{
		{1, 0.25, 6, ""},
		{2, 0.9, 12, ""},
		{3, 1.25, 12, "frame 3: a vertex moves 1.25 m (13 voxels) to a neighbouring frame, which needs a band of 16 voxels: capped at -max-band 12"},
		{4, 1.75, 12, ""},
		{5, 0.1, 4, ""},
	} {
		band, note := b.automatic(tc.frame, tc.displacement, 0.1, 12)
		if band != tc.band || !strings.HasPrefix(note, tc.note) || (tc.note == "") != (note == "") {
			t.Errorf("frame %d: band %d, note %q; want %d, %q", tc.frame, band, note, tc.band, tc.note)
		}
	}
	if got, want := b.summary(12), "2 frames needed a band wider than -max-band 12, the widest 21 voxels (frame 4)"; got != want {
		t.Errorf("summary %q, want %q", got, want)
	}
}

// A vertex thrown to 1e300 m or infinity, or a NaN displacement, is capped with a note
// that gives the true size; on main the band became -9223372036854775805 voxels.
func TestAutomaticBandHugeMotion(t *testing.T) {
	for _, c := range []struct {
		displacement float64
		note         string
	}{
		{1e300, "frame 1: a vertex moves 1e+300 m (1e+301 voxels) to a neighbouring frame, which needs a band of 1e+301 voxels: capped at -max-band 12"},
		{math.Inf(1), "frame 1: a vertex moves +Inf m (+Inf voxels) to a neighbouring frame, which needs a band of +Inf voxels: capped at -max-band 12"},
		{math.NaN(), "frame 1: a vertex moves NaN m (NaN voxels) to a neighbouring frame, which needs a band of NaN voxels: capped at -max-band 12"},
	} {
		var b bandCap
		band, note := b.automatic(1, c.displacement, 0.1, 12)
		if band != 12 || !strings.HasPrefix(note, c.note) {
			t.Errorf("%g: band %d, note %q; want 12, %q", c.displacement, band, note, c.note)
		}
		b.automatic(2, 1.25, 0.1, 12)
		if want := "2 frames needed a band wider than -max-band 12, the widest "; !strings.HasPrefix(b.summary(12), want) {
			t.Errorf("%g: summary %q", c.displacement, b.summary(12))
		}
	}
}

// A cube moving 0.5 m a frame at 0.05 m voxels needs a band of 13: the default cap
// of 12 holds it there and says so once, with a count at the end; -max-band 20
// lets it have 13.
func TestVoxelizeMaxBand(t *testing.T) {
	dir := t.TempDir()
	writeCubeSequence(t, dir, "cube", 3, 0.5, 0)
	for _, tc := range []struct {
		args  []string
		band  int
		notes int // lines about the cap
	}{
		{nil, 12, 2},
		{[]string{"-max-band", "20"}, 13, 0},
	} {
		out := filepath.Join(dir, "o.####.vdb")
		args := append(append([]string{"-voxel", "0.05", "-fps", "24"}, tc.args...), "-o", out, filepath.Join(dir, "cube1.obj"))
		code, log := runVoxelize(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", tc.args, code, log)
		}
		n := 0
		for _, line := range strings.Split(log, "\n") {
			if strings.Contains(line, "-max-band") {
				n++
			}
		}
		if n != tc.notes {
			t.Errorf("%v: %d lines about -max-band, want %d:\n%s", tc.args, n, tc.notes, log)
		}
		if tc.notes > 0 && !strings.Contains(log, "frame 1: a vertex moves 0.5 m (10 voxels) to a neighbouring frame, which needs a band of 13 voxels: capped at -max-band 12") {
			t.Errorf("%v: the note does not say what frame 1 needed:\n%s", tc.args, log)
		}
		for f := 1; f <= 3; f++ {
			file := readVDB(t, filepath.Join(dir, fmt.Sprintf("o.%04d.vdb", f)))
			if file.Meta["band_half_width"] != int32(tc.band) {
				t.Errorf("%v frame %d: band %v, want %d", tc.args, f, file.Meta["band_half_width"], tc.band)
			}
		}
	}
}
