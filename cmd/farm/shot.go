package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"

	"snowtools/cmd/internal/scene"
	"snowtools/cmd/internal/seq"
)

// A shot description (TOML) says what runs on the farm: voxelize, snowsim (or a
// wedge of snowsim runs) and export, each optional, with their files, frames and
// Slurm resources. Relative paths of inputs are relative to the description's
// folder; outputs are relative to the shot's dir. Every key is in README.md's "On a
// farm" section and in docs/farm.md.

// shotFile is the description as TOML has it.
type shotFile struct {
	Name     string       `toml:"name"`
	Dir      string       `toml:"dir"`
	Tools    string       `toml:"tools"`
	Slurm    slurmKeys    `toml:"slurm"`
	Voxelize *chunkedKeys `toml:"voxelize"`
	Snowsim  *snowsimKeys `toml:"snowsim"`
	Wedge    *wedgeKeys   `toml:"wedge"`
	Export   *chunkedKeys `toml:"export"`
}

// slurmKeys are the resources of a job: [slurm] for every job, [STAGE.slurm] for one
// stage's, whose keys replace those of [slurm].
type slurmKeys struct {
	Partition string   `toml:"partition"`
	Time      string   `toml:"time"`
	Memory    string   `toml:"memory"`
	CPUs      int      `toml:"cpus"`
	Options   []string `toml:"options"`
}

// chunkedKeys are voxelize's or export's table: a sequence cut into chunks of
// frames, one array task each.
type chunkedKeys struct {
	Input  string     `toml:"input"`
	Output string     `toml:"output"`
	Frames string     `toml:"frames"`
	Chunk  *int       `toml:"chunk"`
	Limit  int        `toml:"limit"`
	Args   []string   `toml:"args"`
	Slurm  *slurmKeys `toml:"slurm"`
}

type snowsimKeys struct {
	Scene   string     `toml:"scene"`
	Output  string     `toml:"output"`
	Pattern string     `toml:"pattern"`
	Frames  string     `toml:"frames"`
	Signal  *int       `toml:"signal"`
	Set     []string   `toml:"set"`
	Args    []string   `toml:"args"`
	Slurm   *slurmKeys `toml:"slurm"`
}

type wedgeKeys struct {
	Keys   []string   `toml:"keys"`
	Values [][]any    `toml:"values"`
	Rows   [][]any    `toml:"rows"`
	Sheet  string     `toml:"sheet"`
	Limit  int        `toml:"limit"`
	Slurm  *slurmKeys `toml:"slurm"`
}

// Defaults of the description's keys.
const (
	defaultChunk   = 10              // frames per array task
	defaultSignal  = 300             // s before the time limit that snowsim is told to stop
	defaultSimDir  = "sim"           // snowsim's folder in the shot's dir
	defaultPattern = "snow.####.prt" // snowsim's frames
	defaultSheet   = "wedge.png"
	maxSignal      = 65535 // Slurm's limit on --signal's lead time
	maxWedgeRuns   = 1000  // Slurm's default MaxArraySize is 1001 tasks
)

// A Shot is a description read and checked, with absolute paths.
type Shot struct {
	File  string // the description
	Name  string // the jobs' names start with it
	Dir   string // the outputs' folder, with logs/, scripts/ and the state file
	Tools string // the folder of voxelize, snowsim and export
	Slurm Resources

	Voxelize *Chunked // nil when the shot has no such stage
	Snowsim  *Sim
	Export   *Chunked
}

// Resources are a job's sbatch options.
type Resources struct {
	Partition, Time, Memory string
	CPUs                    int
	Options                 []string // passed through as they are
}

// Chunked is voxelize or export over frames First-Last, Chunk frames per array task,
// at most Limit tasks at once (0: no limit).
type Chunked struct {
	Tool          string // "voxelize" or "export"
	Input, Output string // Output is a pattern (####)
	First, Last   int
	Chunk, Limit  int
	Args          []string
	Slurm         Resources
}

// Tasks is the number of array tasks.
func (c *Chunked) Tasks() int { return (c.Last-c.First)/c.Chunk + 1 }

