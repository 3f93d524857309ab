package main

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"snowtools/cmd/internal/cli"
	"snowtools/formats/prt"
	"snowtools/simcore/particles"
)

// Identical runs differ by nothing; a run moved by half a cell along x has its
// centroid 0.5 h away, and one raised by a cell along y its centroid and every
// height 1 h away; -cell measures in other cells.
func TestCompareShapeDifferences(t *testing.T) {
	dir := t.TempDir()
	a, _ := writeRun(t, dir, "a", span(1, 3), 0, 0.6, 1)
	same, _ := writeRun(t, dir, "same", span(1, 3), 0, 0.6, 1)
	shifted, _ := writeRun(t, dir, "shifted", span(1, 3), 0.5*ballH, 0.6, 1)
	raised, _ := writeRun(t, dir, "raised", span(1, 3), 0, 0.6+ballH, 1)
	view := []string{"-size", "16x16", "-ss", "1", "-radius", "0.02", "-differences", filepath.Join(dir, "d.csv")}
	c := prepareComparison(t, append(view, filepath.Join(dir, "c.png"), a, same, shifted, raised)...)
	if c.cell != ballH || c.cellSource != "a's GridSpacing" {
		t.Fatalf("cell %g (%s), want the first run's h %g", c.cell, c.cellSource, ballH)
	}
	const tol = 1e-4 // float32 positions
	for col := range c.frames {
		if d, run, _, err := c.difference(1, col); err != nil || d != (particles.ShapeDifference{Shared: 1}) || run.Particles < 500 {
			t.Errorf("column %d: identical runs differ: %+v (%v)", col, d, err)
		}
		if d := measured(t, c, 2, col); !closeTo(d.Centroid, 0.5, tol, 1) || !(d.Shared > 0.2 && d.Shared < 0.8) {
			t.Errorf("column %d: shifted by 0.5 h: %+v", col, d)
		}
		d := measured(t, c, 3, col)
		for name, v := range map[string]float64{"centroid": d.Centroid, "median": d.Median, "p90": d.P90, "mean": d.Mean, "largest": d.Max} {
			if !closeTo(v, 1, tol, 1) {
				t.Errorf("column %d: raised by 1 h: %s %g h", col, name, v)
			}
		}
	}
	c = prepareComparison(t, append(append(view, "-cell", fmt.Sprint(2*ballH)), filepath.Join(dir, "c.png"), a, shifted)...)
	if d := measured(t, c, 1, 0); c.cell != 2*ballH || c.cellSource != "-cell" || !closeTo(d.Centroid, 0.25, tol, 1) {
		t.Errorf("-cell %g: cell %g (%s), centroids %g apart, want 0.25", 2*ballH, c.cell, c.cellSource, d.Centroid)
	}
}

// measured returns the difference of run r from the first run at column col.
func measured(t *testing.T, c *comparison, r, col int) particles.ShapeDifference {
	t.Helper()
	d, _, _, err := c.difference(r, col)
	if err != nil {
		t.Fatalf("run %d, column %d: %v", r, col, err)
	}
	return d
}

