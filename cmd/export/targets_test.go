package main

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"snowtools/cmd/internal/blendertest"
	"snowtools/cmd/internal/cli"
	"snowtools/cmd/internal/meshfile"
	"snowtools/formats/ply"
	"snowtools/formats/prt"
	"snowtools/formats/vdb"
	"snowtools/formats/vdb/vdbtest"
	"snowtools/levelset/geom"
)

// plyLayout lists a PLY's vertex properties as "type name", comma-separated.
func plyLayout(e ply.Element) string {
	var names []string
	for _, p := range e.Properties {
		names = append(names, p.Type.String()+" "+p.Name)
	}
	return strings.Join(names, ",")
}

// prtLayout lists a PRT's channels as "name type[arity]", comma-separated.
func prtChannels(h prt.Header) string {
	var names []string
	for _, c := range h.Channels {
		names = append(names, fmt.Sprintf("%s %s[%d]", c.Name, c.Type, c.Arity))
	}
	return strings.Join(names, ",")
}

// gridNames lists a .vdb's grids in file order.
func gridNames(f *vdb.File) []string {
	var names []string
	for _, g := range f.Grids {
		names = append(names, g.Name)
	}
	return names
}

// mustFail runs the command, which must fail with status and a log that contains want.
func mustFail(t *testing.T, status int, want string, args ...string) {
	t.Helper()
	code, log := runExport(t, args...)
	if code != status || !strings.Contains(log, want) {
		t.Errorf("export %v: exit %d, log %q; want exit %d and %q", args, code, log, status, want)
	}
}

// Every name in the table is one its format can hold, the programs agree on what a
// PLY cannot say otherwise (the surface meshes write velocities as vx vy vz for
// every target), and a format a program does not read says what to write instead.
func TestTargetTable(t *testing.T) {
	all := map[string]*target{"(own)": ownNames}
	for n, tg := range targets {
		all[n] = tg
		if tg.name != n {
			t.Errorf("targets[%q] calls itself %q", n, tg.name)
		}
	}
	for n, tg := range all {
		if p := tg.ply; p != nil {
			names := append([]string{p.id}, append(append(p.normal[:], p.color[:]...), p.velocity[:]...)...)
			if p.radius != "" {
				names = append(names, p.radius)
			}
			taken := newOutputNames("PLY property", true, 0)
			for _, name := range append([]string{"x", "y", "z"}, names...) {
				if err := taken.add(name, n); err != nil {
					t.Errorf("%s: %v", n, err)
				}
			}
			if p.velocity != plyVelocity {
				t.Errorf("%s: PLY velocities %v; the surface meshes write %v", n, p.velocity, plyVelocity)
			}
		}
		if v := tg.vdb; v != nil {
			taken := newOutputNames("grid", false, 0)
			for _, name := range []string{v.density, v.surface, v.velocity} {
				if err := taken.add(name, n); err != nil {
					t.Errorf("%s: %v", n, err)
				}
			}
		}
		for _, format := range []string{"prt", "ply", "vdb"} {
			if err := tg.reads(format); err != nil && len(tg.without[format]) < 20 {
				t.Errorf("%s reads no %s and says only %q", n, format, err)
			}
		}
	}
	if ownNames.prt == nil || ownNames.ply == nil || ownNames.vdb == nil {
		t.Error("export's own names must cover every format")
	}
}

