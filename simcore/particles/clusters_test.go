package particles

import (
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"
)

// clusterBall places particles on a lattice of the given spacing, jittered by up to
// 15% of it on each axis, inside a ball.
func clusterBall(rng *rand.Rand, centre [3]float64, radius, spacing float64) []float32 {
	var pos []float32
	n := int(radius / spacing)
	for i := -n; i <= n; i++ {
		for j := -n; j <= n; j++ {
			for k := -n; k <= n; k++ {
				x := [3]float64{float64(i) * spacing, float64(j) * spacing, float64(k) * spacing}
				if x[0]*x[0]+x[1]*x[1]+x[2]*x[2] > radius*radius {
					continue
				}
				for a := range x {
					pos = append(pos, float32(centre[a]+x[a]+(rng.Float64()-0.5)*0.3*spacing))
				}
			}
		}
	}
	return pos
}

// uniformMasses gives n particles the mass m each.
func uniformMasses(n int, m float32) []float32 {
	mass := make([]float32, n)
	for i := range mass {
		mass[i] = m
	}
	return mass
}

func mustClusters(t testing.TB, pos, mass []float32, link float64, powderBelow int) ClusterStats {
	t.Helper()
	st, err := Clusters(pos, mass, link, powderBelow)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// bruteLabels is the definition, tested pair by pair.
func bruteLabels(pos []float32, link float64) []int32 {
	n := len(pos) / 3
	u := newUnionFind(n)
	for i := range n {
		for j := i + 1; j < n; j++ {
			dx := float64(pos[3*i]) - float64(pos[3*j])
			dy := float64(pos[3*i+1]) - float64(pos[3*j+1])
			dz := float64(pos[3*i+2]) - float64(pos[3*j+2])
			if ri, rj := u.find(int32(i)), u.find(int32(j)); ri != rj && dx*dx+dy*dy+dz*dz < link*link {
				u.union(ri, rj)
			}
		}
	}
	labels := make([]int32, n)
	for i := range labels {
		labels[i] = u.find(int32(i))
	}
	return labels
}

// samePartition reports whether two labellings group the particles alike.
func samePartition(a, b []int32) bool {
	if len(a) != len(b) {
		return false
	}
	ab, ba := map[int32]int32{}, map[int32]int32{}
	for i := range a {
		if x, ok := ab[a[i]]; ok && x != b[i] {
			return false
		}
		if y, ok := ba[b[i]]; ok && y != a[i] {
			return false
		}
		ab[a[i]], ba[b[i]] = b[i], a[i]
	}
	return true
}

// Two balls far apart are two clusters, the heavier one the largest although it has
// fewer particles, with shares exact (the masses are exact binary fractions).
func TestClustersTwoBalls(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	light := clusterBall(rng, [3]float64{0, 0, 0}, 0.1, 0.01)
	heavy := clusterBall(rng, [3]float64{0.5, 0.2, -0.3}, 0.08, 0.01)
	nl, nh := len(light)/3, len(heavy)/3
	pos := append(append([]float32(nil), light...), heavy...)
	mass := append(uniformMasses(nl, 0.25), uniformMasses(nh, 0.75)...)
	st := mustClusters(t, pos, mass, 0.015, 10)

	total := 0.25*float64(nl) + 0.75*float64(nh)
	want := ClusterStats{
		Particles: nl + nh, Mass: total, Clusters: 2, Lumps: 2,
		Largest: MassPortion{Particles: nh, Mass: 0.75 * float64(nh), Share: 0.75 * float64(nh) / total},
		Second:  MassPortion{Particles: nl, Mass: 0.25 * float64(nl), Share: 0.25 * float64(nl) / total},
	}
	if nh >= nl || want.Largest.Mass <= want.Second.Mass {
		t.Fatalf("test setup: %d heavy particles against %d light ones", nh, nl)
	}
	if st != want {
		t.Errorf("stats\n%+v\nwant\n%+v", st, want)
	}
	labels, count, err := ClusterLabels(pos, 0.015)
	if err != nil || count != 2 || labels[0] != 0 || labels[len(labels)-1] != 1 {
		t.Errorf("labels: %d clusters (%v), first %d, last %d; want 2, numbered by first particle", count, err, labels[0], labels[len(labels)-1])
	}
}

// A line of particles spaced just below the link distance is one cluster; spaced just
// above it, every particle is its own. Lines in several directions cross cells through
// faces, edges and corners, forwards and backwards.
func TestClustersLine(t *testing.T) {
	const link, n = 0.02, 40
	for _, dir := range [][3]float64{{1, 0, 0}, {0, 0, -1}, {1, 1, 1}, {1, -1, 1}, {-1, 1, 1}, {0, 1, -1}, {3, -2, 1}} {
		l := math.Sqrt(dir[0]*dir[0] + dir[1]*dir[1] + dir[2]*dir[2])
		for _, c := range []struct {
			factor float64
			want   int
		}{{1 - 1e-3, 1}, {1 + 1e-3, n}} {
			pos := make([]float32, 0, 3*n)
			for i := range n {
				for a := range 3 {
					pos = append(pos, float32(0.3*float64(a+1)-0.7+float64(i)*c.factor*link*dir[a]/l))
				}
			}
			st := mustClusters(t, pos, uniformMasses(n, 1), link, 2)
			if st.Clusters != c.want {
				t.Errorf("direction %v, spacing %g link: %d clusters, want %d", dir, c.factor, st.Clusters, c.want)
			}
		}
	}
}

// Isolated points are one cluster each, all powder.
func TestClustersIsolatedPoints(t *testing.T) {
	const link = 0.01
	rng := rand.New(rand.NewPCG(2, 2))
	var pos, mass []float32
	for i := range 10 {
		for j := range 10 {
			for k := range 10 {
				pos = append(pos, float32(2*link*float64(i)), float32(2.1*link*float64(j)), float32(-2.2*link*float64(k)))
				mass = append(mass, float32(1e-4*(1+rng.Float64())))
			}
		}
	}
	st := mustClusters(t, pos, mass, link, 10)
	if st.Clusters != 1000 || st.Lumps != 0 || st.Largest.Particles != 1 || st.Second.Particles != 1 {
		t.Errorf("%+v: want 1000 clusters of one particle, no lumps", st)
	}
	if st.Powder != (MassPortion{Particles: 1000, Mass: st.Mass, Share: 1}) {
		t.Errorf("powder %+v: want all 1000 particles, share 1", st.Powder)
	}
	if st = mustClusters(t, pos, mass, link, 1); st.Powder != (MassPortion{}) || st.Lumps != 1000 {
		t.Errorf("powder below 1 particle: %+v, want none", st.Powder)
	}
}

// clumpyCloud is snow after an impact: balls of several sizes and scattered grains,
// with random masses.
func clumpyCloud(seed uint64, grains int) (pos, mass []float32) {
	rng := rand.New(rand.NewPCG(seed, 3))
	for range 6 {
		c := [3]float64{rng.Float64(), 0.3 * rng.Float64(), rng.Float64()}
		pos = append(pos, clusterBall(rng, c, 0.02+0.06*rng.Float64(), 0.01)...)
	}
	for range grains {
		pos = append(pos, float32(rng.Float64()), float32(0.3*rng.Float64()), float32(rng.Float64()))
	}
	mass = make([]float32, len(pos)/3)
	for i := range mass {
		mass[i] = float32(1e-6 * (1 + rng.Float64()))
	}
	return pos, mass
}

// Shuffling the particles gives the same partition and bit-identical statistics.
func TestClustersOrderIndependent(t *testing.T) {
	pos, mass := clumpyCloud(4, 3000)
	const link = 0.012
	st := mustClusters(t, pos, mass, link, 10)
	labels, _, err := ClusterLabels(pos, link)
	if err != nil {
		t.Fatal(err)
	}
	if st.Lumps < 6 || st.Powder.Particles == 0 || st.Clusters <= st.Lumps {
		t.Fatalf("test setup: %+v: want lumps and powder", st)
	}
	rng := rand.New(rand.NewPCG(5, 5))
	for range 3 {
		perm := rng.Perm(len(mass))
		pos2, mass2 := make([]float32, len(pos)), make([]float32, len(mass))
		for i, p := range perm {
			copy(pos2[3*i:3*i+3], pos[3*p:3*p+3])
			mass2[i] = mass[p]
		}
		if st2 := mustClusters(t, pos2, mass2, link, 10); st2 != st {
			t.Fatalf("shuffled:\n%+v\nwant\n%+v", st2, st)
		}
		labels2, _, err := ClusterLabels(pos2, link)
		if err != nil {
			t.Fatal(err)
		}
		back := make([]int32, len(labels))
		for i, p := range perm {
			back[p] = labels2[i]
		}
		if !samePartition(labels, back) {
			t.Fatal("shuffled particles are clustered differently")
		}
	}
}

// The grid finds exactly the clusters of the pair-by-pair definition, for links
// shorter than, near and much longer than the particle spacing.
func TestClustersMatchBruteForce(t *testing.T) {
	pos, _ := clumpyCloud(6, 1500)
	pos = pos[:3*3000] // keep the brute force quick
	for _, link := range []float64{0.004, 0.0105, 0.03, 0.2} {
		labels, _, err := ClusterLabels(pos, link)
		if err != nil {
			t.Fatal(err)
		}
		if !samePartition(labels, bruteLabels(pos, link)) {
			t.Errorf("link %g: the grid's clusters differ from the pairwise definition", link)
		}
	}
}

// Empty input is no clusters and all zeros, not an error.
func TestClustersEmpty(t *testing.T) {
	st, err := Clusters(nil, nil, 0.01, 10)
	if err != nil || st != (ClusterStats{}) {
		t.Errorf("Clusters of nothing: %+v, %v; want zeros", st, err)
	}
	labels, count, err := ClusterLabels([]float32{}, 0.01)
	if err != nil || count != 0 || len(labels) != 0 {
		t.Errorf("ClusterLabels of nothing: %v, %d, %v", labels, count, err)
	}
	// Massless particles cluster, with shares 0 rather than NaN.
	if st := mustClusters(t, []float32{0, 0, 0, 1, 1, 1}, []float32{0, 0}, 0.1, 10); st.Clusters != 2 || st.Largest.Share != 0 || st.Powder.Share != 0 {
		t.Errorf("massless particles: %+v", st)
	}
}

func TestClustersErrors(t *testing.T) {
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	for _, c := range []struct {
		pos, mass []float32
		link      float64
		powder    int
		want      string
	}{
		{[]float32{0, 0, 0, 1, nan, 0}, []float32{1, 1}, 0.1, 10, "particle 1: position"},
		{[]float32{0, 0, inf}, []float32{1}, 0.1, 10, "particle 0: position"},
		{[]float32{0, 0, 0, 1, 0, 0}, []float32{1, -1}, 0.1, 10, "particle 1: mass -1"},
		{[]float32{0, 0, 0}, []float32{nan}, 0.1, 10, "particle 0: mass NaN"},
		{[]float32{0, 0, 0}, []float32{inf}, 0.1, 10, "particle 0: mass +Inf"},
		{[]float32{0, 0, 0, 1}, []float32{1}, 0.1, 10, "4 position values for 1 masses"},
		{[]float32{0, 0, 0}, []float32{1}, 0, 10, "link distance 0"},
		{[]float32{0, 0, 0}, []float32{1}, -0.1, 10, "link distance -0.1"},
		{[]float32{0, 0, 0}, []float32{1}, math.Inf(1), 10, "link distance +Inf"},
		{[]float32{0, 0, 0}, []float32{1}, math.NaN(), 10, "link distance NaN"},
		{[]float32{0, 0, 0}, []float32{1}, 0.1, -1, "powder threshold -1"},
		// A grid over this box would have 2e33 cells along x: refused, not allocated.
		{[]float32{-1e30, 0, 0, 1e30, 0, 0}, []float32{1, 1}, 1e-3, 10, "too far apart"},
	} {
		_, err := Clusters(c.pos, c.mass, c.link, c.powder)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v %v link %g: error %v, want %q", c.pos, c.mass, c.link, err, c.want)
		}
	}
}

