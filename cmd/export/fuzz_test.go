package main

import (
	"io"
	"strings"
	"testing"
)

// FuzzParseFlags feeds export's flag parser command lines (arguments separated by
// NUL bytes) built from the examples of its help: it must return settings or an
// error, never panic, and must not read or write files while parsing.
func FuzzParseFlags(f *testing.F) {
	for _, args := range [][]string{
		{"-to", "ply", "in.####.prt", "out.####.ply"},
		{"-to", "vdb", "-voxel", "0.01", "-filter", "2", "-velocity", "-half", "density", "in.####.prt", "o.####.vdb"},
		{"-to", "png", "-size", "640x480", "-ss", "2", "-eye", "1,2,3", "-target", "0,0,0", "-sheet", "s.png", "in.####.prt", "p.####.png"},
		{"-to", "surface", "-smooth", "2", "-closing", "1", "-radius-scale", "1.2", "in.####.prt", "s.####.obj", "s.####.vdb"},
		{"-to", "compare", "-frames", "20,40,60-80", "-labels", "a,b", "out.png", "a/s.####.prt", "b/s.####.prt"},
		{"-to", "compare", "-differences", "d.csv", "-cell", "0.02", "out.png", "a/s.####.prt", "b/s.####.prt"},
		{"-to", "prt", "-keep", "Position,Velocity", "-for", "krakatoa", "-rename", "Velocity=v", "in.prt", "out.prt"},
		{"-to", "clusters", "-link", "0.02", "-powder", "10", "-memory", "512M", "-threads", "2", "in.####.prt", "c.txt"},
		{"-to", "png", "-color-range", "0:1", "-colormap", "ice", "-gif", "g.gif", "-gif-fps", "1e308", "x.prt", "y.png"},
	} {
		f.Add(strings.Join(args, "\x00"))
	}
	f.Fuzz(func(t *testing.T, line string) {
		if len(line) > 4096 {
			return
		}
		s, err := parseFlags(strings.Split(line, "\x00"), io.Discard)
		if err == nil && s == nil {
			t.Fatalf("no settings and no error for %q", line)
		}
	})
}
