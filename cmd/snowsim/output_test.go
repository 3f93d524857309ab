package main

import (
	"bytes"
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
