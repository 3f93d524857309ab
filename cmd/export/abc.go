package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"snowtools/cmd/internal/cli"
	"snowtools/cmd/internal/seq"
	"snowtools/formats/abc"
	"snowtools/levelset/geom"
)

// -to abc writes a whole PRT sequence as ONE Alembic archive (formats/abc): a Points
// object whose samples are the frames, at a uniform time sampling of the sequence's
// frame rate starting at the first frame's time (frame n at n/fps s, as in every file
// of the tools). -to surface writes its meshes to an .abc output the same way, as a
// PolyMesh sequence. Frames are converted in parallel and appended in frame order
// (archiveOrder), so memory follows the frames in flight, not the sequence; the
// archive is a temporary file until the last frame is in, then renamed (cli.AtomicFile).

// abcSettings are the flags of -to abc (and of an .abc output of -to surface).
type abcSettings struct {
	output string  // the archive to write
	fps    float64 // -fps: the frame rate when the PRT files carry no FrameRate
}

func (a *abcSettings) flags(fs *flag.FlagSet) {
	fs.Float64Var(&a.fps, "fps", 0, "abc, surface to .abc: the sequence's frame `rate` when the PRT files carry no FrameRate metadata (snowsim's do)")
}

// checkArchiveName refuses an archive name with a frame placeholder: the archive holds
// every frame.
func checkArchiveName(output string) error {
	if _, isPattern, err := seq.ParsePattern(output); err != nil || isPattern {
		return fmt.Errorf("output %s: an Alembic archive holds the whole sequence: name one file, without #### or %%04d", output)
	}
	if a := strings.ToLower(filepath.Ext(output)); a != ".abc" {
		return fmt.Errorf("output %s: name the archive .abc", output)
	}
	return nil
}

// frameRate returns the sequence's frame rate: the PRT FrameRate metadata (numerator
// and denominator, as snowsim writes it), else -fps.
func (a *abcSettings) frameRate(f *frame) (float64, error) {
	if v, ok := f.Header.Int64Meta("", "FrameRate"); ok && len(v) == 2 && v[0] > 0 && v[1] > 0 {
		fps := float64(v[0]) / float64(v[1])
		if a.fps > 0 && math.Abs(fps-a.fps) > 1e-9*fps {
			return 0, fmt.Errorf("-fps %g: the frames say %g fps (FrameRate metadata)", a.fps, fps)
		}
		return fps, nil
	}
	if a.fps > 0 {
		return a.fps, nil
	}
	return 0, errors.New("no FrameRate metadata (the file is not from snowsim): give the sequence's frame rate with -fps")
}

// checkContiguous refuses frames with a gap: a uniform time sampling has a sample at
// every frame between the first and the last.
func checkContiguous(jobs []job) error {
	for k := 1; k < len(jobs); k++ {
		if a, b := jobs[k-1].in.Number, jobs[k].in.Number; b != a+1 {
			return fmt.Errorf("frames %d and %d: the sequence has a gap, and an Alembic archive's uniform time sampling needs every frame; choose a range without one with -frames", a, b)
		}
	}
	return nil
}

// An archive is the Alembic file being written, one sample per frame, in frame order.
type archive struct {
	path  string
	out   *cli.AtomicFile // nil until the first frame's turn opens it
	w     *abc.Writer
	order archiveOrder
	fps   float64
	first int // the first frame's number
}

// newArchive prepares the archive at path for the selected frames; the first frame's
// turn creates it (open), since that frame says the frame rate and the properties.
func newArchive(path string, jobs []job) (*archive, error) {
	if err := checkContiguous(jobs); err != nil {
		return nil, err
	}
	a := &archive{path: path, first: jobs[0].in.Number}
	a.order.cond = sync.NewCond(&a.order.mu)
	return a, nil
}

