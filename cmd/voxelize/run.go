package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"snowtools/cmd/internal/cli"
	"snowtools/cmd/internal/seq"
	"snowtools/formats/vdb"
	"snowtools/levelset/geom"
	"snowtools/levelset/voxelize"
)

// voxelizeAll voxelizes the selected frames one after the other, each on all
// threads, and writes one file per frame. Each frame is compressed on all threads
// as soon as it is voxelized (compressing takes about as long as voxelizing), and
// its bytes are written while the next one is voxelized: only one frame's grids
// are held at a time.
func voxelizeAll(s *settings, log io.Writer) (err error) {
	src, err := openSource(s)
	if err != nil {
		return err
	}
	g, isGLTF := src.(*gltfSource)
	if isGLTF {
		if note := g.clipNote(); note != "" {
			fmt.Fprintln(log, "voxelize: "+note)
		}
		if err := checkGLTF(g, s); err != nil {
			return err
		}
	}
	a, isAlembic := src.(*abcSource)
	if isAlembic {
		defer a.archive.Close()
		for _, note := range a.notes {
			fmt.Fprintln(log, "voxelize: "+note)
		}
		s.fps = a.fps // the archive's own, unless -fps gave one
	}
	if t, ok := src.(timedSource); ok {
		if err := limitTimeline(t.frames(), s, src.Name()); err != nil {
			return err
		}
	}
	if len(src.Frames()) > 1 && !s.fpsGiven && !isAlembic {
		// No mesh format here carries the DCC's frame rate: OBJ and STL velocities
		// scale with it, and a glTF's times become frame numbers by it.
		what := "OBJ and STL files carry no frame rate: %g fps assumed, which the velocities scale with"
		if isGLTF {
			what = "glTF files carry times, not frames: frames numbered at %g fps assumed (frame n at n/fps s)"
		}
		fmt.Fprintf(log, "voxelize: %s: "+what+"; give the DCC's with -fps\n", src.Name(), s.fps)
	}
	if s.startGiven {
		src = renumber(src, s.start)
	}
	all, run, err := selectFrames(s, src)
	if err != nil {
		return err
	}
	outPath, err := prepareOutput(s.output, len(run), all[run[0]])
	if err != nil {
		return err
	}
	if s.skipExisting {
		if run = leaveOutWritten(run, all, outPath); len(run) == 0 {
			fmt.Fprintf(log, "voxelize: every selected frame's file exists already (-skip-existing): nothing to do\n")
			return nil
		}
	}
	meshes := newMeshWindow(src, s.axes)
	if s.voxel == 0 {
		if s.voxel, err = voxelFromRes(meshes, all[0], s.res); err != nil {
			return err
		}
	}
	var w backgroundWrite
	defer func() {
		// The frame being written failed first, if it failed: both are told.
		if werr := w.wait(); werr != nil {
			err = errors.Join(werr, err)
		}
	}()
	v := &frameVoxelizer{s: s, src: src, meshes: meshes, all: all}
	opts := s.vdbOptions
	opts.Threads = s.threads
	if s.threads == 0 {
		opts.Threads = runtime.GOMAXPROCS(0)
	}
	progress := cli.NewProgress(log)
	started := time.Now()
	var activeVoxels int64
	for n, i := range run {
		frame := all[i]
		file, col, err := v.voxelize(i)
		if err != nil {
			return err
		}
		for _, note := range v.takeNotes() {
			progress.Done()
			fmt.Fprintln(log, "voxelize: "+note)
		}
		if col.InsideOut && !v.warnedInsideOut {
			progress.Done()
			fmt.Fprintf(log, "voxelize: note: frame %d (%s) is inside out (its triangles wind clockwise seen from outside); its enclosed volume is taken as the inside\n", frame, src.Origin(frame))
			v.warnedInsideOut = true
		}
		activeVoxels += col.Surface.ActiveVoxelCount()
		out := outPath(frame)
		// What voxelizing left behind (the leaves' triangle lists, the sign
		// stage's data) is garbage now: collected before compressing, its memory
		// holds the compressed bytes, and the peak stays lower and steadier (spot
		// at 256 voxels across: 91-94 MB instead of 86-102).
		runtime.GC()
		encoded, err := vdb.Encode(file, &opts)
		if err != nil {
			return fmt.Errorf("%s: %v", out, err)
		}
		if err := w.start(out, encoded); err != nil {
			return err
		}
		perFrame := time.Since(started) / time.Duration(n+1)
		progress.Update(fmt.Sprintf("voxelize %s %d/%d frame %d: %s, %.2f s/frame, %s left",
			bar(n+1, len(run)), n+1, len(run), frame, out, perFrame.Seconds(),
			cli.Duration(perFrame*time.Duration(len(run)-n-1))))
	}
	if err := w.wait(); err != nil {
		return err
	}
	progress.Done()
	if note := v.bands.summary(s.maxBand); note != "" {
		fmt.Fprintln(log, "voxelize: "+note)
	}
	elapsed := time.Since(started)
	fmt.Fprintf(log, "voxelize: %s (%d-%d) of %s at %g m voxels: %.3g active voxels per frame, %.2f s per frame, %s in all; wrote %s\n",
		plural(len(run), "frame"), all[run[0]], all[run[len(run)-1]], src.Name(), s.voxel,
		float64(activeVoxels)/float64(len(run)), elapsed.Seconds()/float64(len(run)), cli.Duration(elapsed), s.output)
	return nil
}

