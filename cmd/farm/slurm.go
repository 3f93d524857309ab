package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"
)

// slurm runs Slurm's commands, with env added to their environment (SLURM_CONF of a
// private cluster). Jobs inherit the submitting environment (sbatch's default
// --export=ALL), so their own scontrol reaches the same cluster.
type slurm struct{ env []string }

// commandTimeout bounds each Slurm command. Their own retries against a controller
// that does not answer end sooner (scontrol gives up after about 20 s, sbatch after
// about 10 s here), so it only catches a command that hangs.
const commandTimeout = 2 * time.Minute

// run runs a Slurm command and returns its standard output; an error quotes the
// command and what it printed on standard error. A command that is not installed is
// an error that wraps exec.ErrNotFound and says so.
func (s slurm) run(stdin []byte, name string, args ...string) (string, error) {
	if _, err := exec.LookPath(name); err != nil {
		return "", fmt.Errorf("%s is not on PATH (%w): install Slurm's commands (apt-get install slurm-client) or load the cluster's module", name, exec.ErrNotFound)
	}
	ctx, cancel := context.WithTimeout(context.Background(), commandTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = append(os.Environ(), s.env...)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			err = fmt.Errorf("no answer after %v", commandTimeout)
		}
		return stdout.String(), fmt.Errorf("%s %s: %v: %s", name, strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return stdout.String(), nil
}

// sbatch submits a batch script with options (which win over its #SBATCH lines) and
// returns the job's id.
func (s slurm) sbatch(script string, options ...string) (string, error) {
	out, err := s.run(nil, "sbatch", append(append([]string{"--parsable"}, options...), script)...)
	if err != nil {
		return "", err
	}
	id, _, _ := strings.Cut(strings.TrimSpace(out), ";") // "id;cluster" on a federation
	if !jobID.MatchString(id) {
		return "", fmt.Errorf("sbatch %s: no job id in %q", script, out)
	}
	return id, nil
}

// A task is a job, or one task of an array job, as Slurm reports it.
type task struct {
	ID      string // 12, or 12_3 for task 3 of array job 12 (12_[4-7] for tasks not started)
	State   string // PENDING, RUNNING, COMPLETED, FAILED, ...; "" when Slurm no longer knows the job
	Reason  string // why it waits, or why it failed
	Restart int    // how many times it was requeued
}

// active reports whether the task may still run: it is queued or running.
func (t task) active() bool {
	return slices.Contains([]string{"PENDING", "RUNNING", "REQUEUED", "REQUEUE_HOLD", "REQUEUE_FED", "CONFIGURING",
		"COMPLETING", "SUSPENDED", "RESIZING", "SIGNALING", "STAGE_OUT", "STOPPED"}, t.State)
}

// failed reports whether the task ended without completing (failed, cancelled,
// timed out, out of memory, its node lost).
func (t task) failed() bool { return !t.active() && t.State != "COMPLETED" && t.State != "" }

// tasks returns what Slurm knows of a job and, for an array job, of each of its
// tasks: from the controller (scontrol, which keeps finished jobs for MinJobAge), else
// from the accounting database (sacct), else an unknown state. An error says that
// Slurm could not be asked: scontrol is missing, or the controller does not answer.
func (s slurm) tasks(id string) ([]task, error) {
	out, err := s.run(nil, "scontrol", "-o", "show", "job", id)
	if err != nil && !strings.Contains(err.Error(), "Invalid job id") { // a job the controller has forgotten
		return nil, err
	}
	if err == nil {
		var ts []task
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			if t, ok := parseJobLine(line); ok {
				ts = append(ts, t)
			}
		}
		if len(ts) > 0 {
			return ts, nil
		}
	}
	if out, err := s.run(nil, "sacct", "-n", "-P", "-X", "-j", id, "--format=JobID,State,Reason"); err == nil {
		var ts []task
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			if f := strings.Split(line, "|"); len(f) == 3 {
				state, _, _ := strings.Cut(f[1], " ") // "CANCELLED by 0"
				ts = append(ts, task{ID: f[0], State: state, Reason: f[2]})
			}
		}
		if len(ts) > 0 {
			return ts, nil
		}
	}
	return []task{{ID: id}}, nil // sacct fails too without accounting
}

// parseJobLine reads one line of scontrol -o show job.
func parseJobLine(line string) (task, bool) {
	fields := map[string]string{}
	for _, f := range strings.Fields(line) {
		if k, v, ok := strings.Cut(f, "="); ok {
			fields[k] = v
		}
	}
	if fields["JobId"] == "" {
		return task{}, false
	}
	t := task{ID: fields["JobId"], State: fields["JobState"], Reason: fields["Reason"]}
	if a, i := fields["ArrayJobId"], fields["ArrayTaskId"]; a != "" && i != "" {
		t.ID = a + "_" + i
	}
	fmt.Sscan(fields["Restarts"], &t.Restart)
	return t, true
}
