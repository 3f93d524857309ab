package main

import (
	"bytes"
	"fmt"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"snowtools/cmd/internal/localslurm/slurmtest"
	"snowtools/cmd/internal/seq"
	"snowtools/formats/prt"
)

// The tests below run shots on a private one-node Slurm (slurmtest), with the tools
// built once, and compare what the jobs write with what the tools write on one
// machine. They skip without Slurm (or fail under SNOWTOOLS_REQUIRE_SLURM).

func TestMain(m *testing.M) {
	code := m.Run()
	if err := slurmtest.Stop(); err != nil {
		fmt.Fprintln(os.Stderr, "stopping the private Slurm:", err)
		code = 1
	}
	os.Exit(code)
}

// tinyScene is a snowball of 2166 particles dropped on the floor: about 0.9 s a
// frame on one thread, so that a job can be stopped in the middle of its run.
const tinyScene = `
[domain]
min = [0.0, 0.0, 0.0]
max = [0.5, 0.5, 0.5]
h = 0.025

[time]
fps = 24
frames = 8

[[snow]]
shape = "sphere"
center = [0.25, 0.2, 0.25]
radius = 0.1
velocity = [0.0, -3.0, 0.0]
`

const tinyFrames = 8 // frames 0-8

// fix is what the tests share: the tools, the tiny scene and a run of it that
// nothing interrupted, made once.
var fix struct {
	once  sync.Once
	err   error
	dir   string // beside the cluster's folder: removed with it
	bin   string // voxelize, snowsim and export
	scene string // tinyScene
	ref   string // snowsim's frames of tinyScene, frames 0-8 on one thread
}

// fixture returns the shared tools and reference run, after starting the cluster
// (a test without Slurm skips before anything is built).
func fixture(t *testing.T) (sl slurm) {
	t.Helper()
	c := slurmtest.Shared(t)
	fix.once.Do(func() {
		if fix.dir, fix.err = slurmtest.Scratch(); fix.err != nil { // removed with the cluster
			return
		}
		fix.bin = filepath.Join(fix.dir, "bin")
		build := exec.Command("go", "build", "-o", fix.bin+"/", "snowtools/cmd/voxelize", "snowtools/cmd/snowsim", "snowtools/cmd/export")
		if out, err := build.CombinedOutput(); err != nil {
			fix.err = fmt.Errorf("go build: %v: %s", err, out)
			return
		}
		fix.scene = filepath.Join(fix.dir, "tiny.toml")
		if fix.err = os.WriteFile(fix.scene, []byte(tinyScene), 0o644); fix.err != nil {
			return
		}
		fix.ref = filepath.Join(fix.dir, "ref")
		ref := exec.Command(filepath.Join(fix.bin, "snowsim"), "-threads", "1", "-checkpoint", "0", "-o", fix.ref, fix.scene)
		if out, err := ref.CombinedOutput(); err != nil {
			fix.err = fmt.Errorf("the reference run: %v: %s", err, out)
		}
	})
	if fix.err != nil {
		t.Fatal(fix.err)
	}
	return slurm{env: []string{c.Env()}}
}

// writeShot writes a description into a new folder and reads it back.
func writeShot(t *testing.T, text string) *Shot {
	t.Helper()
	return writeShotIn(t, t.TempDir(), text)
}

// writeShotIn writes a description, shot.toml, into dir and reads it back.
func writeShotIn(t *testing.T, dir, text string) *Shot {
	t.Helper()
	path := filepath.Join(dir, "shot.toml")
	text = fmt.Sprintf("tools = %q\n", fix.bin) + text + "\n[slurm]\ncpus = 1\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	shot, err := ReadShot(path, "")
	if err != nil {
		t.Fatal(err)
	}
	return shot
}