// bytesPerTriangle is the peak memory of voxelizing a frame, per triangle, when its
// grids are small: peak RSS of voxelize -voxel 0.1 on spheres of 638,400 and
// 5,755,200 triangles (OBJ, 2 threads): 533 MB and 4,797 MB, 853 B a triangle more.
const bytesPerTriangle = 850

// checkGLTF refuses a scene whose nodes draw more triangles than the budget
// voxelizes (a mesh drawn by 20,000 nodes is 20,000 meshes), before any is posed.
func checkGLTF(g *gltfSource, s *settings) error {
	tris := g.scene.TriangleCount()
	return s.memory.Budget().Check(fmt.Sprintf("%s: %d triangles (every mesh as often as the nodes draw it)", g.path, tris),
		int64(tris)*bytesPerTriangle)
}

// limitTimeline keeps, of a glTF clip's or an archive's frames, those -frames selects
// (by their numbers after -start), and refuses a span or selection too long to list.
func limitTimeline(tl *timeline, s *settings, name string) error {
	if s.selection != "" {
		shift := 0.0 // from the source's numbers to -start's
		if s.startGiven {
			shift = float64(s.start) - float64(tl.first)
		}
		tl.limit(float64(s.first)-shift, float64(s.last)-shift)
	}
	return tl.checkFrameCount(name, s.memory.Budget())
}

// selectFrames returns the source's frames, and the indices into them of those that
// -frames selects.
func selectFrames(s *settings, src source) (all, run []int, err error) {
	all = src.Frames()
	if all[0] < 0 {
		return nil, nil, fmt.Errorf("%s starts at frame %d (%s): frame numbers must be >= 0: give -start", src.Name(), all[0], src.Origin(all[0]))
	}
	for i, f := range all {
		if s.selection == "" || (f >= s.first && f <= s.last) {
			run = append(run, i)
		}
	}
	if len(run) == 0 {
		return nil, nil, fmt.Errorf("%s has frames %d-%d: none in -frames %s", src.Name(), all[0], all[len(all)-1], s.selection)
	}
	return all, run, nil
}

// leaveOutWritten returns the indices of run (into all) whose frame's file does not
// exist yet. Files are written atomically, so one that exists is complete: a farm task
// that ran again, or a run that completes a sequence, voxelizes only the rest.
func leaveOutWritten(run, all []int, outPath func(frame int) string) []int {
	var todo []int
	for _, i := range run {
		if _, err := os.Stat(outPath(all[i])); err != nil {
			todo = append(todo, i)
		}
	}
	return todo
}

// prepareOutput makes the folder of the output files, and returns the name of a
// frame's file: the -o pattern's, or -o itself when there is one frame.
func prepareOutput(output string, frames, first int) (func(frame int) string, error) {
	pattern, hasPlaceholder, _ := seq.ParsePattern(output)
	path := func(int) string { return output }
	switch {
	case hasPlaceholder:
		path = pattern.Path
	case frames > 1:
		return nil, fmt.Errorf("-o %s: %d frames need a #### or %%04d in the name", output, frames)
	}
	if dir := filepath.Dir(path(first)); dir != "." {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
	}
	return path, nil
}