// -for houdini: a PLY with id (int) and pscale, the radius of the sphere of each
// particle's volume; a VDB whose velocity grid is vel; no PRT.
func TestForHoudini(t *testing.T) {
	dir := t.TempDir()
	in, balls := writeSequence(t, dir, 1)
	b := balls[0]
	out := filepath.Join(dir, "h.ply")
	mustExport(t, "-to", "ply", "-for", "houdini", "-velocity", "-props", "PlasticJ", in, out)
	_, e, data := readPLY(t, out)
	want := "float x,float y,float z,int id,float vx,float vy,float vz,float pscale,float plastic_j"
	if got := plyLayout(e); got != want {
		t.Errorf("properties\n%s\nwant\n%s", got, want)
	}
	// Every particle of the ball holds spacing^3 of snow (mass = rho spacing^3), so its
	// pscale is that cube's volume-equivalent radius, (3 / 4 pi)^(1/3) spacing, up to
	// the float32 rounding of mass and density (measured: 2.2e-7 relative at most).
	wantR := math.Cbrt(3/(4*math.Pi)) * ballSpacing
	worst := 0.0
	for i := 0; i < b.len(); i++ {
		r := float64(float32At(e, data, i, "pscale"))
		worst = max(worst, math.Abs(r-wantR)/wantR)
		if id := int32(binary.LittleEndian.Uint32(data[i*e.RecordSize()+e.Offset("id"):])); id != b.id[i] {
			t.Fatalf("vertex %d: id %d, want %d", i, id, b.id[i])
		}
	}
	if worst > 1e-6 {
		t.Errorf("pscale differs from (3/4pi)^(1/3) x spacing = %.7g m by up to %.2g relative", wantR, worst)
	}
	t.Logf("pscale: worst relative error %.2g against %.7g m", worst, wantR)

	// -radius sets every pscale; -scale 0.01 writes centimetres, pscale included.
	cm := filepath.Join(dir, "cm.ply")
	mustExport(t, "-to", "ply", "-for", "houdini", "-radius", "0.004", "-scale", "0.01", in, cm)
	_, e, data = readPLY(t, cm)
	if r, y := float32At(e, data, 3, "pscale"), float32At(e, data, 3, "y"); r != 0.4 || math.Abs(float64(y)-100*float64(b.pos[3*3+1])) > 1e-4 {
		t.Errorf("-radius 0.004 -scale 0.01: pscale %g cm, y %g cm (want 0.4 and %g)", r, y, 100*b.pos[3*3+1])
	}

	vol := filepath.Join(dir, "h.vdb")
	mustExport(t, "-to", "vdb", "-for", "houdini", "-velocity", in, vol)
	f := readVDB(t, vol)
	if got := gridNames(f); !slices.Equal(got, []string{"density", "vel"}) {
		t.Errorf("grids %v, want density, vel", got)
	}
	if g := f.Grid("vel"); g == nil || g.Vec3 == nil || g.VectorType != "contravariant relative" {
		t.Errorf("vel grid %+v: want a velocity vector grid", g)
	}
	// -to surface: the same vel grid, and the mesh's vertex velocities sampled from it.
	surf, mesh := filepath.Join(dir, "s.vdb"), filepath.Join(dir, "s.ply")
	mustExport(t, "-to", "surface", "-for", "houdini", "-velocity", in, surf, mesh)
	if got := gridNames(readVDB(t, surf)); !slices.Equal(got, []string{"surface", "density", "vel"}) {
		t.Errorf("-to surface: grids %v, want surface, density, vel", got)
	}
	_, e, data = readPLY(t, mesh)
	if vy := float32At(e, data, 0, "vy"); !(vy < -1 && vy > -3) {
		t.Errorf("-to surface: mesh vertex 0 has vy %g; the ball falls at about 2 m/s", vy)
	}
	mustFail(t, cli.ExitUsage, "-for houdini -to prt: Houdini reads no PRT", "-to", "prt", "-for", "houdini", in, filepath.Join(dir, "h.prt"))
}

// OpenVDB's own library reads the -for houdini volume and finds the velocity in vel,
// carrying the particles' momentum.
func TestForHoudiniReadByOpenVDB(t *testing.T) {
	vdbtest.NeedOpenVDB(t)
	dir := t.TempDir()
	in, balls := writeSequence(t, dir, 1)
	out := filepath.Join(dir, "h.vdb")
	mustExport(t, "-to", "vdb", "-for", "houdini", "-velocity", in, out)
	report := vdbtest.Run(t, vdbtest.Python, filepath.Join("testdata", "density_check.py"), out, "vel")
	var r struct {
		Grids map[string]struct {
			Type       string
			VectorType *string `json:"vector_type"`
		}
		Momentum [3]float64
	}
	if err := json.Unmarshal([]byte(report), &r); err != nil {
		t.Fatalf("%v\n%s", err, report)
	}
	if _, ok := r.Grids["velocity"]; ok || r.Grids["vel"].Type != "vec3s" || r.Grids["density"].Type != "float" {
		t.Errorf("OpenVDB sees grids %+v; want density (float) and vel (vec3s)", r.Grids)
	}
	_, momentum := balls[0].sums()
	if !closeTo(r.Momentum[1], momentum[1], 1e-5, math.Abs(momentum[1])) {
		t.Errorf("OpenVDB's momentum through vel %v, particles %v", r.Momentum, momentum)
	}
}

