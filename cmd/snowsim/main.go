// Command snowsim simulates snow with the material point method of Stomakhin et al.
// 2013 and writes one Krakatoa PRT particle file per frame.
package main

import (
	"bytes"
	_ "embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"snowtools/cmd/internal/cli"
	"snowtools/simcore"
)

//go:embed demo.toml
var demoScene []byte

const usage = `snowsim simulates snow (Stomakhin et al. 2013, the material point method) and
writes one Krakatoa PRT particle file per frame.

Usage:
  snowsim [flags] [scene.toml]

With no scene it runs the built-in demo: snowballs smashing into each other and
into a sticky wall, written to snowsim-demo/snow.####.prt.

Every -checkpoint frames it saves the whole state next to the frames
(snow.####.snowstate); a run that was stopped, even killed, continues from
the newest one with -resume, and writes the same frames as if it never stopped.

Flags:
`

const examples = `
Examples:
  snowsim                                   run the demo (about a minute on 2 cores)
  snowsim -quality draft -frames 12         a quick, coarse look at the demo
  snowsim -o out examples/snowball_drop.toml
  snowsim -preview -o out scene.toml        also write a PNG picture of every frame
  snowsim -print-demo > my_scene.toml       start a scene from the demo
  snowsim -resume -o out scene.toml         continue a killed run from its newest checkpoint
  snowsim -resume -frames 96 scene.toml     extend a finished run to frame 96
  snowsim -set press.1.pressure=300 -set snow.1.material='"fresh"' -o p300 examples/press_ball.toml

The scene format is described in README.md.
`

// Exit statuses: 2 for usage errors, 1 for everything else.
const (
	exitFailure = 1
	exitUsage   = 2
)

// qualities map -quality names to grid-spacing factors.
var qualities = map[string]float64{"draft": 2, "normal": 1, "high": 0.7, "ultra": 0.5}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("snowsim", flag.ContinueOnError)
	fs.SetOutput(stderr)
	outDir := fs.String("o", "", "output `dir` (default: the scene's output.dir)")
	frames := fs.Int("frames", 0, "simulate `N` frames after frame 0 (default: the scene's time.frames)")
	threads := fs.Int("threads", 0, "worker threads `N` (default: the scene's solver.threads, else all cores)")
	quality := fs.String("quality", "normal", "grid resolution: draft (h x2), normal, high (h x0.7) or ultra (h x0.5)")
	printDemo := fs.Bool("print-demo", false, "print the built-in demo scene and exit")
	every := fs.Int("checkpoint", 10, "write a checkpoint every `N` frames and after the last (0: none)")
	resume := fs.Bool("resume", false, "continue from the newest checkpoint in the output dir")
	previews := fs.Bool("preview", false, "also write a PNG picture of every frame next to it (snow.####.png)")
	var sets settings
	fs.Var(&sets, "set", "replace a scene key: `key=value`, as in press.1.pressure=300 (repeatable)")
	fs.Usage = func() {
		fmt.Fprint(stderr, usage)
		fs.PrintDefaults()
		fmt.Fprint(stderr, examples)
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return exitUsage
	}
	if *printDemo {
		stdout.Write(demoScene)
		return 0
	}
	factor, ok := qualities[*quality]
	if !ok {
		fmt.Fprintf(stderr, "snowsim: -quality %q: use draft, normal, high or ultra\n", *quality)
		return exitUsage
	}
	if fs.NArg() > 1 || *frames < 0 || *threads < 0 || *every < 0 {
		fs.Usage()
		return exitUsage
	}

	// The scene text is kept: checkpoints record a hash of it.
	name, text := builtinSceneName, demoScene
	if fs.NArg() == 1 {
		var err error
		name = fs.Arg(0)
		if text, err = os.ReadFile(name); err != nil {
			fmt.Fprintf(stderr, "snowsim: %v\n", err)
			return exitFailure
		}
	}
	text, err := override(text, sets)
	if err != nil {
		fmt.Fprintf(stderr, "snowsim: %s: %v\n", name, err)
		return exitUsage
	}
	sc, err := parseScene(name, bytes.NewReader(text), factor)
	if err != nil {
		fmt.Fprintf(stderr, "snowsim: %v\n", err)
		return exitFailure
	}
	if *outDir != "" {
		sc.OutDir = *outDir
	}
	if *frames > 0 {
		sc.Frames = *frames
	}
	if *threads > 0 {
		sc.Config.Threads = *threads
		if sc.Ground != nil {
			sc.Ground.Config.Threads = *threads
		}
	}
	opts := runOptions{every: *every, resume: *resume, preview: *previews, scene: sceneIdentity(text, sc.Config.H)}
	if err := simulate(sc, opts, stderr); err != nil {
		fmt.Fprintf(stderr, "snowsim: %v\n", err)
		return exitFailure
	}
	return 0
}

