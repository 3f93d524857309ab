package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// The test binary doubles as snowsim: with SNOWSIM_TEST_CHILD set it runs the command
// instead of the tests, so that a test can kill a real process at any point. With
// SNOWSIM_TEST_KILL=name it kills itself with SIGKILL (os.Process.Kill) as it starts
// writing the output file called name, which puts the kill in the middle of that write;
// with SNOWSIM_TEST_PAUSE=name it stops there for good (a run that holds its folder);
// with SNOWSIM_TEST_SIGINT=name it sends itself a SIGINT there, and with
// SNOWSIM_TEST_SIGINT2=name two, and then stops for good.
func TestMain(m *testing.M) {
	if os.Getenv("SNOWSIM_TEST_CHILD") != "" {
		hooks := map[string]func(w io.Writer) io.Writer{
			os.Getenv("SNOWSIM_TEST_KILL"):    func(io.Writer) io.Writer { return killer{} },
			os.Getenv("SNOWSIM_TEST_PAUSE"):   func(io.Writer) io.Writer { return pauser{} },
			os.Getenv("SNOWSIM_TEST_SIGINT"):  func(w io.Writer) io.Writer { interruptSelf(1); return w },
			os.Getenv("SNOWSIM_TEST_SIGINT2"): func(io.Writer) io.Writer { interruptSelf(2); return pauser{} },
		}
		delete(hooks, "")
		wrapOutput = func(path string, w io.Writer) io.Writer {
			if hook, ok := hooks[filepath.Base(path)]; ok {
				return hook(w)
			}
			return w
		}
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	code := m.Run()
	if refDir != "" {
		os.RemoveAll(refDir)
	}
	os.Exit(code)
}

type killer struct{}

// pauser blocks the write, and so the run, until the test kills the process.
type pauser struct{}

func (pauser) Write([]byte) (int, error) { select {} }

// interruptSelf sends this process n SIGINTs, a tenth of a second apart so that each
// is handled before the next (a second pending SIGINT would merge with the first).
func interruptSelf(n int) {
	for i := range n {
		if i > 0 {
			time.Sleep(100 * time.Millisecond)
		}
		self, _ := os.FindProcess(os.Getpid())
		self.Signal(os.Interrupt)
	}
}

func (killer) Write([]byte) (int, error) {
	self, _ := os.FindProcess(os.Getpid())
	self.Kill()
	select {} // the signal is on its way
}

// smallScene takes about a second with 2 threads: a soft snowball thrown at a sticky
// sphere, so that it packs, sticks and slides. It uses the APIC transfer, so that its
// checkpoints carry the optional affine channel as well as the others.
const smallScene = `
[domain]
min = [0.0, 0.0, 0.0]
max = [0.6, 0.6, 0.6]
h = 0.04

[solver]
transfer = "apic"

[time]
fps = 24
frames = 12

[output]
pattern = "snow.####.prt"

[materials.soft]
E0 = 3e4
xi = 5

[[snow]]
shape = "sphere"
center = [0.22, 0.3, 0.3]
radius = 0.1
velocity = [2.5, -1.0, 0.5]
spin = [0.0, 0.0, -6.0]
material = "soft"
particles_per_cell = 6

[[collider]]
shape = "sphere"
center = [0.42, 0.1, 0.3]
radius = 0.08
mode = "sticky"
`

const smallFrames = 12

var (
	refOnce sync.Once
	refDir  string
	refErr  error
)

// reference returns the folder of an uninterrupted run of smallScene without
// checkpoints, made once for all tests.
func reference(t *testing.T) string {
	t.Helper()
	refOnce.Do(func() {
		if refDir, refErr = os.MkdirTemp("", "snowsim-ref"); refErr != nil {
			return
		}
		scene := filepath.Join(refDir, "scene.toml")
		if refErr = os.WriteFile(scene, []byte(smallScene), 0o644); refErr != nil {
			return
		}
		var stderr bytes.Buffer
		if code := run([]string{"-threads", "2", "-checkpoint", "0", "-o", refDir, scene}, io.Discard, &stderr); code != 0 {
			refErr = fmt.Errorf("reference run: exit %d: %s", code, stderr.String())
		}
	})
	if refErr != nil {
		t.Fatal(refErr)
	}
	return refDir
}

// sceneIn writes smallScene (plus extra) into dir and returns its path.
func sceneIn(t *testing.T, dir, extra string) string {
	t.Helper()
	path := filepath.Join(dir, "scene.toml")
	if err := os.WriteFile(path, []byte(smallScene+extra), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// sameFrames checks that frames from..to in dir are byte for byte those of the
// reference run.
func sameFrames(t *testing.T, dir string, from, to int) {
	t.Helper()
	ref := reference(t)
	for f := from; f <= to; f++ {
		name := frameName("snow.####.prt", f)
		want, err := os.ReadFile(filepath.Join(ref, name))
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from the uninterrupted run's", name)
		}
	}
}

// checkpointFrames lists the frames that have a checkpoint in dir.
func checkpointFrames(t *testing.T, dir string) []int {
	t.Helper()
	c, err := newCheckpoints(dir, "snow.####.prt", [32]byte{})
	if err != nil {
		t.Fatal(err)
	}
	frames, err := c.list()
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(frames)
	return frames
}

// child runs the test binary as snowsim with args. With kill > 0 it is killed after
// that long (if still running); with victim set it kills itself when it starts writing
// that file. It returns stderr and whether the process exited by itself with status 0.
func child(t *testing.T, args []string, victim string, kill time.Duration) (string, bool) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "SNOWSIM_TEST_CHILD=1", "SNOWSIM_TEST_KILL="+victim)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if kill > 0 {
		timer := time.AfterFunc(kill, func() { cmd.Process.Kill() })
		defer timer.Stop()
	}
	err := cmd.Wait()
	return stderr.String(), err == nil
}