// voxelFromRes sizes the voxels for -res from the sequence's first frame, whatever
// part of it this run covers, so that split runs agree.
func voxelFromRes(meshes *meshWindow, first, res int) (float64, error) {
	m, err := meshes.get(first)
	if err != nil {
		return 0, err
	}
	lo, hi := m.Bounds()
	span := hi.Sub(lo)
	voxel := max(span[0], span[1], span[2]) / float64(res)
	if !(voxel > 0) {
		return 0, fmt.Errorf("frame %d (%s): the mesh has no extent, so -res cannot size the voxels: use -voxel", first, meshes.src.Origin(first))
	}
	return voxel, nil
}

// frameVoxelizer turns the frames of a source into collider files, one at a time.
type frameVoxelizer struct {
	s               *settings
	src             source
	meshes          *meshWindow
	all             []int // the source's frames
	welds           welder
	bands           bandCap
	warnedInsideOut bool
	warnedStill     bool     // a frame without velocities was reported
	notes           []string // what to log after the frame
}

// voxelize voxelizes frame all[i] and lays it out as a collider file.
func (v *frameVoxelizer) voxelize(i int) (*vdb.File, *voxelize.Volumes, error) {
	s, frame := v.s, v.all[i]
	mesh, displacement, still, err := withVelocities(v.meshes, v.all, i, s.fps)
	if err != nil {
		return nil, nil, err
	}
	if still && !v.warnedStill {
		v.note(fmt.Sprintf("frame %d (%s): the topology differs from both neighbouring frames and the mesh stores no velocities: it is at rest (0 m/s); later frames like it are not listed", frame, v.src.Origin(frame)))
		v.warnedStill = true
	}
	welded, err := v.welds.weld(mesh, s.weld)
	if err != nil {
		return nil, nil, fmt.Errorf("frame %d (%s): %v", frame, v.src.Origin(frame), err)
	}
	band := s.band
	if band == 0 {
		var note string
		band, note = v.bands.automatic(frame, displacement, s.voxel, s.maxBand)
		v.note(note)
	}
	col, err := voxelize.Mesh(welded, voxelize.Options{
		VoxelSize: s.voxel, HalfWidth: band, Sign: s.sign, Normals: s.normals,
		Threads: s.threads, Topology: v.welds.topo,
	})
	if err != nil {
		return nil, nil, fmt.Errorf("frame %d (%s): %v", frame, v.src.Origin(frame), err)
	}
	v.note(v.welds.signNote(frame, s, col.Sign))
	v.meshes.forget(v.all, i)
	file := colliderFile(col, frameMeta{
		frame: frame, time: float64(frame) / s.fps, fps: s.fps,
		source: v.src.Origin(frame), band: band,
	})
	return file, col, nil
}

// note keeps a line for the log, if not empty.
func (v *frameVoxelizer) note(line string) {
	if line != "" {
		v.notes = append(v.notes, line)
	}
}

// takeNotes returns the lines to log after the frame, and forgets them.
func (v *frameVoxelizer) takeNotes() []string {
	notes := v.notes
	v.notes = nil
	return notes
}

// backgroundWrite is the file being written while the next frame is voxelized.
type backgroundWrite struct {
	done chan error // nil when none is in flight
}

// start waits for the write in flight, then starts writing file to path.
func (w *backgroundWrite) start(path string, file *vdb.Encoded) error {
	if err := w.wait(); err != nil {
		return err
	}
	w.done = make(chan error, 1)
	go func(done chan<- error) {
		done <- cli.WriteFileAtomic(path, func(out io.Writer) error {
			_, err := file.WriteTo(out)
			return err
		})
	}(w.done)
	return nil
}

// wait waits for the write in flight, if any, and returns its error.
func (w *backgroundWrite) wait() error {
	if w.done == nil {
		return nil
	}
	err := <-w.done
	w.done = nil
	return err
}

