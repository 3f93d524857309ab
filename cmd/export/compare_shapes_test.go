package main

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"snowtools/cmd/internal/cli"
	"snowtools/formats/prt"
)

// The measures of simcore's TestAutoIntegrator, as simcore's tests write them (with
// maps, over float64 positions): summarise and difference must give the same
// numbers over sorted keys.
func referenceCentroid(pos, mass []float32) [3]float64 {
	var c [3]float64
	total := 0.0
	for i := range len(pos) / 3 {
		for a := range 3 {
			c[a] += float64(pos[3*i+a]) * float64(mass[i])
		}
		total += float64(mass[i])
	}
	return [3]float64{c[0] / total, c[1] / total, c[2] / total}
}

func referenceOverlap(a, b []float32, size float64) float64 {
	cells := func(p []float32) map[[3]int]bool {
		m := make(map[[3]int]bool)
		for i := 0; i < len(p); i += 3 {
			m[[3]int{int(math.Floor(float64(p[i]) / size)), int(math.Floor(float64(p[i+1]) / size)), int(math.Floor(float64(p[i+2]) / size))}] = true
		}
		return m
	}
	ca, cb := cells(a), cells(b)
	both := 0
	for c := range ca {
		if cb[c] {
			both++
		}
	}
	return float64(both) / float64(len(ca)+len(cb)-both)
}

func referenceHeights(a, b []float32, size float64) []float64 {
	heights := func(p []float32) map[[2]int]float64 {
		top := make(map[[2]int]float64)
		for i := 0; i < len(p); i += 3 {
			c := [2]int{int(math.Floor(float64(p[i]) / size)), int(math.Floor(float64(p[i+2]) / size))}
			if y, ok := top[c]; !ok || float64(p[i+1]) > y {
				top[c] = float64(p[i+1])
			}
		}
		return top
	}
	ha, hb := heights(a), heights(b)
	var d []float64
	for c, y := range ha {
		if yb, ok := hb[c]; ok {
			d = append(d, math.Abs(y-yb))
		}
	}
	slices.Sort(d)
	return d
}

// randomCloud returns n particles in a box around the origin (negative cells too),
// with masses.
func randomCloud(rng *rand.Rand, n int, spread float64) (pos, mass []float32) {
	for range n {
		pos = append(pos, float32(spread*(rng.Float64()-0.5)), float32(spread*rng.Float64()*0.5-0.1), float32(spread*(rng.Float64()-0.5)))
		mass = append(mass, float32(1e-3*(1+rng.Float64())))
	}
	return pos, mass
}

// Over random clouds, the sorted-key measures equal the map-based ones of simcore's
// tests: the same cells, columns, median, 90th percentile and mean.
func TestShapeDifferenceMatchesSimcoreMeasures(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const h = 0.02
	for trial := range 5 {
		a, ma := randomCloud(rng, 2000, 0.3)
		b, mb := randomCloud(rng, 1500+trial*200, 0.3)
		sa, err := summarise(a, ma, h)
		if err != nil {
			t.Fatal(err)
		}
		sb, err := summarise(b, mb, h)
		if err != nil {
			t.Fatal(err)
		}
		d := difference(sa, sb, h)
		ca, cb := referenceCentroid(a, ma), referenceCentroid(b, mb)
		centroid := math.Sqrt((ca[0]-cb[0])*(ca[0]-cb[0])+(ca[1]-cb[1])*(ca[1]-cb[1])+(ca[2]-cb[2])*(ca[2]-cb[2])) / h
		heights := referenceHeights(a, b, h)
		p90, mean := heights[len(heights)*9/10], 0.0
		for _, v := range heights {
			mean += v / float64(len(heights))
		}
		want := shapeDifference{centroid: centroid, shared: referenceOverlap(a, b, h),
			median: heights[len(heights)/2] / h, p90: p90 / h, mean: mean / h, particles: 2000, particlesFrom: 1500 + trial*200}
		if !closeTo(d.centroid, want.centroid, 1e-9, 1) {
			t.Errorf("trial %d: centroid %g h, want %g", trial, d.centroid, want.centroid)
		}
		d.centroid = want.centroid
		if d != want {
			t.Errorf("trial %d: %+v, want %+v", trial, d, want)
		}
		if want.shared <= 0 || want.shared >= 1 || len(heights) < 50 {
			t.Fatalf("fixture: %g of the cells shared, %d columns in both", want.shared, len(heights))
		}
	}

	// Without masses: the plain mean of the positions.
	pos := []float32{0, 0, 0, 0.04, 0, 0, 0.08, 0.06, 0}
	s, err := summarise(pos, nil, 0.02)
	if err != nil {
		t.Fatal(err)
	}
	if s.hasMass || !closeTo(s.mean[0], 0.04, 1e-7, 1) || !closeTo(s.mean[1], 0.02, 1e-7, 1) {
		t.Errorf("mean %v (weighted %v)", s.mean, s.hasMass)
	}
	// Cells and columns: sorted, distinct; a column's top is its highest particle.
	if len(s.cells) != 3 || len(s.columns) != 3 || !slices.IsSorted(s.cells) || s.tops[2] != 0.06 {
		t.Errorf("cells %x, columns %x, tops %v", s.cells, s.columns, s.tops)
	}
}

