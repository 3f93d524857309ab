package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"snowtools/cmd/internal/cli"
	"snowtools/formats/vdb"
	"snowtools/formats/vdb/vdbtest"
	"snowtools/levelset"
)

// sums returns the total mass and momentum of a ball.
func (b *snowball) sums() (mass float64, momentum [3]float64) {
	for i, m := range b.mass {
		mass += float64(m)
		for a := 0; a < 3; a++ {
			momentum[a] += float64(m) * float64(b.vel[3*i+a])
		}
	}
	return mass, momentum
}

func readVDB(t *testing.T, path string) *vdb.File {
	t.Helper()
	file, err := vdb.ReadFile(path)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return file
}

// The density grid holds the particles' mass: sum of density x h^3 = sum of m_p.
func TestVDBDensityIntegratesToMass(t *testing.T) {
	dir := t.TempDir()
	in, balls := writeSequence(t, dir, 1)
	mass, momentum := balls[0].sums()
	for _, filter := range []string{"1", "2.5"} {
		out := filepath.Join(dir, "snow"+filter+".vdb")
		mustExport(t, "-to", "vdb", "-velocity", "-props", "PlasticJ", "-filter", filter, in, out)
		f := readVDB(t, out)
		density := f.Grid("density")
		if density == nil || density.Class != vdb.FogVolume || density.Float.Transform.VoxelSize != ballH {
			t.Fatalf("filter %s: density grid %+v", filter, density)
		}
		vel := f.Grid("velocity").Vec3
		cell := ballH * ballH * ballH
		var m float64
		var p [3]float64
		density.Float.ForEachActive(func(c levelset.Coord, rho float32) {
			m += float64(rho) * cell
			v := vel.Get(c)
			for a := range p {
				p[a] += float64(rho) * cell * float64(v[a])
			}
		})
		if rel := math.Abs(m-mass) / mass; rel > 1e-6 {
			t.Errorf("filter %s: sum rho h^3 = %.9g kg, sum m_p = %.9g kg (relative %.2g)", filter, m, mass, rel)
		}
		for a := range p {
			if !closeTo(p[a], momentum[a], 1e-5, math.Abs(momentum[1])) {
				t.Errorf("filter %s: momentum[%d] = %.7g, particles %.7g", filter, a, p[a], momentum[a])
			}
		}
		// Inside the ball the density is the snow's, about 420 kg/m^3.
		rho := float64(density.Float.Get(levelset.Coord{0, 30, 0}))
		if rho < 380 || rho > 460 {
			t.Errorf("filter %s: density at the centre %g kg/m^3, want about 420", filter, rho)
		}
		if g := f.Grid("plastic_j"); g == nil || g.Float == nil {
			t.Errorf("filter %s: no plastic_j grid", filter)
		}
	}
}

// OpenVDB's own library reads the volume and finds the same mass.
func TestVDBReadByOpenVDB(t *testing.T) {
	vdbtest.NeedOpenVDB(t)
	dir := t.TempDir()
	in, balls := writeSequence(t, dir, 1)
	out := filepath.Join(dir, "snow.vdb")
	mustExport(t, "-to", "vdb", "-velocity", "-half", "velocity", in, out)
	report := vdbtest.Run(t, vdbtest.Python, filepath.Join("testdata", "density_check.py"), out)
	var r struct {
		Grids map[string]struct {
			Class, Type string
			VoxelSize   []float64 `json:"voxel_size"`
			Active      int64
			Half        bool
		}
		Mass     float64
		Momentum [3]float64
	}
	if err := json.Unmarshal([]byte(report), &r); err != nil {
		t.Fatalf("%v\n%s", err, report)
	}
	t.Logf("OpenVDB's view: %s", report)
	mass, momentum := balls[0].sums()
	d, v := r.Grids["density"], r.Grids["velocity"]
	if d.Class != "fog volume" || d.Type != "float" || len(d.VoxelSize) != 3 || d.VoxelSize[0] != ballH {
		t.Errorf("density grid as OpenVDB sees it: %+v", d)
	}
	if v.Type != "vec3s" || !v.Half || v.Active != d.Active {
		t.Errorf("velocity grid as OpenVDB sees it: %+v (density has %d active voxels)", v, d.Active)
	}
	if rel := math.Abs(r.Mass-mass) / mass; rel > 1e-6 {
		t.Errorf("OpenVDB integrates %.9g kg, particles hold %.9g kg (relative %.2g)", r.Mass, mass, rel)
	}
	// Velocities went through half floats: 11 bits.
	if !closeTo(r.Momentum[1], momentum[1], 2e-3, math.Abs(momentum[1])) {
		t.Errorf("OpenVDB's momentum %v, particles %v", r.Momentum, momentum)
	}
}

