package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"snowtools/cmd/internal/meshfile"
	"snowtools/cmd/internal/seq"
	"snowtools/formats/obj"
	"snowtools/formats/vdb"
	"snowtools/levelset"
	"snowtools/levelset/geom"
	"snowtools/levelset/mesher"
	"snowtools/simcore/particles"
)

// surfaceSettings are the flags of -to surface, which writes what a renderer or a DCC
// loads as the snow's surface rather than its particles: per frame, a .vdb with the
// level set "surface" and the density fog "density" cut by it, and/or the mesh of the
// level set's zero crossing as OBJ or binary PLY.
type surfaceSettings struct {
	outputs     []string // the output patterns, in command-line order; their extensions say what each holds
	smooth      float64  // Gaussian sigma in voxels, on the dilated surface
	closing     float64  // closing radius in voxels; 0: particles.SurfaceOptions' default; < 0: none
	radiusScale float64  // on each particle's volume-equivalent sphere; 0: the default
	memory      float64  // GB that the frames converted at once may take: the -memory budget
}

// The output kinds of -to surface, by file extension.
const (
	surfaceVDB = ".vdb"
	surfaceOBJ = ".obj"
	surfacePLY = ".ply"
)

func (s *surfaceSettings) flags(fs *flag.FlagSet) {
	fs.Float64Var(&s.smooth, "smooth", 1, "surface: smoothing, the Gaussian's sigma in `voxels`, 0 (none) to 4")
	fs.Float64Var(&s.closing, "closing", 0, "surface: fill gaps between particles up to twice this many `voxels`, at most 8 (0: the default, half a particle spacing; negative: no closing)")
	fs.Float64Var(&s.radiusScale, "radius-scale", 0, "surface: `factor` on each particle's radius, (3 m / 4 pi rho)^(1/3) (default: that of a sphere inscribed in the particle's cube, 0.806)")
}

// check validates the flags and the per-frame outputs, which must be .vdb, .obj or
// .ply, each at most once (settings.archiveOutput took an .abc output out of them).
func (s *surfaceSettings) check() error {
	switch {
	case !(s.smooth >= 0 && s.smooth <= particles.MaxSmoothing):
		return fmt.Errorf("-smooth %g: must be 0 to %d voxels (the band the smoothing reads grows as its square; for a softer look use a coarser -voxel)", s.smooth, particles.MaxSmoothing)
	case !(s.closing <= particles.MaxClosing): // NaN too
		return fmt.Errorf("-closing %g: must be at most %d voxels (0: the default; negative: none)", s.closing, particles.MaxClosing)
	case !(s.radiusScale >= 0) || math.IsInf(s.radiusScale, 0):
		return fmt.Errorf("-radius-scale %g: must be positive", s.radiusScale)
	}
	seen := map[string]string{}
	for _, out := range s.outputs {
		ext := strings.ToLower(filepath.Ext(out))
		switch ext {
		case surfaceVDB, surfaceOBJ, surfacePLY:
		default:
			return fmt.Errorf("output %s: -to surface writes .vdb (level set and density), .obj or .ply (mesh), or one .abc (the meshes)", out)
		}
		if prev, dup := seen[ext]; dup {
			return fmt.Errorf("outputs %s and %s: one output of each kind", prev, out)
		}
		seen[ext] = out
		if err := checkOutputPattern(out); err != nil {
			return err
		}
	}
	return nil
}

// bytesPerParticle bounds a frame's peak memory per particle while -to surface
// converts it (the frame, the spheres' bins, the level set through its filters, the
// fog and the mesh), so that -memory can bound how many frames run at once: the
// export of bench/openvdb_surface's frame of 993,529 particles peaks at 206 MB
// resident, 207 bytes per particle, with the level set and the mesh of a slab whose
// surface is large for its volume.
const bytesPerParticle = 300

// surfaceParallel returns how many frames may be converted at once within the
// memory budget, given the largest frame's particle count.
func (s *surfaceSettings) surfaceParallel(threads int, largest int64) int {
	perFrame := float64(max(largest, 1)) * bytesPerParticle
	frames := s.memory * 1e9 / perFrame // compared as a float: -memory 1e20 must not overflow an int
	if frames >= float64(threads) {
		return threads
	}
	return max(1, int(frames))
}

