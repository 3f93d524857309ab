package particles

import (
	"fmt"
	"math"
	"runtime"
	"slices"

	"snowtools/levelset"
	"snowtools/levelset/parallel"
	"snowtools/simcore/bspline"
)

// Render volumes, section 9: "At render time, we rasterize the final simulated material
// points to the simulation grid using the same kernels from Section 4, but improved
// anti-aliasing could be obtained with better kernels or a completely different grid."
//
// RasterizeVolume does the first and offers the second: the density of node i is
//
//	rho_i = sum_p m_p w_ip / dx^3,   w_ip = N_F(x_p/dx - i),
//
// with N_F the cubic B-spline of section 4 widened by a filter factor F >= 1,
// N_F(x) = N(x_1/F) N(x_2/F) N(x_3/F), normalised so that a particle's weights sum to 1.
// F = 1 on the simulation's h is exactly the solver's kernel (whose weights already sum
// to 1); a larger F blurs the volume over more voxels, the cure for the aliasing a fine
// render grid shows between particles. Because every particle's weights sum to 1, the
// volume holds exactly the particles' mass: sum_i rho_i dx^3 = sum_p m_p.
//
// Other per-particle quantities a_p (velocity, for motion blur) become mass-weighted
// averages, a_i = sum_p m_p w_ip a_p / sum_p m_p w_ip: the same transfer as the
// velocity of stage 1, so a volume's momentum is the particles' momentum.

// A PointAttribute is a per-particle quantity to carry into a volume.
type PointAttribute struct {
	Name   string
	Arity  int       // 1 (a scalar grid) or 3 (a vector grid)
	Values []float32 // Arity values per particle
}

// VolumeOptions control RasterizeVolume.
type VolumeOptions struct {
	VoxelSize float64 // dx in metres; the simulation's h reproduces section 9
	Filter    float64 // kernel width in voxels, in [1, MaxFilter]; 0 means 1
	Threads   int     // worker goroutines; 0 means GOMAXPROCS
}

// MaxFilter bounds VolumeOptions.Filter: a wider kernel touches (4 F)^3 voxels per
// particle, and blurring over more than 8 voxels is better done by a coarser grid.
const MaxFilter = 8

// A Volume is a rasterized particle frame. Grid node i of every grid is voxel i, at
// world position i dx.
type Volume struct {
	Density    *levelset.FloatGrid // kg/m^3; active where some particle reaches
	Attributes []VolumeAttribute   // in the order of the PointAttributes
}

// VolumeAttribute is the grid of one PointAttribute: Float for a scalar, Vec3 for a
// vector. Its active voxels are the density's.
type VolumeAttribute struct {
	Name  string
	Float *levelset.FloatGrid
	Vec3  *levelset.Vec3Grid
}

// RasterizeVolume rasterizes particles at positions pos (x y z per particle) with
// masses mass into a density grid and one grid per attribute. Particles with a
// non-finite position are an error naming them; massless ones add nothing. The result
// does not depend on the number of threads.
func RasterizeVolume(pos, mass []float32, attrs []PointAttribute, opt VolumeOptions) (*Volume, error) {
	n := len(mass)
	if len(pos) != 3*n {
		return nil, fmt.Errorf("rasterize: %d position values for %d masses", len(pos), n)
	}
	for _, a := range attrs {
		if a.Arity != 1 && a.Arity != 3 {
			return nil, fmt.Errorf("rasterize: attribute %q: arity %d (want 1 or 3)", a.Name, a.Arity)
		}
		if len(a.Values) != a.Arity*n {
			return nil, fmt.Errorf("rasterize: attribute %q: %d values for %d particles", a.Name, len(a.Values), n)
		}
	}
	dx := opt.VoxelSize
	if !(dx > 0) || math.IsInf(dx, 0) {
		return nil, fmt.Errorf("rasterize: voxel size %g: must be finite and positive", dx)
	}
	filter := opt.Filter
	if filter == 0 {
		filter = 1
	}
	if !(filter >= 1 && filter <= MaxFilter) {
		return nil, fmt.Errorf("rasterize: filter %g: must be between 1 and %d voxels", filter, MaxFilter)
	}
	threads := opt.Threads
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	r := newRasterizer(dx, filter, attrs)
	if err := r.bin(pos, mass, attrs); err != nil {
		return nil, err
	}
	r.accumulate(threads)
	return r.volume(attrs), nil
}

