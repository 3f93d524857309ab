package particles

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// The measures of simcore's TestAutoIntegrator, as simcore's tests write them (with
// maps, over float64 positions): SummariseShape and DifferenceFrom must give the
// same numbers over sorted keys.
func referenceCentroid(pos, mass []float32) [3]float64 {
	var c [3]float64
	total := 0.0
	for i := range len(pos) / 3 {
		for a := range 3 {
			c[a] += float64(pos[3*i+a]) * float64(mass[i])
		}
		total += float64(mass[i])
	}
	return [3]float64{c[0] / total, c[1] / total, c[2] / total}
}

func referenceOverlap(a, b []float32, size float64) float64 {
	cells := func(p []float32) map[[3]int]bool {
		m := make(map[[3]int]bool)
		for i := 0; i < len(p); i += 3 {
			m[[3]int{int(math.Floor(float64(p[i]) / size)), int(math.Floor(float64(p[i+1]) / size)), int(math.Floor(float64(p[i+2]) / size))}] = true
		}
		return m
	}
	ca, cb := cells(a), cells(b)
	both := 0
	for c := range ca {
		if cb[c] {
			both++
		}
	}
	return float64(both) / float64(len(ca)+len(cb)-both)
}

func referenceHeights(a, b []float32, size float64) []float64 {
	heights := func(p []float32) map[[2]int]float64 {
		top := make(map[[2]int]float64)
		for i := 0; i < len(p); i += 3 {
			c := [2]int{int(math.Floor(float64(p[i]) / size)), int(math.Floor(float64(p[i+2]) / size))}
			if y, ok := top[c]; !ok || float64(p[i+1]) > y {
				top[c] = float64(p[i+1])
			}
		}
		return top
	}
	ha, hb := heights(a), heights(b)
	var d []float64
	for c, y := range ha {
		if yb, ok := hb[c]; ok {
			d = append(d, math.Abs(y-yb))
		}
	}
	slices.Sort(d)
	return d
}

// shapeCloud returns n particles in a box around the origin (negative cells too),
// with masses.
func shapeCloud(rng *rand.Rand, n int, spread float64) (pos, mass []float32) {
	for range n {
		pos = append(pos, float32(spread*(rng.Float64()-0.5)), float32(spread*rng.Float64()*0.5-0.1), float32(spread*(rng.Float64()-0.5)))
		mass = append(mass, float32(1e-3*(1+rng.Float64())))
	}
	return pos, mass
}

// Over random clouds, the sorted-key measures equal the map-based ones of simcore's
// tests: the same cells, columns, median, 90th percentile and mean.
func TestShapeDifferenceMatchesSimcoreMeasures(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const h = 0.02
	for trial := range 5 {
		a, ma := shapeCloud(rng, 2000, 0.3)
		b, mb := shapeCloud(rng, 1500+trial*200, 0.3)
		sa, err := SummariseShape(a, ma, h)
		if err != nil {
			t.Fatal(err)
		}
		sb, err := SummariseShape(b, mb, h)
		if err != nil {
			t.Fatal(err)
		}
		d := sa.DifferenceFrom(sb)
		ca, cb := referenceCentroid(a, ma), referenceCentroid(b, mb)
		centroid := math.Sqrt((ca[0]-cb[0])*(ca[0]-cb[0])+(ca[1]-cb[1])*(ca[1]-cb[1])+(ca[2]-cb[2])*(ca[2]-cb[2])) / h
		heights := referenceHeights(a, b, h)
		p90, mean := heights[len(heights)*9/10], 0.0
		for _, v := range heights {
			mean += v / float64(len(heights))
		}
		want := ShapeDifference{Centroid: centroid, Shared: referenceOverlap(a, b, h),
			Median: heights[len(heights)/2] / h, P90: p90 / h, Mean: mean / h, Max: heights[len(heights)-1] / h}
		if math.Abs(d.Centroid-want.Centroid) > 1e-9 {
			t.Errorf("trial %d: centroid %g h, want %g", trial, d.Centroid, want.Centroid)
		}
		d.Centroid = want.Centroid
		if d != want {
			t.Errorf("trial %d: %+v, want %+v", trial, d, want)
		}
		if want.Shared <= 0 || want.Shared >= 1 || len(heights) < 50 {
			t.Fatalf("fixture: %g of the cells shared, %d columns in both", want.Shared, len(heights))
		}
	}

	// Without masses: the plain mean of the positions.
	pos := []float32{0, 0, 0, 0.04, 0, 0, 0.08, 0.06, 0}
	s, err := SummariseShape(pos, nil, 0.02)
	if err != nil {
		t.Fatal(err)
	}
	if s.hasMass || math.Abs(s.mean[0]-0.04) > 1e-7 || math.Abs(s.mean[1]-0.02) > 1e-7 {
		t.Errorf("mean %v (weighted %v)", s.mean, s.hasMass)
	}
	// Cells and columns: sorted, distinct; a column's top is its highest particle.
	if len(s.cells) != 3 || len(s.columns) != 3 || !slices.IsSorted(s.cells) || s.tops[2] != 0.06 {
		t.Errorf("cells %x, columns %x, tops %v", s.cells, s.columns, s.tops)
	}
}

// Particles without a finite position are left out; one too far from the origin for
// a cell key is an error; a frame without particles has no measures.
func TestShapeSummaryLimits(t *testing.T) {
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	x := float64(float32(0.01))
	s, err := SummariseShape([]float32{0.01, 0.01, 0.01, nan, 0, 0, 0, inf, 0}, []float32{1, 1, 1}, 0.02)
	if err != nil {
		t.Fatal(err)
	}
	if s.Particles != 3 || s.finite != 1 || len(s.cells) != 1 || s.massMean != [3]float64{x, x, x} {
		t.Errorf("%+v", s)
	}
	if _, err := SummariseShape([]float32{0, 0, 0, -3e4, 0, 0}, nil, 0.02); err == nil || !strings.Contains(err.Error(), "particle 1 at (-3e+04, 0, 0)") {
		t.Errorf("a particle 1.5e6 cells away: %v", err)
	}
	for _, h := range []float64{0, -1, math.NaN(), math.Inf(1)} {
		if _, err := SummariseShape(nil, nil, h); err == nil {
			t.Errorf("cells of %g m: no error", h)
		}
	}
	empty, _ := SummariseShape(nil, nil, 0.02)
	d := empty.DifferenceFrom(s)
	if empty.Measured() || !math.IsNaN(d.Centroid) || !math.IsNaN(d.Shared) || !math.IsNaN(d.Median) {
		t.Errorf("against an empty frame: %+v", d)
	}
}
