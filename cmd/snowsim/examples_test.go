package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// productionExamples are the scenes whose colliders the README's commands make first:
// the commands, with the output folder where the scene looks for it, each run from the
// repository's top.
var productionExamples = map[string][][]string{
	"plough.toml": {
		{"go", "run", "./examples/plough", "-o", "DEMO", "-frames", "4"},
		{"go", "run", "./cmd/voxelize", "-voxel", "0.02", "-o", "DEMO/plough.####.vdb", "DEMO/plough.0001.obj"},
	},
	"kick.toml": {
		{"go", "run", "./cmd/voxelize", "-voxel", "0.02", "-frames", "1-4", "-o", "DEMO/kick.####.vdb", "examples/kick.gltf"},
	},
}

// The production scenes run end to end, shortened: the README's commands make the
// collider files (into a temporary folder), the scene is read from a copy beside them,
// and snowsim simulates two draft frames.
func TestProductionExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the example pipelines")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go command is not on PATH")
	}
	top, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	for name, commands := range productionExamples {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			text, err := os.ReadFile(filepath.Join(top, "examples", name))
			if err != nil {
				t.Fatal(err)
			}
			// The scene looks for its collider files in <name>-demo beside it.
			demo := filepath.Join(dir, strings.TrimSuffix(name, ".toml")+"-demo")
			for _, c := range commands {
				args := make([]string, len(c))
				for i, a := range c {
					args[i] = strings.ReplaceAll(a, "DEMO", demo)
				}
				cmd := exec.Command(args[0], args[1:]...)
				cmd.Dir = top
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
				}
			}
			scene := filepath.Join(dir, name)
			if err := os.WriteFile(scene, text, 0o644); err != nil {
				t.Fatal(err)
			}
			var stderr bytes.Buffer
			out := filepath.Join(dir, "out")
			if code := run([]string{"-quality", "draft", "-frames", "2", "-o", out, scene}, &bytes.Buffer{}, &stderr); code != 0 {
				t.Fatalf("snowsim %s: exit %d: %s", name, code, stderr.String())
			}
			readFrame(t, filepath.Join(out, "snow.0002.prt"))
		})
	}
}
