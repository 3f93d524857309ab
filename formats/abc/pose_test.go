package abc_test

import (
	"io"
	"math"
	"os"
	"path/filepath"
	"testing"

	"snowtools/formats/abc"
	"snowtools/formats/abc/abctest/scenes"
)

// countingReader counts the ReadAt calls that reach the file.
type countingReader struct {
	r     io.ReaderAt
	reads int
}

func (c *countingReader) ReadAt(p []byte, off int64) (int, error) {
	c.reads++
	return c.r.ReadAt(p, off)
}

// openCounted opens the archive in path through a countingReader, and returns its
// meshes.
func openCounted(t testing.TB, path string) (*abc.Archive, *countingReader, []*abc.Object) {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	st, _ := f.Stat()
	cr := &countingReader{r: f}
	a, err := abc.Open(cr, st.Size())
	if err != nil {
		t.Fatal(err)
	}
	var meshes []*abc.Object
	if err := a.Top().Walk(func(o *abc.Object) error {
		if o.IsPolyMesh() {
			meshes = append(meshes, o)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return a, cr, meshes
}

// TestPoseReadsLinear poses 300 meshes under a chain of 300 animated Xforms as
// meshfile.MeshAt does a frame (visibility, and world matrices at the frame and a
// step either side, one Pose each), two frames, and counts the reads of the file:
// sharing the ancestors, they must grow with meshes + depth, not meshes x depth.
// Measured: 13,188 reads for the first frame (which opens each object's property
// groups and headers, 22 reads an object) and 3,588 for the second (new samples
// only); the bounds are 50 and 20 reads an object, 30,000 and 12,000. Before the
// objects kept their Xforms and Pose shared ancestors, each frame read 5.6 million
// times (every ancestor's headers and samples, per mesh per time). It then checks
// the matrices: mesh world = translation (depth, 0.01 s depth (depth-1)/2, 0) at
// sample s.
func TestPoseReadsLinear(t *testing.T) {
	const meshes, depth = 300, 300
	path := filepath.Join(t.TempDir(), "deep.abc")
	scenes.DeepHierarchy(t, path, meshes, depth)
	_, cr, objs := openCounted(t, path)
	if len(objs) != meshes {
		t.Fatalf("%d meshes, want %d", len(objs), meshes)
	}
	const fps = 24.0
	check := func(what string, got abc.Matrix, sample int) {
		t.Helper()
		want := abc.Identity
		want[12], want[13] = depth, 0.01*float64(sample)*depth*(depth-1)/2
		for i := range got {
			if math.Abs(got[i]-want[i]) > 1e-9 {
				t.Fatalf("%s: world matrix %v, want %v", what, got, want)
			}
		}
	}
	cr.reads = 0
	var perFrame []int
	for _, frame := range []int{1, 0} {
		now, before, after := abc.NewPose(float64(frame)/fps), abc.NewPose(0), abc.NewPose(1/fps)
		for _, o := range objs {
			if v, err := now.IsVisible(o); err != nil || !v {
				t.Fatalf("%s visible: %v, %v", o.Path, v, err)
			}
			for _, p := range []*abc.Pose{now, before, after} {
				w, err := p.WorldMatrix(o)
				if err != nil {
					t.Fatal(err)
				}
				check(o.Path, w, int(math.Round(p.Time()*fps)))
			}
		}
		perFrame = append(perFrame, cr.reads)
		cr.reads = 0
	}
	t.Logf("%d meshes under %d Xforms, reads with Pose: first frame %d, second frame %d", meshes, depth, perFrame[0], perFrame[1])
	if bound := 50 * (meshes + depth); perFrame[0] > bound {
		t.Errorf("first frame: %d reads, more than %d", perFrame[0], bound)
	}
	if bound := 20 * (meshes + depth); perFrame[1] > bound {
		t.Errorf("second frame: %d reads, more than %d", perFrame[1], bound)
	}

	// Object.WorldMatrix at one time keeps the Xforms' last samples: a second pass
	// over every mesh reads nothing.
	cr.reads = 0
	for _, o := range objs {
		w, err := o.WorldMatrix(1 / fps)
		if err != nil {
			t.Fatal(err)
		}
		check(o.Path, w, 1)
	}
	t.Logf("Object.WorldMatrix of %d meshes at one time: %d reads", meshes, cr.reads)
	if bound := 20 * (meshes + depth); cr.reads > bound {
		t.Errorf("%d reads, more than %d", cr.reads, bound)
	}
}

// TestPoseOrderAndInherits: a pose gives the same matrices whichever objects it is
// asked about first, and stops above an Xform that does not inherit. The hierarchy
// is /a (translate 1 along x) /b (translate 2, not inheriting) /c (translate 4)
// /mesh, whose world matrix is translate 6; c's is translate 6, a's translate 1.
func TestPoseOrderAndInherits(t *testing.T) {
	path := filepath.Join(t.TempDir(), "inherits.abc")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w, _ := abc.NewWriter(f, nil)
	ts, _ := w.AddTimeSampling(abc.Uniform(1.0/24, 0))
	parent := w.Top()
	for _, x := range []struct {
		name     string
		dx       float64
		inherits bool
	}{{"a", 1, true}, {"b", 2, false}, {"c", 4, true}} {
		xw, obj, err := w.AddXform(parent, x.name, ts)
		if err != nil {
			t.Fatal(err)
		}
		m := abc.Identity
		m[12] = x.dx
		if err := xw.WriteSample(m, x.inherits); err != nil {
			t.Fatal(err)
		}
		parent = obj
	}
	mw, err := w.AddPolyMesh(parent, "mesh", ts, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := mw.WriteSample(&abc.MeshSample{Positions: [][3]float32{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}},
		FaceIndices: []int32{0, 1, 2}, FaceCounts: []int32{3}}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	a, _, _ := openCounted(t, path)
	want := map[string]float64{"/a": 1, "/a/b": 2, "/a/b/c": 6, "/a/b/c/mesh": 6}
	for _, order := range [][]string{{"/a/b/c/mesh", "/a/b/c", "/a/b", "/a"}, {"/a", "/a/b", "/a/b/c", "/a/b/c/mesh"}} {
		pose := abc.NewPose(0)
		for _, p := range order {
			o, err := a.Find(p)
			if err != nil || o == nil {
				t.Fatalf("%s: %v", p, err)
			}
			m, err := pose.WorldMatrix(o)
			if err != nil {
				t.Fatal(err)
			}
			wantM := abc.Identity
			wantM[12] = want[p]
			if m != wantM {
				t.Errorf("order %v: %s world matrix %v, want translate %g", order, p, m, want[p])
			}
		}
	}
}
