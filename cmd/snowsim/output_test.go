package main

import (
	"bytes"
	"math"
	"slices"
	"testing"

	"snowtools/cmd/internal/scene"
	"snowtools/formats/prt"
	"snowtools/levelset/geom"
	"snowtools/simcore"
	"snowtools/simcore/linalg"
)

// Every channel of simcore.Channels that has a Frame is in a written frame, at its
// place, under its name and type, with the values EncodeFrame gives; the other columns
// are the derived ones. The columns written on request are there only when asked for.
func TestFramesCarryWrittenChannels(t *testing.T) {
	p := &simcore.Particles{}
	p.KeepRestPositions()
	for i := range 20 {
		p.Add(geom.Vec3{0.1 * float64(i), 0.3, 1.0 / 3}, geom.Vec3{float64(i), -2, 0.7}, 1e-4*float64(i+1),
			simcore.DefaultMaterial.PerParticle())
		p.ID[i] = int32(1000 - 7*i)
		p.JP[i] = 1 - 0.01*float32(i)
		p.Rest[i][1] = -float64(i)
	}
	for _, requested := range [][]string{nil, scene.FrameChannels} {
		var buf bytes.Buffer
		if err := writePRT(&buf, p, frameColumns(requested), frameInfo{Frame: 1, FPS: 24, H: 0.02}); err != nil {
			t.Fatal(err)
		}
		fr, err := prt.ReadAll(&buf)
		if err != nil {
			t.Fatal(err)
		}
		chans := fr.Header.Channels
		written := 0
		for i := range simcore.Channels {
			ch := &simcore.Channels[i]
			if ch.Frame == nil || (ch.Frame.OnRequest && requested == nil) {
				continue
			}
			written++
			at := ch.Frame.At
			if at >= len(chans) || chans[at].Name != ch.Frame.Name || chans[at].Type != prtTypes[ch.Frame.Type] ||
				chans[at].Arity != ch.Arity() {
				t.Fatalf("%s: not at place %d as %s %s[%d]: the frame has %v", ch.Name, at, ch.Frame.Name,
					prtTypes[ch.Frame.Type], ch.Arity(), chans)
			}
			want := make([]byte, chans[at].Size())
			for k := range p.Len() {
				ch.EncodeFrame(p, k, want)
				if got := fr.Particle(k)[chans[at].Offset:chans[at].End()]; !bytes.Equal(got, want) {
					t.Fatalf("%s of particle %d: %x, want %x", ch.Name, k, got, want)
				}
			}
		}
		derived := 0
		for _, d := range derivedColumns {
			if d.col.onRequest && requested == nil {
				continue
			}
			derived++
			if chans[d.at].Name != d.col.name {
				t.Errorf("%s is not at place %d", d.col.name, d.at)
			}
		}
		if len(chans) != written+derived {
			t.Errorf("channels %v: the frame has %d columns: %d channels and %d derived ones", requested, len(chans), written, derived)
		}
	}
}

