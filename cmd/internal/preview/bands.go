package preview

import (
	"math"

	"snowtools/levelset/parallel"
)

// Splatting is parallel over horizontal bands of the buffer: every sphere (and
// mesh triangle, meshraster.go) is listed in each band its pixel rectangle
// meets, and one worker draws one band at a time, so no two workers write the
// same pixel. Within a band the spheres
// are drawn nearest first (by depth bucket, then index), so that a pixel that
// already holds a surface nearer than a sphere's nearest point skips it with one
// comparison: most hidden particles of a dense heap cost almost nothing. A
// pixel keeps a hit only if it is strictly nearer, so equal depths go to the
// sphere drawn first; the order depends only on the spheres, so the buffer is
// the same for any number of workers and any scheduling.

// bandRows is the height of a band in buffer rows: small enough that every
// worker gets many bands (load balance when the particles sit in a few rows),
// large enough that most spheres lie in one band.
const bandRows = 16

// depthBuckets is the number of depth slices for the nearest-first order.
const depthBuckets = 4096

// splatChunk is the number of spheres a worker takes at a time when computing
// rectangles and sorting them.
const splatChunk = 1 << 14

// depthBuffer keeps, per pixel, the depth of the nearest sphere surface drawn
// there (+Inf when none) and, when id is not nil, that sphere's index (-1 when
// none). Pixel (x, y) is element y*width + x.
type depthBuffer struct {
	width, height int
	depth         []float32
	id            []int32
}

func newDepthBuffer(width, height int, withID bool) *depthBuffer {
	b := &depthBuffer{width: width, height: height, depth: make([]float32, width*height)}
	inf := float32(math.Inf(1))
	for i := range b.depth {
		b.depth[i] = inf
	}
	if withID {
		b.id = make([]int32, width*height)
		for i := range b.id {
			b.id[i] = -1
		}
	}
	return b
}

// rect is an inclusive pixel rectangle [x0, x1] x [y0, y1]; y0 > y1 means empty.
type rect struct{ x0, y0, x1, y1 int32 }

var emptyRect = rect{0, 1, 0, 0}

// sphereRasterizer is one splatting pass: footprint returns the pixel rectangle
// sphere i covers in the buffer (emptyRect to skip it) and the depth of its
// nearest point, and draw depth-tests the sphere of splat s over s.r, already
// clipped to one band.
type sphereRasterizer interface {
	footprint(i int) (r rect, nearest float32)
	draw(s *splat, buf *depthBuffer)
}

// splat is one sphere on its way to the buffer: its rectangle, centre and
// index. Splats are sorted by value, so that drawing a band reads them in
// sequence rather than jumping about the particle arrays.
type splat struct {
	r      rect
	centre [3]float32
	id     int32
}

// splatSpheres draws the particles' spheres, as s rasterizes them, into buf
// with the given number of workers.
func splatSpheres(pts Points, s sphereRasterizer, buf *depthBuffer, workers int) {
	n := pts.Len()
	splats := make([]splat, n)
	nearest := make([]float32, n)
	parallel.Ranges(workers, n, splatChunk, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			r, near := s.footprint(i)
			splats[i] = splat{r: r, centre: [3]float32(pts.Pos[3*i : 3*i+3]), id: int32(i)}
			nearest[i] = near
		}
	})
	drawBands(nearestFirst(splats, nearest, workers), buf.height, workers,
		func(sp *splat) *rect { return &sp.r },
		func(sp *splat) { s.draw(sp, buf) })
}

