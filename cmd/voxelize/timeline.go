package main

import (
	"fmt"
	"math"

	"snowtools/cmd/internal/budget"
)

// timeline is the frames of a source that is sampled in time rather than stored
// frame by frame (a glTF animation, an Alembic archive): frame n at n/fps s, from
// the first frame inside its time span to the last. A run over part of them (limit)
// lists only those and their neighbours, so that a span of 1e9 s, 2.4e10 frames,
// costs nothing until it is voxelized whole.
type timeline struct {
	fps         float64
	first, last int // the span's frames
	lo, hi      int // the frames Frames lists between first and last
}

// newTimeline returns the frames from start to end seconds at fps, or an error
// naming the source (name) when their numbers would not be exact.
func newTimeline(name string, start, end, fps float64) (timeline, error) {
	if t := max(math.Abs(start), math.Abs(end)); !(t*fps < maxFrameNumber) {
		return timeline{}, fmt.Errorf("%s: ends at %.6g s, frame %.3g at %g fps: frame numbers must stay below %.3g",
			name, end, t*fps, fps, float64(maxFrameNumber))
	}
	tl := timeline{fps: fps}
	tl.first, tl.last = clipFrames(start, end, fps)
	tl.lo, tl.hi = tl.first, tl.last
	return tl, nil
}

// maxFrameNumber bounds the frame numbers of a timeline: a key time of 3e38 s
// overflowed int(math.Floor(t * fps)). Every float64 frame time below it is exact.
const maxFrameNumber = 1 << 53

// limit keeps, of the frames between first and last, only frames lo-1 to hi+1: a
// run over frames lo to hi needs no others (a frame's velocity needs its
// neighbours). The first and last frames stay, for the messages and -res.
func (tl *timeline) limit(lo, hi float64) {
	tl.lo, tl.hi = int(max(lo-1, float64(tl.first))), int(min(hi+1, float64(tl.last)))
	if tl.lo > tl.hi { // none selected: the ends alone
		tl.lo, tl.hi = tl.first, tl.first
	}
}

// checkFrameCount refuses a timeline that lists more than maxFrames frames, or more
// than the budget holds at frameSlotBytes each, before Frames lists them; name is
// the source's, for the message.
func (tl *timeline) checkFrameCount(name string, b budget.Budget) error {
	n := tl.hi - tl.lo + 3
	what := fmt.Sprintf("%s: frames %d-%d (%.6g s to %.6g s at %g fps)", name, tl.lo, tl.hi,
		float64(tl.lo)/tl.fps, float64(tl.hi)/tl.fps, tl.fps)
	if n > maxFrames {
		return fmt.Errorf("%s: %d frames, more than %g: voxelize part of it with -frames A-B", what, tl.hi-tl.lo+1, float64(maxFrames))
	}
	return b.Check(what, int64(n)*frameSlotBytes)
}

// maxFrames is the most frames one voxelize run lists: a clip longer than that
// (115 hours at 24 fps) is voxelized in parts with -frames.
const maxFrames = 10_000_000

// frameSlotBytes is what a run holds per frame before voxelizing any: the source's
// list of frame numbers, renumbered with -start, and the run's selection.
const frameSlotBytes = 3 * 8

// keyTimeTolerance is how far from a whole frame, in frames, a span's ends may fall
// and still count as that frame: glTF stores key times as float32, so Blender's
// frame 24 at 24 fps comes as 0.99999994 or 1.0000001 s, and frame 10 as
// 0.41666666 s, a millionth of a frame short of 10/24 s.
const keyTimeTolerance = 1e-3

// clipFrames returns the first and last frames (frame n at n/fps s) inside a span
// from start to end seconds, an end within keyTimeTolerance of a frame counting as
// that frame. A span shorter than a frame gives its first frame alone.
func clipFrames(start, end, fps float64) (first, last int) {
	first = int(math.Ceil(start*fps - keyTimeTolerance))
	last = int(math.Floor(end*fps + keyTimeTolerance))
	return first, max(first, last)
}

// Frames lists the frames first to last, or, after limit, the first, the frames
// limit kept and the last.
func (tl *timeline) Frames() []int {
	f := make([]int, 0, tl.hi-tl.lo+3)
	if tl.first < tl.lo {
		f = append(f, tl.first)
	}
	for n := tl.lo; n <= tl.hi; n++ {
		f = append(f, n)
	}
	if tl.last > tl.hi {
		f = append(f, tl.last)
	}
	return f
}

// frames returns the timeline itself, for run's checks (see timedSource).
func (tl *timeline) frames() *timeline { return tl }

// timedSource is a source whose frames are a timeline.
type timedSource interface {
	source
	frames() *timeline
}