// Far-flung particles cost nothing more: a box of 1e9 link distances needs no grid
// that size. A box whose cells do not fit 61 bits in all is refused.
func TestClustersFarApart(t *testing.T) {
	pos := []float32{0, 0, 0, 5e-4, 0, 0, 1e6, 0, 0, 1e6, 5e-4, 0}
	if st := mustClusters(t, pos, uniformMasses(4, 1), 1e-3, 10); st.Clusters != 2 || st.Largest.Particles != 2 {
		t.Errorf("%+v: want 2 clusters of 2", st)
	}
	_, err := Clusters([]float32{0, 0, 0, 1e6, 1e6, 1e6}, uniformMasses(2, 1), 1e-9, 10)
	if err == nil || !strings.Contains(err.Error(), "2^61 cells") {
		t.Errorf("error %v, want the box refused", err)
	}
}

// A pile of coincident particles is one cluster in linear time: a pair-by-pair test
// inside the pile would take 5e9 distance tests.
func TestClustersPile(t *testing.T) {
	const n = 100_000
	pos := make([]float32, 0, 3*n)
	for i := range n {
		pos = append(pos, 0.5, 0.25+float32(i%3)*1e-6, 0.125)
	}
	if st := mustClusters(t, pos, uniformMasses(n, 1), 0.01, 10); st.Clusters != 1 || st.Largest.Share != 1 {
		t.Errorf("%+v: want one cluster", st)
	}
}

