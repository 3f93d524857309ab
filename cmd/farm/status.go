package main

import (
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"snowtools/cmd/internal/seq"
)

// What a stage has written is read from the disk, not from Slurm: the outputs are
// the truth (written atomically, a file that exists is complete), whether Slurm
// still remembers the jobs or not. A task is done when every frame of its chunk (or
// run) exists.

// stageProgress is what a stage has written: the array tasks (or the single job, as
// task 0) whose outputs are incomplete, and a line that says so.
type stageProgress struct {
	todo    []int
	summary string
}

// progress looks at the outputs of a stage on disk.
func (s *Shot) progress(st stage) stageProgress {
	switch st.name {
	case "voxelize", "export":
		c := s.Voxelize
		if st.name == "export" {
			c = s.Export
		}
		missing := missingFrames(c.Output, c.First, c.Last)
		var p stageProgress
		for i := range c.Tasks() {
			a, b := c.TaskFrames(i)
			if slices.ContainsFunc(missing, func(f int) bool { return f >= a && f <= b }) {
				p.todo = append(p.todo, i)
			}
		}
		p.summary = framesLine(c.First, c.Last, missing)
		return p
	case "snowsim":
		sim := s.Snowsim
		missing := missingFrames(sim.Frames(sim.Dir), sim.First, sim.Last)
		p := stageProgress{summary: framesLine(sim.First, sim.Last, missing)}
		if len(missing) > 0 {
			p.todo = []int{0}
		}
		return p
	case "wedge":
		sim := s.Snowsim
		var p stageProgress
		var notes []string
		for i, dir := range sim.Folders() {
			if missing := missingFrames(sim.Frames(dir), sim.First, sim.Last); len(missing) > 0 {
				p.todo = append(p.todo, i)
				notes = append(notes, fmt.Sprintf("%s missing %s", filepath.Base(dir), ranges(missing)))
			}
		}
		p.summary = fmt.Sprintf("runs: %d of %d complete", len(sim.Wedge.Runs)-len(p.todo), len(sim.Wedge.Runs))
		if len(notes) > 0 {
			p.summary += "; " + strings.Join(notes, "; ")
		}
		return p
	case "sheet":
		if exists(s.Snowsim.Wedge.Sheet) {
			return stageProgress{summary: s.Snowsim.Wedge.Sheet + " written"}
		}
		return stageProgress{todo: []int{0}, summary: s.Snowsim.Wedge.Sheet + " missing"}
	}
	panic("farm: no stage " + st.name)
}

// missingFrames returns the frames first-last of pattern that have no file.
func missingFrames(pattern string, first, last int) []int {
	p, _, _ := seq.ParsePattern(pattern)
	var missing []int
	for f := first; f <= last; f++ {
		if !exists(p.Path(f)) {
			missing = append(missing, f)
		}
	}
	return missing
}

// framesLine says how many of the frames first-last are written, and which are not.
func framesLine(first, last int, missing []int) string {
	n := last - first + 1
	line := fmt.Sprintf("frames %d-%d: %d of %d written", first, last, n-len(missing), n)
	if len(missing) > 0 {
		line += "; missing " + ranges(missing)
	}
	return line
}

// ranges writes sorted frames as ranges: 3-7, 9, 12-13.
func ranges(frames []int) string {
	var parts []string
	for i := 0; i < len(frames); {
		j := i
		for j+1 < len(frames) && frames[j+1] == frames[j]+1 {
			j++
		}
		if j == i {
			parts = append(parts, fmt.Sprint(frames[i]))
		} else {
			parts = append(parts, fmt.Sprintf("%d-%d", frames[i], frames[j]))
		}
		i = j + 1
	}
	return strings.Join(parts, ", ")
}

