package main

import (
	"fmt"
	"io"
	"path/filepath"
	"time"

	"snowtools/cmd/internal/budget"
	"snowtools/cmd/internal/cli"
	"snowtools/cmd/internal/scene"
	"snowtools/cmd/internal/seq"
	"snowtools/simcore"
	"snowtools/simcore/collider"
)

// simulate seeds the scene's snow (or, resuming, restores it from a checkpoint), runs
// it and writes every frame, and a checkpoint every opts.every frames.
// The run holds its output folder's lock (claimOutputFolder) from start to end.
func simulate(sc *scene.Scene, opts runOptions, log io.Writer) error {
	if err := checkFrames(sc); err != nil {
		return err
	}
	lock, err := claimOutputFolder(sc, log)
	if err != nil {
		return err
	}
	defer lock.Release()
	if sc.Ground != nil {
		return simulateGround(sc, opts, log)
	}
	r, first, err := startRun(sc, opts, log)
	if err != nil || r == nil {
		return err
	}
	if first == sc.Start+1 {
		if err := r.write(sc.Start); err != nil {
			return err
		}
	}
	fmt.Fprintf(log, "snowsim: %d particles, h = %g m, frames %d-%d at %g fps -> %s; memory: about %s of the budget's %s\n",
		r.sim.P.Len(), sc.Config.H, first, sc.Last(), sc.FPS, filepath.Join(sc.OutDir, sc.Pattern),
		budget.Format(estimateMemory(sc).bytes), budget.Format(opts.budget.Bytes))
	return r.frames(first)
}

// snowRun is an MPM simulation on its way through a scene's frames.
type snowRun struct {
	sc        *scene.Scene
	opts      runOptions
	cols      []frameColumn // of the frames
	sim       *simcore.Sim
	cps       *checkpoints
	pv        *previewer      // nil without -preview
	colliders *colliderOutput // nil when neither the preview nor the scene wants the colliders' meshes
	log       io.Writer
}

// startRun prepares the output folder and the simulation, new or resumed; it returns
// the first frame to simulate, and a nil run when a resumed one has nothing to do. A
// new run, once its snow is seeded, removes what an earlier run left in the folder:
// its checkpoints and its frames outside this run's.
func startRun(sc *scene.Scene, opts runOptions, log io.Writer) (*snowRun, int, error) {
	cps, err := newCheckpoints(sc.OutDir, sc.Pattern, opts.scene)
	if err != nil {
		return nil, 0, err
	}
	cps.limit = opts.budget.Bytes
	cps.removeTemporary()
	r := &snowRun{sc: sc, opts: opts, cols: frameColumns(sc.Channels), cps: cps, log: log}
	first := sc.Start + 1
	keepRest := hasColumn(r.cols, "RestPosition")
	if opts.resume {
		if r.sim, first, err = resumeSim(sc, cps, log); err != nil || r.sim == nil {
			return nil, 0, err
		}
		if keepRest && r.sim.P.Rest == nil { // the scene identity rules this out; a frame would fail
			return nil, 0, fmt.Errorf("-resume: the checkpoint holds no rest positions for output.channels' RestPosition")
		}
	} else {
		if r.sim, err = startSim(sc, keepRest, cps, log); err != nil {
			return nil, 0, err
		}
		if err := removeStaleFrames(sc, opts.preview, log); err != nil {
			return nil, 0, err
		}
	}
	if opts.preview {
		r.pv = newPreviewer(sc, r.sim.P)
	}
	if r.colliders, err = newColliderOutput(sc, opts.preview); err != nil {
		return nil, 0, err
	}
	return r, first, nil
}