// TaskFrames returns the frames of array task i.
func (c *Chunked) TaskFrames(i int) (first, last int) {
	first = c.First + i*c.Chunk
	return first, min(first+c.Chunk-1, c.Last)
}

// Sim is snowsim's stage: one run into Dir, or with a Wedge one run per row into
// RunDir(i).
type Sim struct {
	Scene       string
	Dir         string // -o
	Pattern     string // output.pattern, which the farm sets so that it knows the names
	First, Last int    // the frames: time.start and -frames Last-First
	Signal      int    // s: --signal=B:USR1@Signal
	Set         []string
	Args        []string
	Slurm       Resources
	Wedge       *Wedge
}

// A Wedge is a sweep of scene keys: a snowsim run per row of Runs, each into its own
// folder, and a contact sheet of their last frames.
type Wedge struct {
	Runs  [][]Setting
	Sheet string // the contact sheet, a PNG
	Limit int    // runs at once (0: no limit)
	Slurm Resources
}

// A Setting is a scene key and its value as TOML text, as snowsim's -set takes it.
type Setting struct{ Key, Value string }

func (s Setting) String() string { return s.Key + "=" + s.Value }

// RunDir is the folder of run i of a wedge: w00, w01, ... in the snowsim folder.
func (s *Sim) RunDir(i int) string {
	width := len(fmt.Sprint(len(s.Wedge.Runs) - 1))
	return filepath.Join(s.Dir, fmt.Sprintf("w%0*d", max(2, width), i))
}

// Frames returns the frame pattern of a snowsim folder.
func (s *Sim) Frames(dir string) string { return filepath.Join(dir, s.Pattern) }

// Folders returns the folders snowsim writes: the run's, or each wedge run's.
func (s *Sim) Folders() []string {
	if s.Wedge == nil {
		return []string{s.Dir}
	}
	dirs := make([]string, len(s.Wedge.Runs))
	for i := range dirs {
		dirs[i] = s.RunDir(i)
	}
	return dirs
}

// A KeyError is a mistake in a description: its file, the key and what is wrong.
type KeyError struct {
	File, Key, Problem string
}

func (e *KeyError) Error() string {
	if e.Key == "" {
		return e.File + ": " + e.Problem
	}
	return e.File + ": " + e.Key + ": " + e.Problem
}

// ReadShot reads and checks the description at path; tools is the default folder of
// the tools (the farm executable's).
func ReadShot(path, tools string) (*Shot, error) {
	text, err := scene.ReadFile(path) // a regular file of sane size, as scenes are
	if err != nil {
		return nil, err
	}
	return parseShot(path, text, tools)
}

// parseShot decodes a description's text, whose file is path, and checks it.
func parseShot(path string, text []byte, tools string) (*Shot, error) {
	var f shotFile
	md, err := toml.Decode(string(text), &f)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, &KeyError{File: path, Problem: fmt.Sprintf("line %d: %s", pe.Position.Line, pe.Message)}
		}
		return nil, &KeyError{File: path, Problem: err.Error()}
	}
	if und := md.Undecoded(); len(und) > 0 {
		keys := make([]string, len(und))
		for i, k := range und {
			keys[i] = k.String()
		}
		slices.Sort(keys)
		return nil, &KeyError{File: path, Key: strings.Join(keys, ", "), Problem: "unknown key (README.md's \"On a farm\" lists them)"}
	}
	r := &shotReader{file: path, base: filepath.Dir(path)}
	shot, err := r.shot(&f, tools)
	if err != nil {
		return nil, err
	}
	return shot, nil
}

// shotReader checks a description's tables and makes its paths absolute.
type shotReader struct {
	file string // for errors
	base string // the description's folder: relative inputs start there
	dir  string // the shot's folder: relative outputs start there
}

func (r *shotReader) fail(key, format string, args ...any) error {
	return &KeyError{File: r.file, Key: key, Problem: fmt.Sprintf(format, args...)}
}

// abs returns path from folder from, absolute.
func abs(from, path string) string {
	if !filepath.IsAbs(path) {
		path = filepath.Join(from, path)
	}
	if a, err := filepath.Abs(path); err == nil {
		return a
	}
	return path
}