// bytesPerLeaf is the memory of the level set around a lone grain or a small clump:
// the filters' band reaches about 23 leaves around an isolated particle, 158 kB
// (simcore/particles' TestSparseUnionFollowsTheParticles and its sparse benchmarks),
// where in dense snow the particles of a leaf share them. So a spray frame of a few
// thousand grains can take more than a dense frame of a million particles.
const bytesPerLeaf = 150_000

// sparseBlock is the most particles a leaf-sized block (8 voxels a side, 512
// particles when full at snowsim's spacing) holds to count as spray.
const sparseBlock = 32

// frameMemory estimates the peak memory of surfacing a frame: bytesPerParticle per
// particle, plus bytesPerLeaf per leaf-sized block that holds only a few particles.
func frameMemory(pos []float32, voxel float64) int64 {
	blocks := map[[3]int64]int32{}
	size := 8 * voxel
	for i := 0; i+2 < len(pos); i += 3 {
		b := [3]int64{int64(math.Floor(float64(pos[i]) / size)), int64(math.Floor(float64(pos[i+1]) / size)), int64(math.Floor(float64(pos[i+2]) / size))}
		blocks[b]++
	}
	sparse := 0
	for _, n := range blocks {
		if n <= sparseBlock {
			sparse++
		}
	}
	return int64(len(pos)/3)*bytesPerParticle + int64(sparse)*bytesPerLeaf
}

// A memoryBudget lets frames be surfaced at once only while their estimated peaks
// (frameMemory) fit in -memory; a frame whose estimate alone exceeds it runs alone.
type memoryBudget struct {
	mu          sync.Mutex
	freed       *sync.Cond
	free, total int64
}

func newMemoryBudget(total int64) *memoryBudget {
	b := &memoryBudget{free: total, total: total}
	b.freed = sync.NewCond(&b.mu)
	return b
}

// acquire waits until n bytes (at most the whole budget) are free, takes them and
// returns how many it took, for release.
func (b *memoryBudget) acquire(n int64) int64 {
	n = min(n, b.total)
	b.mu.Lock()
	defer b.mu.Unlock()
	for b.free < n {
		b.freed.Wait()
	}
	b.free -= n
	return n
}

func (b *memoryBudget) release(n int64) {
	b.mu.Lock()
	b.free += n
	b.mu.Unlock()
	b.freed.Broadcast()
}

// surfaceConverter turns each frame into its surface outputs.
type surfaceConverter struct {
	s       *settings
	budget  *memoryBudget
	archive *meshArchive // the .abc output's; nil without one
}

// A surfaceFrame is what one frame's outputs are made of.
type surfaceFrame struct {
	grids []*vdb.Grid // "surface", "density" and the -velocity and -props grids
	mesh  *geom.Mesh  // nil unless a mesh output is asked for
	meta  vdb.Metadata
}

// convert writes a frame's outputs all or none: if writing one fails, those of the
// frame already written are removed, so that no frame is left with some of its
// outputs new and others old or missing. Each is written straight to its file (a
// temporary one, renamed when complete), not first into memory: a frame's outputs
// are tens of megabytes.
func (c *surfaceConverter) convert(j job, threads int) result {
	f, sf, res := c.convertFrame(j, threads)
	if c.archive == nil {
		return res
	}
	var mesh *geom.Mesh
	var fps float64
	err := res.err
	if err == nil {
		mesh = sf.mesh
		fps, err = c.s.abc.frameRate(f)
	}
	if err := c.archive.write(j.index, mesh, fps, err); err != nil && res.err == nil {
		res.err = err
	}
	return res
}

