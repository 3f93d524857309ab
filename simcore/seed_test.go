package simcore

import (
	"fmt"
	"hash/fnv"
	"math"
	"testing"

	"snowtools/levelset"
	"snowtools/levelset/geom"
	"snowtools/levelset/voxelize"
)

// meshSource returns a source filling m.
func meshSource(t testing.TB, m *geom.Mesh, pattern Pattern, perCell int, seed uint64) Source {
	t.Helper()
	s, err := voxelize.NewMeshShape(m)
	if err != nil {
		t.Fatal(err)
	}
	return Source{Shape: s, Bounds: s.Bounds(), Material: DefaultMaterial, PerCell: perCell, Seed: seed, Pattern: pattern}
}

// hidden hides a shape's Lipschitz bound, so that Fill tests every point.
type hidden struct{ geom.Shape }

func (hidden) Lipschitz() float64 { return math.Inf(1) }

// fingerprint hashes every particle's position, velocity, mass and material.
func fingerprint(p *Particles) uint64 {
	h := fnv.New64a()
	for i := range p.X {
		fmt.Fprintf(h, "%v%v%v%v", p.X[i], p.V[i], p.Mass[i], p.Mat[i])
	}
	return h.Sum64()
}

// A mesh filled with each pattern gets PerCell particles per h^3 of its volume, to 2%,
// all of them inside.
func TestFillMeshPatterns(t *testing.T) {
	h := 0.05
	meshes := map[string]*geom.Mesh{
		"sphere": geom.SphereMesh(geom.Vec3{0.52, 0.61, 0.47}, 0.5, 32, 64),
		"box":    geom.BoxMesh(geom.Vec3{0.013, 0.1, 0.2}, geom.Vec3{0.71, 0.47, 0.93}),
	}
	for name, m := range meshes {
		vol := m.SignedVolume()
		for _, pattern := range Patterns() {
			for _, pc := range []int{4, 8} {
				src := meshSource(t, m, pattern, pc, 11)
				p := &Particles{}
				n, err := Fill(p, src, h)
				if err != nil {
					t.Fatal(err)
				}
				want := float64(pc) * vol / (h * h * h)
				rel := float64(n)/want - 1
				t.Logf("%s, %s, %d per cell: %d particles, %.0f expected (%+.2f%%)", name, pattern, pc, n, want, 100*rel)
				if math.Abs(rel) > 0.02 {
					t.Errorf("%s, %s, %d per cell: %d particles, want %.0f within 2%%", name, pattern, pc, n, want)
				}
				if mass := p.totalMass(); math.Abs(mass/(DefaultMaterial.Density*vol)-1-rel) > 1e-5 {
					t.Errorf("total mass %g for %d particles", mass, n)
				}
				for i := 0; i < len(p.X); i += 5 { // a fifth of them, to keep the test fast
					if phi, _ := src.Shape.Distance(p.X[i]); !(phi < 0) {
						t.Fatalf("particle %d at %v: phi = %g", i, p.X[i], phi)
					}
				}
			}
		}
	}
}

// Deciding whole cells and points from the distance at cell centres changes
// nothing: testing every point gives the same particles and materials, with a shell
// (whose particles need their own phi) and without. (Poisson points depend on which
// cells get darts, so there only the count is compared.)
func TestFillClassificationExact(t *testing.T) {
	h := 0.06
	ball := geom.Sphere{Center: geom.Vec3{0.31, 0.29, 0.33}, Radius: 0.27}
	bb := geom.Box{Min: geom.Vec3{0, 0, 0}, Max: geom.Vec3{0.62, 0.6, 0.62}}
	meshed := meshSource(t, geom.SphereMesh(ball.Center, ball.Radius, 16, 32), PatternRandom, 8, 2)
	for _, shell := range []float64{0, 0.07} {
		for _, pattern := range Patterns() {
			for name, shape := range map[string]geom.Shape{"sphere": ball, "mesh": meshed.Shape} {
				src := Source{Shape: shape, Bounds: bb, Material: DefaultMaterial, PerCell: 8, Seed: 4, Pattern: pattern,
					Variation: Variation{ShellThickness: shell, ShellStiffness: 3, ShellDensity: 2}}
				fast, brute := &Particles{}, &Particles{}
				if _, err := Fill(fast, src, h); err != nil {
					t.Fatal(err)
				}
				src.Shape = hidden{shape}
				if _, err := Fill(brute, src, h); err != nil {
					t.Fatal(err)
				}
				if pattern == PatternPoisson {
					if d := math.Abs(float64(fast.Len())/float64(brute.Len()) - 1); d > 0.01 {
						t.Errorf("%s, shell %g, poisson: %d particles, %d testing every point", name, shell, fast.Len(), brute.Len())
					}
				} else if fingerprint(fast) != fingerprint(brute) {
					t.Errorf("%s, shell %g, %s: %d particles, %d others testing every point", name, shell, pattern, fast.Len(), brute.Len())
				}
			}
		}
	}
}

