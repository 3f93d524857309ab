package main

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"snowtools/cmd/internal/cli"
	"snowtools/formats/ply"
)

// readPLY reads a file back with the strict reader and returns its vertex element.
func readPLY(t *testing.T, path string) (ply.Header, ply.Element, []byte) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := ply.ReadAll(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	e, rec, ok := f.Element("vertex")
	if !ok {
		t.Fatalf("%s: no vertex element", path)
	}
	return f.Header, e, rec
}

// float32At reads property name of record i.
func float32At(e ply.Element, data []byte, i int, name string) float32 {
	off := e.Offset(name)
	return math.Float32frombits(binary.LittleEndian.Uint32(data[i*e.RecordSize()+off:]))
}

func TestPLYPointCloud(t *testing.T) {
	dir := t.TempDir()
	in, balls := writeSequence(t, dir, 2)
	out := filepath.Join(dir, "ply", "snow.####.ply")
	mustExport(t, "-to", "ply", "-velocity", "-normals", "-color", "Velocity", "-color-range", "0:4", "-props", "PlasticJ", in, out)

	hdr, e, data := readPLY(t, filepath.Join(dir, "ply", "snow.0002.ply"))
	if hdr.Format != ply.BinaryLittleEndian {
		t.Errorf("format %v, want binary little-endian by default", hdr.Format)
	}
	// The frame's number and time, as the PRT says them (issue 22: frame n at n/fps,
	// in each file's metadata where the format has a place for it).
	if !slices.Contains(hdr.Comments, fmt.Sprintf("frame 2 time %g", 2.0/24)) {
		t.Errorf("comments %q: no frame and time", hdr.Comments)
	}
	var names []string
	for _, p := range e.Properties {
		names = append(names, p.Type.String()+" "+p.Name)
	}
	want := "float x,float y,float z,int id,float nx,float ny,float nz,uchar red,uchar green,uchar blue,float vx,float vy,float vz,float plastic_j"
	if got := strings.Join(names, ","); got != want {
		t.Errorf("properties\n%s\nwant\n%s", got, want)
	}
	b := balls[1]
	if int(e.Count) != b.len() {
		t.Fatalf("%d vertices, want %d", e.Count, b.len())
	}
	// Positions and velocities exactly; normals point out of the ball.
	outward := 0
	for i := 0; i < b.len(); i++ {
		for a, n := range []string{"x", "y", "z"} {
			if float32At(e, data, i, n) != b.pos[3*i+a] {
				t.Fatalf("vertex %d: %s = %g, want %g", i, n, float32At(e, data, i, n), b.pos[3*i+a])
			}
			if float32At(e, data, i, "v"+n) != b.vel[3*i+a] {
				t.Fatalf("vertex %d: v%s differs", i, n)
			}
		}
		// The particle's ID, which Houdini reads as its id attribute.
		if id := int32(binary.LittleEndian.Uint32(data[i*e.RecordSize()+e.Offset("id"):])); id != b.id[i] {
			t.Fatalf("vertex %d: id %d, want %d", i, id, b.id[i])
		}
		c := [3]float64{float64(b.pos[3*i]), float64(b.pos[3*i+1]) - 0.5, float64(b.pos[3*i+2])}
		r := math.Sqrt(c[0]*c[0] + c[1]*c[1] + c[2]*c[2])
		if r > ballRadius-2*ballSpacing { // the outer shell
			dot := (float64(float32At(e, data, i, "nx"))*c[0] + float64(float32At(e, data, i, "ny"))*c[1] + float64(float32At(e, data, i, "nz"))*c[2]) / r
			if dot > 0.9 {
				outward++
			}
		}
	}
	shell := 0
	for i := 0; i < b.len(); i++ {
		c := [3]float64{float64(b.pos[3*i]), float64(b.pos[3*i+1]) - 0.5, float64(b.pos[3*i+2])}
		if math.Sqrt(c[0]*c[0]+c[1]*c[1]+c[2]*c[2]) > ballRadius-2*ballSpacing {
			shell++
		}
	}
	if outward < shell*95/100 {
		t.Errorf("only %d of %d particles on the surface have a normal within 26 degrees (cos = 0.9) of the outward radius", outward, shell)
	}
	// The colour of a particle follows its speed on the viridis map.
	i := 17
	speed := math.Sqrt(float64(b.vel[3*i]*b.vel[3*i] + b.vel[3*i+1]*b.vel[3*i+1] + b.vel[3*i+2]*b.vel[3*i+2]))
	cm := mustColormap(t, "viridis").At(speed / 4)
	rec := data[i*e.RecordSize():]
	if got := [3]uint8{rec[e.Offset("red")], rec[e.Offset("green")], rec[e.Offset("blue")]}; got != cm {
		t.Errorf("vertex %d (speed %.3f): colour %v, want %v", i, speed, got, cm)
	}
}