// -differences writes a row per column and per later run, whose values are those of
// the log's lines for the last column; "-" writes to stdout.
func TestCompareDifferencesCSV(t *testing.T) {
	dir := t.TempDir()
	a, _ := writeRun(t, dir, "explicit", span(1, 3), 0, 0.6, 1)
	b, _ := writeRun(t, dir, "auto", span(1, 3), 0.3*ballH, 0.6+0.7*ballH, 1)
	cc, _ := writeRun(t, dir, "wedge", span(1, 3), 0, 0.6-2*ballH, 1)
	csvPath := filepath.Join(dir, "out", "differences.csv")
	args := []string{"-to", "compare", "-size", "16x16", "-ss", "1", "-radius", "0.02", "-differences", csvPath, filepath.Join(dir, "c.png"), a, b, cc}
	log := mustExport(t, args...)
	data, err := os.ReadFile(csvPath)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(rows[0], differenceColumns) ||
		strings.Join(rows[0], ",") != "frame,time,run,against,centroid_h,cells_shared,height_median_h,height_p90_h,height_mean_h,height_max_h,particles,particles_against" {
		t.Fatalf("header %q", rows[0])
	}
	if len(rows) != 1+3*2 {
		t.Fatalf("%d rows, want a header and 3 columns x 2 runs", len(rows))
	}
	for i, row := range rows[1:] {
		frame, run := 1+i/2, []string{"auto", "wedge"}[i%2]
		if row[0] != strconv.Itoa(frame) || row[2] != run || row[3] != "explicit" {
			t.Errorf("row %d: %q, want frame %d, %s against explicit", i, row, frame, run)
		}
		if at, err := strconv.ParseFloat(row[1], 64); err != nil || !closeTo(at, float64(frame)/24, 1e-6, 1) {
			t.Errorf("row %d: time %q, want %g", i, row[1], float64(frame)/24)
		}
		v := make([]float64, 6)
		for k := range v {
			if v[k], err = strconv.ParseFloat(row[4+k], 64); err != nil {
				t.Fatalf("row %d: %s %q: %v", i, rows[0][4+k], row[4+k], err)
			}
		}
		n, err1 := strconv.Atoi(row[10])
		m, err2 := strconv.Atoi(row[11])
		if err1 != nil || err2 != nil || n < 500 || m < 500 {
			t.Errorf("row %d: particles %q and %q", i, row[10], row[11])
		}
		if frame != 3 {
			continue
		}
		line := fmt.Sprintf("  frame 3: %s against explicit: centroids %.2f h apart, %.1f%% of the cells shared, heights %.2f h apart (median), %.2f h (9 in 10), %.2f h (mean), %.2f h (largest)\n",
			run, v[0], 100*v[1], v[2], v[3], v[4], v[5])
		if !strings.Contains(log, line) {
			t.Errorf("the log lacks the CSV's\n%s in\n%s", line, log)
		}
	}
	if !strings.Contains(log, "  shape differences in h = 0.02 m (explicit's GridSpacing):\n") ||
		!strings.Contains(log, "shape differences from explicit at 3 frames -> "+csvPath) {
		t.Errorf("log:\n%s", log)
	}
	if strings.Count(log, "  frame 3: ") != 2 || strings.Contains(log, "  frame 1: ") {
		t.Errorf("the log gives other than the last column's differences:\n%s", log)
	}

	var stdout bytes.Buffer
	reportStdout = &stdout
	defer func() { reportStdout = os.Stdout }()
	args[len(args)-5] = "-"
	log = mustExport(t, args...)
	if stdout.String() != string(data) || !strings.Contains(log, "-> stdout") {
		t.Errorf("-differences -: %q\nlog: %s", stdout.String(), log)
	}
}

// writeBareRun writes frames of a few particles without GridSpacing metadata (not
// from snowsim) into dir/name, every particle moved by dx along x.
func writeBareRun(t *testing.T, dir, name string, frames []int, dx float32) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, name), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range frames {
		var h prt.Header
		pos := h.AddChannel("Position", prt.Float32, 3)
		h.Count = 64
		h.Meta = []prt.Meta{prt.MetaFloat64("", "Time", float64(f)/24)}
		writePRTFile(t, filepath.Join(dir, name, fmt.Sprintf("snow.%04d.prt", f)), h, func(i int, rec []byte) {
			pos.PutFloat32s(rec, dx+0.01*float32(i%4), 0.01*float32(i/4%4), 0.01*float32(i/16))
		})
	}
	return filepath.Join(dir, name, "snow.####.prt")
}