// startSim seeds the scene's snow and prepares it for its first frame; with keepRest the
// particles keep the positions they are seeded at, for the RestPosition column.
func startSim(sc *scene.Scene, keepRest bool, cps *checkpoints, log io.Writer) (*simcore.Sim, error) {
	p := &simcore.Particles{}
	if keepRest {
		p.KeepRestPositions()
	}
	p.Reserve(reservation(estimateMemory(sc)))
	for i, src := range sc.Sources {
		if n, err := simcore.Fill(p, src, sc.Config.H); err != nil {
			return nil, fmt.Errorf("snow[%d]: %v", i+1, err)
		} else if n == 0 {
			return nil, fmt.Errorf("snow[%d]: no particle fits in it at grid spacing %g m: make it larger or the grid finer", i+1, sc.Config.H)
		}
	}
	sim, err := simcore.NewSim(sc.Config, p)
	if err != nil {
		return nil, err
	}
	if n, err := cps.removeAll(); err != nil {
		return nil, err
	} else if n > 0 {
		fmt.Fprintf(log, "snowsim: starting over: removed %d checkpoints of an earlier run from %s\n", n, sc.OutDir)
	}
	sim.Time = float64(sc.Start) / sc.FPS
	sim.Prepare()
	return sim, nil
}

// write writes frame f's particles, its colliders when the scene asks for them, and
// its picture with -preview.
func (r *snowRun) write(frame int) error {
	info := frameInfo{Frame: frame, Time: r.sim.Time, FPS: r.sc.FPS, H: r.sc.Config.H}
	p := r.sim.P
	if err := writeFrameFile(r.sc.OutDir, r.sc.Pattern, frame, func(w io.Writer) error { return writePRT(w, p, r.cols, info) }); err != nil {
		return err
	}
	meshes, err := r.colliders.frame(frame, r.sim.Time)
	if err != nil {
		return err
	}
	if r.pv != nil {
		return r.pv.render(frame, p.X, nil, meshes)
	}
	return nil
}

// frames simulates and writes frames first to the last, with a checkpoint after every
// opts.every of them and after the last, reporting progress and the solver's health.
// A SIGINT or SIGTERM stops it after the frame it is simulating (interruptWatch).
func (r *snowRun) frames(first int) error {
	sc, sim := r.sc, r.sim
	progress := cli.NewProgress(r.log)
	health := newSolverHealth(&sc.Config, sim)
	integrator := integratorNotes{sim: sim, auto: sc.Config.Integrator == simcore.Auto}
	interrupts := watchInterrupts(r.log, r.howToGoOn)
	defer interrupts.stop()
	start := time.Now()
	var totalSteps int
	for f := first; f <= sc.Last(); f++ {
		steps, err := r.frame(f)
		totalSteps += steps
		if err != nil {
			progress.Done()
			return err
		}
		integrator.afterFrame(f, progress, r.log)
		solver := health.afterFrame(f, steps, progress, r.log)
		elapsed := time.Since(start)
		eta := cli.ETA(elapsed, f-first+1, sc.Last()-f)
		asleep := ""
		if sc.Config.Sleep {
			asleep = fmt.Sprintf(" (%d asleep)", sim.Sleeping())
		}
		progress.Update(fmt.Sprintf("frame %d/%d  t = %.3f s  %d steps (%d this frame)%s  %d particles%s  elapsed %s  ETA %s",
			f, sc.Last(), sim.Time, totalSteps, steps, solver, sim.P.Len(), asleep, cli.Duration(elapsed), cli.Duration(eta)))
		if sig := interrupts.signal(); sig != nil && f < sc.Last() {
			progress.Done()
			return r.interrupted(sig, f)
		}
	}
	progress.Done()
	wall := time.Since(start).Seconds()
	n := sc.Last() - first + 1
	fmt.Fprintf(r.log, "snowsim: %d frames in %.1f s: %.2f s/frame, %.0f steps/frame, %.3g particle-steps/s\n",
		n, wall, wall/float64(n), float64(totalSteps)/float64(n),
		float64(totalSteps)*float64(sim.P.Len())/wall)
	return nil
}

