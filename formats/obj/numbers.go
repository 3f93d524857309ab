package obj

import (
	"errors"
	"fmt"
	"math"
	"strconv"
)

// parseFloat parses a coordinate. The string conversion does not allocate for
// fields of up to 32 bytes, since strconv does not keep its argument.
func parseFloat(f []byte) (float64, error) {
	x, err := strconv.ParseFloat(string(f), 64)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return 0, fmt.Errorf("coordinate %s is too large for a float64", quote(f))
		}
		return 0, fmt.Errorf("coordinate %s is not a number", quote(f))
	}
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, fmt.Errorf("coordinate %s is not finite", quote(f))
	}
	return x, nil
}

// vertexIndex returns the 0-based vertex index that the face field f (v, v/vt,
// v//vn or v/vt/vn) names, when nv vertices have been read so far. A positive
// index beyond nv is returned as is: the file may define the vertex later.
func vertexIndex(f []byte, nv int) (int32, error) {
	v := f
	for i, c := range f {
		if c == '/' {
			v = f[:i]
			break
		}
	}
	i, err := strconv.ParseInt(string(v), 10, 64)
	switch {
	case errors.Is(err, strconv.ErrRange):
		return 0, fmt.Errorf("vertex index %s is out of range", quote(v))
	case err != nil:
		return 0, fmt.Errorf("face vertex %s is not an index", quote(f))
	case i == 0:
		return 0, fmt.Errorf("face vertex %s: index 0 is not valid, OBJ indices start at 1", quote(f))
	case i < 0:
		// Relative: -1 is the last vertex read.
		if int64(nv)+i < 0 {
			return 0, fmt.Errorf("relative vertex index %d reaches before the first vertex (%d read so far)", i, nv)
		}
		return int32(int64(nv) + i), nil
	case i > math.MaxInt32:
		return 0, fmt.Errorf("vertex index %d is out of range: more than a 32-bit index can reach", i)
	}
	return int32(i - 1), nil
}

// quote returns f quoted for an error message, shortened if long, so that a
// garbage field does not make a megabyte error.
func quote(f []byte) string {
	const max = 40
	if len(f) > max {
		return strconv.Quote(string(f[:max])) + "..."
	}
	return strconv.Quote(string(f))
}
