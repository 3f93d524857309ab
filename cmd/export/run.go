package main

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"sync"
	"time"

	"snowtools/cmd/internal/cli"
	"snowtools/cmd/internal/seq"
)

// A job is one frame to convert.
type job struct {
	index int // in the selection
	in    seq.Frame
	out   string // "" when only the whole-sequence outputs want the frame
}

// A result is what converting a frame gave.
type result struct {
	particles int   // or vertices, for a mesh sequence (settings.counts)
	bytes     int64 // written
	err       error
}

// An outcome is a converted frame.
type outcome struct {
	job
	result
}

// A converter turns one frame into its output; threads is its share of the workers.
// Converters run concurrently on different frames.
type converter interface {
	convert(j job, threads int) result
	// finish writes what needs every frame (a contact sheet, a GIF), after all frames.
	finish(log io.Writer) error
}

// exportAll converts every selected frame, several at a time, and reports progress
// and a summary. It stops at the first failure; frames written before it stay valid.
func exportAll(s *settings, log io.Writer) error {
	jobs, conv, err := plan(s)
	if err != nil {
		return err
	}
	if len(jobs) == 0 { // -skip-existing found every output written
		fmt.Fprintf(log, "export: every selected frame's output exists already (-skip-existing): nothing to do\n")
		return nil
	}
	start := time.Now()
	parallel := s.threads
	if s.to == "surface" || s.view.surface { // both mesh the surface
		largest, err := largestFrame(jobs)
		if err != nil {
			return err
		}
		parallel = s.surface.surfaceParallel(s.threads, largest)
	}
	done, stop := convertAll(jobs, conv, s.threads, parallel)
	tally := collect(done, stop, len(jobs), start, s.counts(), log)
	perFrameFiles := s.output != "" // else only a sheet, a GIF or a report, written at the end
	if tally.failed != nil {
		if a, ok := conv.(interface{ abort() }); ok {
			a.abort() // the archive of -to abc or surface's .abc output, unfinished
		}
		if !perFrameFiles {
			return fmt.Errorf("%v (nothing was written)", tally.failed)
		}
		return fmt.Errorf("%v (%d other frames were written and are complete)", tally.failed, tally.finished)
	}
	if err := conv.finish(log); err != nil {
		return err
	}
	wall := time.Since(start).Seconds()
	summary := fmt.Sprintf("export: %d frames (%d-%d) to %s in %.1f s: %.2f s per frame, %.0f %s per frame",
		len(jobs), jobs[0].in.Number, jobs[len(jobs)-1].in.Number, s.to, wall, wall/float64(len(jobs)),
		float64(tally.particles)/float64(len(jobs)), s.counts())
	if perFrameFiles {
		summary += fmt.Sprintf(", %.1f MB written", float64(tally.written)/1e6)
	}
	fmt.Fprintln(log, summary)
	return nil
}

// convertAll converts the jobs' frames in parallel, at most maxParallel at once (a
// memory bound), each with its share of the threads: whole frames parallelise
// perfectly (reading, compressing and writing included), so every worker gets a
// frame of its own when there are enough of them. Outcomes arrive on done, which
// closes after the last; closing stop starts no more.
func convertAll(jobs []job, conv converter, threads, maxParallel int) (done <-chan outcome, stop chan struct{}) {
	parallel := max(1, min(threads, maxParallel, len(jobs)))
	inner := max(1, threads/parallel)
	todo := make(chan job)
	out := make(chan outcome)
	stop = make(chan struct{})
	var wg sync.WaitGroup
	for w := 0; w < parallel; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range todo {
				out <- outcome{j, conv.convert(j, inner)}
			}
		}()
	}
	go func() {
		defer close(todo)
		for _, j := range jobs {
			select {
			case todo <- j:
			case <-stop:
				return
			}
		}
	}()
	go func() { wg.Wait(); close(out) }()
	return out, stop
}