// A frame asked for Orientation alone carries it right after the columns always
// written, as the unit quaternion x, y, z, w of Particles.Orientation, with the
// Interpretation metadata "orientation" (4); RestPosition's is "point" (1).
func TestFrameOrientation(t *testing.T) {
	p := &simcore.Particles{}
	for i := range 12 {
		p.Add(geom.Vec3{0.1, 0.2, 0.3}, geom.Vec3{}, 1e-4, simcore.DefaultMaterial.PerParticle())
		// F_E = R S: a turn by 0.5 i rad about (1, 2, 2)/3, after a stretch along x.
		R := linalg.QuatMatrix(math.Cos(0.25*float64(i)), math.Sin(0.25*float64(i))/3, 2*math.Sin(0.25*float64(i))/3, 2*math.Sin(0.25*float64(i))/3)
		F := R.Mul(linalg.Diag(geom.Vec3{1.1, 1, 0.95}))
		for k := range F {
			p.FE[i][k] = float32(F[k])
		}
	}
	var buf bytes.Buffer
	if err := writePRT(&buf, p, frameColumns([]string{"Orientation"}), frameInfo{Frame: 1, FPS: 24, H: 0.02}); err != nil {
		t.Fatal(err)
	}
	fr, err := prt.ReadAll(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if c := fr.Header.Channels; len(c) != 9 || c[8].Name != "Orientation" || c[8].Type != prt.Float32 || c[8].Arity != 4 {
		t.Fatalf("channels %v: want Orientation float32[4] ninth", c)
	}
	q, _, err := fr.Float32s("Orientation")
	if err != nil {
		t.Fatal(err)
	}
	for i := range p.Len() {
		w, x, y, z := p.Orientation(i)
		if got, want := q[4*i:4*i+4], []float32{float32(x), float32(y), float32(z), float32(w)}; !slices.Equal(got, want) {
			t.Fatalf("particle %d: Orientation %v, want %v", i, got, want)
		}
		// F_E was built from the turn 0.5 i about (1, 2, 2)/3 (float32 F_E: to 1e-6),
		// whose quaternion is (cos, sin/3, 2 sin/3, 2 sin/3) of half the angle, negated
		// past a half turn so that w >= 0.
		half, sign := 0.25*float64(i), 1.0
		if math.Cos(half) < 0 {
			sign = -1
		}
		if math.Abs(float64(q[4*i+3])-sign*math.Cos(half)) > 1e-6 || math.Abs(float64(q[4*i])-sign*math.Sin(half)/3) > 1e-6 ||
			math.Abs(float64(q[4*i+1])-sign*2*math.Sin(half)/3) > 1e-6 || math.Abs(float64(q[4*i+2])-sign*2*math.Sin(half)/3) > 1e-6 {
			t.Errorf("particle %d: Orientation %v, want the turn by %g rad about (1, 2, 2)/3", i, q[4*i:4*i+4], 2*half)
		}
	}
	if v, ok := fr.Header.Int64Meta("Orientation", "Interpretation"); !ok || len(v) != 1 || v[0] != 4 {
		t.Errorf("Orientation's Interpretation %v, %v: want 4", v, ok)
	}
	p.KeepRestPositions()
	buf.Reset()
	if err := writePRT(&buf, p, frameColumns([]string{"RestPosition"}), frameInfo{Frame: 1, FPS: 24, H: 0.02}); err != nil {
		t.Fatal(err)
	}
	if fr, err = prt.ReadAll(&buf); err != nil {
		t.Fatal(err)
	}
	if v, ok := fr.Header.Int64Meta("RestPosition", "Interpretation"); !ok || len(v) != 1 || v[0] != 1 {
		t.Errorf("RestPosition's Interpretation %v, %v: want 1", v, ok)
	}
}

// The density columns of a written frame: Density is 1 / J, PhysicalDensity the rest
// density over J (the material's rho_0 at rest, surface included), and
// SinteredDensity the sintering state's density where snow sinters and the physical
// density where it does not. Two blocks settle on the floor, one of them sintering.
func TestFrameDensities(t *testing.T) {
	cfg := simcore.DefaultConfig()
	cfg.H = 0.04
	cfg.Domain = geom.Box{Min: geom.Vec3{0, 0, 0}, Max: geom.Vec3{1, 0.5, 0.6}}
	sintering := simcore.DefaultMaterial
	sintering.Sintering = &simcore.SinteringLaw{MaxDensity: 917, C1: 2e-3, C2: 1e-3, C3: -9, C4: 1e-2, C5: 1e-3}
	p := &simcore.Particles{}
	for k, m := range []simcore.Material{simcore.DefaultMaterial, sintering} {
		x := 0.1 + 0.45*float64(k)
		box := geom.Box{Min: geom.Vec3{x, 0, 0.1}, Max: geom.Vec3{x + 0.32, 0.16, 0.42}}
		if _, err := simcore.Fill(p, simcore.Source{Shape: box, Bounds: box, Material: m, PerCell: 8, Seed: 3}, cfg.H); err != nil {
			t.Fatal(err)
		}
	}
	s, err := simcore.NewSim(cfg, p)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Advance(0.05); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := writePRT(&buf, p, frameColumns(nil), frameInfo{Frame: 1, FPS: 20, H: cfg.H}); err != nil {
		t.Fatal(err)
	}
	fr, err := prt.ReadAll(&buf)
	if err != nil {
		t.Fatal(err)
	}
	column := func(name string) []float32 {
		v, _, err := fr.Float32s(name)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	ratio, phys, sintered := column("Density"), column("PhysicalDensity"), column("SinteredDensity")
	densified := 0
	for i := range p.Len() {
		rho0, j := float64(simcore.DefaultMaterial.Density), p.VolumeRatio(i)
		if ratio[i] != float32(1/j) || phys[i] != float32(rho0/j) {
			t.Fatalf("particle %d: Density %g, PhysicalDensity %g; J = %g", i, ratio[i], phys[i], j)
		}
		if math.Abs(float64(phys[i])/rho0-1) > 0.02 {
			t.Fatalf("particle %d at %v: physical density %g at rest, want %g within 2%%", i, p.X[i], phys[i], rho0)
		}
		want := phys[i]
		if ps := p.Sinter[i]; ps.MaxDensity != 0 {
			want = ps.Density
			if float64(ps.Density) > rho0 {
				densified++
			}
		}
		if sintered[i] != want {
			t.Fatalf("particle %d: SinteredDensity %g, want %g", i, sintered[i], want)
		}
	}
	if densified < p.Len()/4 {
		t.Errorf("%d of %d particles densified: the test does not see sintering", densified, p.Len())
	}
}
