package main

import (
	"fmt"
	"math"
	"sort"

	"snowtools/cmd/internal/seq"
	"snowtools/formats/vdb"
	"snowtools/simcore/collider"
)

// colliderFrames drives a deforming collider through a sequence of collider files as
// voxelize writes them (grids "surface" and "velocity"): file n is the keyframe at
// start + (n - first)/fps, and the solver sees the keyframes around its time,
// interpolated as section 8 says. Only the two keyframes in use are in memory.
type colliderFrames struct {
	key      string // the scene key, for errors
	frames   []seq.Frame
	times    []float64
	collider *collider.DeformingLevelSet

	loaded  map[int]*collider.Keyframe // by index into frames
	current int                        // the segment set: frames[current] to frames[current+1]; -2 for none
}

func newColliderFrames(key string, frames []seq.Frame, fps, start float64, contact collider.Surface) *colliderFrames {
	c := &colliderFrames{key: key, frames: frames, collider: &collider.DeformingLevelSet{Contact: contact},
		loaded: map[int]*collider.Keyframe{}, current: -2}
	for _, f := range frames {
		c.times = append(c.times, start+float64(f.Number-frames[0].Number)/fps)
	}
	return c
}

// prepare sets the keyframes of the segment holding time t and returns the time the
// segment ends, where the caller must stop the solver to call prepare again. Before
// the first file and after the last, the collider holds still at it.
func (c *colliderFrames) prepare(t float64) (end float64, err error) {
	// k is the last keyframe at or before t: -1 before the first.
	k := sort.Search(len(c.times), func(i int) bool { return c.times[i] > t }) - 1
	if k == c.current {
		return c.segmentEnd(k), nil
	}
	var a, b *collider.Keyframe
	t0, t1 := t, t+1 // a segment of any length for a collider at rest
	switch {
	case k < 0 || k == len(c.frames)-1:
		i := max(k, 0)
		kf, err := c.keyframe(i)
		if err != nil {
			return 0, err
		}
		a = &collider.Keyframe{Surface: kf.Surface} // at rest: no velocity
		b = a
		if k < 0 {
			t1 = c.times[0]
		}
	default:
		if a, err = c.keyframe(k); err != nil {
			return 0, err
		}
		if b, err = c.keyframe(k + 1); err != nil {
			return 0, err
		}
		t0, t1 = c.times[k], c.times[k+1]
	}
	if err := c.collider.SetKeyframes(a, b, t0, t1); err != nil {
		return 0, fmt.Errorf("%s: %v", c.key, err)
	}
	for i := range c.loaded { // keep the two in use
		if i != k && i != k+1 {
			delete(c.loaded, i)
		}
	}
	c.current = k
	return c.segmentEnd(k), nil
}

// segmentEnd returns the time the segment after keyframe k ends.
func (c *colliderFrames) segmentEnd(k int) float64 {
	if k+1 < len(c.times) {
		return c.times[k+1]
	}
	return math.Inf(1)
}

// keyframe returns keyframe i, reading its file if needed.
func (c *colliderFrames) keyframe(i int) (*collider.Keyframe, error) {
	if kf, ok := c.loaded[i]; ok {
		return kf, nil
	}
	fr := c.frames[i]
	kf, err := readKeyframe(fr.Path)
	if err != nil {
		return nil, fmt.Errorf("%s: frame %d (%s): %v", c.key, fr.Number, fr.Path, err)
	}
	c.loaded[i] = kf
	return kf, nil
}

// readKeyframe reads the keyframe in a collider file.
func readKeyframe(path string) (*collider.Keyframe, error) {
	file, err := vdb.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return keyframeOf(file)
}

// keyframeOf takes a collider file's grids "surface" (a float level set) and
// "velocity" (vec3, optional).
func keyframeOf(file *vdb.File) (*collider.Keyframe, error) {
	surface := file.Grid("surface")
	if surface == nil || surface.Float == nil {
		return nil, fmt.Errorf("no float grid named \"surface\" (write collider files with voxelize)")
	}
	kf := &collider.Keyframe{Surface: surface.Float}
	if v := file.Grid("velocity"); v != nil {
		if v.Vec3 == nil {
			return nil, fmt.Errorf("grid \"velocity\" is not a vector grid")
		}
		kf.Velocity = v.Vec3
	}
	return kf, nil
}

// advanceTo runs a simulation (simcore's or heightfield's: its clock now and its
// Advance) to time t, stopping at every keyframe of the deforming colliders on the
// way to give them their next segment.
func advanceTo(now *float64, advance func(float64) (int, error), sequences []*colliderFrames, t float64) (int, error) {
	steps := 0
	for *now < t {
		end := t
		for _, c := range sequences {
			e, err := c.prepare(*now)
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