// -for blender: the volume's grids are density and velocity, the names Blender's
// Volume object and Principled Volume look for; no PRT.
func TestForBlender(t *testing.T) {
	dir := t.TempDir()
	in, _ := writeSequence(t, dir, 1)
	out := filepath.Join(dir, "b.vdb")
	mustExport(t, "-to", "vdb", "-for", "blender", "-velocity", "-props", "PlasticJ", in, out)
	if got := gridNames(readVDB(t, out)); !slices.Equal(got, []string{"density", "velocity", "plastic_j"}) {
		t.Errorf("grids %v, want density, velocity, plastic_j", got)
	}
	points := filepath.Join(dir, "b.ply")
	mustExport(t, "-to", "ply", "-for", "blender", "-normals", "-color", "PlasticJ", in, points)
	if _, e, _ := readPLY(t, points); plyLayout(e) != "float x,float y,float z,int id,float nx,float ny,float nz,uchar red,uchar green,uchar blue" {
		t.Errorf("PLY properties %s", plyLayout(e))
	}
	surf := filepath.Join(dir, "s.vdb")
	mustExport(t, "-to", "surface", "-for", "blender", "-velocity", in, surf)
	if got := gridNames(readVDB(t, surf)); !slices.Equal(got, []string{"surface", "density", "velocity"}) {
		t.Errorf("-to surface: grids %v, want surface, density, velocity", got)
	}
	mustFail(t, cli.ExitUsage, "-for blender -to prt: Blender reads no PRT", "-to", "prt", "-for", "blender", in, filepath.Join(dir, "b.prt"))

	// One surface run for Blender: the OBJ stays Y up (Blender's OBJ importer turns
	// it upright), the PLY is written Z up (its PLY importer has no axis option), and
	// -up y keeps the PLY ours.
	objPath, plyPath, plainPLY := filepath.Join(dir, "s.obj"), filepath.Join(dir, "s.ply"), filepath.Join(dir, "y.ply")
	mustExport(t, "-to", "surface", "-for", "blender", in, objPath, plyPath)
	mustExport(t, "-to", "surface", "-for", "blender", "-up", "y", in, plainPLY)
	objMesh, err := meshfile.Read(objPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path string
		zUp  bool
	}{{plyPath, true}, {plainPLY, false}} {
		m, err := meshfile.Read(c.path)
		if err != nil {
			t.Fatal(err)
		}
		if len(m.Positions) != len(objMesh.Positions) {
			t.Fatalf("%s: %d vertices, the OBJ %d", c.path, len(m.Positions), len(objMesh.Positions))
		}
		for i, p := range objMesh.Positions {
			want := p
			if c.zUp {
				want = geom.Vec3{p[0], -p[2], p[1]}
			}
			if m.Positions[i].Sub(want).Norm() > 1e-6 {
				t.Fatalf("%s: vertex %d at %v, want %v (the OBJ's %v, Z up %v)", c.path, i, m.Positions[i], want, p, c.zUp)
			}
		}
	}
}

// Blender 3.4 imports the -for blender volume and finds density and velocity, the
// latter under the name its motion blur reads by default; and it imports the PLY
// with every point, upright.
func TestForBlenderImportedByBlender(t *testing.T) {
	blendertest.Need(t)
	dir := t.TempDir()
	in, balls := writeSequence(t, dir, 1)
	vol, points := filepath.Join(dir, "b.vdb"), filepath.Join(dir, "b.ply")
	mustExport(t, "-to", "vdb", "-for", "blender", "-velocity", in, vol)
	mustExport(t, "-to", "ply", "-for", "blender", "-velocity", "-color", "Velocity", in, points)
	lines := blendertest.Run(t, `
import bpy, sys
vol_path, ply_path = sys.argv[sys.argv.index("--") + 1:]
bpy.ops.object.volume_import(filepath=vol_path)
vol = bpy.context.selected_objects[0].data
vol.grids.load()
print("SNOWTOOLS grids", " ".join(g.name + ":" + g.data_type for g in vol.grids))
print("SNOWTOOLS velocity_grid", vol.velocity_grid)
bpy.ops.import_mesh.ply(filepath=ply_path)
me = bpy.context.selected_objects[0].data
print("SNOWTOOLS points", len(me.vertices), *me.vertices[5].co)
`, vol, points)
	got := strings.Join(lines, "\n")
	b := balls[0]
	for _, want := range []string{
		"grids density:FLOAT velocity:VECTOR_FLOAT",
		"velocity_grid velocity",
		fmt.Sprintf("points %d ", b.len()),
	} {
		if !strings.Contains(got, want) {
			t.Errorf("Blender reported\n%s\nwant a line with %q", got, want)
		}
	}
	// -for blender writes the PLY Z up, as Blender's importer (no axis option) needs:
	// our (x, y, z) lands at Blender's (x, -z, y), upright.
	p := b.pos[15:18]
	upright := []float32{p[0], -p[2], p[1]}
	for _, line := range lines {
		if f := strings.Fields(line); len(f) == 5 && f[0] == "points" {
			for a := 0; a < 3; a++ {
				var v float64
				fmt.Sscan(f[2+a], &v)
				if math.Abs(v-float64(upright[a])) > 1e-6 {
					t.Errorf("Blender's point 5 is %v, want ours %v upright: %v", f[2:], p, upright)
				}
			}
		}
	}
}

