package main

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"snowtools/cmd/internal/colormap"
	"snowtools/formats/prt"
)

// A snowball is the test input: particles in a ball, as snowsim writes them.
type snowball struct {
	pos, vel  []float32
	mass, rho []float32
	id        []int32
}

const (
	ballRadius  = 0.2
	ballSpacing = 0.02 / 2 // h / 2: eight particles per cell
	ballH       = 0.02
)

// newSnowball places particles on a jittered lattice inside a ball centred at y.
func newSnowball(y float64, seed uint64) *snowball { return newBall(y, seed, ballSpacing) }

// newBall is newSnowball with another particle spacing.
func newBall(y float64, seed uint64, spacing float64) *snowball {
	rng := rand.New(rand.NewPCG(seed, 2))
	b := &snowball{}
	n := int(ballRadius / spacing)
	for i := -n; i <= n; i++ {
		for j := -n; j <= n; j++ {
			for k := -n; k <= n; k++ {
				x := [3]float64{float64(i) * spacing, float64(j) * spacing, float64(k) * spacing}
				for a := range x {
					x[a] += (rng.Float64() - 0.5) * 0.3 * spacing
				}
				if x[0]*x[0]+x[1]*x[1]+x[2]*x[2] > ballRadius*ballRadius {
					continue
				}
				b.pos = append(b.pos, float32(x[0]), float32(x[1]+y), float32(x[2]))
				b.vel = append(b.vel, float32(rng.NormFloat64()), float32(-2+0.1*rng.NormFloat64()), float32(0.3*x[2]))
				rho := 400 * (1 + 0.1*rng.Float64())
				b.rho = append(b.rho, float32(rho))
				b.mass = append(b.mass, float32(rho*spacing*spacing*spacing))
				b.id = append(b.id, int32(len(b.id)))
			}
		}
	}
	return b
}

func (b *snowball) len() int { return len(b.mass) }

// writePRT writes the ball with snowsim's channels and metadata.
func (b *snowball) writePRT(t testing.TB, path string, frame int) {
	t.Helper()
	var h prt.Header
	pos := h.AddChannel("Position", prt.Float32, 3)
	vel := h.AddChannel("Velocity", prt.Float32, 3)
	dens := h.AddChannel("Density", prt.Float32, 1)
	id := h.AddChannel("ID", prt.Int32, 1)
	mass := h.AddChannel("Mass", prt.Float32, 1)
	phys := h.AddChannel("PhysicalDensity", prt.Float32, 1)
	plastic := h.AddChannel("PlasticJ", prt.Float32, 1)
	h.Count = int64(b.len())
	lo, hi := pointBounds(b.pos)
	h.Meta = []prt.Meta{
		prt.MetaFloat32("", "BoundBox", float32(lo[0]), float32(lo[1]), float32(lo[2]), float32(hi[0]), float32(hi[1]), float32(hi[2])),
		prt.MetaInt32("", "CoordSys", 1),
		prt.MetaInt32("", "Frame", int32(frame)),
		prt.MetaFloat64("", "Time", float64(frame)/24),
		prt.MetaFloat64("", "GridSpacing", ballH),
		prt.MetaInt32("Velocity", "Interpretation", 2),
	}
	writePRTFile(t, path, h, func(i int, rec []byte) {
		pos.PutFloat32s(rec, b.pos[3*i:3*i+3]...)
		vel.PutFloat32s(rec, b.vel[3*i:3*i+3]...)
		dens.PutFloat32s(rec, 1+float32(i%7)/10)
		id.PutInt32s(rec, b.id[i])
		mass.PutFloat32s(rec, b.mass[i])
		phys.PutFloat32s(rec, b.rho[i])
		plastic.PutFloat32s(rec, 1-float32(i%5)/20)
	})
}

// writePRTFile writes a PRT file of h.Count particles, each record filled by record.
func writePRTFile(t testing.TB, path string, h prt.Header, record func(i int, rec []byte)) {
	t.Helper()
	var buf bytes.Buffer
	w, err := prt.NewWriter(&buf, h)
	if err != nil {
		t.Fatal(err)
	}
	rec := make([]byte, h.ParticleSize())
	for i := 0; i < int(h.Count); i++ {
		record(i, rec)
		if err := w.WriteParticle(rec); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// writeSequence writes frames 1..n of a ball falling from y = 0.6, into dir/sim, and
// returns the pattern and the balls.
func writeSequence(t testing.TB, dir string, n int) (string, []*snowball) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, "sim"), 0o755); err != nil {
		t.Fatal(err)
	}
	var balls []*snowball
	for f := 1; f <= n; f++ {
		b := newSnowball(0.6-0.1*float64(f-1), uint64(f))
		b.writePRT(t, filepath.Join(dir, "sim", fmt.Sprintf("snow.%04d.prt", f)), f)
		balls = append(balls, b)
	}
	return filepath.Join(dir, "sim", "snow.####.prt"), balls
}

// runExport runs the command and returns its exit status and log.
func runExport(t testing.TB, args ...string) (int, string) {
	t.Helper()
	var log bytes.Buffer
	code := run(args, &log)
	return code, log.String()
}

// mustExport runs the command and fails the test unless it succeeds.
func mustExport(t testing.TB, args ...string) string {
	t.Helper()
	code, log := runExport(t, args...)
	if code != 0 {
		t.Fatalf("export %v: exit %d\n%s", args, code, log)
	}
	return log
}

// closeTo reports whether a and b agree to rel relative to scale.
func closeTo(a, b, rel, scale float64) bool { return math.Abs(a-b) <= rel*scale }

func mustColormap(t testing.TB, name string) colormap.Map {
	t.Helper()
	m, err := colormap.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// truncateHalf cuts the file at path to half its length: a damaged frame.
func truncateHalf(t *testing.T, path string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
}
