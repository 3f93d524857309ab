package scene

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"snowtools/cmd/internal/scene/scenetest"
	"snowtools/formats/abc"
	"snowtools/levelset/geom"
	"snowtools/levelset/voxelize"
	"snowtools/simcore"
	"snowtools/simcore/collider"
)

// Every new kind of body parses into the solver's types, with its keys.
func TestSceneBodies(t *testing.T) {
	dir := t.TempDir()
	scenetest.WriteBoxOBJ(t, filepath.Join(dir, "block.obj"), geom.Vec3{0.2, 0.1, 0.2}, geom.Vec3{0.4, 0.3, 0.4})
	scenetest.WritePlateSequence(t, dir, geom.Vec3{0.1, 0.2, 0.3}, geom.Vec3{0.04, 0.3, 0.4}, geom.Vec3{0.5, 0, 0}, 10, 3, 0.02)
	scene := `
[domain]
min = [0, 0, 0]
max = [0.8, 0.6, 0.6]
h = 0.02

[materials.hard]
preset = "icy"
rho0 = 500

[[snow]]
shape = "mesh"
path = "block.obj"
material = "hard"
pattern = "jittered"
noise_scale = 0.05
stiffness_noise = 0.3
stretch_noise = 0.2
shell_thickness = 0.02
shell_stiffness = 3
shell_density = 1.5
chunk_size = 0.06
seam_width = 0.02
chunk_strength = 10
seam_strength = 0.2
chunk_stiffness = 2
seam_stiffness = 0.3

[[snow]]
shape = "cylinder"
a = [0.6, 0.1, 0.3]
b = [0.6, 0.3, 0.3]
radius = 0.05
material = "powder"
pattern = "poisson"
chunk_size = 0.09     # alone: the measured seams and factors
seam_strength = 0.5   # except this one

[[collider]]
shape = "vdb"
path = "plate.####.vdb"
mode = "sticky"

[[collider]]
shape = "mesh"
path = "block.obj"
` + scenetest.TurnAboutY("[0, 0, 0]", "[0.1, 0, 0]") + `
[[collider]]
shape = "cylinder"
a = [0, 0, 0]
b = [0, 0.2, 0]
radius = 0.1
[[collider.key]]
time = 0
rotation = [0, 0, 0, 1]
`
	path := filepath.Join(dir, "scene.toml")
	os.WriteFile(path, []byte(scene), 0o644)
	sc, err := Read(path, strings.NewReader(scene), 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(sc.Sources) != 2 || len(sc.Config.Colliders) != 3 || len(sc.Sequences) != 1 {
		t.Fatalf("%d sources, %d colliders, %d sequences", len(sc.Sources), len(sc.Config.Colliders), len(sc.Sequences))
	}
	icy, _ := simcore.Preset("icy")
	src := sc.Sources[0]
	if src.Material.YoungsModulus != icy.YoungsModulus || src.Material.Density != 500 || src.Pattern != simcore.PatternJittered ||
		src.Variation.NoiseScale != 0.05 || src.Variation.ShellStiffness != 3 || src.Variation.NoiseSeed != src.Seed {
		t.Errorf("snow[1]: %+v", src)
	}
	if v := src.Variation; v.ChunkSize != 0.06 || v.SeamWidth != 0.02 || v.ChunkStrength != 10 || v.SeamStrength != 0.2 ||
		v.ChunkStiffness != 2 || v.SeamStiffness != 0.3 {
		t.Errorf("snow[1] chunk pattern: %+v", v)
	}
	if v := sc.Sources[1].Variation; v.ChunkSize != 0.09 || math.Abs(v.SeamWidth-0.03) > 1e-15 || v.ChunkStrength != 10 ||
		v.SeamStrength != 0.5 || v.ChunkStiffness != 2 || v.SeamStiffness != 0.3 {
		t.Errorf("snow[2] chunk_size alone: %+v; want seams of 0.03 m, factors 10/0.5 and 2/0.3", v)
	}
	if _, ok := src.Shape.(*voxelize.MeshShape); !ok {
		t.Errorf("snow[1] shape %T", src.Shape)
	}
	if powder, _ := simcore.Preset("powder"); sc.Sources[1].Material != powder {
		t.Errorf("snow[2] material %+v", sc.Sources[1].Material)
	}
	if c, ok := sc.Config.Colliders[0].(*collider.DeformingLevelSet); !ok || c.Contact.Mode != collider.Sticky {
		t.Errorf("collider[1]: %T", sc.Config.Colliders[0])
	}
	for i := 1; i < 3; i++ {
		if _, ok := sc.Config.Colliders[i].(*collider.RigidBody); !ok {
			t.Errorf("collider[%d]: %T", i+1, sc.Config.Colliders[i])
		}
	}
	// The sequence's keyframes at 10 fps (from the files' metadata): at t = 0.15 the
	// plate's centre is at x = 0.1 + 0.5 * 0.15 = 0.175, 0.02 m from its faces (the
	// trilinear level set of a plate two voxels thick reads -0.015 m there).
	seqs := sc.Sequences[0]
	if end, err := seqs.Prepare(0.15); err != nil || math.Abs(end-0.2) > 1e-12 {
		t.Fatalf("prepare: end %g, %v", end, err)
	}
	phi, _, vco := seqs.Collider.Sample(geom.Vec3{0.175, 0.2, 0.3}, 0.15)
	if phi > -0.014 || math.Abs(vco[0]-0.5) > 1e-6 {
		t.Errorf("plate centre at t = 0.15: phi %g, v %v", phi, vco)
	}
	// After the last file the plate rests where it ended.
	if end, err := seqs.Prepare(0.5); err != nil || !math.IsInf(end, 1) {
		t.Fatalf("prepare after the end: %g, %v", end, err)
	}
	if phi, _, vco := seqs.Collider.Sample(geom.Vec3{0.2, 0.2, 0.3}, 0.5); phi > 0 || vco != (geom.Vec3{}) {
		t.Errorf("after the last file: phi %g, v %v", phi, vco)
	}
}

func TestSceneBodyErrors(t *testing.T) {
	dir := t.TempDir()
	scenetest.WriteBoxOBJ(t, filepath.Join(dir, "block.obj"), geom.Vec3{0.2, 0.1, 0.2}, geom.Vec3{0.4, 0.3, 0.4})
	base := "[domain]\nmin = [0, 0, 0]\nmax = [1, 1, 1]\nh = 0.05\n[[snow]]\nshape = \"sphere\"\ncenter = [0.5, 0.5, 0.5]\nradius = 0.2\n"
	for _, tc := range []struct{ extra, want string }{
		{"[[collider]]\nshape = \"mesh\"\n", "collider[1].path: required"},
		{"[[collider]]\nshape = \"mesh\"\npath = \"nope.obj\"\n", "nope.obj"},
		{"[[collider]]\nshape = \"vdb\"\npath = \"none.####.vdb\"\n", "collider[1].path"},
		{"[[collider]]\nshape = \"cylinder\"\na = [0, 0, 0]\nb = [0, 0, 0]\nradius = 1\n", "collider[1].b"},
		{"[[collider]]\nshape = \"sphere\"\ncenter = [0, 0, 0]\nradius = 0.1\nvelocity = [1, 0, 0]\n[[collider.key]]\ntime = 0\ntranslation = [0, 0, 0]\n", "not both"},
		{"[[collider]]\nshape = \"sphere\"\ncenter = [0, 0, 0]\nradius = 0.1\n[[collider.key]]\ntime = 0\naxis = [0, 1, 0]\n", "collider[1].key[1].angle"},
		{"[[collider]]\nshape = \"sphere\"\ncenter = [0, 0, 0]\nradius = 0.1\n[[collider.key]]\ntime = 1\ntranslation = [0, 0, 0]\n[[collider.key]]\ntime = 0.5\ntranslation = [0, 0, 0]\n", "collider[1]"},
		{"[[snow]]\nshape = \"mesh\"\npath = \"block.obj\"\npattern = \"hexagonal\"\n", "snow[2].pattern"},
		{"[[snow]]\nshape = \"mesh\"\npath = \"block.obj\"\nstiffness_noise = 2\n", "snow[2].stiffness_noise: 2: must be in [0, 1)"},
		{"[[snow]]\nshape = \"mesh\"\npath = \"block.obj\"\nchunk_size = 0.06\nseam_width = 0\n", "snow[2].seam_width: 0: chunks of 0.06 m need seams"},
		{"[[snow]]\nshape = \"mesh\"\npath = \"block.obj\"\nseam_strength = 0.2\n", "snow[2].chunk_size: 0: the chunk and seam factors need"},
		{"[[snow]]\nshape = \"mesh\"\npath = \"block.obj\"\nchunk_size = 0.06\nseam_width = 0.02\nchunk_strength = 50\n", "snow[2].chunk_strength: 50: theta_c 0.025 x 50 = 1.25: must stay below 1"},
		{"[[snow]]\nshape = \"mesh\"\npath = \"block.obj\"\nchunk_size = 0.06\nseam_width = 0.02\nseam_stiffness = -1\n", "snow[2].seam_stiffness"},
		{"[materials.x]\npreset = \"granite\"\n", "materials.x.preset"},
	} {
		text := base + tc.extra
		_, err := Read(filepath.Join(dir, "s.toml"), strings.NewReader(text), 1)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want one mentioning %q", tc.extra, err, tc.want)
		}
	}
}

