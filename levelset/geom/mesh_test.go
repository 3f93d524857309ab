package geom

import (
	"math"
	"strings"
	"testing"
)

func TestMeshValidate(t *testing.T) {
	good := func() *Mesh { return BoxMesh(Vec3{-1, -1, -1}, Vec3{1, 1, 1}) }
	if err := good().Validate(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		want  string
		spoil func(m *Mesh)
	}{
		{"empty mesh", func(m *Mesh) { m.Triangles = nil }},
		{"vertex 2: position", func(m *Mesh) { m.Positions[2][0] = math.Inf(1) }},
		{"triangle 4: vertex index 8", func(m *Mesh) { m.Triangles[4][1] = 8 }},
		{"triangle 0: vertex index -1", func(m *Mesh) { m.Triangles[0][0] = -1 }},
		{"7 velocities for 8 vertices", func(m *Mesh) { m.Velocities = make([]Vec3, 7) }},
		{"vertex 5: velocity", func(m *Mesh) { m.Velocities = make([]Vec3, 8); m.Velocities[5][2] = math.NaN() }},
	} {
		m := good()
		tc.spoil(m)
		if err := m.Validate(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("error %v, want one mentioning %q", err, tc.want)
		}
	}
}

func TestSameTopologyAndVelocities(t *testing.T) {
	a := BoxMesh(Vec3{-1, -1, -1}, Vec3{1, 1, 1})
	b := BoxMesh(Vec3{0, -1, -1}, Vec3{2, 1, 1}) // moved 1 m along x
	if err := SameTopology(a, b); err != nil {
		t.Fatal(err)
	}
	for i, v := range VelocitiesBetween(a.Positions, b.Positions, 0.5) {
		if v != (Vec3{2, 0, 0}) {
			t.Fatalf("vertex %d: velocity %v, want (2, 0, 0)", i, v)
		}
	}
	if d := MaxDisplacement(a.Positions, b.Positions); d != 1 {
		t.Errorf("displacement %g, want 1", d)
	}
	c := BoxMesh(Vec3{-1, -1, -1}, Vec3{1, 1, 1})
	c.Triangles[3] = [3]int32{0, 1, 2}
	if err := SameTopology(a, c); err == nil || !strings.Contains(err.Error(), "triangle 3") {
		t.Errorf("changed triangle: %v", err)
	}
	c.Triangles = c.Triangles[:11]
	if err := SameTopology(a, c); err == nil || !strings.Contains(err.Error(), "12 triangles become 11") {
		t.Errorf("dropped triangle: %v", err)
	}
}

// The primitives are closed, counter-clockwise from outside, of the right volume.
func TestPrimitives(t *testing.T) {
	box := BoxMesh(Vec3{-1, 0, 2}, Vec3{1, 3, 3})
	if v := box.SignedVolume(); math.Abs(v-6) > 1e-12 || !NewTopology(box.Triangles).Closed {
		t.Errorf("box: volume %g, closed %v", v, NewTopology(box.Triangles).Closed)
	}
	sphere := SphereMesh(Vec3{1, 2, 3}, 2, 32, 64)
	v := sphere.SignedVolume()
	if want := 4.0 / 3 * math.Pi * 8; !(v > 0.98*want && v < want) || !NewTopology(sphere.Triangles).Closed {
		t.Errorf("sphere: volume %g (ball %g), closed %v", v, want, NewTopology(sphere.Triangles).Closed)
	}
	// A slanted cylinder: the inscribed 48-gon prism's volume exactly, and within
	// 0.3% of the cylinder's.
	c := Cylinder{A: Vec3{0.3, -0.2, 1}, B: Vec3{1.1, 0.9, 0.4}, Radius: 0.25}
	cyl := CylinderMesh(c, 48)
	length := c.B.Sub(c.A).Norm()
	prism := 48.0 / 2 * math.Sin(2*math.Pi/48) * c.Radius * c.Radius * length
	v = cyl.SignedVolume()
	if math.Abs(v-prism) > 1e-12 || !(v > 0.997*math.Pi*c.Radius*c.Radius*length) || !NewTopology(cyl.Triangles).Closed {
		t.Errorf("cylinder: volume %g (prism %g, cylinder %g), closed %v", v, prism, math.Pi*c.Radius*c.Radius*length, NewTopology(cyl.Triangles).Closed)
	}
	for i, p := range cyl.Positions[2:] {
		if phi, _ := c.Distance(p); math.Abs(phi) > 1e-12 {
			t.Errorf("cylinder: ring corner %d is %g from the surface", i, phi)
		}
	}
}
