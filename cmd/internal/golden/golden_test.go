// Package golden pins what the three tools write: it builds voxelize, snowsim and export,
// runs them on the project's examples through the pipeline a user would, and compares
// the SHA-256 of every file written with testdata/golden.sha256. A refactor that changes
// one byte of any output fails here. After a deliberate change of behaviour, regenerate
// the list with
//
//	go test ./cmd/internal/golden -update
//
// and say in the commit why the outputs changed.
package golden

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/golden.sha256 from this run")

// pipeline is what the test runs, in order: a tool and its arguments, where OUT is the
// folder whose files are hashed. The tools run in a folder that holds the examples, so
// that the paths they record in their outputs are the same on every machine. Every
// thread count is fixed: outputs are bit-identical for the same inputs and threads.
var pipeline = [][]string{
	// voxelize: a rigid animated glTF node and a skinned glTF leg.
	{"voxelize", "-voxel", "0.04", "-frames", "1-3", "-o", "OUT/paddle/paddle.####.vdb", "examples/paddle.gltf"},
	{"voxelize", "-voxel", "0.04", "-frames", "1-3", "-o", "OUT/kick-demo/kick.####.vdb", "examples/kick.gltf"},

	// snowsim: the demo with checkpoints and previews, each example scene, the
	// semi-implicit integrator, a voxelized deforming collider and the ground method.
	{"snowsim", "-quality", "draft", "-frames", "2", "-threads", "2", "-checkpoint", "1", "-preview", "-o", "OUT/demo"},
	{"snowsim", "-quality", "draft", "-frames", "2", "-threads", "2", "-o", "OUT/every_option", "examples/every_option.toml"},
	{"snowsim", "-quality", "draft", "-frames", "2", "-threads", "2", "-set", `solver.integrator="semi-implicit"`, "-o", "OUT/semi", "examples/every_option.toml"},
	{"snowsim", "-quality", "draft", "-frames", "3", "-threads", "2", "-o", "OUT/press_ball", "examples/press_ball.toml"},
	{"snowsim", "-quality", "draft", "-frames", "2", "-threads", "2", "-o", "OUT/snowball_drop", "examples/snowball_drop.toml"},
	{"snowsim", "-quality", "draft", "-frames", "2", "-threads", "2", "-o", "OUT/snowball_walls", "examples/snowball_walls.toml"},
	{"snowsim", "-quality", "draft", "-frames", "1", "-threads", "2", "-o", "OUT/wedge_presets", "examples/wedge_presets.toml"},
	{"snowsim", "-quality", "draft", "-frames", "2", "-threads", "2", "-o", "OUT/kick", "OUT/kick.toml"},
	{"snowsim", "-frames", "20", "-threads", "2", "-preview", "-o", "OUT/footsteps", "examples/footsteps.toml"},
	{"snowsim", "-quality", "draft", "-frames", "1", "-threads", "2", "-checkpoint", "0", "-set", `output.colliders="colliders.####.obj"`, "-o", "OUT/walls_colliders", "examples/snowball_walls.toml"},

	// export: every mode on those frames.
	{"export", "-to", "ply", "-threads", "2", "OUT/demo/snow.####.prt", "OUT/export/ply/snow.####.ply"},
	{"export", "-to", "ply", "-threads", "2", "-ascii", "-color", "Velocity", "-normals", "-velocity", "-frames", "2", "OUT/demo/snow.0002.prt", "OUT/export/ascii.ply"},
	{"export", "-to", "vdb", "-threads", "2", "-velocity", "OUT/demo/snow.####.prt", "OUT/export/vdb/snow.####.vdb"},
	{"export", "-to", "vdb", "-threads", "2", "-voxel", "0.02", "-filter", "2", "-half", "density", "-frames", "2", "OUT/every_option/snow.0002.prt", "OUT/export/fine.vdb"},
	{"export", "-to", "prt", "-threads", "2", "-drop", "Mass", "-half", "Velocity", "OUT/demo/snow.####.prt", "OUT/export/prt/snow.####.prt"},
	{"export", "-to", "prt", "-threads", "2", "-rename", "PlasticJ=Hardening", "-color", "PlasticJ", "-colormap", "ice", "-frames", "2", "OUT/semi/snow.0002.prt", "OUT/export/renamed.prt"},
	{"export", "-to", "png", "-threads", "2", "-size", "160x120", "-color", "Velocity", "-sheet", "OUT/export/sheet.png", "-gif", "OUT/export/demo.gif", "OUT/demo/snow.####.prt", "OUT/export/png/snow.####.png"},
	{"export", "-to", "png", "-threads", "2", "-size", "160x120", "-ground", "ground.####.ply", "-frames", "20", "OUT/footsteps/spray.####.prt", "OUT/export/spray.####.png"},
	{"export", "-to", "clusters", "-threads", "2", "OUT/snowball_walls/walls.%04d.prt", "OUT/export/clusters.csv"},
	{"export", "-to", "surface", "-threads", "2", "-velocity", "OUT/demo/snow.####.prt", "OUT/export/surface/snow.####.vdb", "OUT/export/surface/snow.####.ply"},
	{"export", "-to", "surface", "-threads", "2", "-frames", "2", "OUT/demo/snow.0002.prt", "OUT/export/surface.obj"},
	{"export", "-to", "png", "-threads", "2", "-size", "160x120", "-surface", "-mesh", "colliders.####.obj", "OUT/walls_colliders/walls.%04d.prt", "OUT/export/surface_png/walls.####.png"},
	{"export", "-to", "compare", "-threads", "2", "-size", "120x90", "-frames", "0,2", "-labels", "explicit,semi", "OUT/export/compare.png", "OUT/every_option/snow.####.prt", "OUT/semi/snow.####.prt"},
	{"export", "-to", "vdb", "-threads", "2", "-vdb-codec", "blosc-lz4", "-frames", "2", "OUT/demo/snow.0002.prt", "OUT/export/blosc.vdb"},
	{"export", "-to", "abc", "-threads", "2", "OUT/demo/snow.####.prt", "OUT/export/snow.abc"},
	{"export", "-to", "surface", "-threads", "2", "-velocity", "OUT/demo/snow.####.prt", "OUT/export/surface.abc"},
	// voxelize: an Alembic archive (the surface sequence just written) back to colliders.
	{"voxelize", "-voxel", "0.04", "-threads", "2", "-o", "OUT/export/abc_colliders/surface.####.vdb", "OUT/export/surface.abc"},
}