// A mesh file's up and scale keys read a Z-up file in centimetres (Blender's STL
// default, a Maya scene) upright and in metres, as voxelize -up z -scale 0.01 does
// (issue 22: an up-axis and unit option on every tool that reads geometry); the
// collider mesh follows the same keys. The keys are for meshes only, and glTF is Y up.
func TestSceneMeshUpAndScale(t *testing.T) {
	dir := t.TempDir()
	// Our box (0.2, 0.1, 0.2)-(0.4, 0.3, 0.4) m as a Z-up file in cm: (x, -z, y) x 100.
	scenetest.WriteBoxOBJ(t, filepath.Join(dir, "zup_cm.obj"), geom.Vec3{20, -40, 10}, geom.Vec3{40, -20, 30})
	base := "[domain]\nmin = [0, 0, 0]\nmax = [1, 1, 1]\nh = 0.05\n"
	sc, err := Read(filepath.Join(dir, "s.toml"), strings.NewReader(base+`
[[snow]]
shape = "mesh"
path = "zup_cm.obj"
up = "z"
scale = 0.01

[[collider]]
shape = "mesh"
path = "zup_cm.obj"
up = "z"
scale = 0.01
`), 1)
	if err != nil {
		t.Fatal(err)
	}
	want := geom.Box{Min: geom.Vec3{0.2, 0.1, 0.2}, Max: geom.Vec3{0.4, 0.3, 0.4}}
	if b := sc.Sources[0].Bounds; b.Min.Sub(want.Min).Norm() > 1e-9 || b.Max.Sub(want.Max).Norm() > 1e-9 {
		t.Errorf("snow bounds %v, want %v", b, want)
	}
	if lo, hi := sc.Bodies[0].Mesh.Bounds(); lo.Sub(want.Min).Norm() > 1e-9 || hi.Sub(want.Max).Norm() > 1e-9 {
		t.Errorf("collider mesh from %v to %v, want %v", lo, hi, want)
	}
	for _, tc := range []struct{ extra, want string }{
		{"[[snow]]\nshape = \"mesh\"\npath = \"zup_cm.obj\"\nup = \"x\"\n", `snow[1].up: "x": use "y" or "z"`},
		{"[[snow]]\nshape = \"mesh\"\npath = \"zup_cm.obj\"\nscale = -1\n", "snow[1].scale: -1: must be > 0"},
		{"[[snow]]\nshape = \"sphere\"\ncenter = [0.5, 0.5, 0.5]\nradius = 0.1\nscale = 0.01\n", `snow[1].scale: is for shape "mesh", not "sphere"`},
		{"[[snow]]\nshape = \"mesh\"\npath = \"character.glb\"\nup = \"z\"\n", `snow[1].up: "z": glTF is Y up by definition`},
		{"[[snow]]\nshape = \"sphere\"\ncenter = [0.5, 0.5, 0.5]\nradius = 0.1\n[[collider]]\nshape = \"vdb\"\npath = \"p.####.vdb\"\nup = \"z\"\n", `collider[1].up: is for shape "mesh", not "vdb"`},
	} {
		_, err := Read(filepath.Join(dir, "s.toml"), strings.NewReader(base+tc.extra), 1)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want one with %q", tc.extra, err, tc.want)
		}
	}
}