// Particles without a finite position are left out; one too far from the origin for
// a cell key is an error that asks for a larger -cell.
func TestShapeSummaryLimits(t *testing.T) {
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	x := float64(float32(0.01))
	s, err := summarise([]float32{0.01, 0.01, 0.01, nan, 0, 0, 0, inf, 0}, []float32{1, 1, 1}, 0.02)
	if err != nil {
		t.Fatal(err)
	}
	if s.particles != 3 || s.finite != 1 || len(s.cells) != 1 || s.massMean != [3]float64{x, x, x} {
		t.Errorf("%+v", s)
	}
	if _, err := summarise([]float32{0, 0, 0, -3e4, 0, 0}, nil, 0.02); err == nil || !strings.Contains(err.Error(), "give a larger -cell") {
		t.Errorf("a particle 1.5e6 cells away: %v", err)
	}
	empty, _ := summarise(nil, nil, 0.02)
	d := difference(empty, s, 0.02)
	if !math.IsNaN(d.centroid) || !math.IsNaN(d.shared) || !math.IsNaN(d.median) || d.particles != 0 || d.particlesFrom != 3 {
		t.Errorf("against an empty frame: %+v", d)
	}
}

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
		if d := c.difference(1, col); d != (shapeDifference{0, 1, 0, 0, 0, d.particles, d.particles}) || d.particles < 500 {
			t.Errorf("column %d: identical runs differ: %+v", col, d)
		}
		if d := c.difference(2, col); !closeTo(d.centroid, 0.5, tol, 1) || !(d.shared > 0.2 && d.shared < 0.8) {
			t.Errorf("column %d: shifted by 0.5 h: %+v", col, d)
		}
		d := c.difference(3, col)
		for name, v := range map[string]float64{"centroid": d.centroid, "median": d.median, "p90": d.p90, "mean": d.mean} {
			if !closeTo(v, 1, tol, 1) {
				t.Errorf("column %d: raised by 1 h: %s %g h", col, name, v)
			}
		}
	}
	c = prepareComparison(t, append(append(view, "-cell", fmt.Sprint(2*ballH)), filepath.Join(dir, "c.png"), a, shifted)...)
	if d := c.difference(1, 0); c.cell != 2*ballH || c.cellSource != "-cell" || !closeTo(d.centroid, 0.25, tol, 1) {
		t.Errorf("-cell %g: cell %g (%s), centroids %g apart, want 0.25", 2*ballH, c.cell, c.cellSource, d.centroid)
	}
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
		strings.Join(rows[0], ",") != "frame,time,run,against,centroid_h,cells_shared,height_median_h,height_p90_h,height_mean_h,particles,particles_against" {
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
		v := make([]float64, 5)
		for k := range v {
			if v[k], err = strconv.ParseFloat(row[4+k], 64); err != nil {
				t.Fatalf("row %d: %s %q: %v", i, rows[0][4+k], row[4+k], err)
			}
		}
		n, err1 := strconv.Atoi(row[9])
		m, err2 := strconv.Atoi(row[10])
		if err1 != nil || err2 != nil || n < 500 || m < 500 {
			t.Errorf("row %d: particles %q and %q", i, row[9], row[10])
		}
		if frame != 3 {
			continue
		}
		line := fmt.Sprintf("  frame 3: %s against explicit: centroids %.2f h apart, %.1f%% of the cells shared, heights %.2f h apart (median), %.2f h (9 in 10), %.2f h (mean)\n",
			run, v[0], 100*v[1], v[2], v[3], v[4])
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
