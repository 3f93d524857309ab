package scene

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"snowtools/levelset/geom"
	"snowtools/simcore"
	"snowtools/simcore/collider"
)

// madeByCommands are the example scenes that read collider files their README
// commands make first (cmd/snowsim's TestProductionExamples runs those pipelines).
var madeByCommands = map[string]bool{"plough.toml": true, "kick.toml": true}

// Every shipped scene and snowsim's built-in demo load.
func TestExamplesParse(t *testing.T) {
	files, _ := filepath.Glob("../../../examples/*.toml")
	if len(files) == 0 {
		t.Fatal("no examples/*.toml")
	}
	for _, name := range files {
		if madeByCommands[filepath.Base(name)] {
			continue
		}
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Read(name, f, 1); err != nil {
			t.Errorf("%v", err)
		}
		f.Close()
	}
	demo, err := os.ReadFile("../../snowsim/demo.toml")
	if err != nil {
		t.Fatal(err)
	}
	sc, err := Read("demo", bytes.NewReader(demo), 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(sc.Sources) != 3 || len(sc.Config.Colliders) != 1 {
		t.Errorf("demo: %d snow volumes and %d colliders", len(sc.Sources), len(sc.Config.Colliders))
	}
}

// every_option.toml sets every key; check that each one arrives.
func TestEveryOptionArrives(t *testing.T) {
	f, err := os.Open("../../../examples/every_option.toml")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc, err := Read("every_option.toml", f, 1)
	if err != nil {
		t.Fatal(err)
	}
	c := sc.Config
	if c.H != 0.025 || c.Walls.Mode != collider.Separate || c.Walls.Friction != 0.3 || sc.FPS != 30 || sc.Frames != 15 ||
		c.CFL != 0.5 || c.WaveCells != 14 || c.MaxDt != 1e-3 || c.MinDt != 1e-8 || c.Gravity[1] != -9.81 || c.FlipAlpha != 0.95 ||
		sc.OutDir != "out/every_option" || sc.Pattern != "snow.####.prt" || !slices.Equal(sc.Channels, FrameChannels) ||
		c.Integrator != simcore.Explicit || c.Beta != 1 || c.SolverTolerance != 1e-3 || c.SolverMaxIterations != 100 {
		t.Errorf("settings: %+v %+v", sc, c)
	}
	if c.Sleep || c.SleepSpeed != 1e-3 || c.SleepTime != 0.05 {
		t.Errorf("sleep: %v, %g m/s, %g s", c.Sleep, c.SleepSpeed, c.SleepTime)
	}
	if c.GravityStart != 0 || c.Damping != 0 || c.SinterEnd != 0.25 || len(c.Presses) != 1 || c.Presses[0].Axis != (geom.Vec3{0, 1, 0}) ||
		c.Presses[0].Pressure != 200 || c.Presses[0].End != 0.25 {
		t.Errorf("sintering window, gravity start and presses: %+v", c)
	}
	packing := sc.Materials["packing"]
	if packing.Sintering == nil || *packing.Sintering != simcore.DefaultSinteringLaw {
		t.Errorf("materials.packing.sintering = %+v", packing.Sintering)
	}
	if packing.CriticalCompression != 1.9e-2 || packing.YoungsModulus != 1.4e5 {
		t.Errorf("materials.packing = %+v", packing)
	}
	powder := sc.Materials["powder"]
	if powder.Density != 250 || powder.Hardening != 10 { // xi kept from Table 2
		t.Errorf("materials.powder = %+v", powder)
	}
	ball := sc.Sources[1]
	if ball.PerCell != 8 || ball.Seed != 7 || ball.Velocity[1] != -1 || ball.Spin[2] != 6 || ball.Material != powder {
		t.Errorf("snow[2] = %+v", ball)
	}
	blade := c.Colliders[1].(*collider.MovingShape)
	if blade.Velocity[0] != 1 || blade.Contact.Friction != 0.5 || blade.Contact.Mode != collider.Separate {
		t.Errorf("collider[2] = %+v", blade)
	}
	if c.Colliders[0].Surface().Mode != collider.Slip || c.Colliders[2].Surface().Mode != collider.Sticky {
		t.Error("collider modes")
	}
	icy, _ := simcore.Preset("icy")
	if crust := sc.Materials["crust"]; crust.YoungsModulus != icy.YoungsModulus || crust.Density != 450 {
		t.Errorf("materials.crust = %+v", crust)
	}
	if _, ok := c.Colliders[3].(*collider.RigidBody); !ok {
		t.Errorf("collider[4] is a %T", c.Colliders[3])
	}
	drift := sc.Sources[len(sc.Sources)-1]
	v := drift.Variation
	if drift.Pattern != simcore.PatternPoisson || v.NoiseScale != 0.03 || v.NoiseSeed != 5 || v.StiffnessNoise != 0.3 ||
		v.StretchNoise != 0.2 || v.ShellThickness != 0.01 || v.ShellStiffness != 2 || v.ShellDensity != 1.3 {
		t.Errorf("the drift: %+v", drift)
	}
}

// minimalScene is the smallest valid scene: a domain and a ball of snow.
const minimalScene = `
[domain]
min = [0, 0, 0]
max = [1, 1, 1]
h = 0.05
[[snow]]
shape = "sphere"
center = [0.5, 0.5, 0.5]
radius = 0.2
`

// Bad scenes fail with an error that names the key.
func TestSceneErrorsNameTheKey(t *testing.T) {
	const base = minimalScene
	cases := []struct{ scene, want string }{
		{base + "[time]\nfsp = 24\n", "unknown key time.fsp"},
		{base + "[[collider]]\nshape = \"plane\"\npoint = [0,0,0]\nnormal = [0,1,0]\nfrction = 1\n", "unknown key collider.frction"},
		{strings.Replace(base, "h = 0.05", "h = -1", 1), "domain.h"},
		{strings.Replace(base, "h = 0.05", "h = 0", 1), "domain.h"},
		{strings.Replace(base, "max = [1, 1, 1]", "max = [1, 0, 1]", 1), "domain: [0 0 0] to [1 0 1]: must be at least 4 cells wide"},
		{base + "[materials.wet]\nnu = 0.5\n", "materials.wet.nu: 0.5: must be in (0, 0.5)"},
		{base + "[materials.wet]\nE0 = -3\n", "materials.wet.E0: -3 Pa: must be in (0, 1e+12] Pa"},
		{base + "[materials.wet]\ntheta_c = 1.5\n", "materials.wet.theta_c: 1.5: must be in [0, 1)"},
		{strings.Replace(base, "radius = 0.2", "radius = 0.6", 1), "snow[1]: the sphere"},
		{strings.Replace(base, "radius = 0.2", "radius = 0.2\nmaterial = \"granite\"", 1), "snow[1].material"},
		{strings.Replace(base, "radius = 0.2", "radius = 0.2\nparticles_per_cell = 0", 1), "snow[1].particles_per_cell"},
		{strings.Replace(base, "shape = \"sphere\"", "shape = \"cone\"", 1), "snow[1].shape"},
		{strings.Replace(base, "radius = 0.2", "", 1), "snow[1].radius: required"},
		{base + "[[collider]]\nshape = \"box\"\nmin = [0,0,0]\nmax = [1,1,1]\nmode = \"glue\"\n", "collider[1].mode"},
		{base + "[[collider]]\nshape = \"box\"\nmin = [0,0,0]\nmax = [1,1,1]\nfriction = -1\n", "collider[1].friction"},
		{base + "[[collider]]\nshape = \"plane\"\npoint = [0,0,0]\nnormal = [0,0,0]\n", "collider[1].normal"},
		{base + "[time]\nfps = 0\n", "time.fps"},
		{base + "[time]\nframes = 0\n", "time.frames"},
		{base + "[time]\ncfl = 2\n", "time.cfl: 2: must be in (0, 1]"},
		{base + "[solver]\nflip_alpha = 1.5\n", "solver.flip_alpha: 1.5: must be in [0, 1]"},
		{base + "[solver]\ndamping = -1\n", "solver.damping: -1 1/s: must be >= 0"},
		{base + "[solver]\nsleep_speed = -1\n", "solver.sleep_speed: -1 m/s: must be >= 0"},
		{base + "[solver]\nsleep_time = -0.1\n", "solver.sleep_time: -0.1 s: must be >= 0"},
		{base + "[solver]\nsleep = 1\n", "solver.sleep"},
		{base + "[solver]\nintegrator = \"implicit\"\n", `solver.integrator: "implicit": must be "explicit", "semi-implicit" or "auto"`},
		{base + "[solver]\nintegrator = \"auto\"\nmax_iterations = 0\n", "solver.max_iterations: 0: must be at least 1"},
		{base + "[solver]\nintegrator = \"auto\"\n[time]\nwave_cells = 0\n", "time.wave_cells: 0: must be > 0"},
		{base + "[solver]\ntransfer = \"flip\"\n", `solver.transfer: "flip": must be "pic-flip" or "apic"`},
		{base + "[solver]\nflip_alpha_step = -1\n", "solver.flip_alpha_step: -1 s: must be >= 0"},
		{base + "[solver]\nintegrator = \"semi-implicit\"\nbeta = 2\n", "solver.beta: 2: must be in [0, 1]"},
		{base + "[solver]\nintegrator = \"semi-implicit\"\ntolerance = 0\n", "solver.tolerance: 0: must be in (0, 1)"},
		{base + "[solver]\nintegrator = \"semi-implicit\"\nmax_iterations = 0\n", "solver.max_iterations: 0: must be at least 1"},
		{base + "[time]\nmax_dt = 0\n", "time.max_dt: 0: must be > 0"},
		{base + "[time]\nmin_dt = 1\n", "time.min_dt: 1: must be in (0, max_dt]"},
		{base + "[solver]\nintegrator = \"semi-implicit\"\n[time]\nwave_cells = 0\n", "time.wave_cells: 0: must be > 0"},
		{base + "[solver]\nthreads = -1\n", "solver.threads: -1: must be >= 0"},
		{base + "[solver]\nthreads = 100000000\n", "solver.threads 100000000: at most 1024"},
		{base + "[solver]\nmemory = \"lots\"\n", `solver.memory: memory size "lots"`},
		{base + "[solver]\nmemory = \"-1G\"\n", `solver.memory: memory size "-1G"`},
		{base + "[solver]\ngravity = [nan, 0, 0]\n", "solver.gravity: [NaN 0 0]: must be finite"},
		{base + "[sintering]\nstart = -1\n", "sintering.start: -1 s: must be >= 0"},
		{strings.Replace(base, "h = 0.05", "h = 0.05\nwall_friction = -1", 1), "domain.wall_friction: -1: must be >= 0"},
		{base + "[output]\npattern = \"snow.prt\"\n", "output.pattern"},
		{base + "[output]\npattern = \"a/snow.####.prt\"\n", "output.pattern"},
		{base + "[output]\nchannels = [\"Rest\"]\n", `output.channels: "Rest": must be "RestPosition" or "Orientation"`},
		{base + "[output]\nchannels = [\"Orientation\", \"RestPosition\", \"Orientation\"]\n", `output.channels: "Orientation" is listed twice`},
		{base + "[output]\nchannels = \"Orientation\"\n", `last key "output.channels"): incompatible types`},
		{"[domain]\nmin = [0, 0, 0]\nmax = [1, 1, 1]\nh = 0.05\n", "no [[snow]]"},
		{"[domain\n", "s.toml: line 2: expected"},
	}
	for _, c := range cases {
		_, err := Read("s.toml", strings.NewReader(c.scene), 1)
		if err == nil {
			t.Errorf("no error for %q", c.want)
			continue
		}
		if !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "s.toml:") {
			t.Errorf("error %q does not name %q and the file", err, c.want)
		}
	}
}