// A glTF snow volume is posed by its animation at the time given: the paddle turns
// half a revolution a second about +Y, so at 0.5 s it lies along -z.
func TestSnowFromGLTFFrame(t *testing.T) {
	paddle, err := filepath.Abs("../../../examples/paddle.gltf")
	if err != nil {
		t.Fatal(err)
	}
	scene := fmt.Sprintf("[domain]\nmin = [-1, -1, -1]\nmax = [1, 1, 1]\nh = 0.05\n"+
		"[[snow]]\nshape = \"mesh\"\npath = %q\nclip = \"Sweep\"\ntime = 0.5\n", paddle)
	sc, err := Read(filepath.Join(t.TempDir(), "s.toml"), strings.NewReader(scene), 1)
	if err != nil {
		t.Fatal(err)
	}
	b := sc.Sources[0].Bounds
	if math.Abs(b.Min[2]+0.75) > 1e-6 || math.Abs(b.Max[2]+0.15) > 1e-6 || math.Abs(b.Min[0]+0.025) > 1e-6 {
		t.Errorf("paddle at 0.5 s: bounds %v", b)
	}
}

// An Alembic archive is a mesh file too: a snow volume posed at its time key, a
// collider without one at the archive's first sample. The box's Xform moves it by
// 0.25 m along x from the first sample (1/24 s) to the second (2/24 s).
func TestBodiesFromAlembic(t *testing.T) {
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, "box.abc"))
	if err != nil {
		t.Fatal(err)
	}
	w, err := abc.NewWriter(f, nil)
	if err != nil {
		t.Fatal(err)
	}
	ts, _ := w.AddTimeSampling(abc.Uniform(1.0/24, 1.0/24))
	xw, rig, err := w.AddXform(w.Top(), "rig", ts)
	if err != nil {
		t.Fatal(err)
	}
	mw, err := w.AddPolyMesh(rig, "box", ts, false)
	if err != nil {
		t.Fatal(err)
	}
	for k := range 2 {
		m := abc.Identity
		m[12] = 0.25 * float64(k)
		if err := xw.WriteSample(m, true); err != nil {
			t.Fatal(err)
		}
		if err := mw.WriteMesh(geom.BoxMesh(geom.Vec3{0.2, 0.1, 0.2}, geom.Vec3{0.4, 0.3, 0.4})); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	scene := "[domain]\nmin = [0, 0, 0]\nmax = [1, 0.6, 0.6]\nh = 0.02\n" +
		"[[snow]]\nshape = \"mesh\"\npath = \"box.abc\"\ntime = 0.0833333333\n" +
		"[[collider]]\nshape = \"mesh\"\npath = \"box.abc\"\n"
	sc, err := Read(filepath.Join(dir, "s.toml"), strings.NewReader(scene), 1)
	if err != nil {
		t.Fatal(err)
	}
	if b := sc.Sources[0].Bounds; math.Abs(b.Min[0]-0.45) > 1e-6 || math.Abs(b.Max[0]-0.65) > 1e-6 {
		t.Errorf("snow at 2/24 s: bounds %v, want x from 0.45 to 0.65", b)
	}
	if phi, _, _ := sc.Config.Colliders[0].Sample(geom.Vec3{0.3, 0.2, 0.3}, 0); phi >= 0 {
		t.Errorf("collider at the first sample: phi %g at the box's centre", phi)
	}
	_, err = Read(filepath.Join(dir, "s.toml"), strings.NewReader(scene+"clip = \"Walk\"\n"), 1)
	if err == nil || !strings.Contains(err.Error(), "only glTF files have animation clips") {
		t.Errorf("clip on an archive: %v", err)
	}
}