// Two dense piles a little more than a link apart are two clusters, and a little less
// one, in linear time: testing every pair across would take 2.5e9 distance tests.
func TestClustersTwoPiles(t *testing.T) {
	const n, link = 50_000, 0.01
	rng := rand.New(rand.NewPCG(9, 9))
	for _, c := range []struct {
		gap  float64
		want int
	}{{1.05 * link, 2}, {0.95 * link, 1}} {
		pos := make([]float32, 0, 6*n)
		for _, x := range []float64{0, c.gap} {
			for range n {
				pos = append(pos, float32(x+1e-4*rng.Float64()), float32(1e-4*rng.Float64()), float32(1e-4*rng.Float64()))
			}
		}
		// The piles are 1e-4 across: their closest pair is within 2e-4 of the gap.
		if st := mustClusters(t, pos, uniformMasses(2*n, 1), link, 10); st.Clusters != c.want {
			t.Errorf("piles %g apart: %d clusters, want %d", c.gap, st.Clusters, c.want)
		}
	}
}

// exactSum's total does not depend on the order of the values and is within a unit in
// the last place of the true sum, across the whole float32 range.
func TestExactSum(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	values := []float32{math.MaxFloat32, 1, 1e-30, math.SmallestNonzeroFloat32, 0, 3.5, 1e20, 1e-40}
	for range 2000 {
		values = append(values, math.Float32frombits(rng.Uint32()&0x7f7fffff)) // finite, non-negative
	}
	exact := new(big.Float).SetPrec(1000)
	for _, v := range values {
		exact.Add(exact, new(big.Float).SetFloat64(float64(v)))
	}
	want, _ := exact.Float64()
	var first float64
	for round := range 3 {
		rng.Shuffle(len(values), func(i, j int) { values[i], values[j] = values[j], values[i] })
		var s exactSum
		for _, v := range values {
			s.add(v)
		}
		got := s.float64()
		if round == 0 {
			first = got
		}
		if got != first {
			t.Fatalf("order %d: sum %v, first order %v", round, got, first)
		}
		if math.Abs(got-want) > math.Abs(want)*0x1p-52 {
			t.Fatalf("sum %v, want %v", got, want)
		}
	}
}

// BenchmarkClusters clusters 1e6 particles of snow (a jittered lattice at h/2, eight
// per cell) at the default link h, and at a link of 4 h (512 particles per cell).
func BenchmarkClusters(b *testing.B) {
	const h = 0.01
	rng := rand.New(rand.NewPCG(8, 8))
	const side = 100
	pos := make([]float32, 0, 3*side*side*side)
	for i := range side {
		for j := range side {
			for k := range side {
				for a, c := range [3]int{i, j, k} {
					pos = append(pos, float32((float64(c)+0.3*(rng.Float64()-0.5))*h/2+0.1*float64(a)))
				}
			}
		}
	}
	mass := uniformMasses(len(pos)/3, 1e-4)
	for _, c := range []struct {
		name string
		link float64
	}{{"link=h", h}, {"link=4h", 4 * h}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Clusters(pos, mass, c.link, 10); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)*float64(len(mass))/b.Elapsed().Seconds(), "particles/s")
		})
	}
}