// Without GridSpacing metadata and -cell, the picture is written and the log says
// why no differences were measured; -differences then is an error that names -cell,
// and with -cell it measures (and the Mass-less frames' centroids are plain means).
func TestCompareDifferencesWithoutGridSpacing(t *testing.T) {
	dir := t.TempDir()
	a := writeBareRun(t, dir, "a", span(1, 2), 0)
	b := writeBareRun(t, dir, "b", span(1, 2), 0.005)
	out := filepath.Join(dir, "c.png")
	view := []string{"-to", "compare", "-size", "16x16", "-ss", "1", "-radius", "0.005"}
	log := mustExport(t, append(view, out, a, b)...)
	if _, err := os.Stat(out); err != nil {
		t.Errorf("no picture: %v", err)
	}
	want := "  no shape differences measured: " + filepath.Join(dir, "a", "snow.0001.prt") +
		" (frame 1 of the first run) has no GridSpacing metadata to measure in (give -cell metres)\n"
	if !strings.Contains(log, want) {
		t.Errorf("log:\n%s\nwant %q", log, want)
	}
	if err := os.Remove(out); err != nil {
		t.Fatal(err)
	}

	csvPath := filepath.Join(dir, "d.csv")
	code, log := runExport(t, append(view, "-differences", csvPath, out, a, b)...)
	if code != cli.ExitFailure || !strings.Contains(log, "-differences "+csvPath) || !strings.Contains(log, "give the cell size with -cell metres") {
		t.Errorf("-differences without h: exit %d: %s", code, log)
	}
	for _, f := range []string{out, csvPath} {
		if _, err := os.Stat(f); !os.IsNotExist(err) {
			t.Errorf("a refused comparison wrote %s", f)
		}
	}

	log = mustExport(t, append(view, "-differences", csvPath, "-cell", "0.01", out, a, b)...)
	if !strings.Contains(log, "  frame 2: b against a: centroids 0.50 h apart, ") || !strings.Contains(log, "h = 0.01 m (-cell)") {
		t.Errorf("-cell 0.01:\n%s", log)
	}

	// Cells so small that the particles lie more than a million of them from the
	// origin: the picture is still written and the log says why nothing was
	// measured; with -differences that is an error.
	if err := os.Remove(out); err != nil {
		t.Fatal(err)
	}
	log = mustExport(t, append(view, "-cell", "1e-8", out, a, b)...)
	if _, err := os.Stat(out); err != nil || !strings.Contains(log, "  frame 2: b against a: not measured: frame 2 (") ||
		!strings.Contains(log, "give a larger -cell, or leave out -differences") {
		t.Errorf("unmeasurable frames (picture: %v):\n%s", err, log)
	}
	if code, log := runExport(t, append(view, "-cell", "1e-8", "-differences", csvPath, out, a, b)...); code != cli.ExitFailure ||
		!strings.Contains(log, "give a larger -cell") {
		t.Errorf("-differences of unmeasurable frames: exit %d: %s", code, log)
	}
}

// -differences and -cell belong to -to compare; a -cell that is no size, or a CSV
// named as the picture, is a usage error that names it.
func TestCompareDifferencesUsage(t *testing.T) {
	dir := t.TempDir()
	a, _ := writeRun(t, dir, "a", span(1, 2), 0, 0.6, 1)
	out := filepath.Join(dir, "c.png")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-to", "png", "-differences", "d.csv", a, filepath.Join(dir, "p.####.png")}, "-differences applies to -to compare, not -to png"},
		{[]string{"-to", "png", "-cell", "0.02", a, filepath.Join(dir, "p.####.png")}, "-cell applies to -to compare, not -to png"},
		{[]string{"-to", "compare", "-cell", "0", out, a, a}, "-cell 0: must be a positive size in metres"},
		{[]string{"-to", "compare", "-cell", "-0.02", out, a, a}, "-cell -0.02: must be a positive"},
		{[]string{"-to", "compare", "-cell", "NaN", out, a, a}, "-cell NaN: must be a positive"},
		{[]string{"-to", "compare", "-cell", "Inf", out, a, a}, "-cell +Inf: must be a positive"},
		{[]string{"-to", "compare", "-differences", out, out, a, a}, "-differences " + out + ": that is the picture's name"},
		{[]string{"-to", "compare", "-differences", "d.csv", out, a}, "-differences d.csv: it measures each run against the first; give two or more inputs"},
	} {
		code, log := runExport(t, c.args...)
		if code != cli.ExitUsage || !strings.Contains(log, c.want) {
			t.Errorf("%v: exit %d, %q; want %d and %q", c.args, code, log, cli.ExitUsage, c.want)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("refused runs wrote files: %d entries", len(entries))
	}
}
