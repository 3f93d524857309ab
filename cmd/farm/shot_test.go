package main

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// minimalShot is the smallest description with every stage but the wedge.
const minimalShot = `
[voxelize]
input = "paddle.gltf"
output = "colliders/paddle.####.vdb"
frames = "1-24"
chunk = 5
limit = 2
args = ["-voxel", "0.02"]

[snowsim]
scene = "scene.toml"
frames = "0-24"

[export]
output = "vdb/snow.####.vdb"
args = ["-to", "vdb"]
`

// Paths, defaults and chunks of a description: inputs from the description's
// folder, outputs from the shot's dir, export's input and frames from snowsim's.
func TestSlurmShotDefaults(t *testing.T) {
	shot, err := parseShot("/work/shots/a.toml", []byte(minimalShot), "/opt/bin")
	if err != nil {
		t.Fatal(err)
	}
	if shot.Name != "a" || shot.Dir != "/work/shots/a" || shot.Tools != "/opt/bin" {
		t.Errorf("name %q, dir %q, tools %q", shot.Name, shot.Dir, shot.Tools)
	}
	v := shot.Voxelize
	if v.Input != "/work/shots/paddle.gltf" || v.Output != "/work/shots/a/colliders/paddle.####.vdb" || v.Tasks() != 5 {
		t.Errorf("voxelize %+v: %d tasks", v, v.Tasks())
	}
	if a, b := v.TaskFrames(4); a != 21 || b != 24 {
		t.Errorf("voxelize's last task: frames %d-%d, want 21-24", a, b)
	}
	e := shot.Export
	if e.Input != "/work/shots/a/sim/snow.####.prt" || e.First != 0 || e.Last != 24 || e.Chunk != defaultChunk || e.Tasks() != 3 {
		t.Errorf("export %+v: %d tasks", e, e.Tasks())
	}
	if s := shot.Snowsim; s.Signal != defaultSignal || s.Dir != "/work/shots/a/sim" {
		t.Errorf("snowsim %+v", s)
	}
	var names, after []string
	for _, st := range shot.stages() {
		names, after = append(names, st.name), append(after, st.after)
	}
	if !slices.Equal(names, []string{"voxelize", "snowsim", "export"}) || !slices.Equal(after, []string{"", "voxelize", "snowsim"}) {
		t.Errorf("stages %q after %q", names, after)
	}
}

// A wedge's values run through every combination, the first key slowest; its rows
// are taken as they are; each run is labelled with its keys' last parts.
func TestSlurmWedgeRuns(t *testing.T) {
	text := `
[snowsim]
scene = "s.toml"
frames = "0-2"
[wedge]
keys = ["materials.default.E0", "snow.1.material"]
values = [[1e5, 2e5], ["powder", "wet"]]
`
	shot, err := parseShot("w.toml", []byte(text), "bin")
	if err != nil {
		t.Fatal(err)
	}
	var labels []string
	for _, run := range shot.Snowsim.Wedge.Runs {
		labels = append(labels, Label(run))
	}
	want := []string{"E0=100000.0 material=powder", "E0=100000.0 material=wet", "E0=200000.0 material=powder", "E0=200000.0 material=wet"}
	if !slices.Equal(labels, want) {
		t.Errorf("labels %q\nwant %q", labels, want)
	}
	if got := shot.Snowsim.Wedge.Runs[2][1].String(); got != `snow.1.material="powder"` {
		t.Errorf("run 3's second setting %s", got)
	}
	if d := shot.Snowsim.RunDir(3); filepath.Base(d) != "w03" {
		t.Errorf("run 4's folder %s", d)
	}
	rows := strings.Replace(text, `values = [[1e5, 2e5], ["powder", "wet"]]`, `rows = [[1e5, [0.0, 1.5, 0.0]], [2e5, [1, 2, 3]]]`, 1)
	shot, err = parseShot("w.toml", []byte(rows), "bin")
	if err != nil {
		t.Fatal(err)
	}
	if got := Label(shot.Snowsim.Wedge.Runs[0]); got != "E0=100000.0 material=[0.0 1.5 0.0]" {
		t.Errorf("row 1's label %q", got)
	}
	if len(shot.Snowsim.Wedge.Runs) != 2 {
		t.Errorf("%d runs, want the 2 rows", len(shot.Snowsim.Wedge.Runs))
	}
}