// exportTally sums the outcomes of a run.
type exportTally struct {
	finished           int
	particles, written int64
	failed             error // the first failure
}

// collect reads every outcome, showing progress, and closes stop at the first failure.
// noun names what result.particles counts.
func collect(done <-chan outcome, stop chan struct{}, jobs int, start time.Time, noun string, log io.Writer) exportTally {
	progress := cli.NewProgress(log)
	var t exportTally
	stopped := false
	var consequence error // a frame that failed because an earlier one did
	for d := range done {
		if d.err != nil {
			err := fmt.Errorf("frame %d (%s): %v", d.in.Number, d.in.Path, d.err)
			if errors.Is(d.err, errEarlierFrameFailed) {
				consequence = cmp.Or(consequence, err)
			} else if t.failed == nil {
				t.failed = err
			}
			if !stopped {
				stopped = true
				close(stop)
			}
			continue
		}
		t.finished++
		t.particles += int64(d.particles)
		t.written += d.bytes
		elapsed := time.Since(start)
		eta := time.Duration(float64(elapsed) / float64(t.finished) * float64(jobs-t.finished))
		progress.Update(fmt.Sprintf("frame %d  %d/%d  %d %s  elapsed %s  ETA %s",
			d.in.Number, t.finished, jobs, d.particles, noun, cli.Duration(elapsed), cli.Duration(eta)))
	}
	progress.Done()
	t.failed = cmp.Or(t.failed, consequence)
	return t
}

// counts names what a frame's result counts: its particles, or the vertices of a
// mesh sequence's meshes.
func (s *settings) counts() string {
	if s.to == "abc" && isMeshInput(s.input) {
		return "vertices"
	}
	return "particles"
}

// plan returns the frames to convert and the converter of the -to format. A
// comparison chooses its own frames, from several inputs.
func plan(s *settings) ([]job, converter, error) {
	if err := checkOutputs(s); err != nil {
		return nil, nil, err
	}
	if s.to == "compare" {
		c, err := newComparison(s)
		if err != nil {
			return nil, nil, err
		}
		return c.jobs, c, nil
	}
	jobs, err := selectFrames(s)
	if err != nil {
		return nil, nil, err
	}
	conv, err := newConverter(s, jobs)
	if err != nil {
		return nil, nil, err
	}
	return jobs, conv, nil
}

// selectFrames finds the input frames in the -frames range and names their outputs.
func selectFrames(s *settings) ([]job, error) {
	frames, err := seq.Find(s.input)
	if err != nil {
		return nil, err
	}
	oneFile := s.oneFileToOne()
	var jobs []job
	for _, f := range frames {
		if s.selection != "" && (f.Number < s.first || f.Number > s.last) {
			continue
		}
		if oneFile {
			if same, _ := sameFile(f.Path, s.input); !same {
				continue
			}
		}
		jobs = append(jobs, job{index: len(jobs), in: f})
	}
	if len(jobs) == 0 {
		return nil, fmt.Errorf("%s: no frame in -frames %s (the sequence has frames %d-%d)",
			s.input, s.selection, frames[0].Number, frames[len(frames)-1].Number)
	}
	if s.output == "" {
		return jobs, nil
	}
	for _, out := range s.outputs() {
		if _, isPattern, _ := seq.ParsePattern(out); !isPattern && len(jobs) > 1 {
			return nil, fmt.Errorf("output %s names one file for %d frames: write the frame number as #### or %%04d", out, len(jobs))
		}
		for _, j := range jobs {
			if same, _ := sameFile(outputPath(out, j.in.Number), j.in.Path); same {
				return nil, fmt.Errorf("output %s would replace its input", outputPath(out, j.in.Number))
			}
		}
	}
	for i := range jobs {
		jobs[i].out = outputPath(s.output, jobs[i].in.Number)
	}
	if s.skipExisting {
		return s.leaveOutWritten(jobs), nil
	}
	return jobs, nil
}

