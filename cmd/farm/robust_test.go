package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"snowtools/cmd/internal/localslurm"
)

// These tests need no Slurm: they check what farm does when something is missing or
// wrong, with stand-ins for Slurm's commands on PATH where a command must answer.
// They are named TestSlurm... all the same, so that go test -run
// '(?i)slurm|farm|wedge' runs them (-run splits at the top-level |, and (?i) reaches
// only slurm).

// readyShot writes a description of voxelize, snowsim and export whose tools, scene
// and inputs exist, in a new folder, and reads it back.
func readyShot(t *testing.T) *Shot {
	t.Helper()
	dir := t.TempDir()
	for _, f := range []string{"bin/voxelize", "bin/snowsim", "bin/export"} {
		writeFile(t, filepath.Join(dir, f), "#!/bin/sh\n", 0o755)
	}
	writeFile(t, filepath.Join(dir, "scene.toml"), "", 0o644)
	writeFile(t, filepath.Join(dir, "paddle.gltf"), "", 0o644)
	path := filepath.Join(dir, "shot.toml")
	writeFile(t, path, "tools = \"bin\"\n"+minimalShot, 0o644)
	shot, err := ReadShot(path, "")
	if err != nil {
		t.Fatal(err)
	}
	return shot
}

func writeFile(t *testing.T, path, text string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), mode); err != nil {
		t.Fatal(err)
	}
}

