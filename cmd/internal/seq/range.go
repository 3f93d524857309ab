package seq

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// ParseRange reads a frame range as users type it for -frames: "A-B", or "A" for a
// single frame, with 0 <= A <= B.
func ParseRange(text string) (first, last int, err error) {
	a, b, isRange := strings.Cut(text, "-")
	first, err1 := strconv.Atoi(a)
	last, err2 := first, error(nil)
	if isRange {
		last, err2 = strconv.Atoi(b)
	}
	if err1 != nil || err2 != nil || first < 0 || last < first {
		return 0, 0, fmt.Errorf("%q: use A-B with 0 <= A <= B, or a single frame", text)
	}
	return first, last, nil
}

// A Range is the frames First to Last, both included.
type Range struct{ First, Last int }

// ParseList reads a list of frames as users type it when they pick a few, such as
// "20,40,60-80": comma-separated items, each "A-B" or "A" as for ParseRange. Spaces
// around items are ignored. An empty item ("20,,40", a trailing comma) is an error
// rather than skipped: it is more likely a frame lost in typing than a wish.
func ParseList(text string) ([]Range, error) {
	var ranges []Range
	for _, item := range strings.Split(text, ",") {
		item = strings.TrimSpace(item)
		first, last, err := ParseRange(item)
		if err != nil {
			return nil, fmt.Errorf("%q: %q is neither a frame A nor a range A-B with 0 <= A <= B; "+
				"separate frames and ranges by commas, such as 20,40,60-80", text, item)
		}
		ranges = append(ranges, Range{first, last})
	}
	return ranges, nil
}

// Expand returns the frame numbers that ranges name, ascending and each once: every
// frame of each range or, with every > 1, the range's first frame and each every-th
// frame after it up to its last, so that 0-100 every 25 is 0, 25, 50, 75, 100 and
// 1-100 every 25 is 1, 26, 51, 76 (steps count from where the user starts, not from
// zero). It is an error for them to name more than limit frames, which also keeps a
// typo such as 0-1000000000 from allocating a billion numbers.
func Expand(ranges []Range, every, limit int) ([]int, error) {
	every = max(1, every)
	n := 0
	for _, r := range ranges {
		if n += (r.Last-r.First)/every + 1; n > limit {
			return nil, fmt.Errorf("more than %d frames", limit)
		}
	}
	seen := make(map[int]bool, n)
	frames := make([]int, 0, n)
	for _, r := range ranges {
		for f := r.First; f <= r.Last && f >= r.First; f += every { // f >= First: no wrap past MaxInt
			if !seen[f] {
				seen[f] = true
				frames = append(frames, f)
			}
		}
	}
	slices.Sort(frames)
	return frames, nil
}

// Spread returns n of frames (ascending frame numbers) evenly spread by position,
// the first and the last included: for a look at a whole sequence in a few
// pictures. Fewer than n frames are all returned; n = 1 gives the first.
func Spread(frames []int, n int) []int {
	if len(frames) <= n {
		return slices.Clone(frames)
	}
	if n <= 1 {
		return slices.Clone(frames[:max(n, 0)])
	}
	picked := make([]int, n)
	for i := range picked {
		// Rounded to nearest; distinct because the step (len-1)/(n-1) exceeds 1.
		picked[i] = frames[(i*(len(frames)-1)+(n-1)/2)/(n-1)]
	}
	return picked
}
