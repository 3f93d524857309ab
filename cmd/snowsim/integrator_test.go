package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// autoScene is simcore's TestAutoIntegrator scene: a snowball of Table 2 snow thrown
// at the ground at 4 m/s, which the auto integrator steps explicitly in the air and
// semi-implicitly once it has landed (frame 3).
const autoScene = `
[domain]
min = [0.0, 0.0, 0.0]
max = [0.6, 0.4, 0.6]
h = 0.02
[solver]
integrator = "auto"
[time]
fps = 60
frames = 3
max_dt = 0.002
[output]
pattern = "snow.####.prt"
[[snow]]
shape = "sphere"
center = [0.3, 0.16, 0.3]
radius = 0.1
velocity = [0.0, -4.0, 0.0]
`

// The auto integrator's choice is logged on the first frame and where it switches,
// with its predictions; a run resumed from the checkpoint just before the switch, with
// another thread count, writes the frame of the switch byte for byte as the run that
// never stopped.
func TestAutoIntegratorRun(t *testing.T) {
	ref, dir := t.TempDir(), t.TempDir()
	runOK := func(args ...string) string {
		t.Helper()
		var stderr bytes.Buffer
		if code := run(args, io.Discard, &stderr); code != 0 {
			t.Fatalf("snowsim %v: exit %d: %s", args, code, stderr.String())
		}
		return stderr.String()
	}
	write := func(dir string) string {
		path := filepath.Join(dir, "auto.toml")
		if err := os.WriteFile(path, []byte(autoScene), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	msg := runOK("-threads", "2", "-checkpoint", "0", "-o", ref, write(ref))
	for _, want := range []string{"snowsim: frame 1: explicit (explicit would take ", "snowsim: frame 3: semi-implicit (explicit would take "} {
		if !strings.Contains(msg, want) {
			t.Errorf("no %q in the log:\n%s", want, msg)
		}
	}
	if n := strings.Count(msg, "would take"); n != 2 {
		t.Errorf("%d choices logged, want 2 (the first frame and the switch):\n%s", n, msg)
	}
	if !strings.Contains(msg, "solver iterations/step") {
		t.Errorf("the semi-implicit frame does not report its solver iterations:\n%s", msg)
	}

	scene := write(dir)
	runOK("-threads", "2", "-checkpoint", "1", "-o", dir, scene)
	for _, name := range []string{"snow.0003.snowstate", "snow.0003.prt"} { // resume from frame 2's checkpoint
		if err := os.Remove(filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	if msg := runOK("-resume", "-threads", "1", "-checkpoint", "1", "-o", dir, scene); !strings.Contains(msg, "resuming from "+filepath.Join(dir, "snow.0002.snowstate")) ||
		!strings.Contains(msg, "snowsim: frame 3: semi-implicit (") {
		t.Fatalf("the run did not resume from frame 2 and switch in frame 3: %s", msg)
	}
	want, err := os.ReadFile(filepath.Join(ref, "snow.0003.prt"))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(filepath.Join(dir, "snow.0003.prt")); err != nil || !bytes.Equal(got, want) {
		t.Errorf("frame 3 of the resumed run differs from the uninterrupted run's (%v)", err)
	}
}

// A board sliding along the floor at 0.5 m/s toward the landed snowball, within reach
// of it in frame 3, keeps the auto integrator explicit where the ball alone goes
// semi-implicit, and the log says why.
func TestAutoIntegratorLogsADrivingCollider(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "auto.toml")
	board := `
[[collider]]
shape = "box"
min = [0.0, 0.0, 0.1]
max = [0.1, 0.1, 0.5]
[[collider.key]]
time = 0.0
translation = [0.05, 0.0, 0.0]
[[collider.key]]
time = 1.0
translation = [0.55, 0.0, 0.0]
`
	if err := os.WriteFile(path, []byte(autoScene+board), 0o644); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	if code := run([]string{"-threads", "2", "-checkpoint", "0", "-o", dir, path}, io.Discard, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	msg := stderr.String()
	if !strings.Contains(msg, "snowsim: frame 3: explicit (explicit would take ") ||
		!strings.Contains(msg, "; a collider drives the snow at 0.5 m/s)") || strings.Contains(msg, "semi-implicit (") {
		t.Errorf("frame 3 not kept explicit for the board:\n%s", msg)
	}
}