// open creates the archive with its uniform time sampling at fps from the first
// frame's time, first/fps, and returns that sampling's index for the object.
func (a *archive) open(fps float64) (uint32, error) {
	a.fps = fps
	var err error
	if a.out, err = cli.CreateAtomic(a.path); err != nil {
		return 0, err
	}
	if a.w, err = abc.NewWriter(a.out, abc.Metadata{"_ai_Application": "snowtools export"}); err != nil {
		return 0, fmt.Errorf("%s: %w", a.path, err)
	}
	return a.w.AddTimeSampling(abc.Uniform(1/fps, float64(a.first)/fps))
}

// checkRate refuses a frame whose frame rate is not the archive's.
func (a *archive) checkRate(fps float64) error {
	if math.Abs(fps-a.fps) > 1e-9*a.fps {
		return fmt.Errorf("%g fps, the first frame's %g: one archive has one frame rate", fps, a.fps)
	}
	return nil
}

// finish closes the archive (Alembic writes the hierarchy last) and renames it into
// place, then logs what it holds.
func (a *archive) finish(samples int, what string, log io.Writer) error {
	if a.out == nil {
		return fmt.Errorf("%s: no frame was written", a.path)
	}
	if err := a.w.Close(); err != nil {
		a.out.Abort()
		return fmt.Errorf("%s: %w", a.path, err)
	}
	if err := a.out.Commit(); err != nil {
		return err
	}
	size := int64(0)
	if info, err := os.Stat(a.path); err == nil {
		size = info.Size()
	}
	fmt.Fprintf(log, "export: %s: %s, %d samples at %g fps from %.6g s (frame %d), %.1f MB\n", a.path, what, samples, a.fps,
		float64(a.first)/a.fps, a.first, float64(size)/1e6)
	return nil
}

// abort removes the unfinished archive after a failed frame.
func (a *archive) abort() {
	if a.out != nil {
		a.out.Abort()
	}
}

// archiveOrder lets the frames converted in parallel append their samples in frame
// order: frame k waits until frames 0..k-1 have had their turn. Jobs start in order,
// so every frame before a waiting one has started and will take its turn, writing or
// failing.
type archiveOrder struct {
	mu     sync.Mutex
	cond   *sync.Cond
	next   int   // the index of the frame whose turn it is
	failed error // the first failure: later frames do not write
}

// errEarlierFrameFailed is the outcome of the frames after a failed one in an
// archive: not their own failure, so the run reports the failed frame's instead.
var errEarlierFrameFailed = errors.New("not written: an earlier frame failed")

// inTurn waits for frame index's turn, runs write unless an earlier frame failed (or
// fails itself with err, when not nil), and passes the turn on.
func (o *archiveOrder) inTurn(index int, err error, write func() error) error {
	o.mu.Lock()
	defer o.cond.Broadcast()
	defer o.mu.Unlock()
	for o.next != index {
		o.cond.Wait()
	}
	o.next++
	switch {
	case err != nil:
	case o.failed != nil:
		return errEarlierFrameFailed
	default:
		err = write()
	}
	if err != nil && o.failed == nil {
		o.failed = err
	}
	return err
}

// pointsLayout is what the Points object holds beside positions and IDs: the same
// for every frame of an archive.
type pointsLayout struct {
	opts     abc.PointsOptions
	channels []string // the PRT channels of opts.Channels, in order
}

func (l *pointsLayout) equal(o *pointsLayout) bool {
	return l.opts.Velocities == o.opts.Velocities && l.opts.Widths == o.opts.Widths && slices.Equal(l.opts.Channels, o.opts.Channels)
}

// abcConverter writes the frames as the samples of one Points object, named after the
// sequence: positions, IDs (0, 1, ... without an ID channel), velocities, widths (each
// particle's diameter, from -radius or from Mass and PhysicalDensity) and every other
// float channel as an arbitrary geometry parameter of its name (-keep and -drop choose
// them). The first frame decides which properties the object has; every later frame
// must have the same.
type abcConverter struct {
	s       *settings
	archive *archive
	layout  *pointsLayout // the first frame's
	points  *abc.PointsWriter
	samples int
}

func newABCConverter(s *settings, jobs []job) (*abcConverter, error) {
	a, err := newArchive(s.abc.output, jobs)
	if err != nil {
		return nil, err
	}
	return &abcConverter{s: s, archive: a}, nil
}

