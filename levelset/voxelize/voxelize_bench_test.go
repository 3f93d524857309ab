package voxelize

import (
	"fmt"
	"testing"

	"snowtools/levelset/geom"
)

// BenchmarkVoxelizeSpot is the yardstick's speed test: the 5,856-triangle spot mesh
// on 128^3 and 256^3 bounding grids, band 3, on 1 and 2 threads. OpenVDB 10's
// meshToVolume takes 0.19 s and 0.51 s of one core for it (with approximate
// distances and signs).
func BenchmarkVoxelizeSpot(b *testing.B) {
	spot := loadSpot(b)
	m := &geom.Mesh{Positions: spot.Positions, Triangles: spot.Triangles}
	smoothVelocities(m)
	topo := geom.NewTopology(m.Triangles)
	lo, hi := m.Bounds()
	span := hi.Sub(lo)
	for _, res := range []int{128, 256} {
		for _, threads := range []int{1, 2} {
			b.Run(fmt.Sprintf("res=%d/threads=%d", res, threads), func(b *testing.B) {
				benchmarkVoxelize(b, m, Options{VoxelSize: max(span[0], span[1], span[2]) / float64(res), HalfWidth: 3, Threads: threads, Topology: topo})
			})
		}
	}
}

// BenchmarkVoxelizeSpotHoles is the winding-number path on many small holes: spot
// without every 50th triangle (117 one-triangle holes, as bench/openvdb_voxelize
// times it), on 128^3 and 256^3 bounding grids, band 3, on 1 thread.
func BenchmarkVoxelizeSpotHoles(b *testing.B) {
	m := loadSpot(b).WithoutEvery(50)
	smoothVelocities(m)
	lo, hi := m.Bounds()
	span := hi.Sub(lo)
	for _, res := range []int{128, 256} {
		b.Run(fmt.Sprintf("res=%d", res), func(b *testing.B) {
			benchmarkVoxelize(b, m, Options{VoxelSize: max(span[0], span[1], span[2]) / float64(res), HalfWidth: 3, Threads: 1})
		})
	}
}

// BenchmarkVoxelizeOpenMesh is the winding-number path: a 9,000-triangle sphere
// with a hole on a 128^3 bounding grid, band 3, on 2 threads.
func BenchmarkVoxelizeOpenMesh(b *testing.B) {
	m := geom.OpenSphereMesh(geom.Vec3{}, 1, 48, 96, 6)
	smoothVelocities(m)
	benchmarkVoxelize(b, m, Options{VoxelSize: 2.0 / 128, HalfWidth: 3, Threads: 2})
}

// benchmarkVoxelize times Mesh and reports seconds per frame, band voxels per
// second and the band's size.
func benchmarkVoxelize(b *testing.B, m *geom.Mesh, opt Options) {
	var active int64
	for b.Loop() {
		c, err := Mesh(m, opt)
		if err != nil {
			b.Fatal(err)
		}
		active = c.Surface.ActiveVoxelCount()
	}
	sec := b.Elapsed().Seconds() / float64(b.N)
	b.ReportMetric(sec, "s/frame")
	b.ReportMetric(float64(active)/sec, "voxels/s")
	b.ReportMetric(float64(active), "voxels")
}

// BenchmarkVoxelizePot is the winding-number path on the hard case: the pot of the
// sign tests (560 triangles: a lid beside the rim of the opening, a spout that
// pierces the wall, 120 rim edges) on a 128^3 bounding grid, band 3, on 1 thread.
func BenchmarkVoxelizePot(b *testing.B) {
	m := pot(40)
	smoothVelocities(m)
	lo, hi := m.Bounds()
	span := hi.Sub(lo)
	benchmarkVoxelize(b, m, Options{VoxelSize: max(span[0], span[1], span[2]) / 128, HalfWidth: 3, Threads: 1})
}
