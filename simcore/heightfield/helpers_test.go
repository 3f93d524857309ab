package heightfield

import (
	"strconv"
	"testing"

	"snowtools/levelset/geom"
	"snowtools/simcore/collider"
)

// press returns a rigid collider: body lowered from 10 cm above its resting pose to
// depth below it over [0, down], held until hold, and raised back by up.
func press(t *testing.T, body geom.Shape, depth, down, hold, up float64) collider.Collider {
	t.Helper()
	keys := []collider.TranslationKey{
		{T: 0, P: geom.Vec3{0, 0.1, 0}},
		{T: down, P: geom.Vec3{0, -depth, 0}},
		{T: hold, P: geom.Vec3{0, -depth, 0}},
		{T: up, P: geom.Vec3{0, 0.1, 0}},
	}
	c, err := collider.NewRigidBody(body, keys, nil, collider.Surface{})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// testConfig is a 1 cm grid of 1 m x 1 m around the origin, flat at height 0.
func testConfig(m Material, colliders ...collider.Collider) Config {
	cfg := DefaultConfig()
	cfg.Material = m
	cfg.Extent = Rect{-50, -50, 50, 50}
	cfg.Colliders = colliders
	return cfg
}

func newSim(t *testing.T, cfg Config) *Sim {
	t.Helper()
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// budgetError returns how far the material budget is from closing: the columns'
// surplus, what the objects carry and what flies, against minus what was compressed
// or lost.
func budgetError(s *Sim) float64 {
	st := s.Stats()
	return s.Field().Surplus() + s.Adhered() + s.Airborne() + st.Compressed + st.Lost
}

func itoa(v int) string     { return strconv.Itoa(v) }
func ftoa(v float64) string { return strconv.FormatFloat(v, 'g', 4, 64) }