// jobName is what a shot's name may be: it names jobs and files.
var jobName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]*$`)

func (r *shotReader) shot(f *shotFile, tools string) (*Shot, error) {
	s := &Shot{File: abs(".", r.file), Name: f.Name}
	if s.Name == "" {
		s.Name = strings.TrimSuffix(filepath.Base(r.file), filepath.Ext(r.file))
	}
	if !jobName.MatchString(s.Name) {
		return nil, r.fail("name", "%q: use letters, digits, _, . and -, starting with a letter or digit", s.Name)
	}
	if f.Dir == "" {
		f.Dir = s.Name
	}
	s.Dir = abs(r.base, f.Dir)
	r.dir = s.Dir
	s.Tools = tools
	if f.Tools != "" {
		s.Tools = abs(r.base, f.Tools)
	}
	var err error
	if s.Slurm, err = r.resources("slurm", f.Slurm, Resources{}); err != nil {
		return nil, err
	}
	if f.Wedge != nil && f.Snowsim == nil {
		return nil, r.fail("wedge", "a wedge sweeps snowsim's scene: give a [snowsim] table")
	}
	if f.Voxelize == nil && f.Snowsim == nil && f.Export == nil {
		return nil, r.fail("", "no stage: give a [voxelize], [snowsim] or [export] table")
	}
	if f.Voxelize != nil {
		if s.Voxelize, err = r.chunked("voxelize", f.Voxelize, s.Slurm, nil); err != nil {
			return nil, err
		}
	}
	if f.Snowsim != nil {
		if s.Snowsim, err = r.snowsim(f.Snowsim, s.Slurm); err != nil {
			return nil, err
		}
		if f.Wedge != nil {
			if s.Snowsim.Wedge, err = r.wedge(f.Wedge, s.Snowsim.Slurm); err != nil {
				return nil, err
			}
		}
	}
	if f.Export != nil {
		if s.Snowsim != nil && s.Snowsim.Wedge != nil {
			return nil, r.fail("export", "a wedge ends in its contact sheet: export a chosen run with a shot of its own")
		}
		if s.Export, err = r.chunked("export", f.Export, s.Slurm, s.Snowsim); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// resources checks a [slurm] table; the keys it lacks come from base.
func (r *shotReader) resources(key string, k slurmKeys, base Resources) (Resources, error) {
	res := base
	for _, v := range []struct{ name, value string }{{"partition", k.Partition}, {"time", k.Time}, {"memory", k.Memory}} {
		if strings.ContainsAny(v.value, " \t\n'\"") {
			return res, r.fail(key+"."+v.name, "%q: no spaces or quotes", v.value)
		}
	}
	if k.CPUs < 0 {
		return res, r.fail(key+".cpus", "%d: must be at least 1", k.CPUs)
	}
	for i, o := range k.Options {
		if !strings.HasPrefix(o, "-") || strings.ContainsAny(o, "\n") {
			return res, r.fail(key+".options", "%q (entry %d): an sbatch option such as \"--qos=low\", one a string", o, i+1)
		}
	}
	res.Partition = cmpOr(k.Partition, base.Partition)
	res.Time = cmpOr(k.Time, base.Time)
	res.Memory = cmpOr(k.Memory, base.Memory)
	res.CPUs = max(k.CPUs, 0)
	if k.CPUs == 0 {
		res.CPUs = base.CPUs
	}
	if k.Options != nil {
		res.Options = k.Options
	}
	return res, nil
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// stageResources is a stage's [STAGE.slurm] over the shot's [slurm].
func (r *shotReader) stageResources(stage string, k *slurmKeys, base Resources) (Resources, error) {
	if k == nil {
		return base, nil
	}
	return r.resources(stage+".slurm", *k, base)
}

// chunked checks voxelize's or export's table. export's input and frames default to
// snowsim's frames, when the shot has a snowsim stage.
func (r *shotReader) chunked(tool string, k *chunkedKeys, base Resources, sim *Sim) (*Chunked, error) {
	c := &Chunked{Tool: tool, Limit: k.Limit, Args: k.Args, Chunk: defaultChunk}
	var err error
	if c.Slurm, err = r.stageResources(tool, k.Slurm, base); err != nil {
		return nil, err
	}
	switch {
	case k.Input != "":
		c.Input = abs(r.base, k.Input)
	case sim != nil:
		c.Input = sim.Frames(sim.Dir)
	default:
		return nil, r.fail(tool+".input", "required: the sequence to %s", tool)
	}
	if k.Output == "" {
		return nil, r.fail(tool+".output", "required: the files to write, with #### for the frame number")
	}
	if _, ok, err := seq.ParsePattern(k.Output); err != nil || !ok {
		return nil, r.fail(tool+".output", "%q: name the frame number with #### or %%04d (each array task writes its own frames)", k.Output)
	}
	c.Output = abs(r.dir, k.Output)
	switch {
	case k.Frames != "":
		if c.First, c.Last, err = seq.ParseRange(k.Frames); err != nil {
			return nil, r.fail(tool+".frames", "%v", err)
		}
	case sim != nil:
		c.First, c.Last = sim.First, sim.Last
	default:
		return nil, r.fail(tool+".frames", "required: the frames, as A-B")
	}
	if k.Chunk != nil {
		c.Chunk = *k.Chunk
	}
	if c.Chunk < 1 {
		return nil, r.fail(tool+".chunk", "%d: at least 1 frame per task", c.Chunk)
	}
	if c.Limit < 0 {
		return nil, r.fail(tool+".limit", "%d: at least 1 task at once (0: no limit)", c.Limit)
	}
	if err := r.args(tool+".args", c.Args); err != nil {
		return nil, err
	}
	return c, nil
}

// args refuses the flags that the farm gives itself.
func (r *shotReader) args(key string, args []string) error {
	for _, a := range args {
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if strings.HasPrefix(a, "-") && slices.Contains([]string{"frames", "o", "resume", "skip-existing"}, name) {
			return r.fail(key, "%q: the farm gives -%s itself (set the stage's frames, output or dir)", a, name)
		}
	}
	return nil
}

// snowsim checks snowsim's table.
func (r *shotReader) snowsim(k *snowsimKeys, base Resources) (*Sim, error) {
	s := &Sim{Dir: abs(r.dir, cmpOr(k.Output, defaultSimDir)), Pattern: cmpOr(k.Pattern, defaultPattern),
		Signal: defaultSignal, Set: k.Set, Args: k.Args}
	var err error
	if s.Slurm, err = r.stageResources("snowsim", k.Slurm, base); err != nil {
		return nil, err
	}
	if k.Scene == "" {
		return nil, r.fail("snowsim.scene", "required: the scene file")
	}
	s.Scene = abs(r.base, k.Scene)
	if p, ok, err := seq.ParsePattern(s.Pattern); err != nil || !ok || filepath.Base(s.Pattern) != s.Pattern || p.Suffix() == "" {
		return nil, r.fail("snowsim.pattern", "%q: a file name with #### for the frame number, such as %s", s.Pattern, defaultPattern)
	}
	if k.Frames == "" {
		return nil, r.fail("snowsim.frames", "required: the frames, as A-B (A: the initial state, time.start)")
	}
	if s.First, s.Last, err = seq.ParseRange(k.Frames); err != nil || s.Last == s.First {
		return nil, r.fail("snowsim.frames", "%q: use A-B with 0 <= A < B (frame A is the initial state)", k.Frames)
	}
	if k.Signal != nil {
		s.Signal = *k.Signal
	}
	if s.Signal < 1 || s.Signal > maxSignal {
		return nil, r.fail("snowsim.signal", "%d: seconds before the time limit, 1 to %d", s.Signal, maxSignal)
	}
	for _, set := range s.Set {
		if key, _, ok := strings.Cut(set, "="); !ok || strings.TrimSpace(key) == "" {
			return nil, r.fail("snowsim.set", "%q: use key=value, as snowsim's -set", set)
		}
	}
	if err := r.args("snowsim.args", s.Args); err != nil {
		return nil, err
	}
	return s, nil
}

// sceneKey is what a wedge key may be: a dotted path of snowsim's -set.
var sceneKey = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)*$`)