// The random pattern gives the particles of the first Fill (which tested every point
// with one PCG stream), bit for bit: the hash below was taken from it, for the demo's
// snowballs and an off-grid box.
func TestFillRandomUnchanged(t *testing.T) {
	h := fnv.New64a()
	put := func(f float64) { fmt.Fprintf(h, "%x,", math.Float64bits(f)) }
	type job struct {
		s       geom.Shape
		b       geom.Box
		perCell int
		seed    uint64
		h       float64
	}
	var jobs []job
	for i, s := range [][4]float64{{0.4, 0.7, 0.5, 0.15}, {1.2, 0.65, 0.5, 0.15}, {1.3, 0.3, 0.5, 0.12}, {0.5, 0.5, 0.5, 0.2}} {
		c, r := geom.Vec3{s[0], s[1], s[2]}, geom.Vec3{s[3], s[3], s[3]}
		for _, pc := range []int{1, 4, 8, 10} {
			jobs = append(jobs, job{geom.Sphere{Center: c, Radius: s[3]}, geom.Box{Min: c.Sub(r), Max: c.Add(r)}, pc, uint64(i + 1), 0.03})
		}
	}
	box := geom.Box{Min: geom.Vec3{0.013, 0.1, 0.2}, Max: geom.Vec3{0.3, 0.47, 0.51}}
	jobs = append(jobs, job{geom.Box(box), box, 8, 7, 0.025})
	total := 0
	for _, jb := range jobs {
		p := &Particles{}
		n, err := Fill(p, Source{Shape: jb.s, Bounds: jb.b, Material: DefaultMaterial, PerCell: jb.perCell, Seed: jb.seed,
			Velocity: geom.Vec3{1, 2, 3}, Spin: geom.Vec3{0, 0, -8}, Center: geom.Vec3{0.3, 0.3, 0.3}}, jb.h)
		if err != nil {
			t.Fatal(err)
		}
		total += n
		for i := range p.X {
			for a := range 3 {
				put(p.X[i][a])
				put(p.V[i][a])
			}
			put(float64(p.Mass[i]))
			fmt.Fprintf(h, "%v", p.Mat[i])
		}
	}
	if got := fmt.Sprintf("%d %x", total, h.Sum64()); got != "75620 b3444296aff0e786" {
		t.Errorf("random pattern: %s, the first Fill gave 75620 b3444296aff0e786", got)
	}
}

// The same seed gives the same particles whatever the number of workers; another
// seed gives others.
func TestFillDeterministic(t *testing.T) {
	m := geom.SphereMesh(geom.Vec3{0.3, 0.3, 0.3}, 0.25, 24, 48)
	for _, pattern := range Patterns() {
		var prints []uint64
		for _, w := range []int{1, 3, 8} {
			src := meshSource(t, m, pattern, 8, 5)
			src.Workers = w
			src.Variation = Variation{NoiseScale: 0.1, StiffnessNoise: 0.5, ShellThickness: 0.05, ShellDensity: 1.5}
			p := &Particles{}
			if _, err := Fill(p, src, 0.06); err != nil {
				t.Fatal(err)
			}
			prints = append(prints, fingerprint(p))
		}
		if prints[0] != prints[1] || prints[0] != prints[2] {
			t.Errorf("%s: fingerprints %x with 1, 3, 8 workers", pattern, prints)
		}
		other := &Particles{}
		if _, err := Fill(other, meshSource(t, m, pattern, 8, 6), 0.06); err != nil {
			t.Fatal(err)
		}
		if fingerprint(other) == prints[0] {
			t.Errorf("%s: seeds 5 and 6 give the same particles", pattern)
		}
	}
}

// Poisson-disk points keep the minimum distance PoissonRadius, across cell borders.
func TestFillPoissonMinDistance(t *testing.T) {
	h := 0.05
	for _, pc := range []int{1, 4, 8, 10} {
		box := geom.Box{Min: geom.Vec3{-0.2, 0.01, 0.03}, Max: geom.Vec3{0.33, 0.42, 0.5}}
		p := &Particles{}
		n, err := Fill(p, Source{Shape: geom.Box(box), Bounds: box, Material: DefaultMaterial, PerCell: pc, Seed: 3, Pattern: PatternPoisson}, h)
		if err != nil {
			t.Fatal(err)
		}
		r := PoissonRadius(h, pc)
		// Bin the points in cells of side r: a closer pair is in adjacent bins.
		bins := map[[3]int][]geom.Vec3{}
		key := func(x geom.Vec3) [3]int {
			return [3]int{int(math.Floor(x[0] / r)), int(math.Floor(x[1] / r)), int(math.Floor(x[2] / r))}
		}
		for _, x := range p.X {
			bins[key(x)] = append(bins[key(x)], x)
		}
		closest := math.Inf(1)
		for _, x := range p.X {
			k := key(x)
			for d := range 27 {
				for _, y := range bins[[3]int{k[0] + d/9 - 1, k[1] + d/3%3 - 1, k[2] + d%3 - 1}] {
					if y != x {
						closest = min(closest, x.Sub(y).Norm())
					}
				}
			}
		}
		vol := box.Size()[0] * box.Size()[1] * box.Size()[2]
		t.Logf("%d per cell: %d points (%.2f%% of PerCell V/h^3), closest pair %.4f h, r = %.4f h",
			pc, n, 100*float64(n)/(float64(pc)*vol/(h*h*h)), closest/h, r/h)
		if closest < r {
			t.Errorf("%d per cell: two points %g apart, r = %g", pc, closest, r)
		}
	}
}

