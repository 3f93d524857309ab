package heightfield

import (
	"math"
	"testing"
)

func TestFieldOnDemand(t *testing.T) {
	f := NewField(Grid{Cell: 0.01, Extent: Rect{-1000, -1000, 1000, 1000}}, Flat(0.2))
	if f.StoredColumns() != 0 || f.MemoryBytes() != 0 || !f.Stored().Empty() {
		t.Fatal("a new field stores columns")
	}
	if f.Peek(5, 5) != 0.2 || f.StoredColumns() != 0 {
		t.Fatal("Peek created a column or read the wrong height")
	}
	if h := f.Height(-3, 17); h != 0.2 {
		t.Fatalf("new column at %g, want the terrain's 0.2", h)
	}
	if f.StoredColumns() != tileSide*tileSide {
		t.Fatalf("%d columns stored, want one tile", f.StoredColumns())
	}
	f.Add(-3, 17, 0.05)
	if f.Height(-3, 17) != 0.25 || f.Highest() != 0.25 {
		t.Errorf("after Add: %g, highest %g", f.Height(-3, 17), f.Highest())
	}
	if got, want := f.Surplus(), 0.05*0.01*0.01; math.Abs(got-want) > 1e-15*want {
		t.Errorf("surplus %g, want %g", got, want)
	}
	if r := f.Stored(); r != (Rect{-16, 16, 0, 32}) {
		t.Errorf("stored %v", r)
	}
}

func TestMeshOfField(t *testing.T) {
	f := NewField(Grid{Cell: 0.01, Extent: Rect{0, 0, 40, 40}}, Flat(0))
	f.Height(0, 0)
	f.Height(20, 0) // two tiles side by side: 32 x 16 columns, 31 x 15 cells
	m := f.Mesh()
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	if got, want := len(m.Triangles), 2*31*15; got != want {
		t.Errorf("%d triangles, want %d", got, want)
	}
	for _, tri := range m.Triangles {
		a, b, c := m.Positions[tri[0]], m.Positions[tri[1]], m.Positions[tri[2]]
		if n := b.Sub(a).Cross(c.Sub(a)); !(n[1] > 0) {
			t.Fatalf("triangle %v faces %v, not up", tri, n)
		}
	}
	if NewField(Grid{Cell: 1, Extent: Rect{0, 0, 1, 1}}, Flat(0)).Mesh() != nil {
		t.Error("mesh of an empty field")
	}
}