// -for krakatoa: a PRT with Krakatoa's channels, Color as float16 (its convention
// for colours) and the ID as int32; -rename works beside it; no VDB.
func TestForKrakatoa(t *testing.T) {
	dir := t.TempDir()
	in, balls := writeSequence(t, dir, 1)
	out := filepath.Join(dir, "k.prt")
	mustExport(t, "-to", "prt", "-for", "krakatoa", "-color", "Velocity", "-rename", "PlasticJ=Hardening", "-drop", "Mass", in, out)
	f := readPRT(t, out)
	want := "Position float32[3],Velocity float32[3],Density float32[1],ID int32[1],PhysicalDensity float32[1],Hardening float32[1],Color float16[3]"
	if got := prtChannels(f.Header); got != want {
		t.Errorf("channels\n%s\nwant\n%s", got, want)
	}
	hard, _, _ := f.Float32s("Hardening")
	if hard[4] != 1-float32(4%5)/20 {
		t.Errorf("Hardening %g: not PlasticJ's value", hard[4])
	}
	ids, _, _ := f.Int64s("ID")
	if int32(ids[9]) != balls[0].id[9] {
		t.Errorf("ID %d, want %d", ids[9], balls[0].id[9])
	}
	mustFail(t, cli.ExitUsage, "-for krakatoa -to vdb: Krakatoa renders particles and loads no VDB", "-to", "vdb", "-for", "krakatoa", in, filepath.Join(dir, "k.vdb"))
}

// Explicit renames win over -for, and the names a command would write are checked:
// a clash, a name that is no identifier, a rename that names nothing written, a
// PRT without Position are refused, naming the flags.
func TestRenamesAndNameChecks(t *testing.T) {
	dir := t.TempDir()
	in, _ := writeSequence(t, dir, 1)
	out := filepath.Join(dir, "o.vdb")
	mustExport(t, "-to", "vdb", "-for", "houdini", "-velocity", "-rename", "Velocity=v", in, out)
	if got := gridNames(readVDB(t, out)); !slices.Equal(got, []string{"density", "v"}) {
		t.Errorf("-rename Velocity=v over -for houdini: grids %v", got)
	}
	pl := filepath.Join(dir, "o.ply")
	mustExport(t, "-to", "ply", "-for", "houdini", "-props", "PlasticJ", "-rename", "PlasticJ=hardness,ID=particle,Velocity=w", "-velocity", in, pl)
	if _, e, _ := readPLY(t, pl); plyLayout(e) != "float x,float y,float z,int particle,float w_0,float w_1,float w_2,float pscale,float hardness" {
		t.Errorf("renamed PLY properties %s", plyLayout(e))
	}
	bad := filepath.Join(dir, "bad")
	for _, c := range []struct {
		status int
		want   string
		args   []string
	}{
		{cli.ExitFailure, `-rename PlasticJ=pscale: the PLY property "pscale" is taken by each particle's radius (-for houdini)`,
			[]string{"-to", "ply", "-for", "houdini", "-props", "PlasticJ", "-rename", "PlasticJ=pscale", in, bad + ".ply"}},
		{cli.ExitFailure, `-rename PlasticJ=id: the PLY property "id" is taken by the particle IDs; two would have one name`,
			[]string{"-to", "ply", "-props", "PlasticJ", "-rename", "PlasticJ=id", in, bad + ".ply"}},
		{cli.ExitFailure, `-rename PlasticJ=vel: the grid "vel" is taken by -velocity (-for houdini)`,
			[]string{"-to", "vdb", "-for", "houdini", "-velocity", "-props", "PlasticJ", "-rename", "PlasticJ=vel", in, bad + ".vdb"}},
		{cli.ExitFailure, `-rename Mass=Density: the PRT channel "Density" is taken by the input channel Density`,
			[]string{"-to", "prt", "-rename", "Mass=Density", in, bad + ".prt"}},
		{cli.ExitFailure, `-rename PlasticJ=Position: the PRT channel "Position" is taken by the input channel Position`,
			[]string{"-to", "prt", "-for", "krakatoa", "-rename", "PlasticJ=Position", in, bad + ".prt"}},
		{cli.ExitFailure, "-rename Position=P: Krakatoa refuses a PRT without Position",
			[]string{"-to", "prt", "-for", "krakatoa", "-rename", "Position=P", in, bad + ".prt"}},
		{cli.ExitUsage, `-rename PlasticJ=plastic-j: "plastic-j" cannot name a PLY property`,
			[]string{"-to", "ply", "-props", "PlasticJ", "-rename", "PlasticJ=plastic-j", in, bad + ".ply"}},
		{cli.ExitUsage, `-rename Mass=2m: "2m" cannot name a PRT channel`,
			[]string{"-to", "prt", "-rename", "Mass=2m", in, bad + ".prt"}},
		{cli.ExitFailure, "-rename Mass=m: -to ply writes no Mass channel under a name of its own (here -rename applies to ID)",
			[]string{"-to", "ply", "-rename", "Mass=m", in, bad + ".ply"}},
		{cli.ExitUsage, "-rename: -to surface names only the grids of a .vdb output",
			[]string{"-to", "surface", "-rename", "Velocity=v", in, bad + ".obj"}},
		{cli.ExitUsage, `-for "maya": use blender, houdini, krakatoa`, []string{"-to", "ply", "-for", "maya", in, bad + ".ply"}},
		{cli.ExitUsage, "-for applies to -to prt and ply and vdb and surface, not -to png", []string{"-to", "png", "-for", "houdini", in, bad + ".png"}},
		{cli.ExitUsage, "-radius: -to ply writes radii only for a program that reads them", []string{"-to", "ply", "-radius", "0.01", in, bad + ".ply"}},
	} {
		mustFail(t, c.status, c.want, c.args...)
	}
	if matches, _ := filepath.Glob(bad + ".*"); len(matches) != 0 {
		t.Errorf("refused commands left %v", matches)
	}
}

