package simcore

// resizeScratch returns s with length n, reusing its memory when its capacity allows
// and otherwise allocating an eighth more than n. The contents are scratch: a reused
// s keeps its old values, new memory is zero, and nothing is copied over (unlike the
// particle columns' grow and reserved, which keep their values).
//
// The step's scratch follows the grid, which gains a few blocks a step while snow
// falls or spreads. Sized exactly, each of those steps reallocated the grid's arrays
// and left the old ones to the garbage collector, whose default target (GOGC = 100)
// then let the heap reach twice its live size: the first two frames of
// bench/long_runs' 3e5-particle snowball peaked at 137 MB of RSS, against 76 MB with
// the eighth to spare.
func resizeScratch[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n, n+n/8)
	}
	return s[:n]
}
