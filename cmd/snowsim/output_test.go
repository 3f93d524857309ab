package main

import (
	"bytes"
	"math"
	"testing"

	"snowtools/formats/prt"
	"snowtools/levelset/geom"
	"snowtools/simcore"
)

// Every channel of simcore.Channels that has a Frame is in a written frame, at its
// place, under its name and type, with the values EncodeFrame gives; the other columns
// are the derived ones.
func TestFramesCarryWrittenChannels(t *testing.T) {
	p := &simcore.Particles{}
	for i := range 20 {
		p.Add(geom.Vec3{0.1 * float64(i), 0.3, 1.0 / 3}, geom.Vec3{float64(i), -2, 0.7}, 1e-4*float64(i+1),
			simcore.DefaultMaterial.PerParticle())
		p.ID[i] = int32(1000 - 7*i)
		p.JP[i] = 1 - 0.01*float32(i)
	}
	var buf bytes.Buffer
	if err := writePRT(&buf, p, frameInfo{Frame: 1, FPS: 24, H: 0.02}); err != nil {
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
		if ch.Frame == nil {
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
	if len(chans) != written+len(derivedColumns) {
		t.Errorf("the frame has %d columns: %d channels and %d derived ones", len(chans), written, len(derivedColumns))
	}
	for _, d := range derivedColumns {
		if chans[d.at].Name != d.col.name {
			t.Errorf("%s is not at place %d", d.col.name, d.at)
		}
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
	if err := writePRT(&buf, p, frameInfo{Frame: 1, FPS: 20, H: cfg.H}); err != nil {
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