// fakeSlurm puts stand-ins for Slurm's commands, name -> shell script body, first on
// PATH for the test (PATH keeps the rest for sh and its tools).
func fakeSlurm(t *testing.T, commands map[string]string) {
	t.Helper()
	dir := t.TempDir()
	for name, body := range commands {
		writeFile(t, filepath.Join(dir, name), "#!/bin/sh\n"+body+"\n", 0o755)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
}

// Before submitting, a missing tool, scene or input is an error naming the key and
// the file, and nothing is written or submitted (sbatch here would fail the test).
func TestSlurmSubmitChecksInputs(t *testing.T) {
	fakeSlurm(t, map[string]string{"sbatch": "echo sbatch must not run >&2; exit 3"})
	for _, c := range []struct {
		name, key, problem string
		spoil              func(s *Shot)
	}{
		{"tool", "tools", "/bin/snowsim: no such file: go build -o bin/ ./cmd/...", func(s *Shot) { os.Remove(filepath.Join(s.Tools, "snowsim")) }},
		{"tool mode", "tools", "/bin/export: not executable", func(s *Shot) { os.Chmod(filepath.Join(s.Tools, "export"), 0o644) }},
		{"scene", "snowsim.scene", "scene.toml: no such file", func(s *Shot) { os.Remove(s.Snowsim.Scene) }},
		{"voxelize input", "voxelize.input", "paddle.gltf: no such file", func(s *Shot) { os.Remove(s.Voxelize.Input) }},
		{"export input", "export.input", "in.####.prt", func(s *Shot) {
			s.Snowsim, s.Export.Input = nil, filepath.Join(filepath.Dir(s.File), "in.####.prt")
		}},
	} {
		shot := readyShot(t)
		c.spoil(shot)
		var out bytes.Buffer
		for _, do := range []func(*Shot, slurm, bool, *bytes.Buffer) error{submitShot, resubmitShot} {
			err := do(shot, slurm{}, false, &out)
			var ke *KeyError
			if !errors.As(err, &ke) || ke.File != shot.File || ke.Key != c.key || !strings.Contains(ke.Problem, c.problem) {
				t.Errorf("%s: %v\n  want %s: %s: ...%s...", c.name, err, shot.File, c.key, c.problem)
			}
		}
		if _, err := os.Stat(filepath.Join(shot.Dir, "scripts")); err == nil {
			t.Errorf("%s: the submit wrote scripts", c.name)
		}
	}
}

// Without Slurm's commands, submit says which is missing; with an sbatch whose
// controller does not answer, it quotes sbatch.
func TestSlurmSubmitWithoutSlurm(t *testing.T) {
	shot := readyShot(t)
	t.Setenv("PATH", t.TempDir())
	err := submit(shot, slurm{}, false, &bytes.Buffer{})
	if !errors.Is(err, exec.ErrNotFound) || !strings.Contains(err.Error(), "voxelize: sbatch is not on PATH") {
		t.Errorf("no sbatch: %v", err)
	}
	fakeSlurm(t, map[string]string{"sbatch": "echo 'sbatch: error: Batch job submission failed: Unable to contact slurm controller (connect failure)' >&2; exit 1"})
	err = submit(shot, slurm{}, false, &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "Unable to contact slurm controller") {
		t.Errorf("sbatch failing: %v", err)
	}
}

// A damaged farm.json is an error that names it and says how to go on; so is a job
// id that is not a number (it would ask scontrol about other jobs).
func TestSlurmDamagedState(t *testing.T) {
	for _, text := range []string{`{"submissions": [{"jobs": [`, `{"submissions": [{"jobs": [{"stage": "export", "id": ""}]}]}`,
		`{"submissions": [{"jobs": [{"stage": "export", "id": "12 13"}]}]}`} {
		shot := readyShot(t)
		writeFile(t, statePath(shot), text, 0o644)
		for name, err := range map[string]error{
			"submit":   submit(shot, slurm{}, false, &bytes.Buffer{}),
			"status":   status(shot, slurm{}, 0, &bytes.Buffer{}),
			"resubmit": resubmit(shot, slurm{}, false, &bytes.Buffer{}),
		} {
			if err == nil || !strings.Contains(err.Error(), statePath(shot)+": damaged (") || !strings.Contains(err.Error(), "move it away") {
				t.Errorf("%s with farm.json %q: %v", name, text, err)
			}
		}
	}
}

// status -wait fails when the shot is incomplete though no job runs (never
// submitted, or Slurm has forgotten its jobs), when Slurm does not answer, and when
// a job still runs at -timeout.
func TestSlurmStatusWaitFails(t *testing.T) {
	shot := readyShot(t)
	var out bytes.Buffer
	err := status(shot, slurm{}, time.Minute, &out)
	if err == nil || !strings.Contains(err.Error(), "voxelize, snowsim, export lack outputs") || !strings.Contains(out.String(), "not submitted") {
		t.Errorf("never submitted: %v\n%s", err, out.String())
	}
	st := &state{Submissions: []submission{{Jobs: []jobRecord{{Stage: "snowsim", ID: "7"}}}}}
	os.MkdirAll(shot.Dir, 0o755)
	if err := st.write(shot); err != nil {
		t.Fatal(err)
	}
	fakeSlurm(t, map[string]string{"scontrol": "echo 'slurm_load_jobs error: Unable to contact slurm controller (connect failure)' >&2; exit 1"})
	if err := status(shot, slurm{}, time.Minute, &out); err == nil || !strings.Contains(err.Error(), "-wait: scontrol -o show job 7: exit status 1: slurm_load_jobs error: Unable to contact") {
		t.Errorf("controller down: %v", err)
	}
	out.Reset()
	if err := status(shot, slurm{}, 0, &out); err != nil || !strings.Contains(out.String(), "job 7: Slurm does not answer (") {
		t.Errorf("status without -wait, controller down: %v\n%s", err, out.String())
	}
	fakeSlurm(t, map[string]string{"scontrol": "echo JobId=7 JobState=RUNNING Restarts=0"})
	start := time.Now()
	if err := status(shot, slurm{}, time.Millisecond, &out); err == nil || !strings.Contains(err.Error(), "-wait: snowsim task 7 is RUNNING still after 1ms (-timeout)") {
		t.Errorf("timeout: %v", err)
	}
	if d := time.Since(start); d > pollInterval+time.Second {
		t.Errorf("the 1 ms timeout took %v", d)
	}
}

// farm's command line: -timeout wants a positive duration; cluster down, or
// -cluster, of a folder with no cluster is an error naming it, and -cluster of a
// cluster that is not running says so at once.
func TestSlurmCommandLineErrors(t *testing.T) {
	dir, stopped := t.TempDir(), t.TempDir()
	writeFile(t, localslurm.Cluster{Dir: stopped}.Conf(), "# a cluster's slurm.conf, its daemons stopped\n", 0o644)
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"status", "-wait", "-timeout", "0s", "shot.toml"}, 2, "-timeout 0s: give a positive duration"},
		{[]string{"cluster", "down", dir}, 1, dir + ": no cluster there"},
		{[]string{"status", "-cluster", dir, "shot.toml"}, 1, "-cluster " + dir + ": no cluster there"},
		{[]string{"status", "-cluster", stopped, "shot.toml"}, 1, "-cluster " + stopped + ": the cluster is not running"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(c.args, &stdout, &stderr); code != c.code || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("farm %q: exit %d, %q; want %d and %q", c.args, code, stderr.String(), c.code, c.want)
		}
	}
}
