package blendertest_test

import (
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"snowtools/formats/vdb"
	"snowtools/levelset"
	"snowtools/levelset/geom"
)

// The rates scene of dcc/blender/test_addon.py (--scene rates): 30 / 1.001 fps, frames
// 1001-1004, h = 5 cm, a cache folder named "shot#12 %d", and two hidden 20 cm box
// colliders, "lift" raised 5 cm a frame by its object keys and "wave" raised 3 cm a
// frame by a keyed Displace modifier over a keyed shape key (2 cm over the range).
const (
	ratesFirst, ratesLast = 1001, 1004
	ratesCache            = "shot#12 %d"
	// The least a collider moves from one frame to the next (wave: 3 cm + 2/3 cm):
	// a file holding the next or the previous frame's pose would be this far off.
	ratesLeastStep = 0.035 // m
	// How far from Blender's surface the collider VDB's zero level may lie at the
	// centre of a box's top face (measured 3.5e-7 m: the OBJ files' 6 decimals); a
	// file one frame off is ratesLeastStep off.
	ratesPoseTolerance = 1e-4 // m
)

// ratesFPS is 30 / 1.001 in float64 arithmetic, as the add-on computes it: the Go
// constant expression would be exact, and round to the next float64 down.
var ratesFPSBase = 1.001
var ratesFPS = 30 / ratesFPSBase

// checkRatesRun judges the rates scene's bake, whose cache folder is cache.
func checkRatesRun(t *testing.T, lines []string, cache string) {
	r := parseAddonReport(lines)
	if b := r.one(t, "bake"); b[0] != "FINISHED" {
		t.Fatalf("bake: %v", b)
	}
	var toml []string
	for _, f := range r["toml"] {
		toml = append(toml, f[0])
	}
	// fps_base 1.001 is float32 in Blender (1.00100004673); the add-on reads it as the
	// 1.001 typed.
	want := []string{"fps=" + strconv.FormatFloat(ratesFPS, 'g', -1, 64), "start=1001", "frames=3"}
	if strings.Join(toml, " ") != strings.Join(want, " ") {
		t.Errorf("scene.toml says %v, want %v", toml, want)
	}
	checkFileNumbers(t, r, ratesFirst, ratesLast)
	if h := strings.Join(r.one(t, "hidden"), " "); h != "True True" {
		t.Errorf("after the bake, lift hidden and wave disabled in viewports: %s, want True True (restored)", h)
	}
	for n, f := range r.framesIn(t, "loaded", 2, ratesFirst, ratesLast) {
		if f[0] != f[1] {
			t.Errorf("frame %d: the points object holds %s vertices, the PRT %s particles", n, f[0], f[1])
		}
	}
	// The Volume finds its sequence in the folder named with "#" and "%d".
	for n, f := range r.framesIn(t, "volume", 3, ratesFirst, ratesLast) {
		if f[0] != strconv.Itoa(n) || f[1] != fmt.Sprintf("snow.%04d.vdb", n) || f[2] == "0" {
			t.Errorf("frame %d: the Volume shows sequence frame %s, file %s, %s grids", n, f[0], f[1], f[2])
		}
	}
	checkColliderPoses(t, r, cache)

	topo := strings.Join(r.one(t, "topology"), " ")
	for _, part := range []string{"remeshed", "frames 1002 and 1003"} {
		if !strings.Contains(topo, part) {
			t.Errorf("a collider whose topology changes at frame 1003: the bake reported %q, want it to name %q", topo, part)
		}
	}
	shelved := strings.Join(r.one(t, "excluded"), " ")
	if !strings.Contains(shelved, "shelved cannot be selected") || !strings.Contains(shelved, "excluded") {
		t.Errorf("a collider in a collection excluded from the view layer: the bake reported %q, want it named, and why", shelved)
	}
}

// checkColliderPoses: collider file n holds Blender's pose at frame n, at time
// n / (30 / 1.001) s. Each "pose" line is the top centre of a collider's evaluated
// bounding box at a frame, in the tools' axes and metres, which must lie on the
// zero level of that frame's "surface" grid.
func checkColliderPoses(t *testing.T, r addonReport, cache string) {
	tops := map[string]map[int]geom.Vec3{}
	for _, f := range r["pose"] {
		if len(f) != 5 {
			t.Fatalf("pose %v: want a frame, a name and a point", f)
		}
		n, err := strconv.Atoi(f[0])
		if err != nil {
			t.Fatalf("pose %v: %v", f, err)
		}
		if tops[f[1]] == nil {
			tops[f[1]] = map[int]geom.Vec3{}
		}
		tops[f[1]][n] = geom.Vec3{num(t, f[2]), num(t, f[3]), num(t, f[4])}
	}
	if len(tops) != 2 {
		t.Fatalf("poses of %d colliders, want lift and wave", len(tops))
	}
	largest := 0.0 // the largest |phi| at a pose, for the log
	for n := ratesFirst; n <= ratesLast; n++ {
		path := filepath.Join(cache, "colliders", fmt.Sprintf("col.%04d.vdb", n))
		file, err := vdb.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		tm, _ := file.Meta["time"].(float64)
		if file.Meta["frame"] != int32(n) || math.Abs(tm-float64(n)/ratesFPS) > 1e-9 {
			t.Errorf("%s: frame %v at %v s, want frame %d at %.9g s", path, file.Meta["frame"], file.Meta["time"], n, float64(n)/ratesFPS)
		}
		surface := file.Grid("surface")
		if surface == nil || surface.Float == nil {
			t.Fatalf("%s: no float grid surface", path)
		}
		phi := levelset.NewFloatSampler(surface.Float)
		for name, top := range tops {
			p, ok := top[n]
			if !ok {
				t.Fatalf("no pose of %s at frame %d", name, n)
			}
			d := phi.Sample(p)
			largest = max(largest, math.Abs(d))
			if !(math.Abs(d) <= ratesPoseTolerance) {
				t.Errorf("frame %d: %s's top in Blender is %.4g m from the surface in %s (want <= %g)",
					n, name, d, filepath.Base(path), ratesPoseTolerance)
			}
			if prev, ok := top[n-1]; ok && prev.Sub(p).Norm() < ratesLeastStep {
				t.Errorf("%s moved %.4g m from frame %d to %d, want >= %g: the test cannot tell the frames apart",
					name, prev.Sub(p).Norm(), n-1, n, ratesLeastStep)
			}
		}
	}
	t.Logf("collider poses: the VDB's surface lies within %.3g m of Blender's evaluated mesh", largest)
}
