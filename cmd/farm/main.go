// Command farm runs a shot on a Slurm cluster: voxelize and export as array jobs
// over chunks of frames, snowsim as a job that checkpoints before its time limit
// and requeues itself, a wedge of snowsim runs with a contact sheet, all chained by
// dependencies. It also starts a private one-node cluster of this machine to try
// that on (farm cluster up).
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"snowtools/cmd/internal/cli"
	"snowtools/cmd/internal/localslurm"
)

const usage = `farm runs a shot's voxelize, snowsim and export on a Slurm cluster.

Usage:
  farm submit [-dry-run] [-cluster DIR] shot.toml   submit every stage, print the job ids
  farm status [-wait [-timeout D]] [-cluster DIR] shot.toml
                                                    the shot's jobs and the frames written
  farm resubmit [-dry-run] [-cluster DIR] shot.toml submit again only what is missing
  farm cluster up DIR                               start a private one-node Slurm in DIR
  farm cluster down DIR                             stop it (its jobs are cancelled)

shot.toml describes the stages (README.md, "On a farm"): voxelize and export run as
array jobs, a task per chunk of frames, each skipping the frames written already;
snowsim runs as one job that Slurm warns before its time limit (USR1), which stops
after a frame with a checkpoint and requeues itself to resume; a [wedge] runs
snowsim once per row of scene keys into its own folder, then a contact sheet of
their last frames. The jobs wait for each other: voxelize -> snowsim -> export.
The submit writes the scripts, the logs and farm.json (the job ids) in the shot's
dir. Without -cluster the Slurm commands use the machine's own configuration
(SLURM_CONF, else /etc/slurm/slurm.conf).

Flags:
`

const examples = `
Examples:
  farm cluster up /tmp/cluster
  farm submit -cluster /tmp/cluster shot.toml
  farm status -wait -cluster /tmp/cluster shot.toml
  farm resubmit -cluster /tmp/cluster shot.toml
  farm cluster down /tmp/cluster
`

// settings is what the command line says.
type settings struct {
	command string // submit, status, resubmit, up or down
	shot    string // the description, or the cluster's folder for up and down
	dryRun  bool
	wait    bool          // status -wait
	timeout time.Duration // how long status -wait waits at most
	cluster string        // -cluster: a private cluster's folder
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	return cli.Run("farm", stderr,
		func() (*settings, error) { return parseArgs(args, stderr) },
		func(s *settings) error { return act(s, stdout) })
}

func parseArgs(args []string, stderr io.Writer) (*settings, error) {
	s := &settings{}
	fs := cli.NewFlagSet("farm", stderr, usage, examples)
	fs.BoolVar(&s.dryRun, "dry-run", false, "submit, resubmit: print the sbatch commands and batch scripts instead of submitting")
	fs.BoolVar(&s.wait, "wait", false, "status: first wait until the shot's jobs have ended (exit status 1 if one failed, or if a stage's outputs are incomplete)")
	fs.DurationVar(&s.timeout, "timeout", 24*time.Hour, "status -wait: give up (exit status 1) when a job still runs after `DURATION`, such as 30m or 48h")
	fs.StringVar(&s.cluster, "cluster", "", "use the private cluster that farm cluster up started in `DIR`")
	if len(args) == 0 || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" {
		return nil, fs.Parse([]string{"-h"})
	}
	s.command, args = args[0], args[1:]
	if s.command == "cluster" {
		if len(args) != 2 || (args[0] != "up" && args[0] != "down") {
			return nil, errors.New("use farm cluster up DIR or farm cluster down DIR")
		}
		s.command, s.shot = args[0], args[1]
		return s, nil
	}
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	switch {
	case s.command != "submit" && s.command != "status" && s.command != "resubmit":
		return nil, fmt.Errorf("%q: use submit, status, resubmit or cluster", s.command)
	case fs.NArg() != 1:
		return nil, fmt.Errorf("%s: give one shot description, not %q", s.command, fs.Args())
	case s.dryRun && s.command == "status":
		return nil, errors.New("-dry-run: for submit and resubmit")
	case s.wait && s.command != "status":
		return nil, errors.New("-wait: for status")
	case s.timeout <= 0:
		return nil, fmt.Errorf("-timeout %v: give a positive duration, such as 30m", s.timeout)
	}
	s.shot = fs.Arg(0)
	return s, nil
}

func act(s *settings, out io.Writer) error {
	switch s.command {
	case "up":
		c, err := localslurm.Up(s.shot)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "a one-node Slurm runs in %s: farm submit -cluster %s shot.toml, or export %s\n", c.Dir, s.shot, c.Env())
		return nil
	case "down":
		return localslurm.Down(s.shot)
	}
	sl, err := slurmFor(s.cluster)
	if err != nil {
		return err
	}
	shot, err := ReadShot(s.shot, toolsFolder())
	if err != nil {
		return err
	}
	switch s.command {
	case "submit":
		return submit(shot, sl, s.dryRun, out)
	case "resubmit":
		return resubmit(shot, sl, s.dryRun, out)
	}
	wait := time.Duration(0)
	if s.wait {
		wait = s.timeout
	}
	return status(shot, sl, wait, out)
}

// slurmFor returns the Slurm commands of the private cluster in dir, or of the
// machine's configuration when dir is "".
func slurmFor(dir string) (slurm, error) {
	if dir == "" {
		return slurm{}, nil
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return slurm{}, err
	}
	c := localslurm.Cluster{Dir: abs}
	if !exists(c.Conf()) {
		return slurm{}, fmt.Errorf("-cluster %s: no cluster there (no %s): farm cluster up %s", dir, c.Conf(), dir)
	}
	if !c.Running() { // else each Slurm command would try its controller for 10 to 20 s
		return slurm{}, fmt.Errorf("-cluster %s: the cluster is not running (stopped, or the machine restarted): farm cluster up %s", dir, dir)
	}
	return slurm{env: []string{c.Env()}}, nil
}

// toolsFolder is where the tools are by default: beside the farm executable, as go
// build -o bin/ ./cmd/... puts them.
func toolsFolder() string {
	exe, err := os.Executable()
	if err != nil {
		return "."
	}
	return filepath.Dir(exe)
}
