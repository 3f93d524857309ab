package meshfile

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path"
	"strings"
	"sync"

	"snowtools/formats/abc"
	"snowtools/formats/input"
	"snowtools/levelset/geom"
)

// An Alembic archive is an animated scene: the tools read its PolyMesh and SubD
// objects (a SubD's control cage), each placed in world space by the chain of Xforms
// above it, as one triangle mesh per time. OpenAlembic chooses the objects once;
// MeshAt poses them.
//
// Each property is read at its sample nearest the time asked for (Alembic's default
// sample selector, which is what Maya and Houdini show on a frame): frames that fall
// on the archive's samples, as they do at the archive's own frame rate, read exactly
// those samples.
type Alembic struct {
	Path string
	// Start and End are the first and last sample times, in seconds, of the chosen
	// meshes and of the Xforms above them, over the properties that are animated
	// (more than one sample); both are the first sample's time for a still archive.
	Start, End float64
	// FrameRate is 1/TimePerCycle of the uniform or cyclic time sampling of those
	// animated properties (the finest when they differ), or 0 when every animated one
	// is acyclic or nothing moves: the archive then says no frame rate.
	FrameRate float64
	// Animated is true when some chosen mesh or Xform above one has several samples.
	Animated bool
	// VaryingTopology is true when some chosen mesh's faces change between samples.
	VaryingTopology bool

	mu      sync.Mutex // an abc.Archive is not safe for concurrent use
	file    *os.File   // a regular file: a FIFO would block the reader forever
	archive *abc.Archive
	meshes  []*abc.PolyMesh
}

// AlembicExtension is the file extension of Alembic archives, which ReadAt takes
// beside Extensions' formats.
const AlembicExtension = ".abc"

// OpenAlembic opens the archive in name and chooses its meshes: those whose path or
// name, or the path or name of an object above them, matches one of the patterns
// (path.Match syntax: "/rig/*" matches paths, "plough*" names), or every mesh for
// none. Close closes it.
func OpenAlembic(name string, patterns []string) (*Alembic, error) {
	for _, p := range patterns {
		if _, err := path.Match(p, ""); err != nil {
			return nil, fmt.Errorf("object pattern %q: %v", p, err)
		}
	}
	f, err := input.Open(name) // names the file itself
	if err != nil {
		return nil, err
	}
	a, err := openAlembic(name, f, patterns)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return a, nil
}

// openAlembic reads the archive in f and chooses its meshes.
func openAlembic(name string, f *os.File, patterns []string) (*Alembic, error) {
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	archive, err := abc.Open(f, info.Size())
	if err != nil {
		return nil, err
	}
	a := &Alembic{Path: name, file: f, archive: archive}
	if err := a.choose(patterns); err != nil {
		return nil, err
	}
	if err := a.timing(); err != nil {
		return nil, err
	}
	return a, nil
}

// Close closes the archive's file.
func (a *Alembic) Close() error { return a.file.Close() }

// Objects returns the paths of the chosen meshes, in the archive's order.
func (a *Alembic) Objects() []string {
	paths := make([]string, len(a.meshes))
	for i, m := range a.meshes {
		paths[i] = m.Object.Path
	}
	return paths
}

// HasVelocities reports whether every chosen mesh stores vertex velocities.
func (a *Alembic) HasVelocities() bool {
	for _, m := range a.meshes {
		if !m.HasVelocities() {
			return false
		}
	}
	return true
}

// choose walks the hierarchy and opens the meshes that the patterns select.
func (a *Alembic) choose(patterns []string) error {
	var all []string
	err := a.archive.Top().Walk(func(o *abc.Object) error {
		if !o.IsPolyMesh() {
			return nil
		}
		all = append(all, o.Path)
		if len(patterns) > 0 && !selected(o, patterns) {
			return nil
		}
		m, err := o.PolyMesh()
		if err != nil {
			return err
		}
		a.meshes = append(a.meshes, m)
		return nil
	})
	if err != nil {
		return err
	}
	switch {
	case len(all) == 0:
		return errors.New("no PolyMesh or SubD object: nothing to voxelize (points and curves are not surfaces)")
	case len(a.meshes) == 0:
		return fmt.Errorf("no mesh matches %q; its meshes are %s", strings.Join(patterns, ","), listSome(all, 10))
	}
	return nil
}

// selected reports whether o, or an object above it, matches a pattern: by its path
// for a pattern that starts with "/", else by its name.
func selected(o *abc.Object, patterns []string) bool {
	for p := o; p != nil && p.Parent != nil; p = p.Parent {
		for _, pattern := range patterns {
			subject := p.Name
			if strings.HasPrefix(pattern, "/") {
				subject = p.Path
			}
			if ok, _ := path.Match(pattern, subject); ok {
				return true
			}
		}
	}
	return false
}

// listSome joins the first n names, and says how many more there are.
func listSome(names []string, n int) string {
	if len(names) <= n {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:n], ", "), len(names)-n)
}

