package seq

import (
	"fmt"
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