// convertFrame writes a frame's per-frame outputs and returns what it made of the
// frame, for the archive.
func (c *surfaceConverter) convertFrame(j job, threads int) (*frame, *surfaceFrame, result) {
	f, err := c.s.readFrame(j.in.Path)
	if err != nil {
		return nil, nil, result{err: err}
	}
	if pos, err := f.positions(); err == nil {
		if voxel, _, err := c.s.surfaceVoxel(f); err == nil {
			defer c.budget.release(c.budget.acquire(frameMemory(pos, voxel)))
		}
	}
	sf, err := c.s.surfaceOf(f, threads)
	if err != nil {
		return nil, nil, result{err: err}
	}
	var written int64
	for i, pattern := range c.s.surface.outputs {
		n, err := writeOutput(outputPath(pattern, j.in.Number), func(w io.Writer) error {
			switch ext := strings.ToLower(filepath.Ext(pattern)); ext {
			case surfaceVDB:
				return vdb.Write(w, &vdb.File{Meta: sf.meta, Grids: sf.grids}, &c.s.vdbOptions)
			case surfaceOBJ:
				return obj.Write(w, c.s.axes.meshFor(ext, sf.mesh), frameComments(f)...)
			default:
				return meshfile.WritePLY(w, c.s.axes.meshFor(ext, sf.mesh), frameComments(f)...)
			}
		})
		if err != nil {
			for _, done := range c.s.surface.outputs[:i] {
				os.Remove(outputPath(done, j.in.Number))
			}
			return nil, nil, result{err: err}
		}
		written += n
	}
	return f, sf, result{particles: f.Len(), bytes: written}
}

func (c *surfaceConverter) finish(log io.Writer) error {
	if c.archive == nil {
		return nil
	}
	return c.archive.finish(log)
}

// abort removes the unfinished archive of an .abc output after a failed frame.
func (c *surfaceConverter) abort() {
	if c.archive != nil {
		c.archive.archive.abort()
	}
}

// outputPath names frame number's file of an output pattern (a plain name is itself).
func outputPath(pattern string, number int) string {
	if p, isPattern, _ := seq.ParsePattern(pattern); isPattern {
		return p.Path(number)
	}
	return pattern
}

// surfaceOf builds a frame's level set, masked fog, extra grids and mesh.
func (s *settings) surfaceOf(f *frame, threads int) (*surfaceFrame, error) {
	ls, err := s.levelSetOf(f, threads)
	if err != nil {
		return nil, err
	}
	sf := &surfaceFrame{meta: frameVDBMeta(f, ls.filter)}
	if s.wants(surfaceVDB) || s.velocity {
		vol, err := s.rasterize(f, ls.pos, ls.mass, ls.voxel, ls.filter, threads)
		if err != nil {
			return nil, err
		}
		if s.wants(surfaceVDB) {
			if sf.grids, err = s.surfaceGrids(ls.phi, vol, threads); err != nil {
				return nil, err
			}
		}
		if s.wants(surfaceOBJ) || s.wants(surfacePLY) || s.abc.output != "" {
			if sf.mesh, err = meshOf(ls.phi, vol, s.velocityGrid(), threads); err != nil {
				return nil, err
			}
		}
		return sf, nil
	}
	if sf.mesh, err = meshOf(ls.phi, nil, "", threads); err != nil {
		return nil, err
	}
	return sf, nil
}

// surfaceMesh returns the closed mesh of a frame's surface, as -to surface writes
// it without -velocity: what -to png -surface draws.
func (s *settings) surfaceMesh(f *frame, threads int) (*geom.Mesh, error) {
	ls, err := s.levelSetOf(f, threads)
	if err != nil {
		return nil, err
	}
	return meshOf(ls.phi, nil, "", threads)
}

// frameLevelSet is a frame's surface level set phi and what it was made from: the
// particles' positions and masses, the voxel size and the fog's filter width.
type frameLevelSet struct {
	phi           *levelset.FloatGrid
	pos           []float32 // x, y, z per particle
	mass          []float32
	voxel, filter float64
}

// levelSetOf builds a frame's surface level set (particles.SurfaceLevelSet) with
// the -surface flags.
func (s *settings) levelSetOf(f *frame, threads int) (*frameLevelSet, error) {
	pos, mass, err := f.positionsAndMasses(s.mass)
	if err != nil {
		return nil, err
	}
	radius, err := s.sphereRadii(f, mass)
	if err != nil {
		return nil, err
	}
	voxel, filter, err := s.surfaceVoxel(f)
	if err != nil {
		return nil, err
	}
	phi, err := particles.SurfaceLevelSet(pos, radius, particles.SurfaceOptions{
		VoxelSize: voxel, RadiusScale: s.surface.radiusScale, Closing: s.surface.closing,
		Smoothing: s.surface.smooth, Threads: threads,
	})
	if err != nil {
		return nil, err
	}
	return &frameLevelSet{phi: phi, pos: pos, mass: mass, voxel: voxel, filter: filter}, nil
}