// mustSubmit submits the shot and returns farm's output.
func mustSubmit(t *testing.T, shot *Shot, sl slurm, do func(*Shot, slurm, bool, *bytes.Buffer) error) string {
	t.Helper()
	var out bytes.Buffer
	if err := do(shot, sl, false, &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	return out.String()
}

func submitShot(shot *Shot, sl slurm, dry bool, out *bytes.Buffer) error {
	return submit(shot, sl, dry, out)
}
func resubmitShot(shot *Shot, sl slurm, dry bool, out *bytes.Buffer) error {
	return resubmit(shot, sl, dry, out)
}

// waitShot waits until no job of the shot's newest submission is queued or running,
// and returns their tasks by stage.
func waitShot(t *testing.T, shot *Shot, sl slurm, timeout time.Duration) map[string][]task {
	t.Helper()
	st, err := readState(shot)
	if err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(timeout); ; time.Sleep(300 * time.Millisecond) {
		tasks, busy := map[string][]task{}, false
		for stage, j := range st.latest() {
			if tasks[stage], err = sl.tasks(j.ID); err != nil {
				t.Fatal(err)
			}
			for _, tk := range tasks[stage] {
				busy = busy || tk.active()
			}
		}
		if !busy {
			return tasks
		}
		if time.Now().After(deadline) {
			t.Fatalf("the shot's jobs still run after %v: %+v\n%s", timeout, tasks, logs(shot))
		}
	}
}

// logs returns the jobs' logs, for a failure's message.
func logs(shot *Shot) string {
	files, _ := filepath.Glob(filepath.Join(shot.Dir, "logs", "*"))
	var b strings.Builder
	for _, f := range files {
		text, _ := os.ReadFile(f)
		fmt.Fprintf(&b, "== %s\n%s", filepath.Base(f), text)
	}
	return b.String()
}

// states returns the states of tasks, in order.
func states(tasks []task) string {
	var s []string
	for _, t := range tasks {
		s = append(s, t.State)
	}
	return strings.Join(s, " ")
}

// sameFiles compares the files of frames first-last of two patterns byte for byte.
func sameFiles(t *testing.T, got, want string, first, last int) {
	t.Helper()
	for f := first; f <= last; f++ {
		g, w := outputName(got, f), outputName(want, f)
		a, errA := os.ReadFile(g)
		b, errB := os.ReadFile(w)
		if errA != nil || errB != nil {
			t.Errorf("frame %d: %v %v", f, errA, errB)
			continue
		}
		if !bytes.Equal(a, b) {
			t.Errorf("frame %d: %s differs from %s", f, g, w)
		}
	}
}

// outputName is the file of frame f of pattern, as the tools name it.
func outputName(pattern string, f int) string {
	p, _, _ := seq.ParsePattern(pattern)
	return p.Path(f)
}

// An array export over chunks of frames writes the bytes of one export on one
// machine: -to vdb, 3 tasks of 3 frames, 2 at a time.
func TestSlurmArrayExport(t *testing.T) {
	sl := fixture(t)
	input := filepath.Join(fix.ref, "snow.####.prt")
	shot := writeShot(t, fmt.Sprintf(`
[export]
input = %q
output = "vdb/snow.####.vdb"
frames = "0-8"
chunk = 3
limit = 2
args = ["-to", "vdb", "-velocity"]
`, input))
	out := mustSubmit(t, shot, sl, submitShot)
	if !strings.Contains(out, "(array of 3 tasks: --array=0-2%2)") {
		t.Errorf("submit printed %q", out)
	}
	tasks := waitShot(t, shot, sl, time.Minute)
	if got := states(tasks["export"]); got != "COMPLETED COMPLETED COMPLETED" {
		t.Fatalf("tasks %s\n%s", got, logs(shot))
	}
	single := filepath.Join(t.TempDir(), "snow.####.vdb")
	if b, err := exec.Command(filepath.Join(fix.bin, "export"), "-to", "vdb", "-velocity", input, single).CombinedOutput(); err != nil {
		t.Fatalf("export on one machine: %v: %s", err, b)
	}
	sameFiles(t, shot.Export.Output, single, 0, tinyFrames)
}

// waitFor polls ok until it holds, or fails the test after timeout.
func waitFor(t *testing.T, what string, timeout time.Duration, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(timeout); !ok(); time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no %s after %v", what, timeout)
		}
	}
}

// A snowsim job warned of its time limit (SIGUSR1 to the batch shell, which
// --signal=B:USR1@SECONDS sends; here scancel --batch --signal=USR1 sends it at
// once, in the middle of the run) stops after a frame with a checkpoint, requeues
// itself and resumes from it: its frames are those of a run that never stopped,
// byte for byte, none missing.
func TestSlurmSnowsimRequeue(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: about 20 s of jobs")
	}
	sl := fixture(t)
	shot := writeShot(t, fmt.Sprintf(`
[snowsim]
scene = %q
frames = "0-8"
args = ["-checkpoint", "0"]
`, fix.scene))
	mustSubmit(t, shot, sl, submitShot)
	st, _ := readState(shot)
	id := st.latest()["snowsim"].ID
	frames := filepath.Join(shot.Snowsim.Dir, "snow.####.prt")
	waitFor(t, "frame 2", time.Minute, func() bool { return exists(outputName(frames, 2)) })
	if _, err := sl.run(nil, "scancel", "--batch", "--signal=USR1", id); err != nil {
		t.Fatal(err)
	}
	tasks := waitShot(t, shot, sl, 2*time.Minute)["snowsim"]
	log := logs(shot)
	if len(tasks) != 1 || tasks[0].State != "COMPLETED" || tasks[0].Restart != 1 {
		t.Fatalf("job %s: %+v, want COMPLETED after 1 requeue\n%s", id, tasks, log)
	}
	for _, want := range []string{"snowsim: user defined signal 1: stopping after this frame",
		"farm: the time limit is near: snowsim stopped with a checkpoint; requeueing job " + id, "snowsim: resuming from "} {
		if !strings.Contains(log, want) {
			t.Errorf("the job's log lacks %q:\n%s", want, log)
		}
	}
	sameFiles(t, frames, filepath.Join(fix.ref, "snow.####.prt"), 0, tinyFrames)
}

