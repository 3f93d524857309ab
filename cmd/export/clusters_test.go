package main

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"snowtools/cmd/internal/cli"
	"snowtools/formats/prt"
)

// A brokenBall is a snowball after an impact: the ball (big), a coarser ball beside it
// (fewer particles, but heavier in all) and a few grains flung far from both, each its
// own cluster; the particles in that order.
type brokenBall struct {
	*snowball
	big, coarse, grains int
}

func newBrokenBall(y float64, seed uint64, grains int) brokenBall {
	b := brokenBall{snowball: newSnowball(y, seed), grains: grains}
	b.big = b.len()
	coarse := newBall(y, seed+100, 1.5*ballSpacing) // neighbours still closer than h
	for i := 0; i < coarse.len(); i++ {
		coarse.pos[3*i] += 1 // 0.6 m of air between the balls
		coarse.mass[i] *= 2
	}
	b.coarse = coarse.len()
	b.add(coarse)
	for g := range grains {
		b.add(&snowball{pos: []float32{-1, float32(y), float32(g) * 0.1}, vel: []float32{0, 0, 0},
			mass: []float32{b.mass[0]}, rho: []float32{b.rho[0]}, id: []int32{0}})
	}
	return b
}

// add appends other's particles to b.
func (b *snowball) add(other *snowball) {
	b.pos = append(b.pos, other.pos...)
	b.vel = append(b.vel, other.vel...)
	b.mass = append(b.mass, other.mass...)
	b.rho = append(b.rho, other.rho...)
	for range other.id {
		b.id = append(b.id, int32(len(b.id)))
	}
}

// massOf sums the masses of particles lo to hi-1 of b.
func (b *snowball) massOf(lo, hi int) float64 {
	sum := 0.0
	for _, m := range b.mass[lo:hi] {
		sum += float64(m)
	}
	return sum
}

// writeBrokenSequence writes frames 1..3: a whole ball, then broken ones with more and
// more grains.
func writeBrokenSequence(t *testing.T, dir string) (string, []brokenBall) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, "sim"), 0o755); err != nil {
		t.Fatal(err)
	}
	balls := []brokenBall{{snowball: newSnowball(0.5, 1)}, newBrokenBall(0.4, 2, 3), newBrokenBall(0.3, 3, 5)}
	balls[0].big = balls[0].len()
	for i, b := range balls {
		b.writePRT(t, filepath.Join(dir, "sim", fmt.Sprintf("snow.%04d.prt", i+1)), i+1)
	}
	return filepath.Join(dir, "sim", "snow.####.prt"), balls
}

// readReport parses a report and checks its header.
func readReport(t *testing.T, data []byte) []map[string]string {
	t.Helper()
	records, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		t.Fatalf("report: %v\n%s", err, data)
	}
	if !slices.Equal(records[0], clusterColumns) {
		t.Fatalf("header %v, want %v", records[0], clusterColumns)
	}
	var rows []map[string]string
	for _, rec := range records[1:] {
		row := map[string]string{}
		for i, name := range records[0] {
			row[name] = rec[i]
		}
		rows = append(rows, row)
	}
	return rows
}

func number(t *testing.T, row map[string]string, column string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(row[column], 64)
	if err != nil {
		t.Fatalf("column %s: %v", column, err)
	}
	return v
}

