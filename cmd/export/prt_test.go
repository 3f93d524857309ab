package main

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"snowtools/cmd/internal/cli"
	"snowtools/formats/prt"
)

func readPRT(t *testing.T, path string) *prt.Frame {
	t.Helper()
	f, err := (&settings{}).readFrame(path)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return f.Frame
}

func TestPRTRechannel(t *testing.T) {
	dir := t.TempDir()
	in, balls := writeSequence(t, dir, 1)
	out := filepath.Join(dir, "k.prt")
	mustExport(t, "-to", "prt", "-drop", "Mass,PhysicalDensity", "-rename", "PlasticJ=Hardening",
		"-half", "Velocity,Density,Color", "-color", "Hardening", "-colormap", "ice", "-color-range", "0.7:1", in, out)
	f := readPRT(t, out)
	var layout []string
	for _, c := range f.Header.Channels {
		layout = append(layout, c.String())
	}
	want := "Position float32[3] @0,Velocity float16[3] @12,Density float16[1] @18,ID int32[1] @20,Hardening float32[1] @24,Color float16[3] @28"
	if got := strings.Join(layout, ","); got != want {
		t.Errorf("channels\n%s\nwant\n%s", got, want)
	}
	b := balls[0]
	pos, _, _ := f.Float32s("Position")
	vel, _, _ := f.Float32s("Velocity")
	hard, _, _ := f.Float32s("Hardening")
	ids, _, _ := f.Int64s("ID")
	color, _, _ := f.Float32s("Color")
	ice := mustColormap(t, "ice")
	for i := 0; i < b.len(); i++ {
		for a := 0; a < 3; a++ {
			if pos[3*i+a] != b.pos[3*i+a] {
				t.Fatalf("particle %d: position changed", i)
			}
			// float16 keeps 11 significant bits, and below 2^-14 steps of 2^-24: the
			// rounding error is at most 2^-11 relative or 2^-25 absolute.
			if v := b.vel[3*i+a]; math.Abs(float64(vel[3*i+a]-v)) > max(math.Abs(float64(v))/2048, 0x1p-25) {
				t.Fatalf("particle %d: velocity %g became %g", i, v, vel[3*i+a])
			}
		}
		if ids[i] != int64(b.id[i]) || hard[i] != 1-float32(i%5)/20 {
			t.Fatalf("particle %d: ID %d, Hardening %g", i, ids[i], hard[i])
		}
		c := ice.At((float64(hard[i]) - 0.7) / 0.3)
		for a := 0; a < 3; a++ {
			if math.Abs(float64(color[3*i+a])-float64(c[a])/255) > 1.0/2048 {
				t.Fatalf("particle %d: colour %v, want %v/255", i, color[3*i:3*i+3], c)
			}
		}
	}
	// File and channel metadata follow their channels.
	if v, ok := f.Header.Int64Meta("Velocity", "Interpretation"); !ok || len(v) != 1 || v[0] != 2 {
		t.Errorf("Velocity interpretation %v %v", v, ok)
	}
	if _, ok := f.Header.Float64Meta("", "GridSpacing"); !ok {
		t.Error("file metadata lost")
	}
}

func TestPRTKeepAndErrors(t *testing.T) {
	dir := t.TempDir()
	in, _ := writeSequence(t, dir, 1)
	out := filepath.Join(dir, "k.prt")
	mustExport(t, "-to", "prt", "-keep", "Position,ID", in, out)
	if f := readPRT(t, out); len(f.Header.Channels) != 2 {
		t.Errorf("kept %v", f.Header.Channels)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-drop", "Position"}, "Position channel cannot be dropped"},
		{[]string{"-half", "Position"}, "Krakatoa requires Position as float32"},
		{[]string{"-half", "ID"}, "-half ID: the channel holds int32"},
		{[]string{"-keep", "Colour"}, "-keep Colour: no such channel"},
		{[]string{"-rename", "Mass=Density"}, "Density"},
		{[]string{"-rename", "Position=P"}, "-rename Position=P: Krakatoa refuses a PRT without Position"},
		{[]string{"-color", "Nope"}, "no Nope channel"},
	} {
		code, log := runExport(t, append(append([]string{"-to", "prt"}, c.args...), in, filepath.Join(dir, "bad.prt"))...)
		if code != cli.ExitFailure || !strings.Contains(log, c.want) {
			t.Errorf("%v: exit %d, %s (want %q)", c.args, code, log, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "bad.prt")); err == nil {
		t.Error("a failed export left a file")
	}
}

// The channels snowsim writes on request, RestPosition float32[3] and Orientation
// float32[4], go through -keep bit for bit with their Interpretation metadata, and
// -drop removes them.
func TestPRTCarriesRequestedChannels(t *testing.T) {
	dir := t.TempDir()
	b := newSnowball(0.5, 9)
	var h prt.Header
	pos := h.AddChannel("Position", prt.Float32, 3)
	id := h.AddChannel("ID", prt.Int32, 1)
	rest := h.AddChannel("RestPosition", prt.Float32, 3)
	orient := h.AddChannel("Orientation", prt.Float32, 4)
	h.Count = int64(b.len())
	h.Meta = []prt.Meta{prt.MetaInt32("RestPosition", "Interpretation", 1), prt.MetaInt32("Orientation", "Interpretation", 4)}
	in := filepath.Join(dir, "in.prt")
	writePRTFile(t, in, h, func(i int, rec []byte) {
		pos.PutFloat32s(rec, b.pos[3*i:3*i+3]...)
		id.PutInt32s(rec, b.id[i])
		rest.PutFloat32s(rec, b.pos[3*i]-0.1, b.pos[3*i+1], b.pos[3*i+2]+0.2)
		a := float64(i) / 100
		orient.PutFloat32s(rec, float32(math.Sin(a)), 0, 0, float32(math.Cos(a)))
	})
	src := readPRT(t, in)

	kept := filepath.Join(dir, "kept.prt")
	mustExport(t, "-to", "prt", "-keep", "Position,RestPosition,Orientation", in, kept)
	f := readPRT(t, kept)
	for _, name := range []string{"RestPosition", "Orientation"} {
		got, arity, err := f.Float32s(name)
		want, _, _ := src.Float32s(name)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("-keep: %s (arity %d, %v) differs from the input's", name, arity, err)
		}
		v, ok := f.Header.Int64Meta(name, "Interpretation")
		w, _ := src.Header.Int64Meta(name, "Interpretation")
		if !ok || !slices.Equal(v, w) {
			t.Errorf("-keep: %s's Interpretation %v, want %v", name, v, w)
		}
	}
	if len(f.Header.Channels) != 3 {
		t.Errorf("-keep: channels %v", f.Header.Channels)
	}

	dropped := filepath.Join(dir, "dropped.prt")
	mustExport(t, "-to", "prt", "-drop", "RestPosition,Orientation", in, dropped)
	f = readPRT(t, dropped)
	if _, ok := f.Header.Channel("Orientation"); ok || len(f.Header.Channels) != 2 {
		t.Errorf("-drop: channels %v", f.Header.Channels)
	}
	if _, ok := f.Header.Lookup("Orientation", "Interpretation"); ok {
		t.Error("-drop: Orientation's metadata outlived it")
	}
}