// A collider sequence's file n is at n/fps to the bit, the time of snowsim's frame n,
// also when the sequence does not start at 0 (a DCC's files from 1): otherwise the
// solver stops a sliver short of some frames for the keyframe, and takes a step of
// 1e-17 s to reach the frame.
func TestSequenceKeyframesOnFrames(t *testing.T) {
	dir := t.TempDir()
	const fps = 24
	scenetest.WritePlateSequence(t, dir, geom.Vec3{0.1, 0.2, 0.3}, geom.Vec3{0.04, 0.3, 0.4}, geom.Vec3{0.5, 0, 0}, fps, 7, 0.04)
	if err := os.Remove(filepath.Join(dir, "plate.0000.vdb")); err != nil {
		t.Fatal(err)
	}
	text := "[domain]\nmin = [0, 0, 0]\nmax = [0.8, 0.6, 0.6]\nh = 0.04\n[[snow]]\nshape = \"sphere\"\ncenter = [0.4, 0.4, 0.3]\nradius = 0.1\n[[collider]]\nshape = \"vdb\"\npath = \"plate.####.vdb\"\n"
	path := filepath.Join(dir, "scene.toml")
	sc, err := Read(path, strings.NewReader(text), 1)
	if err != nil {
		t.Fatal(err)
	}
	seq := sc.Sequences[0]
	for f := 1; f < 6; f++ {
		if end, err := seq.Prepare(float64(f) / fps); err != nil || end != float64(f+1)/fps {
			t.Errorf("frame %d: the keyframe after it at %.17g s (%v), want frame %d's %.17g s", f, end, err, f+1, float64(f+1)/fps)
		}
	}
}