// A task that failed (its chunk's input frame damaged) is resubmitted alone once
// the input is repaired, and the shot completes: the new job runs that task only.
func TestSlurmResubmitFailedTask(t *testing.T) {
	sl := fixture(t)
	in := t.TempDir()
	for f := 0; f <= tinyFrames; f++ {
		b, err := os.ReadFile(outputName(filepath.Join(fix.ref, "snow.####.prt"), f))
		if err != nil {
			t.Fatal(err)
		}
		if f == 4 {
			b = b[:len(b)/2] // damaged: task 1 (frames 3-5) fails on it
		}
		os.WriteFile(outputName(filepath.Join(in, "snow.####.prt"), f), b, 0o644)
	}
	shot := writeShot(t, fmt.Sprintf(`
[export]
input = %q
output = "ply/snow.####.ply"
frames = "0-8"
chunk = 3
args = ["-to", "ply", "-velocity"]
`, filepath.Join(in, "snow.####.prt")))
	mustSubmit(t, shot, sl, submitShot)
	tasks := waitShot(t, shot, sl, time.Minute)["export"]
	if got := states(tasks); got != "COMPLETED FAILED COMPLETED" {
		t.Fatalf("tasks %s, want task 1 alone FAILED\n%s", got, logs(shot))
	}
	var status bytes.Buffer
	if err := statusOf(shot, sl, &status); err != nil || !strings.Contains(status.String(), "frames 0-8: ") || !strings.Contains(status.String(), "missing 4") {
		t.Errorf("status (%v):\n%s", err, status.String())
	}
	repaired, _ := os.ReadFile(outputName(filepath.Join(fix.ref, "snow.####.prt"), 4))
	os.WriteFile(outputName(filepath.Join(in, "snow.####.prt"), 4), repaired, 0o644)
	out := mustSubmit(t, shot, sl, resubmitShot)
	if !strings.Contains(out, "(tasks 1 of 3)") {
		t.Errorf("resubmit printed %q, want task 1 alone", out)
	}
	tasks = waitShot(t, shot, sl, time.Minute)["export"]
	if len(tasks) != 1 || tasks[0].State != "COMPLETED" || !strings.HasSuffix(tasks[0].ID, "_1") {
		t.Fatalf("the resubmitted job's tasks: %+v, want task 1 COMPLETED alone\n%s", tasks, logs(shot))
	}
	single := filepath.Join(t.TempDir(), "snow.####.ply") // from the same input files: a PLY's header names its input
	if b, err := exec.Command(filepath.Join(fix.bin, "export"), "-to", "ply", "-velocity", filepath.Join(in, "snow.####.prt"), single).CombinedOutput(); err != nil {
		t.Fatalf("export on one machine: %v: %s", err, b)
	}
	sameFiles(t, shot.Export.Output, single, 0, tinyFrames)
	if out := mustSubmit(t, shot, sl, resubmitShot); !strings.Contains(out, "nothing to resubmit") {
		t.Errorf("a complete shot's resubmit printed %q", out)
	}
}

func statusOf(shot *Shot, sl slurm, out *bytes.Buffer) error { return status(shot, sl, 0, out) }

