package geom

import "testing"

// A Z-up file's up (0, 0, 1) becomes Y, its forward (0, 1, 0) becomes -Z, lengths
// scale, and a closed mesh keeps its outward winding (its volume stays positive).
func TestAxes(t *testing.T) {
	a := Axes{ZUp: true, Scale: 0.01}
	for _, c := range []struct{ in, want Vec3 }{
		{Vec3{0, 0, 100}, Vec3{0, 1, 0}},
		{Vec3{0, 100, 0}, Vec3{0, 0, -1}},
		{Vec3{100, 0, 0}, Vec3{1, 0, 0}},
	} {
		if got := a.Point(c.in); got.Sub(c.want).Norm() > 1e-15 {
			t.Errorf("%v -> %v, want %v", c.in, got, c.want)
		}
	}
	box := BoxMesh(Vec3{0, 0, 0}, Vec3{100, 200, 300})
	box.Velocities = make([]Vec3, len(box.Positions))
	for i := range box.Velocities {
		box.Velocities[i] = Vec3{0, 0, 50}
	}
	a.Apply(box)
	lo, hi := box.Bounds()
	if lo.Sub(Vec3{0, 0, -2}).Norm() > 1e-12 || hi.Sub(Vec3{1, 3, 0}).Norm() > 1e-12 {
		t.Errorf("bounds %v %v, want (0 0 -2) (1 3 0)", lo, hi)
	}
	if v := box.SignedVolume(); v < 6-1e-9 || v > 6+1e-9 {
		t.Errorf("volume %g, want +6 (winding kept)", v)
	}
	if box.Velocities[0] != (Vec3{0, 0.5, 0}) {
		t.Errorf("velocity %v, want (0 0.5 0)", box.Velocities[0])
	}
	if !(Axes{}).Identity() || !(Axes{Scale: 1}).Identity() || (Axes{Scale: 2}).Identity() {
		t.Error("Identity")
	}
}

// Inverse undoes Point, InverseDirection undoes Direction.
func TestAxesInverse(t *testing.T) {
	a := Axes{ZUp: true, Scale: 0.01}
	back := a.Inverse()
	for _, p := range []Vec3{{1, 2, 3}, {-4, 0.5, 7}} {
		if got := back(a.Point(p)); got.Sub(p).Norm() > 1e-12 {
			t.Errorf("Inverse(Point(%v)) = %v", p, got)
		}
		if got := a.InverseDirection(a.Direction(p)); got != p {
			t.Errorf("InverseDirection(Direction(%v)) = %v", p, got)
		}
	}
	if got := back(Vec3{0, 1, 0}); got.Sub(Vec3{0, 0, 100}).Norm() > 1e-12 {
		t.Errorf("our up, 1 m, is %v in a Z-up centimetre file; want (0 0 100)", got)
	}
}
