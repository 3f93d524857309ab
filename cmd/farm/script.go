package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"snowtools/cmd/internal/cli"
	"snowtools/cmd/internal/seq"
)

// A stage is one sbatch submission of a shot: a single job or an array job, its batch
// script, and the stage whose success it waits for (--dependency=afterok).
type stage struct {
	name   string // voxelize, snowsim, wedge, sheet or export
	tasks  int    // array tasks 0..tasks-1; 0 for a single job
	limit  int    // array tasks at once; 0 for no limit
	after  string // the stage it waits for; "" for none
	script string
}

// stages returns the shot's stages in the order they are submitted, each after the
// one it depends on: voxelize -> snowsim (or the wedge -> its sheet) -> export.
func (s *Shot) stages() []stage {
	var st []stage
	simAfter := ""
	if c := s.Voxelize; c != nil {
		st = append(st, stage{name: "voxelize", tasks: c.Tasks(), limit: c.Limit, script: s.chunkScript(c)})
		simAfter = "voxelize"
	}
	if sim := s.Snowsim; sim != nil {
		if w := sim.Wedge; w != nil {
			st = append(st, stage{name: "wedge", tasks: len(w.Runs), limit: w.Limit, after: simAfter, script: s.snowsimScript("wedge")},
				stage{name: "sheet", after: "wedge", script: s.sheetScript()})
		} else {
			st = append(st, stage{name: "snowsim", after: simAfter, script: s.snowsimScript("snowsim")})
		}
	}
	if c := s.Export; c != nil {
		after := ""
		if s.Snowsim != nil {
			after = "snowsim"
		}
		st = append(st, stage{name: "export", tasks: c.Tasks(), limit: c.Limit, after: after, script: s.chunkScript(c)})
	}
	return st
}

// header starts a batch script: the interpreter, the #SBATCH lines of the job's name,
// log and resources, and the threads the tools are to use (the CPUs Slurm gave).
func (s *Shot) header(stage string, array bool, res Resources, extra ...string) string {
	var b strings.Builder
	b.WriteString("#!/bin/bash\n")
	fmt.Fprintf(&b, "# farm: stage %s of the shot %s (%s)\n", stage, s.Name, s.File)
	log := filepath.Join(s.Dir, "logs", stage+".%j.log")
	if array {
		log = filepath.Join(s.Dir, "logs", stage+".%A_%a.log")
	}
	options := []string{"--job-name=" + s.Name + "." + stage, "--output=" + log}
	if res.Partition != "" {
		options = append(options, "--partition="+res.Partition)
	}
	if res.Time != "" {
		options = append(options, "--time="+res.Time)
	}
	if res.Memory != "" {
		options = append(options, "--mem="+res.Memory)
	}
	if res.CPUs > 0 {
		options = append(options, fmt.Sprintf("--cpus-per-task=%d", res.CPUs))
	}
	options = append(append(options, extra...), res.Options...)
	for _, o := range options {
		fmt.Fprintf(&b, "#SBATCH %s\n", o)
	}
	b.WriteString("threads=${SLURM_CPUS_PER_TASK:-1}\n")
	return b.String()
}

// tool is the path of a tool, quoted.
func (s *Shot) tool(name string) string { return cli.ShellQuote(filepath.Join(s.Tools, name)) }

// chunkScript is voxelize's or export's array job: task i runs the tool on its chunk
// of frames alone, skipping those written already (a task run again, resubmitted).
func (s *Shot) chunkScript(c *Chunked) string {
	var b strings.Builder
	b.WriteString(s.header(c.Tool, true, c.Slurm))
	fmt.Fprintf(&b, "# array task i: frames %d + %d*i to %d frames later, up to frame %d\n", c.First, c.Chunk, c.Chunk-1, c.Last)
	fmt.Fprintf(&b, "first=$(( %d + SLURM_ARRAY_TASK_ID * %d ))\n", c.First, c.Chunk)
	fmt.Fprintf(&b, "last=$(( first + %d ))\n", c.Chunk-1)
	fmt.Fprintf(&b, "if [ \"$last\" -gt %d ]; then last=%d; fi\n", c.Last, c.Last)
	words := []string{"exec", s.tool(c.Tool), `-frames "$first-$last"`, "-skip-existing", `-threads "$threads"`}
	words = append(words, cli.ShellQuoteAll(c.Args)...)
	if c.Tool == "voxelize" {
		words = append(words, "-o", cli.ShellQuote(c.Output), cli.ShellQuote(c.Input))
	} else {
		words = append(words, cli.ShellQuote(c.Input), cli.ShellQuote(c.Output))
	}
	b.WriteString(strings.Join(words, " ") + "\n")
	return b.String()
}

