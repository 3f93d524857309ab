package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// -skip-existing voxelizes only the frames whose file is missing, and those are the
// bytes of a full run (a frame's velocities still come from its neighbours, whose
// files exist); a file in place is not touched; nothing left to do is no error.
func TestSkipExisting(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "paddle.####.vdb")
	args := []string{"-voxel", "0.05", "-frames", "0-3", "-o", out, filepath.Join("..", "..", "examples", "paddle.gltf")}
	if code, log := runVoxelize(t, args...); code != 0 {
		t.Fatalf("exit %d: %s", code, log)
	}
	kept, redone := filepath.Join(dir, "paddle.0001.vdb"), filepath.Join(dir, "paddle.0002.vdb")
	want, err := os.ReadFile(redone)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(kept, []byte("not touched"), 0o644)
	os.Remove(redone)
	code, log := runVoxelize(t, append([]string{"-skip-existing"}, args...)...)
	if code != 0 || !strings.Contains(log, "1 frame (2-2)") {
		t.Fatalf("exit %d, log %q: want frame 2 alone", code, log)
	}
	if b, _ := os.ReadFile(kept); string(b) != "not touched" {
		t.Errorf("frame 1's existing file was rewritten")
	}
	if b, err := os.ReadFile(redone); err != nil || !bytes.Equal(b, want) {
		t.Errorf("frame 2: %v, or not the bytes of the full run", err)
	}
	if code, log := runVoxelize(t, append([]string{"-skip-existing"}, args...)...); code != 0 || !strings.Contains(log, "nothing to do") {
		t.Errorf("exit %d, log %q: want nothing to do", code, log)
	}
}