// maxVoxelIndex bounds |x/dx|: further out the voxel coordinates no longer fit the
// int32 of a levelset.Coord.
const maxVoxelIndex = 1 << 30

// A rasterizer scatters particles bin by bin. A bin is a cube of binWidth voxels
// (a multiple of the leaf width, at least the stencil width) holding the particles
// whose stencils start in it; a bin's stencils stay inside the 2x2x2 bins from it
// (its window). Bins whose coordinates have the same parities are two bins apart on
// some axis, so their windows never overlap: each of the 8 parity classes is scattered
// in parallel, without locks, with every voxel summed in the same order whatever the
// threads.
type rasterizer struct {
	invDx    float64
	filter   float64
	width    int // stencil width: nodes i with |X - i| < 2F, at most ceil(4F)
	binWidth int
	channels int // 1 (mass) plus the attributes' components

	bins   map[levelset.Coord]int // bin coordinates -> bin index
	origin []levelset.Coord       // first voxel of each bin
	start  []int                  // the particles of bin b are records start[b] to start[b+1]-1
	// records holds the particles in bin order, so that the scatter reads memory in
	// sequence: x, y, z, m and the attributes' components, channels+3 values each.
	records []float32
	class   [8][]int // bins by parity class

	leaves map[levelset.Coord]*accumLeaf
}

// accumLeaf sums one leaf's channels: sum m w, then sum m w a per component.
type accumLeaf struct {
	sums [][levelset.LeafVoxels]float64
}

func newRasterizer(dx, filter float64, attrs []PointAttribute) *rasterizer {
	width := int(math.Ceil(4 * filter))
	channels := 1
	for _, a := range attrs {
		channels += a.Arity
	}
	return &rasterizer{
		invDx:    1 / dx,
		filter:   filter,
		width:    width,
		binWidth: levelset.LeafDim * ((width + levelset.LeafDim - 1) / levelset.LeafDim),
		channels: channels,
		bins:     map[levelset.Coord]int{},
		leaves:   map[levelset.Coord]*accumLeaf{},
	}
}

// stencilStart returns the first node of a particle's stencil along an axis, X in
// voxels: the lowest i with X - i < 2F.
func (r *rasterizer) stencilStart(X float64) int {
	return int(math.Floor(X-2*r.filter)) + 1
}

// bin sorts the particles into bins (a counting sort: positions are read twice rather
// than storing a bin per particle) and creates the accumulators of every bin's window.
func (r *rasterizer) bin(pos, mass []float32, attrs []PointAttribute) error {
	n := len(mass)
	binOf := func(p int) levelset.Coord {
		var c levelset.Coord
		for a := 0; a < 3; a++ {
			s := r.stencilStart(float64(pos[3*p+a]) * r.invDx)
			c[a] = int32(floorDiv(s, r.binWidth))
		}
		return c
	}
	var count []int
	for p := 0; p < n; p++ {
		for a := 0; a < 3; a++ {
			X := float64(pos[3*p+a]) * r.invDx
			if !(math.Abs(X) < maxVoxelIndex) {
				return fmt.Errorf("rasterize: particle %d: position (%g, %g, %g) is not finite or too far out for the grid",
					p, pos[3*p], pos[3*p+1], pos[3*p+2])
			}
		}
		if mass[p] == 0 {
			continue
		}
		c := binOf(p)
		b, ok := r.bins[c]
		if !ok {
			b = len(r.origin)
			r.bins[c] = b
			r.origin = append(r.origin, levelset.Coord{c[0] * int32(r.binWidth), c[1] * int32(r.binWidth), c[2] * int32(r.binWidth)})
			count = append(count, 0)
			parity := int(c[0]&1)<<2 | int(c[1]&1)<<1 | int(c[2]&1)
			r.class[parity] = append(r.class[parity], b)
		}
		count[b]++
	}
	r.start = make([]int, len(count)+1)
	for b, c := range count {
		r.start[b+1] = r.start[b] + c
	}
	stride := r.channels + 3
	r.records = make([]float32, stride*r.start[len(count)])
	next := append([]int(nil), r.start[:len(count)]...)
	for p := 0; p < n; p++ {
		if mass[p] == 0 {
			continue
		}
		b := r.bins[binOf(p)]
		rec := r.records[stride*next[b] : stride*next[b]+stride]
		next[b]++
		copy(rec, pos[3*p:3*p+3])
		rec[3] = mass[p]
		c := 4
		for _, a := range attrs {
			c += copy(rec[c:], a.Values[a.Arity*p:a.Arity*p+a.Arity])
		}
	}
	// The window's leaves, created here because the map cannot grow while workers read it.
	span := 2 * r.binWidth
	for _, o := range r.origin {
		for x := 0; x < span; x += levelset.LeafDim {
			for y := 0; y < span; y += levelset.LeafDim {
				for z := 0; z < span; z += levelset.LeafDim {
					c := o.Add(levelset.Coord{int32(x), int32(y), int32(z)})
					if r.leaves[c] == nil {
						r.leaves[c] = &accumLeaf{sums: make([][levelset.LeafVoxels]float64, r.channels)}
					}
				}
			}
		}
	}
	return nil
}