// The report has a row per frame, in frame order, with the clusters of each: a whole
// ball; then two balls, the heavier one the smaller, and grains of powder.
func TestClustersReport(t *testing.T) {
	dir := t.TempDir()
	in, balls := writeBrokenSequence(t, dir)
	out := filepath.Join(dir, "report", "clusters.csv")
	log := mustExport(t, "-to", "clusters", "-threads", "2", in, out)
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	rows := readReport(t, data)
	if len(rows) != 3 {
		t.Fatalf("%d rows, want 3:\n%s", len(rows), data)
	}
	for i, row := range rows {
		b := balls[i]
		if row["frame"] != strconv.Itoa(i+1) || row["particles"] != strconv.Itoa(b.len()) || row["link"] != "0.02" {
			t.Errorf("row %d: frame %s, %s particles, link %s; want frame %d, %d particles, link 0.02 (h)", i, row["frame"], row["particles"], row["link"], i+1, b.len())
		}
		if got, want := number(t, row, "time"), float64(i+1)/24; math.Abs(got-want) > 1e-7 {
			t.Errorf("frame %d: time %g, want %g", i+1, got, want)
		}
		if got, want := number(t, row, "mass"), b.massOf(0, b.len()); math.Abs(got-want) > 1e-6*want {
			t.Errorf("frame %d: mass %g, want %g", i+1, got, want)
		}
	}
	if r := rows[0]; r["clusters"] != "1" || r["lumps"] != "1" || r["largest_share"] != "1.000000" || r["largest_particles"] != strconv.Itoa(balls[0].len()) ||
		r["second_share"] != "0.000000" || r["second_particles"] != "0" || r["powder_share"] != "0.000000" || r["powder_particles"] != "0" {
		t.Errorf("frame 1, one ball: %v", r)
	}
	for i, b := range balls[1:] {
		r := rows[i+1]
		total := b.massOf(0, b.len())
		bigShare := b.massOf(0, b.big) / total
		coarseShare := b.massOf(b.big, b.big+b.coarse) / total
		powderShare := b.massOf(b.big+b.coarse, b.len()) / total
		if b.coarse >= b.big || coarseShare <= bigShare {
			t.Fatalf("test setup: the coarse ball has %d particles, %.3f of the mass; the big one %d, %.3f", b.coarse, coarseShare, b.big, bigShare)
		}
		if r["clusters"] != strconv.Itoa(2+b.grains) || r["lumps"] != "2" || r["largest_particles"] != strconv.Itoa(b.coarse) ||
			r["second_particles"] != strconv.Itoa(b.big) || r["powder_particles"] != strconv.Itoa(b.grains) {
			t.Errorf("frame %d: %v; want %d clusters, 2 lumps, the largest of %d particles, the second of %d, %d grains of powder",
				i+2, r, 2+b.grains, b.coarse, b.big, b.grains)
		}
		for column, want := range map[string]float64{"largest_share": coarseShare, "second_share": bigShare, "powder_share": powderShare} {
			if got := number(t, r, column); math.Abs(got-want) > 1e-6 {
				t.Errorf("frame %d: %s %g, want %.6f", i+2, column, got, want)
			}
		}
	}
	for _, want := range []string{"clusters of 3 frames (powder: clusters of fewer than 10 particles) -> " + out,
		"frame 1: 1 cluster, 1 lump; largest 100.0%", "frame 3 (most broken): 7 clusters, 2 lumps;", "(link 0.02 m)"} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
}

// Rows come out in frame order whatever order the frames finish in.
func TestClustersRowsInFrameOrder(t *testing.T) {
	dir := t.TempDir()
	in, _ := writeSequence(t, dir, 3)
	out := filepath.Join(dir, "c.csv")
	s, err := parseFlags([]string{"-to", "clusters", in, out}, nil)
	if err != nil {
		t.Fatal(err)
	}
	jobs, err := selectFrames(s)
	if err != nil {
		t.Fatal(err)
	}
	conv, err := newConverter(s, jobs)
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range slices.Backward(jobs) {
		if r := conv.convert(j, 1); r.err != nil {
			t.Fatal(r.err)
		}
	}
	if err := conv.finish(io.Discard); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(out)
	var frames []string
	for _, row := range readReport(t, data) {
		frames = append(frames, row["frame"])
	}
	if strings.Join(frames, " ") != "1 2 3" {
		t.Errorf("frames %v, want 1 2 3", frames)
	}
}

