package main

import (
	"bytes"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"snowtools/formats/prt"
	"snowtools/levelset/geom"
	"snowtools/simcore/heightfield"
)

// sprayOf returns airborne spray particles with the given IDs.
func sprayOf(ids ...uint64) *heightfield.Particles {
	p := &heightfield.Particles{ID: ids}
	for i := range ids {
		p.Pos = append(p.Pos, geom.Vec3{float64(i), 1, 0})
		p.Vel = append(p.Vel, geom.Vec3{0, -1, 0})
	}
	return p
}

// The spray's frames store the ID as int32, as the snow's frames do, bit for bit up
// to the largest int32.
func TestSprayIDIsInt32(t *testing.T) {
	ids := []uint64{0, 7, math.MaxInt32}
	var buf bytes.Buffer
	if err := writeSpray(&buf, sprayOf(ids...), frameInfo{Frame: 3, FPS: 24, H: 0.01}); err != nil {
		t.Fatal(err)
	}
	f, err := prt.ReadAll(&buf)
	if err != nil {
		t.Fatal(err)
	}
	c, ok := f.Header.Channel("ID")
	if !ok || c.Type != prt.Int32 || c.Arity != 1 {
		t.Fatalf("ID channel %v (present %v), want int32[1]", c, ok)
	}
	got, _, err := f.Int64s("ID")
	if err != nil || !slices.Equal(got, []int64{0, 7, math.MaxInt32}) {
		t.Errorf("IDs %v (%v), want %v", got, err, ids)
	}
}

// An ID beyond int32 is an error that names the frame and the particle, and nothing
// is written.
func TestSprayIDOverflowIsAnError(t *testing.T) {
	var buf bytes.Buffer
	err := writeSpray(&buf, sprayOf(5, math.MaxInt32+1), frameInfo{Frame: 41, FPS: 24, H: 0.01})
	var overflow *idOverflowError
	if !errors.As(err, &overflow) || overflow.Frame != 41 || overflow.Particle != 1 || overflow.ID != math.MaxInt32+1 {
		t.Fatalf("error %v, want an idOverflowError for particle 1 of frame 41", err)
	}
	if msg := err.Error(); !strings.Contains(msg, "frame 41") || !strings.Contains(msg, "2147483648") {
		t.Errorf("message %q names neither the frame nor the ID", msg)
	}
	if buf.Len() != 0 {
		t.Errorf("%d bytes written before the error", buf.Len())
	}
}
