// Command snowsim simulates snow with the material point method of Stomakhin et al.
// 2013 and writes one Krakatoa PRT particle file per frame.
package main

import (
	"bytes"
	_ "embed"
	"fmt"
	"io"
	"os"

	"snowtools/cmd/internal/budget"
	"snowtools/cmd/internal/cli"
	"snowtools/cmd/internal/scene"
)

//go:embed demo.toml
var demoScene []byte

const usage = `snowsim simulates snow (Stomakhin et al. 2013, the material point method) and
writes one Krakatoa PRT particle file per frame.

Usage:
  snowsim [flags] [scene.toml]

With no scene it runs the built-in demo: snowballs thrown into each other and
at a sticky wall, written to snowsim-demo/snow.####.prt.

Every -checkpoint frames it saves the whole state next to the frames
(snow.####.snowstate); a run that was stopped, even killed, continues from
the newest one with -resume, and writes the same frames as if it never stopped.
Ctrl-C (or SIGTERM, or SIGUSR1: a scheduler's warning of the time limit) stops a
run after the frame it is simulating, with a checkpoint, and prints the command
that continues it (exit status 128 + the signal); a second one stops at once.
One run at a time writes into a folder (it holds .snowtools.lock there), and a
new run removes the frames an earlier one left outside its own.

Flags:
`

const examples = `
Examples:
  snowsim                                   run the demo (about two minutes on 2 cores)
  snowsim -quality draft -frames 12         a quick, coarse look at the demo
  snowsim -o out examples/snowball_drop.toml
  snowsim -preview -o out scene.toml        also write a PNG picture of every frame
  snowsim -print-demo > my_scene.toml       start a scene from the demo
  snowsim -resume -o out scene.toml         continue a killed run from its newest checkpoint
  snowsim -resume -frames 96 scene.toml     extend a finished run to frame 96
  snowsim -set press.1.pressure=300 -set snow.1.material='"fresh"' -o p300 examples/press_ball.toml

The scene format is described in README.md.
`

// qualities map -quality names to grid-spacing factors.
var qualities = map[string]float64{"draft": 2, "normal": 1, "high": 0.7, "ultra": 0.5}

// builtinSceneName is what errors call the built-in demo.
const builtinSceneName = "built-in demo"

// settings is what the flags say.
type settings struct {
	scene      string // the scene file; "" for the built-in demo
	printDemo  bool
	sets       scene.Settings
	resolution float64 // the -quality factor on the grid spacing
	outDir     string  // these three replace the scene's when given
	frames     int
	threads    int
	memory     budget.Flag
	run        runOptions
}

// runOptions are the flags that say how to run a scene rather than what it is.
type runOptions struct {
	budget  budget.Budget // -memory, else the scene's solver.memory, else the default
	every   int           // checkpoint every this many frames; 0 for none
	resume  bool          // continue from the newest checkpoint
	preview bool          // render a picture of every frame
	scene   [32]byte      // sceneIdentity, recorded in checkpoints
	// resumeCommand is the command line that continues this run, for the message of
	// an interrupted one.
	resumeCommand string
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	return cli.Run("snowsim", stderr,
		func() (*settings, error) { return parseFlags(args, stderr) },
		func(s *settings) error { return act(s, stdout, stderr) })
}

