package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"testing"

	"snowtools/cmd/internal/meshfile"
	"snowtools/formats/abc/abctest/scenes"
	"snowtools/formats/obj"
	"snowtools/levelset/geom"
	"snowtools/levelset/sharedtest"
	"snowtools/levelset/voxelize"
)

// BenchmarkVoxelizeFile times the tool end to end, as bench/openvdb_voxelize/run.sh
// times it against OpenVDB: read a two-frame OBJ sequence (spot, and spot turned by
// 0.02 radians about y and moved 5 mm, for velocities), voxelize the first frame at
// 128 and 256 voxels across with band 3, and write the three grids, on 1 and 2
// threads. "open" removes every 50th triangle of both frames (117 holes), which
// takes the winding-number path. Run with -benchtime 3x or so: a run is a second.
func BenchmarkVoxelizeFile(b *testing.B) {
	spot, err := meshfile.Read(sharedtest.Asset(b, "spot_triangulated.obj"))
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	for _, mesh := range []struct {
		name string
		m    *geom.Mesh
	}{{"closed", spot}, {"open", spot.WithoutEvery(50)}} {
		writeTwoFrames(b, filepath.Join(dir, mesh.name), mesh.m)
		lo, hi := mesh.m.Bounds()
		span := hi.Sub(lo)
		for _, res := range []int{128, 256} {
			h := max(span[0], span[1], span[2]) / float64(res)
			for _, threads := range []int{1, 2} {
				b.Run(fmt.Sprintf("%s/res=%d/threads=%d", mesh.name, res, threads), func(b *testing.B) {
					args := []string{"-voxel", fmt.Sprint(h), "-band", "3", "-frames", "1-1", "-threads", fmt.Sprint(threads),
						"-o", filepath.Join(dir, "out.vdb"), filepath.Join(dir, mesh.name+".0001.obj")}
					for b.Loop() {
						if code := run(args, io.Discard); code != 0 {
							b.Fatalf("exit %d", code)
						}
					}
				})
			}
		}
	}
}

// writeTwoFrames writes base.0001.obj (m) and base.0002.obj (m turned by 0.02
// radians about y and moved 5 mm along x).
func writeTwoFrames(b *testing.B, base string, m *geom.Mesh) {
	moved := &geom.Mesh{Positions: make([]geom.Vec3, len(m.Positions)), Triangles: m.Triangles}
	c, s := math.Cos(0.02), math.Sin(0.02)
	for i, p := range m.Positions {
		moved.Positions[i] = geom.Vec3{p[0]*c + p[2]*s + 0.005, p[1], -p[0]*s + p[2]*c}
	}
	for i, frame := range []*geom.Mesh{m, moved} {
		f, err := os.Create(fmt.Sprintf("%s.%04d.obj", base, i+1))
		if err != nil {
			b.Fatal(err)
		}
		if err := obj.Write(f, frame); err != nil {
			b.Fatal(err)
		}
		if err := f.Close(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAlembicFrame is the pair of issue 26's target, "reading a 1e6-triangle
// animated PolyMesh frame takes less time than voxelizing it": a sphere of radius
// 1 m and 1,000,000 triangles that grows by 10% a frame, two frames at 24 fps with
// stored velocities, under an Xform that moves. "read" is what voxelize does per
// frame before voxelizing (meshfile.Alembic.MeshAt: the samples, the Xform chain,
// the triangles in world space, the velocities with the transform's motion);
// "voxelize" is voxelize.Mesh of that mesh at 256 voxels across, band 3, on all
// threads. Run with -benchtime 1x: a voxelize run is some 20 s on 2 cores.
func BenchmarkAlembicFrame(b *testing.B) {
	sphere := geom.SphereMesh(geom.Vec3{}, 1, 501, 1000)
	path := filepath.Join(b.TempDir(), "sphere.abc")
	scenes.GrowingSphere(b, path, sphere, 1.0/24, true)
	a, err := meshfile.OpenAlembic(path, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer a.Close()
	const frame = 2.0 / 24
	mesh, err := a.MeshAt(frame, 1.0/24)
	if err != nil {
		b.Fatal(err)
	}
	st, _ := os.Stat(path)
	b.Logf("%d triangles, %d vertices, archive %.1f MB", len(mesh.Triangles), len(mesh.Positions), float64(st.Size())/1e6)
	b.Run("read", func(b *testing.B) {
		for b.Loop() {
			if _, err := a.MeshAt(frame, 1.0/24); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("voxelize", func(b *testing.B) {
		lo, hi := mesh.Bounds()
		span := hi.Sub(lo)
		h := max(span[0], span[1], span[2]) / 256
		for b.Loop() {
			if _, err := voxelize.Mesh(mesh, voxelize.Options{VoxelSize: h, HalfWidth: 3}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
