package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"snowtools/cmd/internal/cli"
)

// startChild starts the test binary as snowsim with args and the hook env (see
// TestMain), and returns it with its stderr.
func startChild(t *testing.T, env string, args ...string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "SNOWSIM_TEST_CHILD=1", env)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, &stderr
}

// waitChild waits for cmd, at most 60 s (then it is killed: a failure), and returns
// its exit status.
func waitChild(t *testing.T, cmd *exec.Cmd) int {
	t.Helper()
	timer := time.AfterFunc(60*time.Second, func() { cmd.Process.Kill() })
	defer timer.Stop()
	err := cmd.Wait()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatal(err)
	}
	return cmd.ProcessState.ExitCode()
}

// waitFor waits until path exists, at most 60 s.
func waitFor(t *testing.T, path string) {
	t.Helper()
	for start := time.Now(); time.Since(start) < 60*time.Second; time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(path); err == nil {
			return
		}
	}
	t.Fatalf("%s did not appear in 60 s", path)
}

// A second run into a folder that a run is writing fails at once, naming the first
// run, and writes nothing; once the first is gone (killed: it leaves its lock file
// behind), the next run takes the folder over with a note and writes the whole
// sequence. On main both runs wrote into the folder.
func TestOneRunPerFolder(t *testing.T) {
	dir := t.TempDir()
	scene := sceneIn(t, dir, "")
	first, _ := startChild(t, "SNOWSIM_TEST_PAUSE=snow.0002.prt", "-threads", "1", "-checkpoint", "0", "-o", dir, scene)
	defer first.Process.Kill()
	waitFor(t, filepath.Join(dir, "snow.0001.prt"))
	before, _ := os.ReadDir(dir)

	var stderr bytes.Buffer
	start := time.Now()
	code := run([]string{"-threads", "2", "-frames", "3", "-o", dir, scene}, io.Discard, &stderr)
	want := fmt.Sprintf("snowsim: output folder %s is in use by snowsim (pid %d on ", dir, first.Process.Pid)
	if code != 1 || !strings.HasPrefix(stderr.String(), want) || !strings.Contains(stderr.String(), "wait for it to end, or give another output folder") {
		t.Errorf("second run: exit %d, %q; want exit 1 and %q", code, stderr.String(), want)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the second run took %v to fail", d)
	}
	if after, _ := os.ReadDir(dir); len(after) != len(before) {
		t.Errorf("the second run changed the folder: %d entries, then %d", len(before), len(after))
	}

	first.Process.Kill()
	first.Wait()
	stderr.Reset()
	if code := run([]string{"-threads", "2", "-checkpoint", "0", "-o", dir, scene}, io.Discard, &stderr); code != 0 {
		t.Fatalf("run after the first was killed: exit %d: %s", code, stderr.String())
	}
	if want := fmt.Sprintf("snowsim: took over the lock %s of snowsim (pid %d on ", filepath.Join(dir, cli.LockName), first.Process.Pid); !strings.HasPrefix(stderr.String(), want) {
		t.Errorf("log %q\nwant it to start with %q", stderr.String(), want)
	}
	sameFrames(t, dir, 0, smallFrames)
	if _, err := os.Stat(filepath.Join(dir, cli.LockName)); !os.IsNotExist(err) {
		t.Errorf("lock file after the run: %v", err)
	}
}