// writeSpray writes a spray frame as snowsim wrote them before IDs were int32:
// Position, Velocity and an int64 ID, with the ground's cell as GridSpacing.
func writeSpray(t *testing.T, path string, ids []int64) {
	t.Helper()
	var h prt.Header
	pos := h.AddChannel("Position", prt.Float32, 3)
	vel := h.AddChannel("Velocity", prt.Float32, 3)
	id := h.AddChannel("ID", prt.Int64, 1)
	h.Count = int64(len(ids))
	h.Meta = []prt.Meta{prt.MetaFloat64("", "GridSpacing", 0.01)}
	writePRTFile(t, path, h, func(i int, rec []byte) {
		pos.PutFloat32s(rec, float32(i)/100, 0.5, 0)
		vel.PutFloat32s(rec, 0, -1, 0)
		id.PutInt64s(rec, ids[i])
	})
}

// The spray's ID arrives in every file as int32, whatever the frame stored; an ID
// beyond int32 stops the run with the frame and the particle, and pscale for spray
// (which has no PhysicalDensity) needs -radius.
func TestSprayIDsAreInt32(t *testing.T) {
	dir := t.TempDir()
	spray := filepath.Join(dir, "spray.0007.prt")
	writeSpray(t, spray, []int64{3, 4, math.MaxInt32})
	out := filepath.Join(dir, "s.prt")
	mustExport(t, "-to", "prt", spray, out)
	f := readPRT(t, out)
	if got := prtChannels(f.Header); got != "Position float32[3],Velocity float32[3],ID int32[1]" {
		t.Errorf("channels %s: want the ID as int32", got)
	}
	if ids, _, _ := f.Int64s("ID"); !slices.Equal(ids, []int64{3, 4, math.MaxInt32}) {
		t.Errorf("IDs %v", ids)
	}
	pl := filepath.Join(dir, "s.ply")
	mustExport(t, "-to", "ply", "-for", "houdini", "-radius", "0.0015", spray, pl)
	if _, e, _ := readPLY(t, pl); plyLayout(e) != "float x,float y,float z,int id,float pscale" {
		t.Errorf("spray PLY properties %s", plyLayout(e))
	}
	mustFail(t, cli.ExitFailure, "this frame has no PhysicalDensity: give the radius with -radius", "-to", "ply", "-for", "houdini", spray, filepath.Join(dir, "bad.ply"))

	writeSpray(t, spray, []int64{3, math.MaxInt32 + 1})
	for _, to := range []string{"prt", "ply"} {
		bad := filepath.Join(dir, "bad."+to)
		mustFail(t, cli.ExitFailure, "frame 7 ("+spray+"): particle 1: ID 2147483648 does not fit the int32", "-to", to, spray, bad)
		if _, err := os.Stat(bad); err == nil {
			t.Errorf("-to %s: a failed frame left %s", to, bad)
		}
	}
}
