package collider

import (
	"errors"
	"math"
	"strings"
	"testing"

	"snowtools/levelset"
	"snowtools/levelset/geom"
)

// sphereSequence is the sequence of a sphere of radius 0.1 moving at v along x: keyframe i
// at time 0.1 i, centred at x = v 0.1 i. loads counts the keyframes read.
func sphereSequence(t *testing.T, n int, v float64, loads *int) *Sequence {
	t.Helper()
	times := make([]float64, n)
	for i := range times {
		times[i] = 0.1 * float64(i)
	}
	load := func(i int) (*Keyframe, error) {
		*loads++
		c := geom.Vec3{v * times[i], 0, 0}
		sphere := geom.Sphere{Center: c, Radius: 0.1}
		return keyframeFromShape(sphere, uniformVelocity(geom.Vec3{v, 0, 0}), 0.02, 4, c.Sub(geom.Vec3{0.2, 0.2, 0.2}), c.Add(geom.Vec3{0.2, 0.2, 0.2})), nil
	}
	s, err := NewSequence("plate", times, load, Surface{Mode: Sticky})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Prepare hands the collider the keyframes around the time, keeps only those two,
// and holds the collider still before the first and after the last.
func TestSequencePrepare(t *testing.T) {
	loads := 0
	s := sphereSequence(t, 4, 0.5, &loads)
	if end, err := s.Prepare(-1); err != nil || end != 0 {
		t.Fatalf("before the first keyframe: end %g, %v", end, err)
	}
	if _, _, v := s.Collider.Sample(geom.Vec3{}, -1); v != (geom.Vec3{}) {
		t.Errorf("before the first keyframe the collider moves at %v", v)
	}
	if end, err := s.Prepare(0.15); err != nil || math.Abs(end-0.2) > 1e-12 {
		t.Fatalf("in the second segment: end %g, %v", end, err)
	}
	// At t = 0.15 the sphere's centre is at x = 0.075, moving at 0.5 m/s: 1 cm
	// below its top, phi is -1 cm.
	if phi, _, v := s.Collider.Sample(geom.Vec3{0.075, 0.09, 0}, 0.15); math.Abs(phi+0.01) > 2e-3 || math.Abs(v[0]-0.5) > 1e-6 {
		t.Errorf("below the top at t = 0.15: phi %g, v %v", phi, v)
	}
	if len(s.loaded) != 2 {
		t.Errorf("%d keyframes in memory, want 2", len(s.loaded))
	}
	before := loads
	if _, err := s.Prepare(0.16); err != nil || loads != before {
		t.Errorf("the same segment again read %d keyframes (%v)", loads-before, err)
	}
	if end, err := s.Prepare(5); err != nil || !math.IsInf(end, 1) {
		t.Fatalf("after the last keyframe: end %g, %v", end, err)
	}
	if phi, _, v := s.Collider.Sample(geom.Vec3{0.15, 0.09, 0}, 5); math.Abs(phi+0.01) > 2e-3 || v != (geom.Vec3{}) {
		t.Errorf("after the last keyframe: phi %g, v %v", phi, v)
	}
}

// AdvanceTo stops the simulation at every keyframe on the way, and reports the steps.
func TestAdvanceToStopsAtKeyframes(t *testing.T) {
	loads := 0
	s := sphereSequence(t, 3, 0, &loads)
	now := 0.05
	var stops []float64
	advance := func(t float64) (int, error) { stops = append(stops, t); now = t; return 2, nil }
	steps, err := AdvanceTo(&now, advance, []*Sequence{s}, 0.35)
	if err != nil || steps != 6 {
		t.Fatalf("%d steps, %v", steps, err)
	}
	want := []float64{0.1, 0.2, 0.35}
	for i := range want {
		if i >= len(stops) || math.Abs(stops[i]-want[i]) > 1e-12 {
			t.Fatalf("stopped at %v, want %v", stops, want)
		}
	}
}

// Errors name the sequence; bad times are refused.
func TestSequenceErrors(t *testing.T) {
	fail := func(int) (*Keyframe, error) { return nil, errors.New("frame 3 (p.0003.vdb): truncated") }
	s, err := NewSequence("collider[2]", []float64{0, 1}, fail, Surface{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Prepare(0.5); err == nil || err.Error() != "collider[2]: frame 3 (p.0003.vdb): truncated" {
		t.Errorf("load error: %v", err)
	}
	if _, err := AdvanceTo(new(float64), func(float64) (int, error) { return 0, nil }, []*Sequence{s}, 1); err == nil {
		t.Error("AdvanceTo ignored the load error")
	}
	for _, times := range [][]float64{nil, {0, 0}, {1, 0.5}} {
		if _, err := NewSequence("c", times, fail, Surface{}); err == nil || !strings.HasPrefix(err.Error(), "c: ") {
			t.Errorf("times %v: %v", times, err)
		}
	}
}

// Nearest picks the keyframe a picture at time t shows, and Keyframe serves the
// segment's keyframes without reading them again.
func TestSequenceNearestKeyframe(t *testing.T) {
	loads := 0
	s := sphereSequence(t, 4, 0.5, &loads) // keyframes at 0, 0.1, 0.2, 0.3
	for _, c := range []struct {
		t    float64
		want int
	}{{-1, 0}, {0, 0}, {0.04, 0}, {0.05, 0}, {0.06, 1}, {0.1, 1}, {0.1 - 1e-12, 1}, {0.29, 3}, {7, 3}} {
		if got := s.Nearest(c.t); got != c.want {
			t.Errorf("Nearest(%g) = %d, want %d", c.t, got, c.want)
		}
	}
	if _, err := s.Prepare(0.15); err != nil {
		t.Fatal(err)
	}
	before := loads
	kf, err := s.Keyframe(2)
	if err != nil || loads != before {
		t.Fatalf("keyframe 2 of the segment in use: read %d files, %v", loads-before, err)
	}
	// Keyframe 2's sphere is centred at x = 0.1: its top is at y = 0.1.
	if phi := levelset.NewFloatSampler(kf.Surface).Sample(geom.Vec3{0.1, 0.1, 0}); math.Abs(phi) > 2e-3 {
		t.Errorf("keyframe 2: phi %g at its sphere's top", phi)
	}
	if _, err := s.Keyframe(4); err == nil || !strings.Contains(err.Error(), "keyframe 4 of 4") {
		t.Errorf("keyframe 4 of 4: %v", err)
	}
}