// A run killed (SIGKILL) at arbitrary moments, in the middle of writing a checkpoint
// and of writing a frame among them, and resumed each time, ends with every frame byte
// for byte that of a run that was never interrupted; frames up to the checkpoint a run
// resumes from are left alone, and no temporary file is left over.
func TestKillAndResume(t *testing.T) {
	dir := t.TempDir()
	scene := sceneIn(t, dir, "")
	args := []string{"-threads", "2", "-checkpoint", "2", "-o", dir, scene}
	resume := append([]string{"-resume"}, args...)

	// Killed while writing the checkpoint of frame 4: frame 4 is written, its
	// checkpoint is not, and the one of frame 2 is still there.
	if msg, ok := child(t, args, "snow.0004.snowstate", 0); ok {
		t.Fatalf("the run was not killed: %s", msg)
	}
	if got := checkpointFrames(t, dir); !slices.Equal(got, []int{2}) {
		t.Fatalf("checkpoints after the kill: %v, want [2]", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "snow.0004.prt")); err != nil {
		t.Fatal(err)
	}
	if tmp, _ := filepath.Glob(filepath.Join(dir, ".snow.0004.snowstate.tmp*")); len(tmp) != 1 {
		t.Errorf("temporary checkpoint files %v: want the one the kill interrupted", tmp)
	}
	before, err := os.Stat(filepath.Join(dir, "snow.0002.prt"))
	if err != nil {
		t.Fatal(err)
	}

	// Resumed from frame 2 with one thread, and killed while writing frame 7.
	msg, ok := child(t, append([]string{"-threads", "1"}, resume...), "snow.0007.prt", 0)
	if ok || !strings.Contains(msg, "resuming from "+filepath.Join(dir, "snow.0002.snowstate")) {
		t.Fatalf("second run: exited by itself %v: %s", ok, msg)
	}
	if after, err := os.Stat(filepath.Join(dir, "snow.0002.prt")); err != nil || !after.ModTime().Equal(before.ModTime()) {
		t.Errorf("frame 2, which the run resumed after, was rewritten (%v)", err)
	}
	if got := checkpointFrames(t, dir); !slices.Equal(got, []int{4, 6}) {
		t.Fatalf("checkpoints after the second kill: %v, want [4 6]", got)
	}
	if tmp, _ := filepath.Glob(filepath.Join(dir, ".*.tmp*")); len(tmp) != 1 || !strings.Contains(tmp[0], ".snow.0007.prt.tmp") {
		t.Errorf("temporary files %v: want only the frame the kill interrupted (a resumed run removes earlier ones)", tmp)
	}

	// Killed after a while, wherever that is (in a step, a frame or a checkpoint).
	for _, d := range []time.Duration{250 * time.Millisecond, 40 * time.Millisecond, 400 * time.Millisecond} {
		msg, ok := child(t, resume, "", d)
		t.Logf("killed after %v: exited by itself %v; checkpoints %v", d, ok, checkpointFrames(t, dir))
		if strings.Contains(msg, "snowsim: ") && !strings.Contains(msg, "resuming from") {
			t.Fatalf("a resumed run says: %s", msg)
		}
	}

	var stderr bytes.Buffer
	if code := run(resume, io.Discard, &stderr); code != 0 {
		t.Fatalf("final resume: exit %d: %s", code, stderr.String())
	}
	sameFrames(t, dir, 0, smallFrames)
	if got := checkpointFrames(t, dir); !slices.Equal(got, []int{10, 12}) {
		t.Errorf("checkpoints at the end: %v, want [10 12]", got)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*tmp*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// What -resume does with missing, damaged and foreign checkpoints, with a finished
// run, and after a run that started over.
func TestResumeCases(t *testing.T) {
	dir := t.TempDir()
	scene := sceneIn(t, dir, "")
	runOK := func(args ...string) string {
		t.Helper()
		var stderr bytes.Buffer
		if code := run(append(args, "-threads", "2", "-o", dir, scene), io.Discard, &stderr); code != 0 {
			t.Fatalf("snowsim %v: exit %d: %s", args, code, stderr.String())
		}
		return stderr.String()
	}
	runFails := func(scene string, want string, args ...string) {
		t.Helper()
		var stderr bytes.Buffer
		code := run(append(args, "-o", dir, scene), io.Discard, &stderr)
		if code != 1 || !strings.Contains(stderr.String(), want) {
			t.Errorf("snowsim %v: exit %d, %q; want exit 1 and %q", args, code, stderr.String(), want)
		}
	}

	runFails(scene, "-resume: no checkpoint (snow.####.snowstate) in "+dir, "-resume")
	runOK("-checkpoint", "2", "-frames", "6")
	if got := checkpointFrames(t, dir); !slices.Equal(got, []int{4, 6}) {
		t.Fatalf("checkpoints %v, want [4 6]", got)
	}

	// Another scene, or the same at another resolution, is refused.
	other := sceneIn(t, t.TempDir(), "# a comment makes it another scene\n")
	runFails(other, "snow.0006.snowstate was written for a different scene or -quality", "-resume")
	runFails(scene, "different scene or -quality", "-resume", "-quality", "high")

	// A damaged newest checkpoint is skipped for the one before.
	newest := filepath.Join(dir, "snow.0006.snowstate")
	data, err := os.ReadFile(newest)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/2] ^= 0x10
	if err := os.WriteFile(newest, data, 0o644); err != nil {
		t.Fatal(err)
	}
	msg := runOK("-resume", "-frames", "8", "-checkpoint", "0")
	for _, want := range []string{"skipping the checkpoint " + newest + ": checkpoint: ", "resuming from " + filepath.Join(dir, "snow.0004.snowstate")} {
		if !strings.Contains(msg, want) {
			t.Errorf("resuming past a damaged checkpoint: %q does not say %q", msg, want)
		}
	}
	sameFrames(t, dir, 0, 8)

	// When all are damaged, resuming is an error that says so.
	for _, f := range checkpointFrames(t, dir) {
		path := filepath.Join(dir, frameName("snow.####.snowstate", f))
		if err := os.Truncate(path, 100); err != nil {
			t.Fatal(err)
		}
	}
	runFails(scene, "-resume: no usable checkpoint in "+dir+" (all 2 are damaged)", "-resume")

	// A finished run extends with -frames; one that is already there does nothing.
	runOK("-checkpoint", "3", "-frames", "6")
	if got := checkpointFrames(t, dir); !slices.Equal(got, []int{3, 6}) {
		t.Fatalf("checkpoints %v, want [3 6]: a fresh run removes those of the earlier run", got)
	}
	if msg := runOK("-resume", "-frames", "5"); !strings.Contains(msg, "nothing to do") {
		t.Errorf("resuming past the end: %q", msg)
	}
	runOK("-resume", "-frames", "9")
	sameFrames(t, dir, 0, 9)

	// Starting over without checkpoints removes the earlier run's.
	if msg := runOK("-checkpoint", "0", "-frames", "2"); !strings.Contains(msg, "removed 2 checkpoints") {
		t.Errorf("starting over: %q", msg)
	}
	runFails(scene, "no checkpoint", "-resume")
}

func TestCheckpointUsage(t *testing.T) {
	if code := run([]string{"-checkpoint", "-1"}, io.Discard, io.Discard); code != 2 {
		t.Errorf("-checkpoint -1: exit %d, want 2", code)
	}
}

// With output.channels asking for RestPosition and Orientation (through -set), frame 0's
// rest positions are its positions, later frames keep each particle's (by ID) while
// it moves, every Orientation is a unit quaternion, and a run stopped at frame 3 and
// resumed writes frames byte for byte those of a run that never stopped: the rest
// positions came through the checkpoint.
func TestResumeKeepsRestPositions(t *testing.T) {
	withChannels := []string{"-threads", "2", "-frames", "6", "-set", `output.channels=["RestPosition", "Orientation"]`}
	whole, stopped := t.TempDir(), t.TempDir()
	runOK := func(dir string, args ...string) {
		t.Helper()
		var stderr bytes.Buffer
		args = append(append(append([]string(nil), withChannels...), args...), "-o", dir, sceneIn(t, dir, ""))
		if code := run(args, io.Discard, &stderr); code != 0 {
			t.Fatalf("snowsim %v: exit %d: %s", args, code, stderr.String())
		}
	}
	runOK(whole, "-checkpoint", "0")
	runOK(stopped, "-checkpoint", "3", "-frames", "3")
	runOK(stopped, "-resume")

	seeded := map[int64][3]float32{}
	for f := 0; f <= 6; f++ {
		name := frameName("snow.####.prt", f)
		want, err := os.ReadFile(filepath.Join(whole, name))
		if err != nil {
			t.Fatal(err)
		}
		if got, err := os.ReadFile(filepath.Join(stopped, name)); err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s of the resumed run differs from the uninterrupted run's (%v)", name, err)
		}
		fr := readFrame(t, filepath.Join(whole, name))
		pos, _, err1 := fr.Float32s("Position")
		rest, _, err2 := fr.Float32s("RestPosition")
		q, _, err3 := fr.Float32s("Orientation")
		ids, _, err4 := fr.Int64s("ID")
		if err := errors.Join(err1, err2, err3, err4); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		moved := 0.0
		for i, id := range ids {
			r := [3]float32(rest[3*i : 3*i+3])
			if f == 0 {
				if r != [3]float32(pos[3*i:3*i+3]) {
					t.Fatalf("%s: particle %d's rest position %v is not its position %v", name, id, r, pos[3*i:3*i+3])
				}
				seeded[id] = r
			} else if r != seeded[id] {
				t.Fatalf("%s: particle %d's rest position %v, seeded at %v", name, id, r, seeded[id])
			}
			for a := range 3 {
				moved = max(moved, math.Abs(float64(pos[3*i+a]-r[a])))
			}
			w, x, y, z := float64(q[4*i+3]), float64(q[4*i]), float64(q[4*i+1]), float64(q[4*i+2])
			if u := math.Abs(math.Sqrt(w*w+x*x+y*y+z*z) - 1); u > 1e-6 || w < 0 {
				t.Fatalf("%s: particle %d's Orientation %v is not a unit quaternion with w >= 0", name, id, q[4*i:4*i+4])
			}
		}
		if f == 6 && moved < 0.05 {
			t.Errorf("by frame 6 no particle moved more than %.3f m from its rest position: the test does not see motion", moved)
		}
	}
}