// withVelocities returns frame all[i] with vertex velocities, and the largest
// distance a vertex travels to either neighbour. The velocities are the ones the
// source stores (an Alembic mesh's .velocities), else the difference of the
// neighbouring frames in the whole sequence (so that a run over part of it gives the
// same files), central or one-sided. Neighbours must have the frame's topology,
// except in a source whose topology may vary: there a neighbour of another topology
// is not differenced, and a frame whose neighbours both differ (or a sequence of one
// frame) has no velocities (at rest); still reports that case.
func withVelocities(meshes *meshWindow, all []int, i int, fps float64) (m *geom.Mesh, displacement float64, still bool, err error) {
	need := []int{all[i]} // in the order the errors are reported
	if i > 0 {
		need = append(need, all[i-1])
	}
	if i+1 < len(all) {
		need = append(need, all[i+1])
	}
	if err := meshes.load(need); err != nil {
		return nil, 0, false, err
	}
	cur, err := meshes.get(all[i])
	if err != nil {
		return nil, 0, false, err
	}
	from, to := cur, cur
	fromFrame, toFrame := all[i], all[i]
	if i > 0 {
		prev, same, err := meshes.neighbour(all[i-1], all[i], cur)
		if err != nil {
			return nil, 0, false, err
		}
		if same {
			from, fromFrame = prev, all[i-1]
			displacement = geom.MaxDisplacement(prev.Positions, cur.Positions)
		}
	}
	if i+1 < len(all) {
		next, same, err := meshes.neighbour(all[i+1], all[i], cur)
		if err != nil {
			return nil, 0, false, err
		}
		if same {
			to, toFrame = next, all[i+1]
			displacement = max(displacement, geom.MaxDisplacement(cur.Positions, next.Positions))
		}
	}
	out := *cur
	switch {
	case cur.Velocities != nil:
		// Stored velocities: the band covers what they move a vertex in a frame too.
		for _, v := range cur.Velocities {
			displacement = max(displacement, v.Norm()/fps)
		}
	case toFrame != fromFrame:
		out.Velocities = geom.VelocitiesBetween(from.Positions, to.Positions, float64(toFrame-fromFrame)/fps)
	default:
		still = len(all) > 1
	}
	return &out, displacement, still, nil
}

// meshWindow keeps the few frames around the one being voxelized, so that each
// file is read once.
type meshWindow struct {
	src    source
	axes   geom.Axes // -up and -scale: the file's axes and units onto ours
	meshes map[int]*geom.Mesh
}

func newMeshWindow(src source, axes geom.Axes) *meshWindow {
	return &meshWindow{src: src, axes: axes, meshes: map[int]*geom.Mesh{}}
}

func (w *meshWindow) get(frame int) (*geom.Mesh, error) {
	if err := w.load([]int{frame}); err != nil {
		return nil, err
	}
	return w.meshes[frame], nil
}

// load reads the frames that the window does not hold yet, at the same time (mesh
// sources are safe for concurrent use). The error is that of the first frame in
// the list that failed.
func (w *meshWindow) load(frames []int) error {
	var missing []int
	for _, f := range frames {
		if _, ok := w.meshes[f]; !ok {
			missing = append(missing, f)
		}
	}
	meshes := make([]*geom.Mesh, len(missing))
	errs := make([]error, len(missing))
	var wg sync.WaitGroup
	for k, f := range missing {
		wg.Go(func() { meshes[k], errs[k] = w.read(f) })
	}
	wg.Wait()
	for k, f := range missing {
		if errs[k] != nil {
			return errs[k]
		}
		w.meshes[f] = meshes[k]
	}
	return nil
}

// read reads one frame, in our axes, and checks it.
func (w *meshWindow) read(frame int) (*geom.Mesh, error) {
	m, err := w.src.Mesh(frame)
	if err == nil {
		w.axes.Apply(m)
		err = m.Validate()
	}
	if err != nil {
		return nil, fmt.Errorf("frame %d (%s): %w", frame, w.src.Origin(frame), err)
	}
	return m, nil
}

// neighbour returns frame, and whether its topology is that of frame of, cur. A
// change of topology is an error unless the source allows it.
func (w *meshWindow) neighbour(frame, of int, cur *geom.Mesh) (*geom.Mesh, bool, error) {
	m, err := w.get(frame)
	if err != nil {
		return nil, false, err
	}
	if err := geom.SameTopology(cur, m); err != nil {
		if w.src.VaryingTopology() {
			return m, false, nil
		}
		return nil, false, fmt.Errorf("%s: the topology changes between frames %d and %d (%v): velocities need the same vertices in every frame",
			w.src.Name(), min(frame, of), max(frame, of), err)
	}
	return m, true, nil
}

// forget drops the frames that the frames after all[i] no longer need: all but
// all[i] and all[i+1].
func (w *meshWindow) forget(all []int, i int) {
	for f := range w.meshes {
		if f != all[i] && (i+1 == len(all) || f != all[i+1]) {
			delete(w.meshes, f)
		}
	}
}

// bar draws a 20-character progress bar.
func bar(done, total int) string {
	n := done * 20 / total
	return "[" + strings.Repeat("#", n) + strings.Repeat(".", 20-n) + "]"
}

// plural returns "1 frame" or "n frames".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