// Jittered points are stratified: with k = ceil(PerCell^(1/3)), no sub-cell of side
// h/k holds two points, and with PerCell = k^3 every sub-cell of a filled cell holds one.
func TestFillJitteredStratified(t *testing.T) {
	h := 0.1
	box := geom.Box{Min: geom.Vec3{-0.3, 0, 0.1}, Max: geom.Vec3{0.3, 0.4, 0.6}} // whole cells
	for _, pc := range []int{5, 8, 27} {
		p := &Particles{}
		n, err := Fill(p, Source{Shape: geom.Box(box), Bounds: box, Material: DefaultMaterial, PerCell: pc, Seed: 9, Pattern: PatternJittered}, h)
		if err != nil {
			t.Fatal(err)
		}
		k := jitterSplit(pc)
		sub := map[[3]int]int{}
		for _, x := range p.X {
			sub[[3]int{int(math.Floor(x[0] * float64(k) / h)), int(math.Floor(x[1] * float64(k) / h)), int(math.Floor(x[2] * float64(k) / h))}]++
		}
		cells := 6 * 4 * 5
		if n != pc*cells {
			t.Errorf("%d per cell: %d points in %d whole cells", pc, n, cells)
		}
		for s, c := range sub {
			if c > 1 {
				t.Fatalf("%d per cell: sub-cell %v holds %d points", pc, s, c)
			}
		}
		if pc == k*k*k && len(sub) != cells*pc {
			t.Errorf("%d per cell: %d sub-cells hold a point, want all %d", pc, len(sub), cells*pc)
		}
	}
}

// A voxelized mesh (a level set, as from a VDB file) is a snow source too.
func TestFillLevelSet(t *testing.T) {
	m := geom.SphereMesh(geom.Vec3{0.5, 0.5, 0.5}, 0.4, 32, 64)
	c, err := voxelize.Mesh(m, voxelize.Options{VoxelSize: 0.025, HalfWidth: 3})
	if err != nil {
		t.Fatal(err)
	}
	s, err := levelset.NewGridShape(c.Surface)
	if err != nil {
		t.Fatal(err)
	}
	h := 0.05
	for _, pattern := range Patterns() {
		p := &Particles{}
		n, err := Fill(p, Source{Shape: s, Bounds: geom.Box{Min: geom.Vec3{0, 0, 0}, Max: geom.Vec3{1, 1, 1}},
			Material: DefaultMaterial, PerCell: 8, Seed: 1, Pattern: pattern}, h)
		if err != nil {
			t.Fatal(err)
		}
		want := 8 * m.SignedVolume() / (h * h * h)
		if math.Abs(float64(n)/want-1) > 0.02 {
			t.Errorf("%s: %d particles, want %.0f within 2%%", pattern, n, want)
		}
	}
}

func TestFillRejects(t *testing.T) {
	ball := geom.Sphere{Center: geom.Vec3{0.5, 0.5, 0.5}, Radius: 0.2}
	good := Source{Shape: ball, Bounds: geom.Box{Min: geom.Vec3{0.3, 0.3, 0.3}, Max: geom.Vec3{0.7, 0.7, 0.7}}, Material: DefaultMaterial, PerCell: 8}
	cases := map[string]func(s *Source){
		"pattern":         func(s *Source) { s.Pattern = "blue" },
		"per cell":        func(s *Source) { s.PerCell = 0 },
		"bounds":          func(s *Source) { s.Bounds.Max[0] = math.Inf(1) },
		"huge bounds":     func(s *Source) { s.Bounds.Max = geom.Vec3{1e4, 1e4, 1e4} },
		"material":        func(s *Source) { s.Material.PoissonRatio = 0.5 },
		"noise amplitude": func(s *Source) { s.Variation = Variation{NoiseScale: 0.1, StiffnessNoise: 1} },
		"noise scale":     func(s *Source) { s.Variation = Variation{StretchNoise: 0.3} },
		"shell":           func(s *Source) { s.Variation = Variation{ShellThickness: -1} },
		"shell factor":    func(s *Source) { s.Variation = Variation{ShellThickness: 0.1, ShellDensity: math.NaN()} },
	}
	for name, edit := range cases {
		src := good
		edit(&src)
		if _, err := Fill(&Particles{}, src, 0.05); err == nil {
			t.Errorf("%s: no error", name)
		} else {
			t.Logf("%s: %v", name, err)
		}
	}
	if _, err := Fill(&Particles{}, good, 0); err == nil {
		t.Errorf("h = 0: no error")
	}
	if n, err := Fill(&Particles{}, good, 0.05); err != nil || n == 0 {
		t.Errorf("the good source: %d particles, %v", n, err)
	}
}
