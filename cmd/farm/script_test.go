package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The batch scripts carry the resources, the requeue and signal options of snowsim,
// and each stage's command; bash reads every one of them (bash -n).
func TestSlurmBatchScripts(t *testing.T) {
	text := `name = "shot1"
[slurm]
partition = "gpu"
time = "2:00:00"
memory = "8G"
cpus = 4
options = ["--qos=low"]
` + minimalShot + `
[snowsim.slurm]
time = "12:00:00"
`
	shot, err := parseShot("/s/shot.toml", []byte(strings.Replace(text, "[snowsim]", "[snowsim]\nsignal = 600\nset = [\"solver.threads=0\"]\nargs = [\"-quality\", \"draft\"]", 1)), "/opt/snow tools")
	if err != nil {
		t.Fatal(err)
	}
	scripts := map[string]string{}
	for _, st := range shot.stages() {
		scripts[st.name] = st.script
	}
	for name, want := range map[string][]string{
		"voxelize": {"#SBATCH --job-name=shot1.voxelize\n", "#SBATCH --output=/s/shot1/logs/voxelize.%A_%a.log\n",
			"#SBATCH --partition=gpu\n", "#SBATCH --time=2:00:00\n", "#SBATCH --mem=8G\n", "#SBATCH --cpus-per-task=4\n", "#SBATCH --qos=low\n",
			"first=$(( 1 + SLURM_ARRAY_TASK_ID * 5 ))\n", "last=$(( first + 4 ))\n", `if [ "$last" -gt 24 ]; then last=24; fi`,
			`exec '/opt/snow tools/voxelize' -frames "$first-$last" -skip-existing -threads "$threads" -voxel 0.02 -o '/s/shot1/colliders/paddle.####.vdb' /s/paddle.gltf` + "\n"},
		"snowsim": {"#SBATCH --time=12:00:00\n", "#SBATCH --mem=8G\n", "#SBATCH --requeue\n", "#SBATCH --open-mode=append\n",
			"#SBATCH --signal=B:USR1@600\n", "#SBATCH --output=/s/shot1/logs/snowsim.%j.log\n",
			`if compgen -G "$out/"'snow.*.snowstate' >/dev/null; then resume=(-resume); fi`,
			`'/opt/snow tools/snowsim' "${resume[@]}" -threads "$threads" -o "$out" -frames 24 -set time.start=0 -set 'output.pattern="snow.####.prt"' -set solver.threads=0 "${sets[@]}" -quality draft /s/scene.toml &`,
			`trap 'requeue=yes; kill -USR1 "$pid" 2>/dev/null' USR1`, `scontrol requeue "$SLURM_JOB_ID"`},
		"export": {`exec '/opt/snow tools/export' -frames "$first-$last" -skip-existing -threads "$threads" -to vdb '/s/shot1/sim/snow.####.prt' '/s/shot1/vdb/snow.####.vdb'`},
	} {
		for _, w := range want {
			if !strings.Contains(scripts[name], w) {
				t.Errorf("%s's script lacks %q:\n%s", name, w, scripts[name])
			}
		}
	}
	checkBash(t, scripts)
}

// A wedge's script picks its run's folder and keys by the array task, and the sheet
// compares the runs' last frames with their labels.
func TestSlurmWedgeScripts(t *testing.T) {
	text := `[snowsim]
scene = "s.toml"
frames = "0-12"
[wedge]
keys = ["snow.1.material", "materials.default.E0"]
rows = [["it's", 1e5], ["wet", 2e5]]
limit = 1
`
	shot, err := parseShot("/s/w.toml", []byte(text), "/bin")
	if err != nil {
		t.Fatal(err)
	}
	st := shot.stages()
	if len(st) != 2 || st[0].name != "wedge" || st[0].tasks != 2 || st[0].limit != 1 || st[1].name != "sheet" || st[1].after != "wedge" {
		t.Fatalf("stages %+v", st)
	}
	for _, want := range []string{
		`  0) out=/s/w/sim/w00; sets=(-set 'snow.1.material="it'\''s"' -set materials.default.E0=100000.0) ;;`,
		`  1) out=/s/w/sim/w01; sets=(-set 'snow.1.material="wet"' -set materials.default.E0=200000.0) ;;`,
		"#SBATCH --output=/s/w/logs/wedge.%A_%a.log\n",
	} {
		if !strings.Contains(st[0].script, want) {
			t.Errorf("wedge script lacks %q:\n%s", want, st[0].script)
		}
	}
	want := `exec /bin/export -to compare -frames 12 -labels 'material=it'\''s E0=100000.0,material=wet E0=200000.0' -threads "$threads" /s/w/wedge.png '/s/w/sim/w00/snow.####.prt' '/s/w/sim/w01/snow.####.prt'`
	if !strings.Contains(st[1].script, want) {
		t.Errorf("sheet script lacks %q:\n%s", want, st[1].script)
	}
	checkBash(t, map[string]string{"wedge": st[0].script, "sheet": st[1].script})
	if got := (request{stage: st[0], only: []int{1}}).options("41"); strings.Join(got, " ") != "--array=1%1 --dependency=afterok:41 --kill-on-invalid-dep=yes" {
		t.Errorf("resubmit options %q", got)
	}
}

// checkBash has bash parse each script without running it.
func checkBash(t *testing.T, scripts map[string]string) {
	t.Helper()
	dir := t.TempDir()
	for name, text := range scripts {
		path := filepath.Join(dir, name+".sh")
		os.WriteFile(path, []byte(text), 0o644)
		if out, err := exec.Command("bash", "-n", path).CombinedOutput(); err != nil {
			t.Errorf("%s: bash -n: %v: %s", name, err, out)
		}
	}
}

func TestSlurmArraySpecs(t *testing.T) {
	if got := ranges([]int{0, 1, 2, 5, 7, 8}); got != "0-2, 5, 7-8" {
		t.Errorf("ranges %q", got)
	}
	if got := arraySpec(5, nil, 2); got != "0-4%2" {
		t.Errorf("arraySpec %q", got)
	}
	if got := arraySpec(5, []int{1, 3}, 0); got != "1,3" {
		t.Errorf("arraySpec %q", got)
	}
	if got := checkpointGlob("spray_%04d.prt"); got != "spray_*.snowstate" {
		t.Errorf("checkpointGlob %q", got)
	}
}