// floorDiv is a / b rounded towards minus infinity.
func floorDiv(a, b int) int {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

// axisWeights sets w to the normalised weights N((X - i)/F) of the stencil nodes
// i = start, start+1, ... along one axis and returns start.
func (r *rasterizer) axisWeights(X float64, w []float64) int {
	start := r.stencilStart(X)
	sum := 0.0
	for k := range w {
		w[k] = bspline.N((X - float64(start+k)) / r.filter)
		sum += w[k]
	}
	for k := range w {
		w[k] /= sum
	}
	return start
}

// accumulate scatters every bin into its window, one parity class at a time.
func (r *rasterizer) accumulate(threads int) {
	span := 2 * r.binWidth
	windows := make([][]float64, threads)
	for w := range windows {
		windows[w] = make([]float64, r.channels*span*span*span)
	}
	for _, class := range r.class {
		parallel.For(threads, len(class), func(worker, k int) {
			b := class[k]
			win := windows[worker]
			clear(win)
			r.scatterBin(win, b)
			r.flush(win, r.origin[b])
		})
	}
}

// scatterBin adds the particles of bin b to the dense window win, laid out
// [x][y][z][channel] over the 2x2x2 bins from the bin's origin.
func (r *rasterizer) scatterBin(win []float64, b int) {
	span := 2 * r.binWidth
	o := r.origin[b]
	W := r.width
	wx, wy, wz := make([]float64, W), make([]float64, W), make([]float64, W)
	values := make([]float64, r.channels)
	stride := r.channels + 3
	for rec := range slices.Chunk(r.records[stride*r.start[b]:stride*r.start[b+1]], stride) {
		sx := r.axisWeights(float64(rec[0])*r.invDx, wx) - int(o[0])
		sy := r.axisWeights(float64(rec[1])*r.invDx, wy) - int(o[1])
		sz := r.axisWeights(float64(rec[2])*r.invDx, wz) - int(o[2])
		m := float64(rec[3])
		values[0] = m
		for c := 1; c < len(values); c++ {
			values[c] = m * float64(rec[3+c])
		}
		C := len(values)
		if C == 1 {
			scatterMass(win[(sx*span+sy)*span+sz:], span, wx, wy, wz, m)
			continue
		}
		for i := 0; i < W; i++ {
			for j := 0; j < W; j++ {
				wxy := wx[i] * wy[j]
				row := win[(((sx+i)*span+sy+j)*span+sz)*C:]
				row = row[:W*C]
				for k := 0; k < W; k++ {
					w := wxy * wz[k]
					node := row[k*C : k*C+C]
					for ch, v := range values {
						node[ch] += w * v
					}
				}
			}
		}
	}
}

// scatterMass is scatterBin's loop for a volume of density alone (the common case,
// -to surface without -velocity): win[i][j][k] += (wx[i] wy[j] wz[k]) m over one
// particle's stencil, with win starting at the stencil's first node and rows span
// apart. It computes the general loop's products in the same order, so the sums are
// the same to the bit; without the loop over channels, and unrolled for the 8 nodes
// of filter 2, it makes the scatter of the density about three times as fast.
func scatterMass(win []float64, span int, wx, wy, wz []float64, m float64) {
	for i, a := range wx {
		for j, b := range wy {
			scatterRowMass(win[(i*span+j)*span:], wz, a*b, m)
		}
	}
}

// scatterRowMass adds (wxy wz[k]) m to row[k].
func scatterRowMass(row, wz []float64, wxy, m float64) {
	if len(wz) == 8 { // filter 2, -to surface's default: unrolled
		r, w := (*[8]float64)(row), (*[8]float64)(wz)
		r[0] += wxy * w[0] * m
		r[1] += wxy * w[1] * m
		r[2] += wxy * w[2] * m
		r[3] += wxy * w[3] * m
		r[4] += wxy * w[4] * m
		r[5] += wxy * w[5] * m
		r[6] += wxy * w[6] * m
		r[7] += wxy * w[7] * m
		return
	}
	row = row[:len(wz)]
	for k, w := range wz {
		row[k] += wxy * w * m
	}
}

// flush adds a window to the leaves it covers.
func (r *rasterizer) flush(win []float64, o levelset.Coord) {
	span := 2 * r.binWidth
	for lx := 0; lx < span; lx += levelset.LeafDim {
		for ly := 0; ly < span; ly += levelset.LeafDim {
			for lz := 0; lz < span; lz += levelset.LeafDim {
				leaf := r.leaves[o.Add(levelset.Coord{int32(lx), int32(ly), int32(lz)})]
				C := len(leaf.sums)
				for n := 0; n < levelset.LeafVoxels; n++ {
					x, y, z := lx+n>>6, ly+(n>>3)&7, lz+n&7
					node := win[((x*span+y)*span+z)*C:]
					for ch := range leaf.sums {
						leaf.sums[ch][n] += node[ch]
					}
				}
			}
		}
	}
}

// volume turns the sums into grids: densities where there is mass, attributes divided
// by it.
func (r *rasterizer) volume(attrs []PointAttribute) *Volume {
	t := levelset.Transform{VoxelSize: 1 / r.invDx}
	cell := math.Pow(1/r.invDx, 3)
	v := &Volume{Density: levelset.NewGrid[float32](t, 0)}
	for _, a := range attrs {
		va := VolumeAttribute{Name: a.Name}
		if a.Arity == 1 {
			va.Float = levelset.NewGrid[float32](t, 0)
		} else {
			va.Vec3 = levelset.NewGrid[levelset.Vec3f](t, levelset.Vec3f{})
		}
		v.Attributes = append(v.Attributes, va)
	}
	for origin, acc := range r.leaves {
		mass := &acc.sums[0]
		if !slices.ContainsFunc(mass[:], func(m float64) bool { return m > 0 }) {
			continue // a window leaf that no stencil reached
		}
		density := v.Density.TouchLeaf(origin)
		for n, m := range mass {
			if m > 0 {
				density.Values[n] = float32(m / cell)
				density.Active.Set(n, true)
			}
		}
		c := 1
		for i, a := range attrs {
			if a.Arity == 1 {
				l := v.Attributes[i].Float.TouchLeaf(origin)
				l.Active = density.Active
				for n, m := range mass {
					if m > 0 {
						l.Values[n] = float32(acc.sums[c][n] / m)
					}
				}
			} else {
				l := v.Attributes[i].Vec3.TouchLeaf(origin)
				l.Active = density.Active
				sx, sy, sz := &acc.sums[c], &acc.sums[c+1], &acc.sums[c+2]
				for n, m := range mass {
					if m > 0 {
						l.Values[n] = levelset.Vec3f{float32(sx[n] / m), float32(sy[n] / m), float32(sz[n] / m)}
					}
				}
			}
			c += a.Arity
		}
	}
	return v
}
