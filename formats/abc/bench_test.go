package abc_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"snowtools/formats/abc"
	"snowtools/formats/abc/abctest/scenes"
	"snowtools/levelset/geom"
)

// BenchmarkReadMeshFrame reads frame 1 of a two-frame animated PolyMesh of 1e6
// triangles (a sphere that grows, with velocities) written by this package: Read is
// the sample as stored, Mesh adds the world transform and the triangles that
// voxelize takes.
func BenchmarkReadMeshFrame(b *testing.B) {
	sphere := geom.SphereMesh(geom.Vec3{}, 1, 501, 1000) // 1,000,000 triangles
	path := filepath.Join(b.TempDir(), "sphere.abc")
	scenes.GrowingSphere(b, path, sphere, 0, false)
	st, _ := os.Stat(path)
	b.Logf("%d triangles, %d vertices, file %.1f MB", len(sphere.Triangles), len(sphere.Positions), float64(st.Size())/1e6)
	a, err := abc.OpenFile(path)
	if err != nil {
		b.Fatal(err)
	}
	defer a.Close()
	o, _ := a.Find("/sphere")
	m, err := o.PolyMesh()
	if err != nil {
		b.Fatal(err)
	}
	b.Run("Read", func(b *testing.B) {
		for b.Loop() {
			if _, err := m.Read(1); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Mesh", func(b *testing.B) {
		for b.Loop() {
			s, err := m.Read(1)
			if err != nil {
				b.Fatal(err)
			}
			if mesh := s.Mesh(abc.Identity); len(mesh.Triangles) != len(sphere.Triangles) {
				b.Fatalf("%d triangles", len(mesh.Triangles))
			}
		}
	})
}

// BenchmarkPoseDeepHierarchy poses the meshes of scenes.DeepHierarchy (meshes under a
// chain of depth animated Xforms) as meshfile.MeshAt does a frame: visibility, and
// world matrices at the frame and at the samples either side, with one Pose per
// time. Frames alternate between samples 1 and 0, so that every op reads new
// Xform samples, as an animated shot does.
func BenchmarkPoseDeepHierarchy(b *testing.B) {
	for _, size := range [][2]int{{200, 20}, {100, 100}, {300, 300}} {
		meshes, depth := size[0], size[1]
		path := filepath.Join(b.TempDir(), "deep.abc")
		scenes.DeepHierarchy(b, path, meshes, depth)
		b.Run(fmt.Sprintf("meshes=%d/depth=%d", meshes, depth), func(b *testing.B) {
			_, _, objs := openCounted(b, path)
			frame := 0
			for b.Loop() {
				frame = 1 - frame
				now, before, after := abc.NewPose(float64(frame)/24), abc.NewPose(0), abc.NewPose(1.0/24)
				for _, o := range objs {
					if _, err := now.IsVisible(o); err != nil {
						b.Fatal(err)
					}
					for _, p := range []*abc.Pose{now, before, after} {
						if _, err := p.WorldMatrix(o); err != nil {
							b.Fatal(err)
						}
					}
				}
			}
		})
	}
}