// With - the report goes to stdout, the same bytes as the file, and the log stays on
// stderr; -frames, -link and -powder apply.
func TestClustersStdout(t *testing.T) {
	dir := t.TempDir()
	in, _ := writeBrokenSequence(t, dir)
	args := []string{"-to", "clusters", "-frames", "2-3", "-link", "0.03", "-powder", "4"}
	file := filepath.Join(dir, "c.csv")
	mustExport(t, append(args, in, file)...)
	var stdout bytes.Buffer
	reportStdout = &stdout
	defer func() { reportStdout = os.Stdout }()
	log := mustExport(t, append(args, in, "-")...)
	want, _ := os.ReadFile(file)
	if !bytes.Equal(stdout.Bytes(), want) {
		t.Errorf("stdout\n%s\nwant the file's\n%s", stdout.Bytes(), want)
	}
	if strings.Contains(log, "frame,time") || !strings.Contains(log, "-> stdout") {
		t.Errorf("log:\n%s", log)
	}
	rows := readReport(t, stdout.Bytes())
	if len(rows) != 2 || rows[0]["frame"] != "2" || rows[1]["frame"] != "3" || rows[0]["link"] != "0.03" {
		t.Fatalf("rows %v: want frames 2 and 3 at link 0.03", rows)
	}
	// Three grains are powder below 4 particles, and five at frame 3 too.
	if rows[0]["powder_particles"] != "3" || rows[1]["powder_particles"] != "5" {
		t.Errorf("powder: %s and %s particles, want 3 and 5", rows[0]["powder_particles"], rows[1]["powder_particles"])
	}
	// -powder 0: nothing is powder.
	mustExport(t, "-to", "clusters", "-powder", "0", in, file)
	data, _ := os.ReadFile(file)
	if r := readReport(t, data)[2]; r["powder_particles"] != "0" || r["lumps"] != "7" {
		t.Errorf("-powder 0: %v", r)
	}
}

// writeBarePRT writes a file with only positions and, with mass, masses: no metadata.
func writeBarePRT(t *testing.T, path string, pos []float32, mass float32) {
	t.Helper()
	var h prt.Header
	p := h.AddChannel("Position", prt.Float32, 3)
	var m prt.Channel
	if mass > 0 {
		m = h.AddChannel("Mass", prt.Float32, 1)
	}
	h.Count = int64(len(pos) / 3)
	writePRTFile(t, path, h, func(i int, rec []byte) {
		p.PutFloat32s(rec, pos[3*i:3*i+3]...)
		if mass > 0 {
			m.PutFloat32s(rec, mass)
		}
	})
}

// Files from elsewhere: without GridSpacing the link must be given, without Mass the
// mass; an empty frame is a row of zeros, with no time.
func TestClustersForeignFiles(t *testing.T) {
	dir := t.TempDir()
	pos := []float32{0, 0, 0, 0.01, 0, 0, 1, 0, 0}
	bare, noMass, empty := filepath.Join(dir, "bare.prt"), filepath.Join(dir, "nomass.prt"), filepath.Join(dir, "empty.prt")
	writeBarePRT(t, bare, pos, 0.5)
	writeBarePRT(t, noMass, pos, 0)
	writeBarePRT(t, empty, nil, 0.5)
	out := filepath.Join(dir, "r.csv")

	code, log := runExport(t, "-to", "clusters", bare, out)
	if code != cli.ExitFailure || !strings.Contains(log, "frame 1 ("+bare+"): no GridSpacing") || !strings.Contains(log, "-link") {
		t.Errorf("no GridSpacing: exit %d: %s", code, log)
	}
	code, log = runExport(t, "-to", "clusters", "-link", "0.05", noMass, out)
	if code != cli.ExitFailure || !strings.Contains(log, "no Mass channel") || !strings.Contains(log, "-mass") {
		t.Errorf("no Mass: exit %d: %s", code, log)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("a failed run wrote the report")
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-link", "0.05", bare}, "1,,3,1.5,0.05,2,0,0.666667,2,0.333333,1,1.000000,3"},
		{[]string{"-link", "0.05", "-mass", "2", noMass}, "1,,3,6,0.05,2,0,0.666667,2,0.333333,1,1.000000,3"},
		{[]string{"-link", "0.005", "-powder", "2", bare}, "1,,3,1.5,0.005,3,0,0.333333,1,0.333333,1,1.000000,3"},
		{[]string{"-link", "0.05", empty}, "1,,0,0,0.05,0,0,0.000000,0,0.000000,0,0.000000,0"},
	} {
		mustExport(t, append(append([]string{"-to", "clusters"}, c.args...), out)...)
		data, _ := os.ReadFile(out)
		lines := strings.Split(strings.TrimSpace(string(data)), "\n")
		if len(lines) != 2 || lines[1] != c.want {
			t.Errorf("%v: report\n%s\nwant the row %s", c.args, data, c.want)
		}
	}
}