// Mistakes in a description are errors that name the file and the key.
func TestSlurmShotErrors(t *testing.T) {
	wedge := "[snowsim]\nscene = \"s.toml\"\nframes = \"0-2\"\n[wedge]\nkeys = [\"a.b\"]\n"
	for _, c := range []struct{ text, key, problem string }{
		{"", "", "no stage"},
		{"nmae = \"x\"\n[snowsim]\nscene = \"s\"\nframes = \"0-1\"", "nmae", "unknown key"},
		{"[export]\nframes = \"0-3\"\noutput = \"a.####.ply\"", "export.input", "required"},
		{"[export]\ninput = \"s.####.prt\"\nframes = \"0-3\"\noutput = \"a.ply\"", "export.output", "#### or %04d"},
		{"[export]\ninput = \"s.####.prt\"\noutput = \"a.####.ply\"", "export.frames", "required"},
		{"[export]\ninput = \"s.####.prt\"\nframes = \"3-1\"\noutput = \"a.####.ply\"", "export.frames", "0 <= A <= B"},
		{"[export]\ninput = \"s.####.prt\"\nframes = \"0-3\"\noutput = \"a.####.ply\"\nchunk = 0", "export.chunk", "at least 1"},
		{"[export]\ninput = \"s.####.prt\"\nframes = \"0-3\"\noutput = \"a.####.ply\"\nargs = [\"-frames\", \"1-2\"]", "export.args", "the farm gives -frames itself"},
		{"[voxelize]\ninput = \"m.obj\"\nframes = \"0-3\"\noutput = \"a.####.vdb\"\nlimit = -1", "voxelize.limit", "at least 1"},
		{"[snowsim]\nscene = \"s.toml\"", "snowsim.frames", "required"},
		{"[snowsim]\nscene = \"s.toml\"\nframes = \"4-4\"", "snowsim.frames", "0 <= A < B"},
		{"[snowsim]\nframes = \"0-4\"", "snowsim.scene", "required"},
		{"[snowsim]\nscene = \"s.toml\"\nframes = \"0-4\"\nsignal = 0", "snowsim.signal", "1 to 65535"},
		{"[snowsim]\nscene = \"s.toml\"\nframes = \"0-4\"\npattern = \"out/snow.####.prt\"", "snowsim.pattern", "a file name"},
		{"[snowsim]\nscene = \"s.toml\"\nframes = \"0-4\"\nset = [\"time.fps\"]", "snowsim.set", "key=value"},
		{"[snowsim]\nscene = \"s.toml\"\nframes = \"0-4\"\n[snowsim.slurm]\ncpus = -2", "snowsim.slurm.cpus", "at least 1"},
		{"[slurm]\noptions = [\"qos=low\"]\n[snowsim]\nscene = \"s.toml\"\nframes = \"0-4\"", "slurm.options", "an sbatch option"},
		{"[slurm]\ntime = \"1 hour\"\n[snowsim]\nscene = \"s.toml\"\nframes = \"0-4\"", "slurm.time", "no spaces"},
		{"name = \"a b\"\n[snowsim]\nscene = \"s.toml\"\nframes = \"0-4\"", "name", "letters, digits"},
		{"[wedge]\nkeys = [\"a\"]\nvalues = [[1]]", "wedge", "give a [snowsim] table"},
		{wedge, "wedge", "give values"},
		{wedge + "values = [[1]]\nrows = [[1]]", "wedge", "give values"},
		{wedge + "values = [[1], [2]]", "wedge.values", "2 lists for 1 keys"},
		{wedge + "values = [[]]", "wedge.values", "the list of a.b is empty"},
		{wedge + "rows = [[1, 2]]", "wedge.rows", "row 1 has 2 values for 1 keys"},
		{wedge + "values = [[1]]\nsheet = \"s.jpg\"", "wedge.sheet", "a .png file"},
		{strings.Replace(wedge, `"a.b"`, `"a..b"`, 1) + "values = [[1]]", "wedge.keys", "a scene key"},
		{wedge + "values = [[1]]\n[export]\noutput = \"a.####.ply\"", "export", "a wedge ends in its contact sheet"},
		{"[snowsim\nscene = 1", "", "line 2"},
	} {
		_, err := parseShot("shot.toml", []byte(c.text), "bin")
		var ke *KeyError
		if !errors.As(err, &ke) || ke.File != "shot.toml" || ke.Key != c.key || !strings.Contains(ke.Problem, c.problem) {
			t.Errorf("%q:\n  error %v\n  want shot.toml: %s: ...%s...", c.text, err, c.key, c.problem)
		}
	}
}
