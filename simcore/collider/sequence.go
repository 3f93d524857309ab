package collider

import (
	"fmt"
	"math"
	"sort"
)

// Sequence drives a DeformingLevelSet through a run of keyframes, as voxelize writes
// them one file per frame: keyframe i holds at Times[i], and the solver sees the two
// around its time, interpolated as section 8 says. Only the two in use are kept in
// memory; the others are loaded when needed by a function the caller gives, so that
// this package reads no files.
type Sequence struct {
	Collider *DeformingLevelSet

	name    string                         // for errors: what the scene calls it
	times   []float64                      // increasing
	load    func(i int) (*Keyframe, error) // reads keyframe i
	loaded  map[int]*Keyframe
	current int // the segment set: keyframes current and current+1; -2 for none
}

// NewSequence returns the sequence of the keyframes at times (increasing), which load
// reads by index. name prefixes its errors.
func NewSequence(name string, times []float64, load func(i int) (*Keyframe, error), contact Surface) (*Sequence, error) {
	if len(times) == 0 {
		return nil, fmt.Errorf("%s: no keyframe", name)
	}
	for i := 1; i < len(times); i++ {
		if !(times[i] > times[i-1]) {
			return nil, fmt.Errorf("%s: keyframe times %g and %g: must increase", name, times[i-1], times[i])
		}
	}
	return &Sequence{Collider: &DeformingLevelSet{Contact: contact}, name: name, times: times, load: load,
		loaded: map[int]*Keyframe{}, current: -2}, nil
}

// Prepare sets the keyframes of the segment holding time t and returns the time the
// segment ends, where the caller must stop the solver to call Prepare again. Before
// the first keyframe and after the last, the collider holds still at it.
func (s *Sequence) Prepare(t float64) (end float64, err error) {
	// k is the last keyframe at or before t: -1 before the first.
	k := sort.Search(len(s.times), func(i int) bool { return s.times[i] > t }) - 1
	if k == s.current {
		return s.segmentEnd(k), nil
	}
	var a, b *Keyframe
	t0, t1 := t, t+1 // a segment of any length for a collider at rest
	switch {
	case k < 0 || k == len(s.times)-1:
		kf, err := s.Keyframe(max(k, 0))
		if err != nil {
			return 0, err
		}
		a = &Keyframe{Surface: kf.Surface} // at rest: no velocity
		b = a
		if k < 0 {
			t1 = s.times[0]
		}
	default:
		if a, err = s.Keyframe(k); err != nil {
			return 0, err
		}
		if b, err = s.Keyframe(k + 1); err != nil {
			return 0, err
		}
		t0, t1 = s.times[k], s.times[k+1]
	}
	if err := s.Collider.SetKeyframes(a, b, t0, t1); err != nil {
		return 0, fmt.Errorf("%s: %v", s.name, err)
	}
	for i := range s.loaded { // keep the two in use
		if i != k && i != k+1 {
			delete(s.loaded, i)
		}
	}
	s.current = k
	return s.segmentEnd(k), nil
}

// segmentEnd returns the time the segment after keyframe k ends.
func (s *Sequence) segmentEnd(k int) float64 {
	if k+1 < len(s.times) {
		return s.times[k+1]
	}
	return math.Inf(1)
}

// AdvanceTo runs a simulation (simcore's or heightfield's: its clock now and its
// Advance) to time t, stopping at every keyframe of the sequences on the way to give
// them their next segment. It returns the steps taken.
func AdvanceTo(now *float64, advance func(float64) (int, error), sequences []*Sequence, t float64) (int, error) {
	steps := 0
	for *now < t {
		end := t
		for _, s := range sequences {
			e, err := s.Prepare(*now)
			if err != nil {
				return steps, err
			}
			end = min(end, e)
		}
		n, err := advance(end)
		steps += n
		if err != nil {
			return steps, err
		}
	}
	return steps, nil
}

// Nearest returns the index of the keyframe whose time is nearest t (the earlier of
// two as near): the file a picture of the collider at time t shows. Before the first
// keyframe it is the first, after the last the last, as Prepare holds them.
func (s *Sequence) Nearest(t float64) int {
	// k is the first keyframe after t; k-1, if any, is at or before it.
	k := sort.Search(len(s.times), func(i int) bool { return s.times[i] > t })
	switch {
	case k == 0:
		return 0
	case k == len(s.times) || t-s.times[k-1] <= s.times[k]-t:
		return k - 1
	}
	return k
}

// Keyframe returns keyframe i (0 <= i < the number of keyframes), reading it unless
// the segment in use holds it. A keyframe read here is kept until the next Prepare
// that changes the segment.
func (s *Sequence) Keyframe(i int) (*Keyframe, error) {
	if i < 0 || i >= len(s.times) {
		return nil, fmt.Errorf("%s: keyframe %d of %d", s.name, i, len(s.times))
	}
	if kf, ok := s.loaded[i]; ok {
		return kf, nil
	}
	kf, err := s.load(i)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", s.name, err)
	}
	s.loaded[i] = kf
	return kf, nil
}