// A fresh run removes the frames of its patterns that an earlier, longer run left
// past its own, says so, and touches no other file; a resumed run removes nothing.
// On main the stale frames stayed, and export read them as one sequence.
func TestStaleFramesRemoved(t *testing.T) {
	dir := t.TempDir()
	scene := sceneIn(t, dir, "")
	others := []string{"snow.0006.png", "notes.txt", "snow.06.prt", "spray.0007.prt"}
	for _, name := range append([]string{"snow.0005.prt", "snow.0006.prt", "snow.0017.prt"}, others...) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("another run"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var stderr bytes.Buffer
	if code := run([]string{"-threads", "2", "-frames", "4", "-checkpoint", "4", "-o", dir, scene}, io.Discard, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	want := "snowsim: removed 3 files of an earlier run outside this run's frames 0-4 (snow.####.prt): snow.0005.prt ... snow.0017.prt\n"
	if !strings.Contains(stderr.String(), want) {
		t.Errorf("log %q\nwant %q", stderr.String(), want)
	}
	frames, _ := filepath.Glob(filepath.Join(dir, "snow.????.prt"))
	if len(frames) != 5 {
		t.Errorf("frames after the run: %v, want 0-4", frames)
	}
	for _, name := range others {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("%s, not of this run's patterns, was removed: %v", name, err)
		}
	}
	sameFrames(t, dir, 0, 4)

	// -resume continues the same run: nothing it finds is another run's to remove.
	os.WriteFile(filepath.Join(dir, "snow.0009.prt"), []byte("ahead"), 0o644)
	stderr.Reset()
	if code := run([]string{"-resume", "-threads", "2", "-frames", "6", "-o", dir, scene}, io.Discard, &stderr); code != 0 || strings.Contains(stderr.String(), "removed") {
		t.Fatalf("resume: exit %d: %s", code, stderr.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "snow.0009.prt")); err != nil {
		t.Errorf("a resumed run removed a frame: %v", err)
	}
}

// Frame numbers past what a PRT frame records are refused before any work, whether
// from -frames or time.start; on main -frames 1e12 ran with an ETA of
// "-153722867:-16".
func TestHugeFrameCounts(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	for _, args := range [][]string{
		{"-frames", "1000000000000"},
		{"-frames", "9223372036854775807", "-set", "time.start=5"},
		{"-frames", "100", "-set", "time.start=2147483600"},
	} {
		var stderr bytes.Buffer
		code := run(append(args, "-o", dir), io.Discard, &stderr)
		if code != 1 || !strings.Contains(stderr.String(), "frame numbers stop at 2147483647 (a PRT frame records its number as a 32-bit integer)") {
			t.Errorf("%v: exit %d, %q", args, code, stderr.String())
		}
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the output folder was made: %v", err)
	}
}

// resumeLine matches what an interrupted run says: the frame it stopped after and the
// command that continues it.
var resumeLine = regexp.MustCompile(`stopped after frame (\d+) of 12; frames 0-(\d+) and the checkpoint (\S+) are written; continue with:\n  snowsim (.*)\n$`)

// SIGINT stops a run after the frame it is simulating, with a checkpoint (even with
// -checkpoint 0), exit status 130 and the command that continues it; that command
// writes the rest of the frames, byte for byte those of a run that never stopped. On
// main Ctrl-C exited 130 in the middle of a frame with no word on -resume.
func TestInterruptAndResume(t *testing.T) {
	dir := t.TempDir()
	scene := sceneIn(t, dir, "")
	cmd, stderr := startChild(t, "SNOWSIM_TEST_SIGINT=snow.0003.prt", "-threads", "2", "-checkpoint", "0", "-o", dir, scene)
	if code := waitChild(t, cmd); code != 130 {
		t.Fatalf("exit %d, want 130: %s", code, stderr)
	}
	m := resumeLine.FindStringSubmatch(stderr.String())
	if m == nil || !strings.Contains(stderr.String(), "snowsim: interrupt: stopping after this frame") {
		t.Fatalf("log: %s", stderr)
	}
	f, _ := strconv.Atoi(m[1])
	if last, _ := strconv.Atoi(m[2]); f < 3 || f >= smallFrames || last != f {
		t.Fatalf("stopped after frame %s (frames 0-%s), want one of 3-11", m[1], m[2])
	}
	if got := checkpointFrames(t, dir); !slices.Equal(got, []int{f}) || m[3] != filepath.Join(dir, frameName("snow.####.snowstate", f)) {
		t.Errorf("checkpoints %v (%s), want [%d]", got, m[3], f)
	}
	if _, err := os.Stat(filepath.Join(dir, frameName("snow.####.prt", f+1))); !os.IsNotExist(err) {
		t.Errorf("frame %d after a stop at frame %d: %v", f+1, f, err)
	}
	wantCmd := "-resume -threads 2 -checkpoint 0 -o " + dir + " " + scene
	if m[4] != wantCmd {
		t.Fatalf("resume command %q, want %q", m[4], wantCmd)
	}
	var log bytes.Buffer
	if code := run(strings.Fields(m[4]), io.Discard, &log); code != 0 {
		t.Fatalf("the resume command: exit %d: %s", code, log.String())
	}
	sameFrames(t, dir, 0, smallFrames)
}

// A second SIGINT stops the run at once, in the middle of a frame, with exit status
// 130 and the command that continues from the newest checkpoint; that continues to
// the same frames as a run that never stopped (the lock the run left is taken over).
func TestSecondInterrupt(t *testing.T) {
	dir := t.TempDir()
	scene := sceneIn(t, dir, "")
	cmd, stderr := startChild(t, "SNOWSIM_TEST_SIGINT2=snow.0005.prt", "-threads", "2", "-checkpoint", "2", "-o", dir, scene)
	if code := waitChild(t, cmd); code != 130 {
		t.Fatalf("exit %d, want 130: %s", code, stderr)
	}
	want := "snowsim: interrupt again: stopping now, in the middle of a frame; continue from the checkpoint " +
		filepath.Join(dir, "snow.0004.snowstate") + " with:\n  snowsim -resume -threads 2 -checkpoint 2 -o " + dir + " " + scene + "\n"
	if !strings.HasSuffix(stderr.String(), want) {
		t.Fatalf("log %q\nwant it to end in %q", stderr, want)
	}
	var log bytes.Buffer
	if code := run([]string{"-resume", "-threads", "2", "-checkpoint", "2", "-o", dir, scene}, io.Discard, &log); code != 0 {
		t.Fatalf("resume: exit %d: %s", code, log.String())
	}
	sameFrames(t, dir, 0, smallFrames)
}

func TestResumeCommand(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-o", "out", "scene.toml"}, "snowsim -resume -o out scene.toml"},
		{[]string{"-resume", "-frames", "96", "s.toml"}, "snowsim -resume -frames 96 s.toml"},
		{[]string{"--resume=false", "-set", `snow.1.material="fresh"`, "my scene.toml"}, `snowsim -resume -set 'snow.1.material="fresh"' 'my scene.toml'`},
		{[]string{"-o", "it's"}, `snowsim -resume -o 'it'\''s'`},
	} {
		if got := resumeCommand(c.args); got != c.want {
			t.Errorf("%q: %s, want %s", c.args, got, c.want)
		}
	}
}