func TestOutputsUnchanged(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the three tools and runs the examples (about 30 s)")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go command is not on PATH")
	}
	top, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	bin, work := t.TempDir(), t.TempDir()
	build := exec.Command("go", "build", "-o", bin, "./cmd/voxelize", "./cmd/snowsim", "./cmd/export")
	build.Dir = top
	if msg, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, msg)
	}
	// kick.toml finds its colliders in kick-demo beside it.
	out := filepath.Join(work, "out")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	kick, err := os.ReadFile(filepath.Join(top, "examples", "kick.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, "kick.toml"), kick, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(top, "examples"), filepath.Join(work, "examples")); err != nil {
		t.Skipf("the examples cannot be linked into the work folder: %v", err)
	}
	for _, step := range pipeline {
		args := make([]string, len(step)-1)
		for i, a := range step[1:] {
			args[i] = strings.ReplaceAll(a, "OUT", "out")
		}
		cmd := exec.Command(filepath.Join(bin, step[0]), args...)
		cmd.Dir = work
		if msg, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s %s: %v\n%s", step[0], strings.Join(step[1:], " "), err, msg)
		}
	}
	got := hashTree(t, out)
	path := filepath.Join("testdata", "golden.sha256")
	if *update {
		if err := os.WriteFile(path, formatHashes(got), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %d hashes to %s", len(got), path)
		return
	}
	want := readHashes(t, path)
	for name, h := range want {
		switch g, ok := got[name]; {
		case !ok:
			t.Errorf("%s: not written any more", name)
		case g != h:
			t.Errorf("%s: content changed (sha256 %s, was %s)", name, g, h)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("%s: written now but not before", name)
		}
	}
}

// hashTree returns the SHA-256 of every file under dir by its slash-separated path.
func hashTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	hashes := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		hashes[filepath.ToSlash(rel)] = hex.EncodeToString(sum[:])
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return hashes
}

// formatHashes writes hashes as sha256sum does, sorted by path.
func formatHashes(hashes map[string]string) []byte {
	names := make([]string, 0, len(hashes))
	for name := range hashes {
		names = append(names, name)
	}
	sort.Strings(names)
	var b bytes.Buffer
	for _, name := range names {
		fmt.Fprintf(&b, "%s  %s\n", hashes[name], name)
	}
	return b.Bytes()
}

func readHashes(t *testing.T, path string) map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	hashes := map[string]string{}
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		h, name, ok := strings.Cut(sc.Text(), "  ")
		if !ok || len(h) != 64 {
			t.Fatalf("%s:%d: want \"<sha256>  <path>\"", path, line)
		}
		hashes[name] = h
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return hashes
}