// leaveOutWritten returns the jobs of which some output file does not exist yet,
// renumbered. Outputs are written atomically (cli.WriteFileAtomic), so a file that
// exists is complete: a farm task that ran again, or a run that completes a
// sequence, converts only the rest.
func (s *settings) leaveOutWritten(jobs []job) []job {
	var todo []job
	for _, j := range jobs {
		for _, out := range s.outputs() {
			if _, err := os.Stat(outputPath(out, j.in.Number)); err != nil {
				j.index = len(todo)
				todo = append(todo, j)
				break
			}
		}
	}
	return todo
}

// oneFileToOne reports whether the command converts one numbered file into one
// output file: the input names a file rather than a pattern, every output names a
// file, and -frames chooses nothing. Then the input is that file alone, not the
// sequence it belongs to, as "export -to ply snow.0004.prt out.ply" means.
func (s *settings) oneFileToOne() bool {
	if s.selection != "" || len(s.outputs()) == 0 {
		return false
	}
	if _, isPattern, _ := seq.ParsePattern(s.input); isPattern {
		return false
	}
	for _, out := range s.outputs() {
		if _, isPattern, _ := seq.ParsePattern(out); isPattern {
			return false
		}
	}
	return true
}

// outputs returns the output patterns: -to surface's several, else the one.
func (s *settings) outputs() []string {
	if s.to == "surface" {
		return s.surface.outputs
	}
	if s.output == "" {
		return nil
	}
	return []string{s.output}
}

// largestFrame returns the largest particle count of the jobs' frames, from their
// headers.
func largestFrame(jobs []job) (int64, error) {
	var largest int64
	for _, j := range jobs {
		h, err := readHeader(j.in.Path)
		if err != nil {
			return 0, fmt.Errorf("frame %d (%s): %v", j.in.Number, j.in.Path, err)
		}
		largest = max(largest, h.Count)
	}
	return largest, nil
}

// replacesInput reports whether writing the one file path would replace the input of
// one of jobs (a report or table named like a frame it reads).
func replacesInput(path string, jobs []job) bool {
	for _, j := range jobs {
		if same, _ := sameFile(path, j.in.Path); same {
			return true
		}
	}
	return false
}

// sameFile reports whether two paths name one existing file.
func sameFile(a, b string) (bool, error) {
	ia, err := os.Stat(a)
	if err != nil {
		return false, err
	}
	ib, err := os.Stat(b)
	if err != nil {
		return false, err
	}
	return os.SameFile(ia, ib), nil
}

// newConverter returns the converter of the -to format.
func newConverter(s *settings, jobs []job) (converter, error) {
	switch s.to {
	case "ply":
		return &plyConverter{s: s}, nil
	case "vdb":
		return &vdbConverter{s: s}, nil
	case "prt":
		return &prtConverter{s: s}, nil
	case "clusters":
		return newClusterReport(s, jobs)
	case "surface":
		c := &surfaceConverter{s: s, budget: newMemoryBudget(int64(min(s.surface.memory*1e9, math.MaxInt64/2)))}
		if s.abc.output != "" {
			a, err := newArchive(s.abc.output, jobs)
			if err != nil {
				return nil, err
			}
			c.archive = &meshArchive{archive: a, name: "surface", velocities: s.velocity}
		}
		return c, nil
	case "abc":
		if isMeshInput(s.input) {
			return newMeshSequenceConverter(s, jobs)
		}
		return newABCConverter(s, jobs)
	}
	return newPNGConverter(s, jobs)
}

// writeOutput writes a frame's file atomically and returns its size.
func writeOutput(path string, write func(w io.Writer) error) (int64, error) {
	if err := cli.WriteFileAtomic(path, write); err != nil {
		return 0, err
	}
	info, err := os.Stat(path)
	if err != nil {
		return 0, err
	}
	return info.Size(), nil
}