func (c *abcConverter) convert(j job, _ int) result {
	sample, layout, fps, err := c.s.pointsSample(j.in.Path)
	err = c.archive.order.inTurn(j.index, err, func() error {
		if c.points == nil {
			ts, err := c.archive.open(fps)
			if err != nil {
				return err
			}
			c.layout = layout
			if c.points, err = c.archive.w.AddPoints(c.archive.w.Top(), objectName(c.s.input, "particles"), ts, layout.opts); err != nil {
				return err
			}
		}
		if err := c.archive.checkRate(fps); err != nil {
			return err
		}
		if !layout.equal(c.layout) {
			return fmt.Errorf("channels %s, the first frame's %s: an archive's points keep their properties", layout.describe(), c.layout.describe())
		}
		c.samples++
		return c.points.WriteSample(sample)
	})
	if err != nil {
		return result{err: err}
	}
	return result{particles: len(sample.Positions)}
}

func (c *abcConverter) finish(log io.Writer) error {
	return c.archive.finish(c.samples, "Points /"+objectName(c.s.input, "particles"), log)
}

func (c *abcConverter) abort() { c.archive.abort() }

// describe lists the layout's optional properties, for messages.
func (l *pointsLayout) describe() string {
	names := slices.Clone(l.channels)
	if l.opts.Velocities {
		names = append(names, "Velocity")
	}
	if l.opts.Widths {
		names = append(names, "widths")
	}
	if len(names) == 0 {
		return "(none)"
	}
	return strings.Join(names, ", ")
}

// pointsSample reads a frame as a Points sample, with its layout and frame rate.
func (s *settings) pointsSample(path string) (*abc.PointsSample, *pointsLayout, float64, error) {
	f, err := s.readFrame(path)
	if err != nil {
		return nil, nil, 0, err
	}
	fps, err := s.abc.frameRate(f)
	if err != nil {
		return nil, nil, 0, err
	}
	pos, err := f.positions()
	if err != nil {
		return nil, nil, 0, err
	}
	sample := &abc.PointsSample{Positions: vec3s(pos)}
	ids, err := f.ids()
	if err != nil {
		return nil, nil, 0, err
	}
	for i, id := range ids {
		if id < 0 {
			return nil, nil, 0, fmt.Errorf("particle %d: ID %d: Alembic's point IDs are unsigned", i, id)
		}
		sample.IDs = append(sample.IDs, uint64(id))
	}
	layout := &pointsLayout{}
	if _, ok := f.Header.Channel("Velocity"); ok {
		v, err := f.floats("Velocity", 3)
		if err != nil {
			return nil, nil, 0, err
		}
		sample.Velocities, layout.opts.Velocities = vec3s(v), true
	}
	if r, err := s.pointWidths(f); err != nil {
		return nil, nil, 0, err
	} else if r != nil {
		sample.Widths, layout.opts.Widths = r, true
	}
	for _, ch := range f.Header.Channels {
		switch {
		case ch.Name == "Position" || ch.Name == "Velocity" || ch.Name == "ID" || !ch.Type.IsFloat():
			continue
		case (len(s.keep) > 0 && !slices.Contains(s.keep, ch.Name)) || slices.Contains(s.drop, ch.Name):
			continue
		}
		v, err := f.floats(ch.Name, 0)
		if err != nil {
			return nil, nil, 0, err
		}
		layout.channels = append(layout.channels, ch.Name)
		layout.opts.Channels = append(layout.opts.Channels, abc.PointsChannel{Name: ch.Name, Extent: ch.Arity})
		sample.Channels = append(sample.Channels, v)
	}
	return sample, layout, fps, s.checkKeepDrop(f)
}

// checkKeepDrop refuses -keep and -drop names that the frame has no channel for.
func (s *settings) checkKeepDrop(f *frame) error {
	for _, name := range append(slices.Clone(s.keep), s.drop...) {
		if _, ok := f.Header.Channel(name); !ok {
			return fmt.Errorf("-keep/-drop %s: no such channel (channels: %s)", name, channelNames(f.Header))
		}
	}
	return nil
}