// -vdb-codec writes the grids of the default (zip) file, compressed as asked, for
// -to vdb and -to surface; other modes refuse it.
func TestVDBCodec(t *testing.T) {
	dir := t.TempDir()
	in, _ := writeSequence(t, dir, 1)
	for _, mode := range []string{"vdb", "surface"} {
		path := func(codec string) string { return filepath.Join(dir, mode+"-"+codec+".vdb") }
		for _, codec := range []string{"zip", "blosc-lz4", "blosc-zlib"} {
			mustExport(t, "-to", mode, "-velocity", "-vdb-codec", codec, in, path(codec))
		}
		zip, err := vdb.ReadFile(path("zip"))
		if err != nil {
			t.Fatal(err)
		}
		for _, codec := range []string{"blosc-lz4", "blosc-zlib"} {
			data, _ := os.ReadFile(path(codec))
			if !bytes.Contains(data, []byte("blosc + active values")) {
				t.Errorf("-to %s -vdb-codec %s: not a Blosc file", mode, codec)
			}
			f, err := vdb.ReadFile(path(codec))
			if err != nil {
				t.Fatal(err)
			}
			if len(f.Grids) != len(zip.Grids) {
				t.Fatalf("-to %s -vdb-codec %s: %d grids, zip %d", mode, codec, len(f.Grids), len(zip.Grids))
			}
			for _, z := range zip.Grids {
				g := f.Grid(z.Name)
				same := g != nil && (z.Float == nil) == (g.Float == nil)
				if same && z.Float != nil {
					z.Float.ForEachActive(func(c levelset.Coord, v float32) { same = same && g.Float.Get(c) == v })
				} else if same {
					z.Vec3.ForEachActive(func(c levelset.Coord, v levelset.Vec3f) { same = same && g.Vec3.Get(c) == v })
				}
				if !same {
					t.Errorf("-to %s -vdb-codec %s: grid %q differs from the zip file's", mode, codec, z.Name)
				}
			}
		}
	}
	code, log := runExport(t, "-to", "prt", "-vdb-codec", "blosc-lz4", in, filepath.Join(dir, "a.prt"))
	if code != cli.ExitUsage || !strings.Contains(log, "-vdb-codec applies to -to vdb and surface") {
		t.Errorf("-to prt -vdb-codec: exit %d: %s", code, log)
	}
	code, log = runExport(t, "-to", "vdb", "-vdb-codec", "lzma", in, filepath.Join(dir, "a.vdb"))
	if code != cli.ExitUsage || !strings.Contains(log, "-vdb-codec: unknown VDB codec") {
		t.Errorf("-vdb-codec lzma: exit %d: %s", code, log)
	}
}

func TestVDBNeedsMassAndSpacing(t *testing.T) {
	dir := t.TempDir()
	in, _ := writeSequence(t, dir, 1)
	code, log := runExport(t, "-to", "vdb", "-half", "nothing", in, filepath.Join(dir, "a.vdb"))
	if code != cli.ExitFailure || !strings.Contains(log, "-half nothing: no such grid") {
		t.Errorf("exit %d: %s", code, log)
	}
	code, log = runExport(t, "-to", "vdb", "-props", "ID", in, filepath.Join(dir, "a.vdb"))
	if code != cli.ExitFailure || !strings.Contains(log, "-props ID") {
		t.Errorf("exit %d: %s", code, log)
	}
	if _, err := os.Stat(filepath.Join(dir, "a.vdb")); err == nil {
		t.Error("a failed export left a file")
	}
}