func parseFlags(args []string, stderr io.Writer) (*settings, error) {
	s := &settings{}
	fs := cli.NewFlagSet("snowsim", stderr, usage, examples)
	fs.StringVar(&s.outDir, "o", "", "output `dir` (default: the scene's output.dir)")
	fs.IntVar(&s.frames, "frames", 0, "simulate `N` frames after frame 0 (default: the scene's time.frames)")
	fs.IntVar(&s.threads, "threads", 0, "worker threads `N` (default: the scene's solver.threads, else all cores)")
	quality := fs.String("quality", "normal", "grid resolution: draft (h x2), normal, high (h x0.7) or ultra (h x0.5)")
	fs.BoolVar(&s.printDemo, "print-demo", false, "print the built-in demo scene and exit")
	fs.IntVar(&s.run.every, "checkpoint", 10, "write a checkpoint every `N` frames and after the last (0: none)")
	fs.BoolVar(&s.run.resume, "resume", false, "continue from the newest checkpoint in the output dir")
	fs.BoolVar(&s.run.preview, "preview", false, "also write a PNG picture of every frame next to it (snow.####.png)")
	fs.Var(&s.memory, "memory", budget.FlagUsage+"; replaces the scene's solver.memory")
	fs.Var(&s.sets, "set", "replace a scene key: `key=value`, as in press.1.pressure=300 (repeatable)")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	resolution, ok := qualities[*quality]
	if !ok {
		return nil, fmt.Errorf("-quality %q: use draft, normal, high or ultra", *quality)
	}
	s.resolution = resolution
	switch {
	case s.frames < 0:
		return nil, fmt.Errorf("-frames %d: must be >= 0 (0: the scene's time.frames)", s.frames)
	case s.threads < 0:
		return nil, fmt.Errorf("-threads %d: must be >= 0 (0: the scene's solver.threads)", s.threads)
	case s.threads > budget.MaxThreads:
		return nil, budget.CheckThreads("-threads", s.threads)
	case s.run.every < 0:
		return nil, fmt.Errorf("-checkpoint %d: must be >= 0 (0: no checkpoints)", s.run.every)
	case fs.NArg() > 1:
		return nil, fmt.Errorf("give one scene file, or none for the built-in demo, not %q", fs.Args())
	}
	s.scene = fs.Arg(0)
	s.run.resumeCommand = resumeCommand(args)
	return s, nil
}

// act prints the demo scene, or runs the scene the flags name.
func act(s *settings, stdout, log io.Writer) error {
	if s.printDemo {
		_, err := stdout.Write(demoScene)
		return err
	}
	sc, text, err := loadScene(s)
	if err != nil {
		return err
	}
	opts := s.run
	opts.scene = sceneIdentity(text, sc.Config.H)
	opts.budget = s.memory.Budget()
	if !s.memory.Given() && sc.Memory.Bytes > 0 {
		opts.budget = sc.Memory
	}
	if sc.Ground == nil {
		// Before seeding: an h too fine for the machine stops here, at once.
		if err := checkMemory(estimateMemory(sc), opts.budget); err != nil {
			return fmt.Errorf("%s: [[snow]] at domain.h = %g m: %w", s.sceneName(), sc.Config.H, err)
		}
	}
	return simulate(sc, opts, log)
}

// sceneName is what errors call the scene: its file, or the built-in demo.
func (s *settings) sceneName() string {
	if s.scene == "" {
		return builtinSceneName
	}
	return s.scene
}

// loadScene reads the scene with the flags' changes, and returns it with the text it
// was read from (checkpoints record a hash of it).
func loadScene(s *settings) (*scene.Scene, []byte, error) {
	name, text := s.sceneName(), demoScene
	if s.scene != "" {
		var err error
		if text, err = scene.ReadFile(name); err != nil {
			return nil, nil, err
		}
	}
	text, err := scene.Override(text, s.sets)
	if err != nil {
		return nil, nil, &cli.UsageError{Err: fmt.Errorf("%s: %v", name, err)}
	}
	sc, err := scene.Read(name, bytes.NewReader(text), s.resolution)
	if err != nil {
		return nil, nil, err
	}
	if s.outDir != "" {
		sc.OutDir = s.outDir
	}
	if s.frames > 0 {
		sc.Frames = s.frames
	}
	if s.threads > 0 {
		sc.Config.Threads = s.threads
		if sc.Ground != nil {
			sc.Ground.Config.Threads = s.threads
		}
	}
	return sc, text, nil
}