// ASCII and binary files of the same frame hold the same records.
func TestPLYASCIIMatchesBinary(t *testing.T) {
	dir := t.TempDir()
	in, _ := writeSequence(t, dir, 1)
	bin, asc := filepath.Join(dir, "bin.ply"), filepath.Join(dir, "ascii.ply")
	mustExport(t, "-to", "ply", "-velocity", "-color", "PlasticJ", in, bin)
	mustExport(t, "-to", "ply", "-velocity", "-color", "PlasticJ", "-ascii", in, asc)
	hb, eb, db := readPLY(t, bin)
	ha, ea, da := readPLY(t, asc)
	if ha.Format != ply.ASCII || hb.Format != ply.BinaryLittleEndian {
		t.Fatalf("formats %v and %v", ha.Format, hb.Format)
	}
	if eb.Count != ea.Count || !bytes.Equal(db, da) {
		t.Errorf("ASCII and binary records differ")
	}
	text, _ := os.ReadFile(asc)
	if !bytes.HasPrefix(text, []byte("ply\nformat ascii 1.0\n")) {
		t.Errorf("ASCII header starts %q", text[:min(40, len(text))])
	}
}

func TestPLYSingleFrameAndRange(t *testing.T) {
	dir := t.TempDir()
	in, _ := writeSequence(t, dir, 3)
	out := filepath.Join(dir, "out", "s.%04d.ply")
	log := mustExport(t, "-to", "ply", "-frames", "2-3", in, out)
	for f, want := range map[string]bool{"s.0001.ply": false, "s.0002.ply": true, "s.0003.ply": true} {
		_, err := os.Stat(filepath.Join(dir, "out", f))
		if (err == nil) != want {
			t.Errorf("%s: exists %v, want %v", f, err == nil, want)
		}
	}
	if !strings.Contains(log, "2 frames (2-3)") {
		t.Errorf("summary: %s", log)
	}
	// A pattern designates the whole sequence: one output file for three frames is
	// refused.
	code, log := runExport(t, "-to", "ply", in, filepath.Join(dir, "one.ply"))
	if code != cli.ExitFailure || !strings.Contains(log, "names one file for 3 frames") {
		t.Errorf("exit %d: %s", code, log)
	}
	// One numbered file to one output file converts that file alone; to an output
	// pattern, any one file of the sequence designates the whole sequence.
	log = mustExport(t, "-to", "ply", filepath.Join(dir, "sim", "snow.0002.prt"), filepath.Join(dir, "two.ply"))
	if !strings.Contains(log, "1 frames (2-2)") {
		t.Errorf("one file to one file: %s", log)
	}
	log = mustExport(t, "-to", "ply", filepath.Join(dir, "sim", "snow.0002.prt"), filepath.Join(dir, "all", "s.####.ply"))
	if !strings.Contains(log, "3 frames (1-3)") {
		t.Errorf("one file to a pattern: %s", log)
	}
}