// The chain voxelize -> snowsim -> export runs in that order: snowsim reads the
// colliders voxelize writes, export the frames snowsim writes, and every file of a
// stage is older than every file of the next.
func TestSlurmChain(t *testing.T) {
	sl := fixture(t)
	dir := t.TempDir()
	paddle, _ := filepath.Abs(filepath.Join("..", "..", "examples", "paddle.gltf"))
	scene := tinyScene + `
[[collider]]
shape = "vdb"
path = "out/colliders/paddle.####.vdb"
`
	if err := os.WriteFile(filepath.Join(dir, "scene.toml"), []byte(scene), 0o644); err != nil {
		t.Fatal(err)
	}
	shot := writeShotIn(t, dir, fmt.Sprintf(`dir = "out"
[voxelize]
input = %q
output = "colliders/paddle.####.vdb"
frames = "0-4"
chunk = 2
args = ["-voxel", "0.04"]

[snowsim]
scene = "scene.toml"
frames = "0-3"

[export]
output = "ply/snow.####.ply"
chunk = 2
args = ["-to", "ply"]
`, paddle))
	mustSubmit(t, shot, sl, submitShot)
	tasks := waitShot(t, shot, sl, 2*time.Minute)
	for stage, want := range map[string]string{"voxelize": "COMPLETED COMPLETED COMPLETED", "snowsim": "COMPLETED", "export": "COMPLETED COMPLETED"} {
		if got := states(tasks[stage]); got != want {
			t.Errorf("%s: %s, want %s\n%s", stage, got, want, logs(shot))
		}
	}
	var times [][2]time.Time // the oldest and the newest file of each stage
	for _, c := range []struct {
		pattern     string
		first, last int
	}{{shot.Voxelize.Output, 0, 4}, {shot.Snowsim.Frames(shot.Snowsim.Dir), 0, 3}, {shot.Export.Output, 0, 3}} {
		span := [2]time.Time{time.Now().Add(time.Hour), {}}
		for f := c.first; f <= c.last; f++ {
			info, err := os.Stat(outputName(c.pattern, f))
			if err != nil {
				t.Fatal(err)
			}
			if info.ModTime().Before(span[0]) {
				span[0] = info.ModTime()
			}
			if info.ModTime().After(span[1]) {
				span[1] = info.ModTime()
			}
		}
		times = append(times, span)
	}
	for i := 1; i < len(times); i++ {
		if !times[i-1][1].Before(times[i][0]) {
			t.Errorf("stage %d's newest file (%v) is not older than stage %d's oldest (%v)", i, times[i-1][1], i+1, times[i][0])
		}
	}
}

// A wedge of 2 x 2 scene keys runs 4 snowsim runs into 4 folders, each with its
// keys, and a contact sheet of their last frames, a row per run.
func TestSlurmWedgeOfFour(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: about 20 s of jobs")
	}
	sl := fixture(t)
	shot := writeShot(t, fmt.Sprintf(`
[snowsim]
scene = %q
frames = "0-2"

[wedge]
keys = ["snow.1.radius", "snow.1.velocity"]
values = [[0.08, 0.1], [[0.0, -3.0, 0.0], [1.0, -2.0, 0.0]]]
limit = 2
`, fix.scene))
	mustSubmit(t, shot, sl, submitShot)
	tasks := waitShot(t, shot, sl, 2*time.Minute)
	if got := states(tasks["wedge"]); got != "COMPLETED COMPLETED COMPLETED COMPLETED" {
		t.Fatalf("wedge tasks: %s\n%s", got, logs(shot))
	}
	if got := states(tasks["sheet"]); got != "COMPLETED" {
		t.Fatalf("sheet: %s\n%s", got, logs(shot))
	}
	folders, _ := filepath.Glob(filepath.Join(shot.Snowsim.Dir, "w*"))
	if len(folders) != 4 {
		t.Fatalf("folders %q, want 4", folders)
	}
	var first, last [][]byte // each run's frames 0 and 2
	for _, dir := range folders {
		a, errA := os.ReadFile(filepath.Join(dir, "snow.0000.prt"))
		b, errB := os.ReadFile(filepath.Join(dir, "snow.0002.prt"))
		if errA != nil || errB != nil {
			t.Fatalf("%s: %v %v", dir, errA, errB)
		}
		first, last = append(first, a), append(last, b)
	}
	// Runs 0 and 1 have the smaller ball (fewer particles), 1 and 3 the other
	// velocity.
	var count [4]int64
	for i, b := range first {
		r, err := prt.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		count[i] = r.Header().Count
	}
	if count[0] != count[1] || count[0] >= count[2] || count[2] != count[3] {
		t.Errorf("particles %v: want runs 0 and 1 (radius 0.08 m) fewer than 2 and 3 (0.1 m)", count)
	}
	if bytes.Equal(last[0], last[1]) || bytes.Equal(last[2], last[3]) {
		t.Errorf("runs with other velocities end alike")
	}
	f, err := os.Open(shot.Snowsim.Wedge.Sheet)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dy() < 4*240 || b.Dx() < 320 || b.Dx() > 2*b.Dy() {
		t.Errorf("sheet %v: want 4 rows of 320x240 pictures", b)
	}
}
