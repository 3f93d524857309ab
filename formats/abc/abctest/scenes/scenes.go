// Package scenes writes the Alembic archives that the benchmarks and tests of
// formats/abc and of the tools read: a large animated sphere, and a deep hierarchy of
// Xforms over many small meshes. It is apart from package abctest because it imports
// formats/abc, whose own (in-package) tests import abctest.
package scenes

import (
	"fmt"
	"os"
	"testing"

	"snowtools/formats/abc"
	"snowtools/levelset/geom"
)

// GrowingSphere writes to path a two-sample animated PolyMesh "sphere" with stored
// velocities: sample k is the sphere scaled by 1 + 0.1 k, with velocity 2.4 p at each
// vertex p of the sphere, sampled uniformly at 24 fps from time start. With rig set
// the mesh is "/rig/sphere", under an Xform that moves 0.1 along x per sample;
// otherwise it is "/sphere".
func GrowingSphere(tb testing.TB, path string, sphere *geom.Mesh, start float64, rig bool) {
	tb.Helper()
	write(tb, path, func(w *abc.Writer) error {
		ts, err := w.AddTimeSampling(abc.Uniform(1.0/24, start))
		if err != nil {
			return err
		}
		parent := w.Top()
		var xw *abc.XformWriter
		if rig {
			if xw, parent, err = w.AddXform(parent, "rig", ts); err != nil {
				return err
			}
		}
		mw, err := w.AddPolyMesh(parent, "sphere", ts, true)
		if err != nil {
			return err
		}
		for k := range 2 {
			if xw != nil {
				move := abc.Identity
				move[12] = 0.1 * float64(k)
				if err := xw.WriteSample(move, true); err != nil {
					return err
				}
			}
			m := *sphere
			m.Positions = make([]geom.Vec3, len(sphere.Positions))
			m.Velocities = make([]geom.Vec3, len(sphere.Positions))
			for i, p := range sphere.Positions {
				m.Positions[i] = p.Scale(1 + 0.1*float64(k))
				m.Velocities[i] = p.Scale(2.4)
			}
			if err := mw.WriteMesh(&m); err != nil {
				return err
			}
		}
		return nil
	})
}

// DeepHierarchy writes to path a chain of depth Xforms, "/x0/x1/.../x<depth-1>", each
// a translation by (1, 0, 0) at sample 0 and (1, 0.01 k, 0) at sample 1 for the Xform
// at level k, and meshes PolyMeshes "m0", "m1", ... under the deepest one, each a
// tetrahedron with velocities, at the same two samples (uniform, 24 fps from 0).
// Every Xform has a constant "visible" property of -1 (deferred), so that an object's
// visibility is found at the top. The world matrix of a mesh at sample s is thus the
// translation by (depth, 0.01 s depth (depth-1) / 2, 0).
func DeepHierarchy(tb testing.TB, path string, meshes, depth int) {
	tb.Helper()
	tet := &geom.Mesh{
		Positions: []geom.Vec3{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}},
		Triangles: [][3]int32{{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}},
	}
	tet.Velocities = make([]geom.Vec3, len(tet.Positions))
	write(tb, path, func(w *abc.Writer) error {
		ts, err := w.AddTimeSampling(abc.Uniform(1.0/24, 0))
		if err != nil {
			return err
		}
		parent := w.Top()
		for k := range depth {
			xw, obj, err := w.AddXform(parent, fmt.Sprintf("x%d", k), ts)
			if err != nil {
				return err
			}
			for s := range 2 {
				move := abc.Identity
				move[12], move[13] = 1, 0.01*float64(s*k)
				if err := xw.WriteSample(move, true); err != nil {
					return err
				}
			}
			vis, err := obj.Properties().AddScalar("visible", abc.DataType{POD: abc.Int8, Extent: 1}, nil, 0)
			if err != nil {
				return err
			}
			if err := vis.WriteSample([]byte{0xff}, nil); err != nil { // int8 -1: deferred
				return err
			}
			parent = obj
		}
		for i := range meshes {
			mw, err := w.AddPolyMesh(parent, fmt.Sprintf("m%d", i), ts, true)
			if err != nil {
				return err
			}
			for range 2 {
				if err := mw.WriteMesh(tet); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// write creates path and writes an archive with fill.
func write(tb testing.TB, path string, fill func(*abc.Writer) error) {
	tb.Helper()
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	w, err := abc.NewWriter(f, nil)
	if err != nil {
		tb.Fatal(err)
	}
	if err := fill(w); err != nil {
		tb.Fatal(err)
	}
	if err := w.Close(); err != nil {
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
}