// snowsimScript is snowsim's job (stage "snowsim") or the wedge's array job (stage
// "wedge", a run per task). Slurm sends the script SIGUSR1 Signal seconds before the
// time limit (--signal=B:USR1@Signal); the script passes it to snowsim, which
// finishes its frame, writes a checkpoint and exits, and the script requeues the
// job. Run again, it resumes from the newest checkpoint, so that no frame is lost or
// written twice. A requeue for any other reason (a node lost, scontrol requeue)
// resumes the same way from the newest checkpoint.
func (s *Shot) snowsimScript(stage string) string {
	sim := s.Snowsim
	res := sim.Slurm
	if sim.Wedge != nil {
		res = sim.Wedge.Slurm
	}
	var b strings.Builder
	b.WriteString(s.header(stage, sim.Wedge != nil, res, "--requeue", "--open-mode=append", fmt.Sprintf("--signal=B:USR1@%d", sim.Signal)))
	if w := sim.Wedge; w != nil {
		b.WriteString("# this task's run of the wedge: its folder and scene keys\n")
		b.WriteString("case \"$SLURM_ARRAY_TASK_ID\" in\n")
		for i, run := range w.Runs {
			var sets []string
			for _, set := range run {
				sets = append(sets, "-set", cli.ShellQuote(set.String()))
			}
			fmt.Fprintf(&b, "  %d) out=%s; sets=(%s) ;;\n", i, cli.ShellQuote(sim.RunDir(i)), strings.Join(sets, " "))
		}
		b.WriteString("  *) echo \"farm: the wedge has no run $SLURM_ARRAY_TASK_ID\" >&2; exit 2 ;;\nesac\n")
	} else {
		fmt.Fprintf(&b, "out=%s; sets=()\n", cli.ShellQuote(sim.Dir))
	}
	fmt.Fprintf(&b, "resume=()\nif compgen -G \"$out/\"%s >/dev/null; then resume=(-resume); fi\n", cli.ShellQuote(checkpointGlob(sim.Pattern)))
	words := []string{s.tool("snowsim"), `"${resume[@]}"`, `-threads "$threads"`, `-o "$out"`,
		"-frames", fmt.Sprint(sim.Last - sim.First), "-set", fmt.Sprintf("time.start=%d", sim.First),
		"-set", cli.ShellQuote(fmt.Sprintf("output.pattern=%q", sim.Pattern))}
	for _, set := range sim.Set {
		words = append(words, "-set", cli.ShellQuote(set))
	}
	words = append(words, `"${sets[@]}"`)
	words = append(append(words, cli.ShellQuoteAll(sim.Args)...), cli.ShellQuote(sim.Scene), "&")
	b.WriteString(`requeue=no
trap 'requeue=yes; kill -USR1 "$pid" 2>/dev/null' USR1
`)
	b.WriteString(strings.Join(words, " ") + "\n")
	b.WriteString(`pid=$!
# wait returns early when the trap runs: wait again until snowsim has ended.
while :; do
  wait "$pid"; status=$?
  kill -0 "$pid" 2>/dev/null || break
done
if [ "$requeue" = yes ] && [ "$status" -ne 0 ]; then
  echo "farm: the time limit is near: snowsim stopped with a checkpoint; requeueing job $SLURM_JOB_ID to resume from it"
  scontrol requeue "$SLURM_JOB_ID"
fi
exit "$status"
`)
	return b.String()
}

// checkpointGlob matches the checkpoints snowsim writes beside frames of pattern:
// snow.####.prt -> snow.*.snowstate.
func checkpointGlob(pattern string) string {
	p, _, _ := seq.ParsePattern(pattern)
	suffix := strings.TrimSuffix(p.Suffix(), filepath.Ext(p.Suffix()))
	return p.Prefix() + "*" + suffix + ".snowstate"
}

// sheetScript is the job after a wedge: export -to compare of every run's last frame,
// a row per run labelled with its keys.
func (s *Shot) sheetScript() string {
	sim := s.Snowsim
	var b strings.Builder
	b.WriteString(s.header("sheet", false, s.Slurm))
	labels := make([]string, len(sim.Wedge.Runs))
	for i, run := range sim.Wedge.Runs {
		labels[i] = Label(run)
	}
	words := []string{"exec", s.tool("export"), "-to", "compare", "-frames", fmt.Sprint(sim.Last),
		"-labels", cli.ShellQuote(strings.Join(labels, ",")), `-threads "$threads"`, cli.ShellQuote(sim.Wedge.Sheet)}
	for _, dir := range sim.Folders() {
		words = append(words, cli.ShellQuote(sim.Frames(dir)))
	}
	b.WriteString(strings.Join(words, " ") + "\n")
	return b.String()
}