// frame simulates frame f and writes it, then its checkpoint if one is due (after
// the frame, so that a checkpoint at frame f never lacks its frame file). It returns
// the steps taken.
func (r *snowRun) frame(f int) (int, error) {
	sc, sim := r.sc, r.sim
	steps, err := collider.AdvanceTo(&sim.Time, sim.Advance, sc.Sequences, float64(f)/sc.FPS)
	if err != nil {
		return steps, fmt.Errorf("frame %d: %v (frames %d-%d are written and valid)", f, err, sc.Start, f-1)
	}
	if err := r.write(f); err != nil {
		return steps, fmt.Errorf("frame %d: %v", f, err)
	}
	if every := r.opts.every; every > 0 && (f%every == 0 || f == sc.Last()) {
		if err := r.cps.write(f, sim); err != nil {
			return steps, fmt.Errorf("frame %d: %v", f, err)
		}
	}
	return steps, nil
}

// solverHealth follows the semi-implicit solver from frame to frame: its iterations,
// and the solves that stopped short of the tolerance.
type solverHealth struct {
	cfg         *simcore.Config
	sim         *simcore.Sim
	iterations  int64 // at the end of the previous frame
	unconverged int64
	frozen      bool // warned of a step that froze the snow (simcore.Freeze)
}

func newSolverHealth(cfg *simcore.Config, sim *simcore.Sim) *solverHealth {
	return &solverHealth{cfg: cfg, sim: sim, iterations: sim.SolverIterations(), unconverged: sim.UnconvergedSolves()}
}

// afterFrame warns of solves that did not converge in frame f, which took steps, and
// returns the solver's part of the progress line.
func (h *solverHealth) afterFrame(f, steps int, progress *cli.Progress, log io.Writer) string {
	sim, cfg := h.sim, h.cfg
	solver := ""
	// A frame's semi-implicit steps may end in an explicit one (auto's choice for a
	// last short stretch), so the frame's iterations are counted whatever its last
	// integrator.
	its := sim.SolverIterations()
	if steps > 0 && (its > h.iterations || sim.Integrator() == simcore.SemiImplicit) {
		solver = fmt.Sprintf("  %.1f solver iterations/step", float64(its-h.iterations)/float64(steps))
	}
	h.iterations = its
	if n := sim.UnconvergedSolves(); n > h.unconverged {
		progress.Done()
		_, residual := sim.LastSolve()
		fmt.Fprintf(log, "snowsim: warning: frame %d: %d of %d steps stopped the solve at max_iterations = %d with the residual above "+
			"tolerance = %g (last step: %.2g); the snow is too stiff for the time step: lower cfl, wave_cells or max_dt\n",
			f, n-h.unconverged, steps, cfg.SolverMaxIterations, cfg.SolverTolerance, residual)
		h.unconverged = n
	}
	if fz := sim.Frozen(); fz != nil && !h.frozen {
		progress.Done()
		fmt.Fprintf(log, "snowsim: warning: frame %d: step %d at t = %.6g s stopped every particle although its forces moved the grid "+
			"at up to %.3g m/s, with the nearest particle %.3g m from a collider or wall: the step was too long for the forces "+
			"(a press's pressure, a collider's speed); the frames from here show snow that does not move\n",
			f, fz.Steps, fz.Time, fz.GridSpeed, fz.Gap)
		h.frozen = true
	}
	return solver
}

// frameName returns the file name of frame f of a pattern that the scene accepted.
func frameName(pattern string, f int) string {
	p, _, _ := seq.ParsePattern(pattern)
	return p.Path(f)
}

// writeFrameFile writes frame f of the file pattern in dir, atomically.
func writeFrameFile(dir, pattern string, f int, write func(io.Writer) error) error {
	path := filepath.Join(dir, frameName(pattern, f))
	return cli.WriteFileAtomic(path, func(w io.Writer) error { return write(wrapOutput(path, w)) })
}