// A damaged frame fails the run as in the other modes, naming the frame and file, and
// leaves no report and no temporary file.
func TestClustersDamagedFrame(t *testing.T) {
	dir := t.TempDir()
	in, _ := writeBrokenSequence(t, dir)
	bad := filepath.Join(dir, "sim", "snow.0002.prt")
	truncateHalf(t, bad)
	out := filepath.Join(dir, "out")
	code, log := runExport(t, "-to", "clusters", "-threads", "1", in, filepath.Join(out, "c.csv"))
	if code != cli.ExitFailure || !strings.Contains(log, "frame 2 ("+bad+")") || !strings.Contains(log, "prt:") || !strings.Contains(log, "nothing was written") {
		t.Fatalf("exit %d: %s", code, log)
	}
	if entries, _ := os.ReadDir(out); len(entries) != 0 {
		t.Errorf("output folder holds %v, want nothing", entries)
	}
}

func TestClustersUsageErrors(t *testing.T) {
	dir := t.TempDir()
	in, _ := writeSequence(t, dir, 1)
	out := filepath.Join(dir, "c.csv")
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-to", "ply", "-link", "0.01", in, filepath.Join(dir, "o.ply")}, cli.ExitUsage, "-link applies to -to clusters, not -to ply"},
		{[]string{"-to", "png", "-powder", "5", in, filepath.Join(dir, "o.png")}, cli.ExitUsage, "-powder applies to -to clusters"},
		{[]string{"-to", "clusters", "-voxel", "0.01", in, out}, cli.ExitUsage, "-voxel applies to -to vdb"},
		{[]string{"-to", "clusters", "-link", "-0.01", in, out}, cli.ExitUsage, "-link -0.01: must be a positive distance"},
		{[]string{"-to", "clusters", "-link", "NaN", in, out}, cli.ExitUsage, "-link NaN"},
		{[]string{"-to", "clusters", "-powder", "-1", in, out}, cli.ExitUsage, "-powder -1"},
		{[]string{"-to", "clusters", in}, cli.ExitUsage, "-to clusters: give the input and the output, not ["},
		{[]string{"-to", "cluster", in, out}, cli.ExitUsage, "ply, vdb, prt, png, clusters, compare, surface or abc"},
		{[]string{"-to", "clusters", in, filepath.Join(dir, "sim", "snow.0001.prt")}, cli.ExitFailure, "would replace its input"},
	} {
		code, log := runExport(t, c.args...)
		if code != c.code || !strings.Contains(log, c.want) {
			t.Errorf("%v: exit %d (want %d): %s (want %q)", c.args, code, c.code, log, c.want)
		}
	}
}

// BenchmarkClustersReport is one 1e6-particle frame through -to clusters: reading and
// clustering (the report is written once, after all frames). The frame's particles
// are 3.22 mm apart, so a link of twice that is what the default link (h) gives a
// snowsim frame seeded at 8 particles per cell.
func BenchmarkClustersReport(b *testing.B) {
	benchmarkConvert(b, "-to", "clusters", "-link", "0.00644")
}
