package main

import (
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"snowtools/cmd/internal/cli"
)

// A request is a stage to submit: all its array tasks, or those a resubmit chose.
type request struct {
	stage
	only []int // the array tasks to run; nil for all
}

// submit submits every stage of the shot (farm submit), refusing while jobs of an
// earlier submission may still run.
func submit(shot *Shot, sl slurm, dryRun bool, out io.Writer) error {
	var reqs []request
	for _, st := range shot.stages() {
		reqs = append(reqs, request{stage: st})
	}
	if dryRun {
		printRequests(reqs, out)
		return nil
	}
	if err := shot.checkInputs(); err != nil {
		return err
	}
	st, err := readState(shot)
	if err != nil {
		return err
	}
	if err := checkIdle(st, sl); err != nil {
		return err
	}
	return submitRequests(shot, st, "submit", reqs, sl, out)
}

// checkIdle refuses when a job of the shot's newest submissions is queued or running
// (submitting again would run two jobs into the same folders), or when Slurm cannot
// say.
func checkIdle(st *state, sl slurm) error {
	jobs := st.latest()
	for _, stage := range slices.Sorted(maps.Keys(jobs)) {
		j := jobs[stage]
		tasks, err := sl.tasks(j.ID)
		if err != nil {
			return fmt.Errorf("asking Slurm whether job %s (%s) of this shot still runs: %v", j.ID, stage, err)
		}
		for _, t := range tasks {
			if t.active() {
				return fmt.Errorf("job %s (%s) of this shot is %s: wait for it (farm status -wait) or scancel %s", t.ID, stage, t.State, j.ID)
			}
		}
	}
	return nil
}

// arraySpec is sbatch's --array value for tasks 0..n-1, or the listed ones, with at
// most limit at once.
func arraySpec(n int, only []int, limit int) string {
	spec := fmt.Sprintf("0-%d", n-1)
	if only != nil {
		items := make([]string, len(only))
		for i, t := range only {
			items[i] = strconv.Itoa(t)
		}
		spec = strings.Join(items, ",")
	}
	if limit > 0 {
		spec += fmt.Sprintf("%%%d", limit)
	}
	return spec
}

// options are the sbatch options of a request whose dependency, if any, has the id
// after ("" when the stage it waits for was not submitted now: its outputs exist).
// A job whose dependency failed is cancelled, not left pending for ever.
func (r request) options(after string) []string {
	var o []string
	if r.tasks > 0 {
		o = append(o, "--array="+arraySpec(r.tasks, r.only, r.limit))
	}
	if after != "" {
		o = append(o, "--dependency=afterok:"+after, "--kill-on-invalid-dep=yes")
	}
	return o
}

// printRequests prints each stage's sbatch command and batch script (-dry-run).
func printRequests(reqs []request, out io.Writer) {
	submitted := map[string]bool{}
	for _, r := range reqs {
		after := ""
		if submitted[r.after] {
			after = "<job of " + r.after + ">"
		}
		fmt.Fprintf(out, "# sbatch --parsable %s scripts/%s.sh\n%s\n", strings.Join(r.options(after), " "), r.name, r.script)
		submitted[r.name] = true
	}
}

// submitRequests writes the requests' scripts into the shot's scripts folder and
// submits them in order, each after the job of the stage it waits for when that was
// submitted too; it records the jobs in the state file, also after a failure part-way.
func submitRequests(shot *Shot, st *state, command string, reqs []request, sl slurm, out io.Writer) error {
	for _, d := range []string{"logs", "scripts"} {
		if err := os.MkdirAll(filepath.Join(shot.Dir, d), 0o755); err != nil {
			return err
		}
	}
	sub := submission{Time: time.Now().UTC().Truncate(time.Second), Command: command}
	ids := map[string]string{}
	var err error
	for _, r := range reqs {
		path := filepath.Join(shot.Dir, "scripts", r.name+".sh")
		if err = cli.WriteFileAtomic(path, func(w io.Writer) error { _, err := io.WriteString(w, r.script); return err }); err != nil {
			break
		}
		var id string
		if id, err = sl.sbatch(path, r.options(ids[r.after])...); err != nil {
			err = fmt.Errorf("%s: %w", r.name, err)
			break
		}
		ids[r.name] = id
		rec := jobRecord{Stage: r.name, ID: id}
		if r.tasks > 0 {
			rec.Tasks = r.only
			if rec.Tasks == nil {
				for i := range r.tasks {
					rec.Tasks = append(rec.Tasks, i)
				}
			}
		}
		sub.Jobs = append(sub.Jobs, rec)
		fmt.Fprintf(out, "%-9s job %s%s\n", r.name, id, describeTasks(r))
	}
	if len(sub.Jobs) > 0 {
		st.Submissions = append(st.Submissions, sub)
		if werr := st.write(shot); err == nil {
			err = werr
		}
	}
	return err
}

// describeTasks says which tasks an array request runs.
func describeTasks(r request) string {
	switch {
	case r.tasks == 0:
		return ""
	case r.only == nil:
		return fmt.Sprintf(" (array of %d tasks: --array=%s)", r.tasks, arraySpec(r.tasks, nil, r.limit))
	}
	return fmt.Sprintf(" (tasks %s of %d)", arraySpec(r.tasks, r.only, 0), r.tasks)
}