// wedge checks the wedge's table: keys with a list of values each (their cross
// product, the first key varying slowest) or explicit rows.
func (r *shotReader) wedge(k *wedgeKeys, base Resources) (*Wedge, error) {
	w := &Wedge{Sheet: abs(r.dir, cmpOr(k.Sheet, defaultSheet)), Limit: k.Limit}
	var err error
	if w.Slurm, err = r.stageResources("wedge", k.Slurm, base); err != nil {
		return nil, err
	}
	if len(k.Keys) == 0 {
		return nil, r.fail("wedge.keys", "required: the scene keys to sweep, such as [\"materials.default.E0\"]")
	}
	for i, key := range k.Keys {
		if !sceneKey.MatchString(key) || slices.Contains(k.Keys[:i], key) {
			return nil, r.fail("wedge.keys", "%q: a scene key as snowsim's -set takes it (snow.1.radius), once", key)
		}
	}
	if !strings.EqualFold(filepath.Ext(w.Sheet), ".png") {
		return nil, r.fail("wedge.sheet", "%q: a .png file", k.Sheet)
	}
	if w.Limit < 0 {
		return nil, r.fail("wedge.limit", "%d: at least 1 run at once (0: no limit)", w.Limit)
	}
	var rows [][]any
	switch {
	case (k.Values == nil) == (k.Rows == nil):
		return nil, r.fail("wedge", "give values (a list per key: every combination) or rows (a value per key each), one of them")
	case k.Values != nil:
		if len(k.Values) != len(k.Keys) {
			return nil, r.fail("wedge.values", "%d lists for %d keys: one list per key", len(k.Values), len(k.Keys))
		}
		rows = [][]any{{}}
		for i, list := range k.Values {
			if len(list) == 0 {
				return nil, r.fail("wedge.values", "the list of %s is empty", k.Keys[i])
			}
			if len(rows)*len(list) > maxWedgeRuns {
				return nil, r.fail("wedge.values", "more than %d combinations", maxWedgeRuns)
			}
			rows = crossProduct(rows, list)
		}
	default:
		for i, row := range k.Rows {
			if len(row) != len(k.Keys) {
				return nil, r.fail("wedge.rows", "row %d has %d values for %d keys", i+1, len(row), len(k.Keys))
			}
		}
		if len(k.Rows) == 0 || len(k.Rows) > maxWedgeRuns {
			return nil, r.fail("wedge.rows", "%d rows: 1 to %d", len(k.Rows), maxWedgeRuns)
		}
		rows = k.Rows
	}
	for _, row := range rows {
		run := make([]Setting, len(row))
		for i, v := range row {
			text, err := tomlValue(v)
			if err != nil {
				return nil, r.fail("wedge", "%s: %v", k.Keys[i], err)
			}
			run[i] = Setting{Key: k.Keys[i], Value: text}
		}
		w.Runs = append(w.Runs, run)
	}
	return w, nil
}

