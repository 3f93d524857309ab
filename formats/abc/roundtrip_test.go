package abc

import (
	"math"
	"testing"
)

// snowPoints returns frame f of a small particle set: n particles on a helix.
func snowPoints(n, f int) *PointsSample {
	s := &PointsSample{Channels: [][]float32{make([]float32, n), make([]float32, 4*n)}}
	for i := 0; i < n; i++ {
		a := float64(i)*0.3 + float64(f)*0.1
		s.Positions = append(s.Positions, [3]float32{float32(math.Cos(a)), float32(i) * 0.01, float32(math.Sin(a))})
		s.Velocities = append(s.Velocities, [3]float32{float32(-math.Sin(a)), 0, float32(math.Cos(a))})
		s.IDs = append(s.IDs, uint64(1000+i))
		s.Widths = append(s.Widths, 0.01)
		s.Channels[0][i] = float32(400 + i)
		for k := 0; k < 4; k++ {
			s.Channels[1][4*i+k] = float32(k) + float32(f)
		}
	}
	return s
}

// writePoints writes frames of snowPoints at fps to an archive in memory.
func writePoints(t testing.TB, n, frames int, fps float64) []byte {
	t.Helper()
	var f memFile
	w, err := NewWriter(&f, Metadata{"_ai_Application": "snowtools test"})
	if err != nil {
		t.Fatal(err)
	}
	ts, err := w.AddTimeSampling(Uniform(1/fps, 1/fps))
	if err != nil {
		t.Fatal(err)
	}
	pw, err := w.AddPoints(w.Top(), "snow", ts, PointsOptions{Velocities: true, Widths: true,
		Channels: []PointsChannel{{"density", 1}, {"stress", 4}}})
	if err != nil {
		t.Fatal(err)
	}
	for k := 0; k < frames; k++ {
		if err := pw.WriteSample(snowPoints(n+k, k)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return f.b
}

func TestPointsRoundTrip(t *testing.T) {
	const n, frames, fps = 50, 4, 24.0
	a := openBytes(t, writePoints(t, n, frames, fps))
	if a.Metadata["_ai_Application"] != "snowtools test" {
		t.Errorf("archive metadata %v", a.Metadata)
	}
	o, err := a.Find("/snow")
	if err != nil || o == nil {
		t.Fatalf("find /snow: %v %v", o, err)
	}
	if o.Schema() != pointsSchema {
		t.Fatalf("schema %q", o.Schema())
	}
	props, err := o.Properties()
	if err != nil {
		t.Fatal(err)
	}
	g, err := props.Compound(".geom")
	if err != nil {
		t.Fatal(err)
	}
	p, err := g.Property("P")
	if err != nil {
		t.Fatal(err)
	}
	if p.NumSamples() != frames || p.TimeSampling.TimePerCycle != 1/fps || p.SampleTime(2) != 1/fps+2/fps {
		t.Fatalf("P: %d samples, sampling %+v", p.NumSamples(), p.TimeSampling)
	}
	if a.MaxSamples[p.Header.TimeSampling] != frames {
		t.Errorf("max samples %v", a.MaxSamples)
	}
	arb, err := g.Compound(".arbGeomParams")
	if err != nil {
		t.Fatal(err)
	}
	for k := 0; k < frames; k++ {
		want := snowPoints(n+k, k)
		s, err := p.Read(k, nil)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := s.Float32s()
		if s.Len() != n+k || len(got) != 3*(n+k) {
			t.Fatalf("frame %d: %d points", k, s.Len())
		}
		for i := range want.Positions {
			for c := 0; c < 3; c++ {
				if got[3*i+c] != want.Positions[i][c] {
					t.Fatalf("frame %d point %d: %v, want %v", k, i, got[3*i:3*i+3], want.Positions[i])
				}
			}
		}
		ids, err := g.Property(".pointIds")
		if err != nil {
			t.Fatal(err)
		}
		is, _ := ids.Read(k, nil)
		iv, _ := is.Int64s()
		if iv[n-1] != int64(1000+n-1) {
			t.Fatalf("ids %v", iv[:3])
		}
		st, err := arb.Property("stress")
		if err != nil {
			t.Fatal(err)
		}
		ss, _ := st.Read(k, nil)
		sv, _ := ss.Float32s()
		if len(sv) != 4*(n+k) || sv[5] != 1+float32(k) {
			t.Fatalf("stress: %d values, %v", len(sv), sv[:8])
		}
	}
	// Widths are the same every frame but the count changes: no repeats to skip.
	// Every frame's widths hold different counts, so they are all stored.
	w, _ := g.Property(".widths")
	if w.NumStored() != frames {
		t.Errorf("widths: %d stored samples, want %d", w.NumStored(), frames)
	}
}