// timing finds the span of the animated samples and the frame rate they say.
func (a *Alembic) timing() error {
	a.Start, a.End = math.Inf(1), math.Inf(-1)
	still := math.Inf(1) // the earliest first sample, for a still archive
	add := func(ts abc.TimeSampling, n int) {
		if n == 0 {
			return
		}
		still = min(still, ts.SampleTime(0))
		if n < 2 {
			return
		}
		a.Animated = true
		a.Start, a.End = min(a.Start, ts.SampleTime(0)), max(a.End, ts.SampleTime(n-1))
		if !ts.IsAcyclic() {
			a.FrameRate = max(a.FrameRate, 1/ts.TimePerCycle)
		}
	}
	xforms := map[*abc.Object]bool{}
	for _, m := range a.meshes {
		add(m.TimeSampling(), m.NumSamples())
		if !m.ConstantTopology() {
			a.VaryingTopology = true
		}
		for p := m.Object.Parent; p != nil; p = p.Parent {
			if !p.IsXform() || xforms[p] {
				continue
			}
			xforms[p] = true
			x, err := p.Xform()
			if err != nil {
				return err
			}
			if !x.IsConstant() {
				add(x.TimeSampling(), x.NumSamples())
			}
		}
	}
	if !a.Animated {
		if math.IsInf(still, 1) {
			still = 0
		}
		a.Start, a.End = still, still
	}
	return nil
}

// MeshAt returns the chosen meshes that are visible at time t, in world space and as
// one mesh (an empty one when none is visible), counter-clockwise seen from outside.
//
// When every one of them stores vertex velocities (.velocities, in its own space),
// the mesh carries them in world space: v W(t) for a mesh whose world transform is W,
// plus the velocity of the transform itself, p (W(t+step) - W(t-step)) / (2 step) for
// a vertex at p in the mesh's space, the difference taken one-sided at the ends of the
// archive's animation (step 0: none). Otherwise the mesh has no velocities, and the
// caller differences positions.
func (a *Alembic) MeshAt(t, step float64) (*geom.Mesh, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := &geom.Mesh{}
	withVelocities := true
	var parts []*geom.Mesh
	// One pose per time, shared by the meshes: their Xforms above are read once.
	now := abc.NewPose(t)
	before, after := abc.NewPose(max(t-step, a.Start)), abc.NewPose(min(t+step, a.End))
	for _, m := range a.meshes {
		part, err := meshAt(m, now, before, after, step)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", a.Path, err)
		}
		if part == nil {
			continue
		}
		withVelocities = withVelocities && part.Velocities != nil
		parts = append(parts, part)
	}
	for _, part := range parts {
		base := int32(len(out.Positions))
		if int64(len(out.Positions))+int64(len(part.Positions)) > math.MaxInt32 {
			return nil, fmt.Errorf("%s at %g s: more than %d vertices in all", a.Path, t, math.MaxInt32)
		}
		out.Positions = append(out.Positions, part.Positions...)
		if withVelocities {
			out.Velocities = append(out.Velocities, part.Velocities...)
		}
		for _, tri := range part.Triangles {
			out.Triangles = append(out.Triangles, [3]int32{tri[0] + base, tri[1] + base, tri[2] + base})
		}
	}
	return out, nil
}

// meshAt returns one mesh at the time of pose now in world space, or nil when it is
// hidden; poses before and after give the transform's velocity when step > 0.
func meshAt(m *abc.PolyMesh, now, before, after *abc.Pose, step float64) (*geom.Mesh, error) {
	o := m.Object
	visible, err := now.IsVisible(o)
	if err != nil || !visible {
		return nil, err
	}
	s, err := m.At(now.Time())
	if err != nil {
		return nil, err
	}
	world, err := now.WorldMatrix(o)
	if err != nil {
		return nil, err
	}
	mesh := s.Mesh(world)
	if mesh.Velocities == nil || step <= 0 || !(after.Time() > before.Time()) {
		return mesh, nil
	}
	w0, err := before.WorldMatrix(o)
	if err != nil {
		return nil, err
	}
	w1, err := after.WorldMatrix(o)
	if err != nil {
		return nil, err
	}
	if w0 == w1 {
		return mesh, nil // the transform does not move
	}
	dt := after.Time() - before.Time()
	for i, p := range s.Positions {
		local := geom.Vec3{float64(p[0]), float64(p[1]), float64(p[2])}
		moved := w1.Point(local).Sub(w0.Point(local)).Scale(1 / dt)
		mesh.Velocities[i] = mesh.Velocities[i].Add(moved)
	}
	return mesh, nil
}

// readAlembic reads every mesh of the archive in name at time t, or at its first
// sample for t < 0 (an archive has no rest pose), with the velocities it stores.
func readAlembic(name string, t float64) (*geom.Mesh, error) {
	a, err := OpenAlembic(name, nil)
	if err != nil {
		return nil, err
	}
	defer a.Close()
	if t < 0 {
		t = a.Start
	}
	return a.MeshAt(t, 0)
}
