package simcore

// columnOps is what the table can do with one channel of any element type, given the
// Particles that hold it.
type columnOps interface {
	codec() codecInfo
	length(p *Particles) int
	isNil(p *Particles) bool
	extend(p *Particles, k int) // append k zero values
	trim(p *Particles)
	reserve(p *Particles, n int)
	permute(p *Particles, dest []int32)
	grow(p *Particles, k, n int)
	encode(p *Particles, from int, b []byte)
	decode(p *Particles, from int, b []byte)
}

// column is a channel of element type T: its codec, and the field that holds it.
type column[T any] struct {
	c     *codec[T]
	slice func(*Particles) *[]T
}

// field declares a channel of the table: the codec of its values and the Particles
// field that holds them.
func field[T any](c *codec[T], slice func(*Particles) *[]T) columnOps {
	return column[T]{c, slice}
}

func (c column[T]) codec() codecInfo            { return c.c.codecInfo }
func (c column[T]) length(p *Particles) int     { return len(*c.slice(p)) }
func (c column[T]) isNil(p *Particles) bool     { return *c.slice(p) == nil }
func (c column[T]) trim(p *Particles)           { s := c.slice(p); *s = trimmed(*s) }
func (c column[T]) reserve(p *Particles, n int) { s := c.slice(p); *s = reserved(*s, n) }
func (c column[T]) grow(p *Particles, k, n int) { s := c.slice(p); *s = grow(*s, k, n) }

func (c column[T]) extend(p *Particles, k int) {
	s := c.slice(p)
	*s = append(*s, make([]T, k)...)
}

func (c column[T]) permute(p *Particles, dest []int32) { permuteSlice(*c.slice(p), dest) }

func (c column[T]) encode(p *Particles, from int, b []byte) {
	s, size := *c.slice(p), c.c.size()
	for k := 0; k*size < len(b); k++ {
		c.c.put(b[k*size:], &s[from+k])
	}
}

func (c column[T]) decode(p *Particles, from int, b []byte) {
	s, size := *c.slice(p), c.c.size()
	for k := 0; k*size < len(b); k++ {
		c.c.get(b[k*size:], &s[from+k])
	}
}

// trimmed returns s, copied without spare capacity if it has more than spareFraction
// of its length to spare: particles are most of the solver's memory.
func trimmed[T any](s []T) []T {
	if cap(s)-len(s) <= len(s)/spareFraction {
		return s
	}
	c := make([]T, len(s))
	copy(c, s)
	return c
}

// spareFraction is the spare capacity that trimmed leaves, as a fraction of the length
// (1/16): what Reserve leaves when seeding makes a little fewer particles than were
// reserved. Copying such a column would hold it twice at once, which is what Reserve
// is there to avoid, and the pages of the spare that nothing has written take no
// resident memory (BenchmarkPeakRSS).
const spareFraction = 16

// reserved returns s with room for n values in all (its capacity at least n).
func reserved[T any](s []T, n int) []T {
	if cap(s) >= n {
		return s
	}
	c := make([]T, len(s), n)
	copy(c, s)
	return c
}

// grow extends s by k zero values towards a total of n, as Channel.Grow describes.
func grow[T any](s []T, k, n int) []T {
	if len(s)+k > cap(s) {
		t := make([]T, len(s), min(n, max(2*cap(s), len(s)+k)))
		copy(t, s)
		s = t
	}
	return s[:len(s)+k]
}

// permuteSlice moves s[i] to s[dest[i]] for every i (an empty s stays empty: an
// Optional channel that is nil). It follows each cycle of the permutation once,
// carrying one value around it, so each value moves once. The entries of dest it has
// followed are marked by complementing them (^d < 0), and unmarked at the end, so that
// every channel can be moved by the same dest without a copy of it.
func permuteSlice[T any](s []T, dest []int32) {
	if len(s) == 0 {
		return
	}
	for i, d := range dest {
		if d < 0 || int(d) == i {
			continue
		}
		carried := s[i]
		dest[i] = ^d
		for j := d; int(j) != i; {
			carried, s[j] = s[j], carried
			next := dest[j]
			dest[j] = ^next
			j = next
		}
		s[i] = carried
	}
	for i, d := range dest {
		if d < 0 {
			dest[i] = ^d
		}
	}
}