// solver.memory is the run's budget, named by its key; without it the scene leaves
// the budget to snowsim (the zero Budget).
func TestMemoryKey(t *testing.T) {
	sc, err := Read("s.toml", strings.NewReader(minimalScene+"[solver]\nmemory = \"1.5G\"\nthreads = 1024\n"), 1)
	if err != nil {
		t.Fatal(err)
	}
	if sc.Memory.Bytes != 3<<29 || sc.Memory.Source != `solver.memory = "1.5G"` || sc.Config.Threads != 1024 {
		t.Errorf("memory %+v, threads %d", sc.Memory, sc.Config.Threads)
	}
	if sc, err = Read("s.toml", strings.NewReader(minimalScene), 1); err != nil || sc.Memory.Bytes != 0 {
		t.Errorf("no key: %+v, %v", sc.Memory, err)
	}
}

// solver.integrator names each integrator; "auto" lets the solver choose per frame.
func TestIntegratorKey(t *testing.T) {
	for _, c := range []struct {
		name string
		in   simcore.Integrator
	}{{"explicit", simcore.Explicit}, {"semi-implicit", simcore.SemiImplicit}, {"auto", simcore.Auto}} {
		sc, err := Read("s.toml", strings.NewReader(minimalScene+"[solver]\nintegrator = \""+c.name+"\"\n"), 1)
		if err != nil {
			t.Fatal(err)
		}
		if sc.Config.Integrator != c.in {
			t.Errorf("%q: integrator %v", c.name, sc.Config.Integrator)
		}
	}
}

