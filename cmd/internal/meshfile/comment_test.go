package meshfile

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"snowtools/formats/obj"
	"snowtools/levelset/geom"
)

// TestFrameCommentRoundTrip writes snowsim's comment for several axes and reads it
// back, exactly.
func TestFrameCommentRoundTrip(t *testing.T) {
	for _, c := range []FrameComment{
		{What: "snowsim ground", Frame: 12, Time: 0.5, HasAxes: true},
		{What: "snowsim colliders", Frame: 3, Time: 1.0 / 24 * 3, Axes: geom.Axes{ZUp: true, Scale: 0.01}, HasAxes: true},
		{What: "snowsim ground", Frame: -2, Time: -0.1, Axes: geom.Axes{Scale: 2.54}, HasAxes: true},
	} {
		text := c.String()
		got, ok := ParseFrameComment([]string{"something else", text})
		if !ok || got != c {
			t.Errorf("%q: read %+v, %v; want %+v", text, got, ok, c)
		}
	}
	if got := (FrameComment{What: "snowsim ground", Frame: 1, Time: 0.25}).String(); got != "snowsim ground, frame 1 time 0.25, metres, Y up" {
		t.Errorf("String: %q", got) // the text snowsim has always written
	}
	// export's surface meshes: the frame and time alone, axes unknown.
	got, ok := ParseFrameComment([]string{"snowtools export of sim/snow.0007.prt", "frame 7 time 0.2916666666666667"})
	if !ok || got.Frame != 7 || got.Time != 0.2916666666666667 || got.HasAxes {
		t.Errorf("export's comment: %+v, %v", got, ok)
	}
	for _, bad := range []string{"frame x time 1", "frame 1 time", "frame 1 time NaN", "frame 1 time 2 s", "metres, Y up"} {
		if c, ok := ParseFrameComment([]string{bad}); ok {
			t.Errorf("%q read as %+v", bad, c)
		}
	}
	for _, bad := range []string{"frame 1 time 2, furlongs, Y up", "frame 1 time 2, metres, X up", "frame 1 time 2, units of -1 m, Y up"} {
		if c, ok := ParseFrameComment([]string{bad}); !ok || c.HasAxes {
			t.Errorf("%q: axes read as %+v", bad, c)
		}
	}
}

// TestComments reads the header comments of a PLY and an OBJ mesh as written.
func TestComments(t *testing.T) {
	dir := t.TempDir()
	m := &geom.Mesh{Positions: []geom.Vec3{{0, 0, 0}, {1, 0, 0}, {0, 0, 1}}, Triangles: [][3]int32{{0, 2, 1}}}
	want := []string{"snowsim ground, frame 2 time 0.08333333333333333, units of 0.01 m, Z up"}
	var b bytes.Buffer
	if err := WritePLY(&b, m, want...); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "g.ply"), b.Bytes(), 0o644)
	b.Reset()
	if err := obj.Write(&b, m, want...); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "g.obj"), b.Bytes(), 0o644)
	for _, name := range []string{"g.ply", "g.obj"} {
		got, err := Comments(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		c, ok := ParseFrameComment(got)
		if !ok || c.Frame != 2 || c.Time != 1.0/12 || c.Axes != (geom.Axes{ZUp: true, Scale: 0.01}) {
			t.Errorf("%s: comments %q read as %+v", name, got, c)
		}
	}
	if _, err := Comments(filepath.Join(dir, "missing.ply")); err == nil {
		t.Error("a missing file gave no error")
	}
}