// wants reports whether an output of the kind ext was asked for.
func (s *settings) wants(ext string) bool { return hasExt(s.surface.outputs, ext) }

// hasExt reports whether a name in names ends in ext, whatever its case.
func hasExt(names []string, ext string) bool {
	for _, n := range names {
		if strings.ToLower(filepath.Ext(n)) == ext {
			return true
		}
	}
	return false
}

// surfaceGrids returns the grids of the .vdb: the level set, the fog cut by it, then
// the -velocity and -props grids as -to vdb writes them.
func (s *settings) surfaceGrids(phi *levelset.FloatGrid, vol *particles.Volume, threads int) ([]*vdb.Grid, error) {
	fog, err := particles.MaskFog(vol.Density, phi, threads)
	if err != nil {
		return nil, err
	}
	grids := append([]*vdb.Grid{
		{Name: s.vdbNames().surface, Class: vdb.LevelSet, Float: phi},
		{Name: s.vdbNames().density, Class: vdb.FogVolume, Float: fog},
	}, s.attributeGrids(vol)...)
	return grids, s.halfGrids(grids)
}

// meshOf meshes the level set's zero crossing, with the values of vol's grid named
// velocity (the -velocity grid's name) at the vertices when vol has it, for motion
// blur.
func meshOf(phi *levelset.FloatGrid, vol *particles.Volume, velocity string, threads int) (*geom.Mesh, error) {
	m, err := mesher.Mesh(phi, mesher.Options{Threads: threads})
	if err != nil {
		return nil, err
	}
	if vol != nil {
		for _, a := range vol.Attributes {
			if a.Name == velocity {
				m.Velocities = mesher.SampleVelocities(m, a.Vec3, threads)
			}
		}
	}
	return m, nil
}

// sphereRadii returns each particle's volume-equivalent radius (3 m / 4 pi rho)^(1/3),
// from its mass and PhysicalDensity, or one radius for all from -radius or, for frames
// without densities, from GridSpacing (eight particles per cell, snowsim's default).
func (s *settings) sphereRadii(f *frame, mass []float32) ([]float32, error) {
	radius := make([]float32, f.Len())
	uniform := s.view.radius
	if s.to == "png" {
		uniform = 0 // png's -radius sizes the spheres it draws, not the surface under -surface
	}
	if uniform == 0 {
		if _, ok := f.Header.Channel("PhysicalDensity"); ok {
			return radius, volumeRadii(f, mass, radius)
		}
		h, ok := f.gridSpacing()
		if !ok {
			return nil, errors.New("no PhysicalDensity channel nor GridSpacing metadata to size the particles: give -radius")
		}
		uniform = math.Cbrt(3 * h * h * h / 8 / (4 * math.Pi))
	}
	for i := range radius {
		radius[i] = float32(uniform)
	}
	return radius, nil
}

// volumeRadii sets radius[i] to particle i's volume-equivalent radius
// (3 m / 4 pi rho)^(1/3), from its mass and its PhysicalDensity rho.
func volumeRadii(f *frame, mass, radius []float32) error {
	rho, err := f.floats("PhysicalDensity", 1)
	if err != nil {
		return err
	}
	for i := range radius {
		if !(rho[i] > 0) {
			return fmt.Errorf("particle %d: PhysicalDensity %g: must be positive", i, rho[i])
		}
		radius[i] = float32(particles.SphereRadius(float64(mass[i]), float64(rho[i])))
	}
	return nil
}

// surfaceVoxel returns the voxel size, -voxel or half the simulation's h (one voxel
// per particle spacing at snowsim's eight particles per cell), and the fog's kernel
// width in voxels, -filter or the one that spans h as section 9's density does.
func (s *settings) surfaceVoxel(f *frame) (voxel, filter float64, err error) {
	h, hasH := f.gridSpacing()
	voxel = s.voxel
	if voxel == 0 {
		if !hasH {
			return 0, 0, errors.New("no GridSpacing metadata (the file is not from snowsim): give the voxel size with -voxel")
		}
		voxel = h / 2
	}
	filter = s.filter
	if !s.filterGiven && hasH {
		filter = min(max(h/voxel, 1), particles.MaxFilter)
	}
	return voxel, filter, nil
}