// The semi-implicit integrator has its own default CFL (on particle speed alone); a cfl
// the scene gives wins.
func TestSemiImplicitCFL(t *testing.T) {
	const scene = minimalScene + "[solver]\nintegrator = \"semi-implicit\"\n"
	for _, c := range []struct {
		extra string
		want  float64
	}{{"", simcore.SemiImplicitCFL}, {"[time]\ncfl = 0.3\n", 0.3}} {
		sc, err := Read("s.toml", strings.NewReader(scene+c.extra), 1)
		if err != nil {
			t.Fatal(err)
		}
		if got := sc.Config.StepCFL(); got != c.want {
			t.Errorf("%q: cfl %g, want %g", c.extra, got, c.want)
		}
	}
}

// solver.sleep turns sleeping snow on; its speed and time keep their defaults (0) when
// absent.
func TestSleepKey(t *testing.T) {
	sc, err := Read("s.toml", strings.NewReader(minimalScene+"[solver]\nsleep = true\n"), 1)
	if err != nil {
		t.Fatal(err)
	}
	if c := sc.Config; !c.Sleep || c.SleepSpeed != 0 || c.SleepTime != 0 {
		t.Errorf("sleep %v, %g m/s, %g s", c.Sleep, c.SleepSpeed, c.SleepTime)
	}
}
