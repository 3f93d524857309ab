package simcore

import (
	"fmt"
	"math"
	"os"
	"testing"

	"snowtools/levelset/geom"
	"snowtools/simcore/collider"
)

// contactScene is a block of default snow (Table 2) dropped from two cells above a
// surface and left to settle on it: the domain floor, the top face of a box collider
// (analytic, or voxelized into a level set), or a domain side wall under gravity along
// -x. The box's top lies half-way between two rows of nodes; the floor and the wall lie
// on a row.
type contactScene struct {
	name string
	cfg  Config
	snow geom.Box
	box  geom.Box // the box collider, if any
}

// The scenes' names.
const (
	onFloor    = "floor"
	onBox      = "box"
	onLevelSet = "box level set"
	onWall     = "wall"
)

// newContactScene returns the scene of that name at grid spacing h, with a block of
// snow w cells wide and high cells high (along the surface's normal), every surface the
// snow can touch in contact mode m.
func newContactScene(t *testing.T, name string, h float64, w, high int, m collider.Surface) contactScene {
	const drop = 2 // cells from the surface to the snow
	sc := contactScene{name: name, cfg: DefaultConfig()}
	sc.cfg.H = h
	sc.cfg.Domain = geom.Box{Max: geom.Vec3{20 * h, 14 * h, 20 * h}}
	sc.cfg.Walls = m
	lo, hi := 10-float64(w)/2, 10+float64(w)/2 // centred in the domain
	sc.snow = geom.Box{Min: geom.Vec3{lo * h, drop * h, lo * h}, Max: geom.Vec3{hi * h, float64(drop+high) * h, hi * h}}
	switch name {
	case onBox, onLevelSet:
		top := 4.5 * h
		sc.box = geom.Box{Min: geom.Vec3{4 * h, -h, 4 * h}, Max: geom.Vec3{16 * h, top, 16 * h}}
		if name == onBox {
			sc.cfg.Colliders = []collider.Collider{&collider.MovingShape{Shape: sc.box, Contact: m}}
		} else {
			// Voxels of h/2 as the scene loader makes them, a band of 5 voxels.
			c := &collider.DeformingLevelSet{Contact: m}
			key := voxelKeyframe(t, sc.box.Min, sc.box.Max, geom.Vec3{}, h/2, 5)
			if err := c.SetKeyframes(key, key, 0, 10); err != nil {
				t.Fatal(err)
			}
			sc.cfg.Colliders = []collider.Collider{c}
		}
		sc.snow.Min[1] += top
		sc.snow.Max[1] += top
	case onWall:
		sc.cfg.Gravity = geom.Vec3{-9.81, 0, 0}
		ylo, yhi := lo-3, hi-3 // centred in the domain's height of 14 cells
		sc.snow = geom.Box{Min: geom.Vec3{drop * h, ylo * h, lo * h}, Max: geom.Vec3{float64(drop+high) * h, yhi * h, hi * h}}
	}
	return sc
}

// phi returns the exact signed distance from x to the scene's solids: the outside of
// the domain and the box.
func (sc *contactScene) phi(x geom.Vec3) float64 {
	d := math.Inf(1)
	for a := range 3 {
		d = min(d, x[a]-sc.cfg.Domain.Min[a], sc.cfg.Domain.Max[a]-x[a])
	}
	if sc.box != (geom.Box{}) {
		b, _ := sc.box.Distance(x)
		d = min(d, b)
	}
	return d
}

// contactStats describes the snow next to the surfaces; distances are in cells.
type contactStats struct {
	gap       float64 // min over particles of phi: negative for a particle inside a solid
	layerGap  float64 // mean phi of the lowest layer: the particles within h/2 of the gap
	layerJP   float64 // mean J_P of the lowest layer
	layerSize int
	maxSpeed  float64 // of the fastest particle of the lowest layer (m/s)
}

// measureContact returns the contact statistics of the particles of sc's simulation s.
func (sc *contactScene) measureContact(s *Sim) contactStats {
	h := s.cfg.H
	phi := make([]float64, s.P.Len())
	st := contactStats{gap: math.Inf(1)}
	for i, x := range s.P.X {
		phi[i] = sc.phi(x) / h
		st.gap = math.Min(st.gap, phi[i])
	}
	for i, d := range phi {
		if d < st.gap+0.5 {
			st.layerGap += d
			st.layerJP += float64(s.P.JP[i])
			st.layerSize++
			st.maxSpeed = math.Max(st.maxSpeed, s.P.V[i].Norm())
		}
	}
	st.layerGap /= float64(st.layerSize)
	st.layerJP /= float64(st.layerSize)
	return st
}