// runOptions are the flags that say how to run a scene rather than what it is.
type runOptions struct {
	every   int      // checkpoint every this many frames; 0 for none
	resume  bool     // continue from the newest checkpoint
	preview bool     // render a picture of every frame
	scene   [32]byte // sceneIdentity, recorded in checkpoints
}

// simulate seeds the scene's snow (or, resuming, restores it from a checkpoint), runs
// it and writes every frame, and a checkpoint every opts.every frames.
func simulate(sc *Scene, opts runOptions, log io.Writer) error {
	if sc.Ground != nil {
		return simulateGround(sc, opts, log)
	}
	if err := os.MkdirAll(sc.OutDir, 0o755); err != nil {
		return err
	}
	cps, err := newCheckpoints(sc.OutDir, sc.Pattern, opts.scene)
	if err != nil {
		return err
	}
	cps.removeTemporary()
	var sim *simcore.Sim
	first := 1 // the first frame to simulate
	if opts.resume {
		if sim, first, err = resumeSim(sc, cps, log); err != nil || sim == nil {
			return err
		}
	} else if sim, err = startSim(sc, cps, log); err != nil {
		return err
	}
	p := sim.P
	var pv *previewer
	if opts.preview {
		pv = newPreviewer(sc, p)
	}
	write := func(frame int) error {
		path := filepath.Join(sc.OutDir, frameName(sc.Pattern, frame))
		info := frameInfo{Frame: frame, Time: sim.Time, FPS: sc.FPS, H: sc.Config.H}
		if err := cli.WriteFileAtomic(path, func(w io.Writer) error { return writePRT(wrapOutput(path, w), p, info) }); err != nil {
			return err
		}
		if pv != nil {
			return pv.write(frame, p)
		}
		return nil
	}
	if first == 1 {
		if err := write(0); err != nil {
			return err
		}
	}
	fmt.Fprintf(log, "snowsim: %d particles, h = %g m, frames %d-%d at %g fps -> %s\n",
		p.Len(), sc.Config.H, first, sc.Frames, sc.FPS, filepath.Join(sc.OutDir, sc.Pattern))

	progress := cli.NewProgress(log)
	start := time.Now()
	var totalSteps int
	frameIterations := sim.SolverIterations() // at the end of the previous frame
	unconverged := sim.UnconvergedSolves()
	for f := first; f <= sc.Frames; f++ {
		steps, err := advanceTo(&sim.Time, sim.Advance, sc.Sequences, float64(f)/sc.FPS)
		totalSteps += steps
		if err != nil {
			progress.Done()
			return fmt.Errorf("frame %d: %v (frames 0-%d are written and valid)", f, err, f-1)
		}
		if err := write(f); err != nil {
			progress.Done()
			return fmt.Errorf("frame %d: %v", f, err)
		}
		// After the frame: a checkpoint at frame f then never lacks its frame file.
		if opts.every > 0 && (f%opts.every == 0 || f == sc.Frames) {
			if err := cps.write(f, sim); err != nil {
				progress.Done()
				return fmt.Errorf("frame %d: %v", f, err)
			}
		}
		done := f - first + 1
		elapsed := time.Since(start)
		eta := time.Duration(float64(elapsed) / float64(done) * float64(sc.Frames-f))
		solver := ""
		if sc.Config.Integrator == simcore.SemiImplicit && steps > 0 {
			its := sim.SolverIterations()
			solver = fmt.Sprintf("  %.1f solver iterations/step", float64(its-frameIterations)/float64(steps))
			frameIterations = its
		}
		if n := sim.UnconvergedSolves(); n > unconverged {
			progress.Done()
			_, residual := sim.LastSolve()
			fmt.Fprintf(log, "snowsim: warning: frame %d: %d of %d steps stopped the solve at max_iterations = %d with the residual above "+
				"tolerance = %g (last step: %.2g); the snow is too stiff for the time step: lower cfl, wave_cells or max_dt\n",
				f, n-unconverged, steps, sc.Config.SolverMaxIterations, sc.Config.SolverTolerance, residual)
			unconverged = n
		}
		progress.Update(fmt.Sprintf("frame %d/%d  t = %.3f s  %d steps (%d this frame)%s  %d particles  elapsed %s  ETA %s",
			f, sc.Frames, sim.Time, totalSteps, steps, solver, p.Len(), cli.Duration(elapsed), cli.Duration(eta)))
	}
	progress.Done()
	wall := time.Since(start).Seconds()
	n := sc.Frames - first + 1
	fmt.Fprintf(log, "snowsim: %d frames in %.1f s: %.2f s/frame, %.0f steps/frame, %.3g particle-steps/s\n",
		n, wall, wall/float64(n), float64(totalSteps)/float64(n),
		float64(totalSteps)*float64(p.Len())/wall)
	return nil
}

// startSim seeds the scene's snow and prepares it for frame 0.
func startSim(sc *Scene, cps *checkpoints, log io.Writer) (*simcore.Sim, error) {
	p := &simcore.Particles{}
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
	sim.Prepare()
	return sim, nil
}