// status prints, for each stage, its newest job with the states of its tasks, and
// what it has written. With wait > 0 it first waits, at most that long, until none
// of those jobs is queued or running; it then fails when a task failed, or when a
// stage's outputs are incomplete: the outputs are the truth, and a job that Slurm
// has forgotten, or that was never submitted, has not written them.
func status(shot *Shot, sl slurm, wait time.Duration, out io.Writer) error {
	st, err := readState(shot)
	if err != nil {
		return err
	}
	jobs := st.latest()
	var failed []string
	if wait > 0 {
		if failed, err = waitJobs(jobs, sl, wait); err != nil {
			return err
		}
	}
	fmt.Fprintf(out, "shot %s: %s\n", shot.Name, shot.Dir)
	if len(st.Submissions) == 0 {
		fmt.Fprintf(out, "not submitted (no %s): farm submit %s\n", statePath(shot), shot.File)
	}
	var incomplete []string
	var slurmErr error // once Slurm does not answer, it is not asked again
	for _, stg := range shot.stages() {
		jobText := "no job"
		if j, ok := jobs[stg.name]; ok {
			var tasks []task
			if slurmErr == nil {
				tasks, slurmErr = sl.tasks(j.ID)
			}
			if slurmErr != nil {
				jobText = fmt.Sprintf("job %s: Slurm does not answer (%v)", j.ID, slurmErr)
			} else {
				jobText = fmt.Sprintf("job %s: %s", j.ID, summarizeTasks(tasks))
			}
		}
		p := shot.progress(stg)
		if len(p.todo) > 0 {
			incomplete = append(incomplete, stg.name)
		}
		fmt.Fprintf(out, "%-9s %s\n          %s\n", stg.name, jobText, p.summary)
	}
	switch {
	case wait == 0:
		return nil
	case len(failed) > 0:
		return fmt.Errorf("%s failed (their logs are in %s): farm resubmit %s runs what is missing",
			strings.Join(failed, ", "), filepath.Join(shot.Dir, "logs"), shot.File)
	case len(incomplete) > 0:
		return fmt.Errorf("no job of %s runs, and %s lack outputs (above): farm resubmit %s runs what is missing",
			shot.Name, strings.Join(incomplete, ", "), shot.File)
	}
	return nil
}

// pollInterval is how often status -wait asks Slurm about the jobs.
const pollInterval = 2 * time.Second

// waitJobs waits until no task of jobs is queued or running, at most timeout, and
// returns the tasks that failed ("export task 12_1 (FAILED NonZeroExitCode)"). It
// fails when Slurm cannot be asked, or at the timeout.
func waitJobs(jobs map[string]jobRecord, sl slurm, timeout time.Duration) ([]string, error) {
	deadline := time.Now().Add(timeout)
	for {
		var busy string
		var failed []string
		for _, stage := range slices.Sorted(maps.Keys(jobs)) {
			tasks, err := sl.tasks(jobs[stage].ID)
			if err != nil {
				return nil, fmt.Errorf("-wait: %v", err)
			}
			for _, t := range tasks {
				if t.active() && busy == "" {
					busy = fmt.Sprintf("%s task %s is %s", stage, t.ID, t.State)
				}
				if t.failed() {
					failed = append(failed, fmt.Sprintf("%s task %s (%s %s)", stage, t.ID, t.State, t.Reason))
				}
			}
		}
		if busy == "" {
			return failed, nil
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("-wait: %s still after %v (-timeout)", busy, timeout)
		}
		time.Sleep(pollInterval)
	}
}

// summarizeTasks counts a job's tasks by state, naming the ones that failed and
// how often any was requeued.
func summarizeTasks(tasks []task) string {
	counts := map[string]int{}
	var order, failed []string
	restarts := 0
	for _, t := range tasks {
		state := t.State
		if state == "" {
			state = "unknown to Slurm now"
		}
		if counts[state] == 0 {
			order = append(order, state)
		}
		counts[state]++
		restarts += t.Restart
		if t.failed() {
			failed = append(failed, fmt.Sprintf("%s %s", t.ID, t.Reason))
		}
	}
	parts := make([]string, len(order))
	for i, s := range order {
		parts[i] = fmt.Sprintf("%d %s", counts[s], s)
	}
	line := strings.Join(parts, ", ")
	if restarts > 0 {
		line += fmt.Sprintf(", requeued %d times", restarts)
	}
	if len(failed) > 0 {
		line += " (" + strings.Join(failed, "; ") + ")"
	}
	return line
}

// resubmit submits again what the shot lacks: the array tasks whose frames are not
// all written, snowsim when its frames are not (it resumes from its newest
// checkpoint), the wedge's incomplete runs, the missing sheet. A stage waits for
// its upstream stage when that is resubmitted too. It refuses while a job of the
// shot may still run.
func resubmit(shot *Shot, sl slurm, dryRun bool, out io.Writer) error {
	st, err := readState(shot)
	if err != nil {
		return err
	}
	if err := checkIdle(st, sl); err != nil {
		return err
	}
	var reqs []request
	again := map[string]bool{}
	for _, stg := range shot.stages() {
		p := shot.progress(stg)
		if len(p.todo) == 0 {
			continue
		}
		r := request{stage: stg}
		if stg.tasks > 0 {
			r.only = p.todo
		}
		if !again[stg.after] {
			r.after = "" // its upstream's outputs are written
		}
		reqs = append(reqs, r)
		again[stg.name] = true
	}
	if len(reqs) == 0 {
		fmt.Fprintf(out, "every stage of %s has written its outputs: nothing to resubmit\n", shot.Name)
		return nil
	}
	if dryRun {
		printRequests(reqs, out)
		return nil
	}
	if err := shot.checkInputs(); err != nil {
		return err
	}
	return submitRequests(shot, st, "resubmit", reqs, sl, out)
}