// settle runs scene sc with the integrator to each of times in turn and returns the
// contact statistics at each.
func (sc *contactScene) settle(t testing.TB, integrator Integrator, times ...float64) []contactStats {
	t.Helper()
	cfg := sc.cfg
	cfg.Integrator = integrator
	p := &Particles{}
	if _, err := Fill(p, Source{Shape: sc.snow, Bounds: sc.snow, Material: DefaultMaterial, PerCell: 8, Seed: 7}, cfg.H); err != nil {
		t.Fatal(err)
	}
	s, err := NewSim(cfg, p)
	if err != nil {
		t.Fatal(err)
	}
	var out []contactStats
	for _, tm := range times {
		if _, err := s.Advance(tm); err != nil {
			t.Fatal(err)
		}
		out = append(out, sc.measureContact(s))
	}
	return out
}

// contactModes are the three contact modes of section 8, with the default friction.
var contactModes = []collider.Surface{{Mode: collider.Sticky}, {Mode: collider.Slip}, {Mode: collider.Separate, Friction: 0.3}}

// Snow that falls onto a surface comes to rest on it, within 0.3 h, without a particle
// getting more than 0.01 h inside it on the way, and stays there: its lowest layer
// neither compacts further (J_P) nor moves. With section 8's grid collisions at every
// node inside a collider (before contact.go) it rested 0.5-1.1 h above.
func TestSnowRestsOnSurfaces(t *testing.T) {
	type run struct {
		scene      string
		mode       collider.ContactMode
		integrator Integrator
	}
	runs := []run{
		{onFloor, collider.Sticky, Explicit},
		{onLevelSet, collider.Separate, Explicit},
		{onBox, collider.Separate, SemiImplicit},
	}
	if !testing.Short() {
		runs = append(runs,
			run{onFloor, collider.Separate, Explicit},
			run{onBox, collider.Sticky, Explicit},
			run{onBox, collider.Separate, Explicit},
			run{onLevelSet, collider.Sticky, Explicit},
			run{onWall, collider.Separate, Explicit},
			run{onFloor, collider.Sticky, SemiImplicit},
		)
	}
	const h = 0.04
	for _, r := range runs {
		name := fmt.Sprintf("%s/%v/%v", r.scene, r.mode, r.integrator)
		sc := newContactScene(t, r.scene, h, 4, 3, collider.Surface{Mode: r.mode, Friction: 0.3})
		var times []float64 // every 0.05 s, through the landing; at rest from 0.4 s
		for k := 1; k <= 12; k++ {
			times = append(times, 0.05*float64(k))
		}
		st := sc.settle(t, r.integrator, times...)
		a, b := st[7], st[11] // at 0.4 and 0.6 s
		deepest := math.Inf(1)
		for _, x := range st {
			deepest = math.Min(deepest, x.gap)
		}
		t.Logf("%s: gap %.3f h (least on the way %.3f h), lowest layer (%d particles) %.3f h, J_P %.5f -> %.5f, fastest %.2g m/s",
			name, b.gap, deepest, b.layerSize, b.layerGap, a.layerJP, b.layerJP, b.maxSpeed)
		if b.gap > 0.3 {
			t.Errorf("%s: the snow rests %.3f h above the surface, want <= 0.3 h", name, b.gap)
		}
		if deepest < -0.01 {
			t.Errorf("%s: a particle got %.3f h inside the surface", name, -deepest)
		}
		if d := math.Abs(b.layerJP - a.layerJP); d > 1e-3 {
			t.Errorf("%s: the lowest layer's J_P went from %.5f to %.5f at rest", name, a.layerJP, b.layerJP)
		}
		if b.maxSpeed > 0.1*h { // a tenth of a cell per second
			t.Errorf("%s: a particle of the lowest layer moves at %.3g m/s at rest", name, b.maxSpeed)
		}
	}
}

// TestContactGapTable prints, at the default h = 2 cm, the table of resting contact for
// every scene, contact mode and integrator: SNOW_CONTACT_TABLE=1 go test ./simcore
// -run TestContactGapTable -v -timeout 0 (SNOW_CONTACT_INTEGRATOR=explicit or
// semi-implicit for one of them). It takes minutes.
func TestContactGapTable(t *testing.T) {
	if os.Getenv("SNOW_CONTACT_TABLE") == "" {
		t.Skip("set SNOW_CONTACT_TABLE=1 to measure")
	}
	const h = 0.02
	fmt.Println("| integrator | surface | mode | gap (h) | lowest layer (h) | layer J_P at 0.4 s -> 0.8 s | fastest in layer (m/s) | layer size |")
	fmt.Println("|---|---|---|---|---|---|---|---|")
	for _, integrator := range []Integrator{Explicit, SemiImplicit} {
		if f := os.Getenv("SNOW_CONTACT_INTEGRATOR"); f != "" && f != integrator.String() {
			continue
		}
		for _, m := range contactModes {
			for _, name := range []string{onFloor, onBox, onLevelSet, onWall} {
				sc := newContactScene(t, name, h, 6, 4, m)
				st := sc.settle(t, integrator, 0.4, 0.8)
				a, b := st[0], st[1]
				fmt.Printf("| %v | %s | %v | %.3f | %.2f | %.4f -> %.4f | %.2g | %d |\n",
					integrator, name, m.Mode, b.gap, b.layerGap, a.layerJP, b.layerJP, b.maxSpeed, b.layerSize)
			}
		}
	}
}