// drawBands draws items into a buffer of the given height band by band: each
// item is listed, in the order of items, in every band of bandRows rows that
// its rectangle (area) meets, and one worker draws one band at a time, calling
// draw on a copy of the item whose rectangle is clipped to the band's rows. No
// two workers write the same row, and the order within a band depends only on
// items, so the buffer does not depend on the workers. Items with empty
// rectangles are left out.
func drawBands[E any](items []E, height, workers int, area func(e *E) *rect, draw func(e *E)) {
	bands := (height + bandRows - 1) / bandRows
	start, listed := bucketSort(items, bands, workers, func(e *E) (int, int) {
		r := area(e)
		if r.y0 > r.y1 {
			return 1, 0
		}
		return int(r.y0) / bandRows, int(r.y1) / bandRows
	})
	parallel.For(workers, bands, func(_, b int) {
		rowLo, rowHi := int32(b*bandRows), int32(min((b+1)*bandRows, height)-1)
		for k := start[b]; k < start[b+1]; k++ {
			e := &listed[k]
			r := area(e)
			r.y0, r.y1 = max(r.y0, rowLo), min(r.y1, rowHi)
			draw(e)
		}
	})
}

// nearestFirst returns the splats with non-empty rectangles ordered by the
// depth bucket of their sphere's nearest point, then by index: bucket
// floor(depthBuckets (d - dmin)/(dmax - dmin)), clamped to the last.
func nearestFirst(splats []splat, nearest []float32, workers int) []splat {
	dmin, dmax := math.Inf(1), math.Inf(-1)
	for i := range splats {
		if splats[i].r.y0 <= splats[i].r.y1 {
			dmin, dmax = min(dmin, float64(nearest[i])), max(dmax, float64(nearest[i]))
		}
	}
	scale := depthBuckets / max(dmax-dmin, 1e-30)
	_, ordered := bucketSort(splats, depthBuckets, workers, func(s *splat) (int, int) {
		if s.r.y0 > s.r.y1 {
			return 1, 0
		}
		b := min(int((float64(nearest[s.id])-dmin)*scale), depthBuckets-1)
		return b, b
	})
	return ordered
}

// bucketSort lists, for each bucket b in [0, buckets), the elements of seq whose
// bucket span [lo, hi] = span(e) holds b, in the order of seq, as
// items[start[b]:start[b+1]]; elements with lo > hi are left out. It is a
// counting sort in chunks of splatChunk elements: count per chunk and bucket,
// turn the counts into offsets bucket by bucket and chunk by chunk, then let
// every chunk copy its elements to its offsets. The offsets follow from the
// counts alone, so the result does not depend on the workers.
func bucketSort[E any](seq []E, buckets, workers int, span func(e *E) (lo, hi int)) (start []int, items []E) {
	chunks := (len(seq) + splatChunk - 1) / splatChunk
	counts := make([][]int, chunks)
	parallel.Ranges(workers, len(seq), splatChunk, func(_, lo, hi int) {
		count := make([]int, buckets)
		for k := lo; k < hi; k++ {
			b0, b1 := span(&seq[k])
			for b := b0; b <= b1; b++ {
				count[b]++
			}
		}
		counts[lo/splatChunk] = count
	})
	start = make([]int, buckets+1)
	total := 0
	for b := range buckets {
		start[b] = total
		for c := range chunks {
			n := counts[c][b]
			counts[c][b] = total // from here on: where chunk c writes in bucket b
			total += n
		}
	}
	start[buckets] = total
	items = make([]E, total)
	parallel.Ranges(workers, len(seq), splatChunk, func(_, lo, hi int) {
		next := counts[lo/splatChunk]
		for k := lo; k < hi; k++ {
			b0, b1 := span(&seq[k])
			for b := b0; b <= b1; b++ {
				items[next[b]] = seq[k]
				next[b]++
			}
		}
	})
	return start, items
}

// clampRect turns a real-valued span [a0, a1] x [b0, b1] of pixel coordinates
// into the inclusive rectangle of pixels whose centres (i + 0.5) it holds,
// clipped to a width x height buffer.
func clampRect(a0, a1, b0, b1 float64, width, height int) rect {
	x0 := math.Ceil(max(a0-0.5, 0))
	x1 := math.Floor(min(a1-0.5, float64(width-1)))
	y0 := math.Ceil(max(b0-0.5, 0))
	y1 := math.Floor(min(b1-0.5, float64(height-1)))
	if !(x0 <= x1 && y0 <= y1) { // also catches NaN
		return emptyRect
	}
	return rect{int32(x0), int32(y0), int32(x1), int32(y1)}
}
