package abc

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"snowtools/levelset/geom"
)

// uvSphere returns a closed latitude-longitude sphere of radius r with 2 lon (lat-1)
// triangles, counter-clockwise seen from outside.
func uvSphere(lat, lon int, r float64) *geom.Mesh {
	m := &geom.Mesh{Positions: []geom.Vec3{{0, 0, r}, {0, 0, -r}}}
	for i := 1; i < lat; i++ {
		th := math.Pi * float64(i) / float64(lat)
		for j := 0; j < lon; j++ {
			ph := 2 * math.Pi * float64(j) / float64(lon)
			m.Positions = append(m.Positions, geom.Vec3{r * math.Sin(th) * math.Cos(ph), r * math.Sin(th) * math.Sin(ph), r * math.Cos(th)})
		}
	}
	ring := func(i, j int) int32 { return int32(2 + (i-1)*lon + (j % lon)) }
	for j := 0; j < lon; j++ {
		m.Triangles = append(m.Triangles, [3]int32{0, ring(1, j), ring(1, j+1)})
		m.Triangles = append(m.Triangles, [3]int32{1, ring(lat-1, j+1), ring(lat-1, j)})
	}
	for i := 1; i < lat-1; i++ {
		for j := 0; j < lon; j++ {
			a, b, c, d := ring(i, j), ring(i, j+1), ring(i+1, j), ring(i+1, j+1)
			m.Triangles = append(m.Triangles, [3]int32{a, c, d}, [3]int32{a, d, b})
		}
	}
	return m
}

// BenchmarkReadMeshFrame reads frame 1 of a two-frame animated PolyMesh of 1e6
// triangles (a sphere that grows, with velocities) written by this package: Read is
// the sample as stored, Mesh adds the world transform and the triangles that
// voxelize takes.
func BenchmarkReadMeshFrame(b *testing.B) {
	sphere := uvSphere(501, 1000, 1) // 1,000,000 triangles
	path := filepath.Join(b.TempDir(), "sphere.abc")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w, _ := NewWriter(f, nil)
	ts, _ := w.AddTimeSampling(Uniform(1.0/24, 0))
	mw, err := w.AddPolyMesh(w.Top(), "sphere", ts, true)
	if err != nil {
		b.Fatal(err)
	}
	for k := 0; k < 2; k++ {
		m := *sphere
		m.Positions = make([]geom.Vec3, len(sphere.Positions))
		m.Velocities = make([]geom.Vec3, len(sphere.Positions))
		for i, p := range sphere.Positions {
			m.Positions[i] = p.Scale(1 + 0.1*float64(k))
			m.Velocities[i] = p.Scale(2.4)
		}
		if err := mw.WriteMesh(&m); err != nil {
			b.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	f.Close()
	st, _ := os.Stat(path)
	b.Logf("%d triangles, %d vertices, file %.1f MB", len(sphere.Triangles), len(sphere.Positions), float64(st.Size())/1e6)
	a, err := OpenFile(path)
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
			if mesh := s.Mesh(Identity); len(mesh.Triangles) != len(sphere.Triangles) {
				b.Fatalf("%d triangles", len(mesh.Triangles))
			}
		}
	})
}
