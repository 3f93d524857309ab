package collider

import (
	"math"
	"testing"

	"snowtools/levelset"
	"snowtools/levelset/geom"
)

// TestColliderBounds samples points around each collider and checks that every
// point inside it (phi <= 0) lies in its box.
func TestColliderBounds(t *testing.T) {
	ball := geom.Sphere{Center: geom.Vec3{0.1, 0.2, -0.1}, Radius: 0.15}
	slab := geom.Box{Min: geom.Vec3{-0.2, 0, -0.05}, Max: geom.Vec3{0.2, 0.05, 0.05}}
	pipe := geom.Cylinder{A: geom.Vec3{-0.1, 0, 0}, B: geom.Vec3{0.1, 0.2, 0.1}, Radius: 0.05}
	grid, err := levelset.NewGridShape(keyframeFromShape(ball, nil, 0.02, 3, geom.Vec3{-0.2, -0.1, -0.4}, geom.Vec3{0.4, 0.5, 0.2}).Surface)
	if err != nil {
		t.Fatal(err)
	}
	spin, err := NewRigidBody(slab, []TranslationKey{{0, geom.Vec3{0, 0, 0}}, {1, geom.Vec3{0.3, 0.1, 0}}},
		[]RotationKey{{0, Quat{W: 1}}, {1, QuatAxisAngle(geom.Vec3{1, 1, 0}.Unit(), 2)}}, Surface{})
	if err != nil {
		t.Fatal(err)
	}
	moving := &DeformingLevelSet{}
	a := keyframeFromShape(ball, uniformVelocity(geom.Vec3{0.5, 0, 0}), 0.02, 3, geom.Vec3{-0.2, -0.1, -0.4}, geom.Vec3{0.4, 0.5, 0.2})
	b := keyframeFromShape(geom.Sphere{Center: ball.Center.Add(geom.Vec3{0.1, 0, 0}), Radius: ball.Radius}, uniformVelocity(geom.Vec3{0.5, 0, 0}),
		0.02, 3, geom.Vec3{-0.1, -0.1, -0.4}, geom.Vec3{0.5, 0.5, 0.2})
	if _, ok := moving.Bounds(0); !ok {
		t.Error("a deforming collider without keyframes has no box")
	}
	if err := moving.SetKeyframes(a, b, 0, 0.2); err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]BoundedCollider{
		"sphere":    &MovingShape{Shape: ball, Velocity: geom.Vec3{1, 0, 0}},
		"box":       &MovingShape{Shape: slab},
		"cylinder":  &MovingShape{Shape: pipe},
		"grid":      &MovingShape{Shape: grid},
		"rigid":     spin,
		"deforming": moving,
	} {
		for _, tm := range []float64{0, 0.1, 0.5} {
			box, ok := c.Bounds(tm)
			if !ok {
				t.Fatalf("%s: no box", name)
			}
			inside := 0
			const n = 40
			for i := range n + 1 {
				for j := range n + 1 {
					for k := range n + 1 {
						x := geom.Vec3{-0.6 + 1.6*float64(i)/n, -0.6 + 1.6*float64(j)/n, -0.8 + 1.6*float64(k)/n}
						if phi, _, _ := c.Sample(x, tm); phi <= 0 {
							inside++
							if !box.Contains(x) {
								t.Fatalf("%s at t = %g: %v is inside but not in the box %v", name, tm, x, box)
							}
						}
					}
				}
			}
			if inside == 0 {
				t.Fatalf("%s at t = %g: no point inside", name, tm)
			}
			if name == "sphere" && math.Abs(box.Min[0]-(ball.Center[0]-ball.Radius+tm)) > 1e-12 {
				t.Errorf("sphere at t = %g: box %v does not move with it", tm, box)
			}
		}
	}
	if _, ok := (&MovingShape{Shape: geom.HalfSpace{Normal: geom.Vec3{0, 1, 0}}}).Bounds(0); ok {
		t.Error("a half-space has a box")
	}
}