// crossProduct extends each row by each value in turn: the rows so far vary slowest.
func crossProduct(rows [][]any, values []any) [][]any {
	var out [][]any
	for _, row := range rows {
		for _, v := range values {
			out = append(out, append(slices.Clip(row), v))
		}
	}
	return out
}

// tomlValue writes a value as TOML text, as snowsim's -set reads it back.
func tomlValue(v any) (string, error) {
	var b bytes.Buffer
	if err := toml.NewEncoder(&b).Encode(map[string]any{"v": v}); err != nil {
		return "", err
	}
	text, ok := strings.CutPrefix(strings.TrimSpace(b.String()), "v = ")
	if !ok || strings.Contains(text, "\n") {
		return "", fmt.Errorf("%v: a number, string, boolean or array", v)
	}
	return text, nil
}

// Label is a wedge run's label on the contact sheet: each key's last part and its
// value (strings without quotes), commas turned to spaces (export's -labels splits
// at commas).
func Label(run []Setting) string {
	parts := make([]string, len(run))
	for i, s := range run {
		key := s.Key[strings.LastIndex(s.Key, ".")+1:]
		value := strings.Trim(s.Value, `"'`)
		parts[i] = key + "=" + strings.Join(strings.Fields(strings.ReplaceAll(value, ",", " ")), " ")
	}
	return strings.Join(parts, " ")
}

// exists reports whether path names a file.
func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