// pointWidths returns each particle's diameter, Alembic's (and RenderMan's) width of
// a point: twice -radius, or twice the volume-equivalent radius from Mass (or -mass)
// and PhysicalDensity; nil when the frame says no size.
func (s *settings) pointWidths(f *frame) ([]float32, error) {
	widths := make([]float32, f.Len())
	switch {
	case s.view.radius > 0:
		for i := range widths {
			widths[i] = float32(s.view.radius)
		}
	default:
		if _, ok := f.Header.Channel("PhysicalDensity"); !ok {
			return nil, nil
		}
		mass, err := f.masses(s.mass)
		if err != nil {
			return nil, nil // no mass, no size
		}
		if err := volumeRadii(f, mass, widths); err != nil {
			return nil, err
		}
	}
	for i := range widths {
		widths[i] *= 2
	}
	return widths, nil
}

// vec3s regroups x y z values as triples.
func vec3s(v []float32) [][3]float32 {
	out := make([][3]float32, len(v)/3)
	for i := range out {
		out[i] = [3]float32{v[3*i], v[3*i+1], v[3*i+2]}
	}
	return out
}

// objectName names the archive's object after the input sequence, sim/snow.####.prt
// -> snow, or fallback when the name leaves nothing.
func objectName(input, fallback string) string {
	base := strings.TrimLeft(seq.Stem(input), "._- ")
	if base == "" || strings.ContainsAny(base, "/;=") {
		return fallback
	}
	return base
}

// meshArchive writes a mesh per frame as the samples of one PolyMesh object: -to
// surface's meshes to an .abc output (with vertex velocities under -velocity), and
// -to abc's mesh sequences (abc_meshes.go). Each sample has its own topology.
type meshArchive struct {
	archive    *archive
	name       string
	velocities bool
	meshes     *abc.PolyMeshWriter
	samples    int
}

// write appends the mesh m of the frame at index in the selection, at fps (both
// unused when the frame failed with err), in frame order.
func (ma *meshArchive) write(index int, m *geom.Mesh, fps float64, err error) error {
	return ma.archive.order.inTurn(index, err, func() error {
		if ma.meshes == nil {
			ts, err := ma.archive.open(fps)
			if err != nil {
				return err
			}
			if ma.meshes, err = ma.archive.w.AddPolyMesh(ma.archive.w.Top(), ma.name, ts, ma.velocities); err != nil {
				return err
			}
		}
		if err := ma.archive.checkRate(fps); err != nil {
			return err
		}
		ma.samples++
		return ma.meshes.WriteMesh(m)
	})
}

// finish closes the archive and logs what it holds.
func (ma *meshArchive) finish(log io.Writer) error {
	return ma.archive.finish(ma.samples, "PolyMesh /"+ma.name, log)
}

// archiveOutput takes the archive that -to abc writes, or the .abc output of -to
// surface, out of the per-frame outputs, into s.abc.output.
func (s *settings) archiveOutput() error {
	switch s.to {
	case "abc":
		s.abc.output, s.output = s.output, ""
		if err := checkArchiveName(s.abc.output); err != nil {
			return err
		}
	case "surface":
		var perFrame []string
		for _, out := range s.surface.outputs {
			if strings.ToLower(filepath.Ext(out)) != ".abc" {
				perFrame = append(perFrame, out)
				continue
			}
			if s.abc.output != "" {
				return fmt.Errorf("outputs %s and %s: one output of each kind", s.abc.output, out)
			}
			if err := checkArchiveName(out); err != nil {
				return err
			}
			s.abc.output = out
		}
		s.surface.outputs, s.output = perFrame, ""
		if len(perFrame) > 0 {
			s.output = perFrame[0]
		}
	}
	switch {
	case s.abc.fps < 0 || math.IsNaN(s.abc.fps) || math.IsInf(s.abc.fps, 0):
		return fmt.Errorf("-fps %g: must be positive", s.abc.fps)
	case s.abc.fps > 0 && s.abc.output == "":
		return errors.New("-fps is for an .abc output, and there is none")
	}
	return nil
}
