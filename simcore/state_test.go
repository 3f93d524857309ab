package simcore

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strings"
	"testing"

	"snowtools/levelset/geom"
	"snowtools/simcore/collider"
)

// stateScene is a snowball thrown at the floor and a wall, with a static sphere in the
// way: it packs, so plasticity and the stress matter, and it runs long enough for the
// solver to reorder the particles.
func stateScene(t *testing.T, threads int) *Sim {
	t.Helper()
	cfg := DefaultConfig()
	cfg.H = 0.04
	cfg.Threads = threads
	cfg.Colliders = []collider.Collider{&collider.MovingShape{Shape: geom.Sphere{Center: geom.Vec3{0.7, 0.1, 0.5}, Radius: 0.1}, Contact: collider.Surface{Mode: collider.Sticky}}}
	ball := geom.Sphere{Center: geom.Vec3{0.4, 0.3, 0.5}, Radius: 0.12}
	m := DefaultMaterial // sintering, so that its state is part of what must survive
	m.Sintering = &SinteringLaw{MaxDensity: 917, C1: 1e-6, C3: -9, C4: 1e-5}
	src := Source{Shape: ball, Bounds: geom.Box{Min: geom.Vec3{0.28, 0.18, 0.38}, Max: geom.Vec3{0.52, 0.42, 0.62}},
		Material: m, PerCell: 6, Seed: 5, Velocity: geom.Vec3{3, -2, 0.5}, Spin: geom.Vec3{0, 0, -5}, Center: ball.Center}
	return newSimOf(t, cfg, src)
}

// stateBytes is every channel and scalar of st in binary, so that comparing two is
// bit-exact (== on floats would take -0 for 0), one entry each for the error message.
func stateBytes(t *testing.T, st State) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for i := range Channels {
		c := &Channels[i]
		b := make([]byte, c.Len(&st.Particles)*c.Size())
		c.Encode(&st.Particles, 0, b)
		out[c.Name] = append(b, fmt.Sprint(c.Present(&st.Particles))...)
	}
	scalars := map[string]any{"Time": st.Time, "Steps": st.Steps, "MaxSpeed": st.MaxSpeed,
		"MaxWaveSpeed": st.MaxWaveSpeed, "VolumesKnown": st.VolumesKnown}
	for name, v := range scalars {
		var buf bytes.Buffer
		if err := binary.Write(&buf, binary.LittleEndian, v); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out[name] = buf.Bytes()
	}
	return out
}

func sameState(t *testing.T, what string, a, b State) {
	t.Helper()
	ab, bb := stateBytes(t, a), stateBytes(t, b)
	for name := range ab {
		if !bytes.Equal(ab[name], bb[name]) {
			t.Errorf("%s: %s differs", what, name)
		}
	}
}

// cloneState deep-copies st, every channel through its encoding: a Snapshot shares the
// Sim's memory.
func cloneState(st State) State {
	c := st
	c.Particles = Particles{}
	n := st.Particles.Len()
	for i := range Channels {
		ch := &Channels[i]
		if !ch.Present(&st.Particles) {
			continue
		}
		b := make([]byte, ch.Len(&st.Particles)*ch.Size())
		ch.Encode(&st.Particles, 0, b)
		ch.Grow(&c.Particles, len(b)/ch.Size(), n)
		ch.Decode(&c.Particles, 0, b)
	}
	return c
}

// A restored simulation has every field of the original bit for bit, and stepping both
// (with different thread counts) keeps them bit-identical: snapshots taken before the
// first step, at a frame, and between reorderings.
func TestSnapshotRestore(t *testing.T) {
	for _, at := range []float64{0, 0.03, 0.05} {
		orig := stateScene(t, 2)
		if at > 0 {
			orig.Prepare()
			if _, err := orig.Advance(at); err != nil {
				t.Fatal(err)
			}
			if orig.Steps%reorderInterval == 0 {
				t.Fatalf("t = %g: step %d: want a snapshot between reorderings", at, orig.Steps)
			}
		}
		snap := cloneState(orig.Snapshot())
		if at > 0 && (!snap.VolumesKnown || snap.MaxWaveSpeed == 0 || snap.Particles.stress[0] == (sym3f{}) ||
			snap.Particles.Sinter[0].Density == float32(DefaultMaterial.Density)) {
			t.Fatalf("t = %g: the snapshot does not exercise the state: %+v", at, snap.Particles.stress[0])
		}
		cfg := orig.Config()
		cfg.Threads = 3
		restored, err := Restore(cfg, cloneState(snap))
		if err != nil {
			t.Fatal(err)
		}
		sameState(t, "restored", snap, restored.Snapshot())
		if restored.stableDt() != orig.stableDt() {
			t.Errorf("t = %g: next time step %g, want %g", at, restored.stableDt(), orig.stableDt())
		}

		end := at + 0.03
		if _, err := orig.Advance(end); err != nil {
			t.Fatal(err)
		}
		if _, err := restored.Advance(end); err != nil {
			t.Fatal(err)
		}
		if orig.Steps < 2*reorderInterval {
			t.Fatalf("only %d steps: the particles were not reordered after the snapshot", orig.Steps)
		}
		sameState(t, "after stepping", orig.Snapshot(), restored.Snapshot())
	}
}

// Restore refuses states that cannot be right, and says what is wrong.
func TestRestoreRejects(t *testing.T) {
	s := stateScene(t, 1)
	s.Prepare()
	good := cloneState(s.Snapshot())
	cases := map[string]func(st *State){
		"values of Stress for": func(st *State) { st.Particles.stress = st.Particles.stress[1:] },
		"values of Sinter for": func(st *State) { st.Particles.Sinter = st.Particles.Sinter[1:] },
		"step count":           func(st *State) { st.Steps = -1 },
		"time":                 func(st *State) { st.Time = -1 },
		"speeds":               func(st *State) { st.MaxWaveSpeed = -1 },
		"outside the domain": func(st *State) {
			st.Particles.X[3] = geom.Vec3{-1, 0, 0}
		},
	}
	for want, spoil := range cases {
		st := cloneState(good)
		spoil(&st)
		if _, err := Restore(s.Config(), st); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v", want, err)
		}
	}
}
