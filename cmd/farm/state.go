package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"time"

	"snowtools/cmd/internal/cli"
)

// stateName is the file, in the shot's dir, that records the jobs submitted for it:
// what farm status asks Slurm about and farm resubmit replaces.
const stateName = "farm.json"

// state is the record of a shot's submissions, oldest first.
type state struct {
	Shot        string       `json:"shot"` // the description
	Submissions []submission `json:"submissions"`
}

// A submission is one farm submit or resubmit.
type submission struct {
	Time    time.Time   `json:"time"`
	Command string      `json:"command"` // "submit" or "resubmit"
	Jobs    []jobRecord `json:"jobs"`
}

// A jobRecord is a stage's job: its Slurm id and, for an array job, the tasks
// submitted.
type jobRecord struct {
	Stage string `json:"stage"`
	ID    string `json:"id"`
	Tasks []int  `json:"tasks,omitempty"`
}

func statePath(shot *Shot) string { return filepath.Join(shot.Dir, stateName) }

// readState reads the shot's state; a shot never submitted has an empty one.
func readState(shot *Shot) (*state, error) {
	st := &state{Shot: shot.File}
	b, err := os.ReadFile(statePath(shot))
	if errors.Is(err, fs.ErrNotExist) {
		return st, nil
	}
	if err != nil {
		return nil, err
	}
	damaged := func(problem string) error {
		return fmt.Errorf("%s: damaged (%s): fix it, or move it away to forget the jobs it records (farm status then reads the frames alone)", statePath(shot), problem)
	}
	if err := json.Unmarshal(b, st); err != nil {
		return nil, damaged(err.Error())
	}
	for i, sub := range st.Submissions {
		for _, j := range sub.Jobs {
			// An id that is not a number would ask scontrol about other jobs, or all.
			if !jobID.MatchString(j.ID) || j.Stage == "" {
				return nil, damaged(fmt.Sprintf("submission %d: job %q of stage %q: want a stage and a numeric id", i+1, j.ID, j.Stage))
			}
		}
	}
	return st, nil
}

// jobID matches the job ids sbatch --parsable prints.
var jobID = regexp.MustCompile(`^[0-9]+$`)

// write replaces the state file, atomically.
func (st *state) write(shot *Shot) error {
	return cli.WriteFileAtomic(statePath(shot), func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(st)
	})
}

// latest returns the newest job of each stage.
func (st *state) latest() map[string]jobRecord {
	jobs := map[string]jobRecord{}
	for _, sub := range st.Submissions {
		for _, j := range sub.Jobs {
			jobs[j.Stage] = j
		}
	}
	return jobs
}
