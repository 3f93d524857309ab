package seq

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// touch creates empty files named names in dir.
func touch(t *testing.T, dir string, names ...string) {
	t.Helper()
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// numbers returns the frame numbers and checks that each path is in dir and exists.
func numbers(t *testing.T, dir string, frames []Frame) []int {
	t.Helper()
	var n []int
	for _, f := range frames {
		if filepath.Dir(f.Path) != filepath.Clean(dir) {
			t.Errorf("frame %d: %s is not in %s", f.Number, f.Path, dir)
		}
		if _, err := os.Stat(f.Path); err != nil {
			t.Error(err)
		}
		n = append(n, f.Number)
	}
	return n
}

func TestFindPattern(t *testing.T) {
	dir := t.TempDir()
	touch(t, dir, "snow.0003.prt", "snow.0001.prt", "snow.0002.prt", "snow.0010.prt", "snow.12345.prt",
		"snow.07.prt", "snow.00004.prt", "snow.0005.prt.tmp", "snow.prt", "other.0001.prt", "snow.000x.prt")
	if err := os.Mkdir(filepath.Join(dir, "snow.0006.prt"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, pat := range []string{"snow.####.prt", "snow.%04d.prt"} {
		frames, err := Find(filepath.Join(dir, pat))
		if err != nil {
			t.Fatal(err)
		}
		// Gaps stay visible; other paddings, folders and other names are left out.
		if got, want := numbers(t, dir, frames), []int{1, 2, 3, 10, 12345}; !reflect.DeepEqual(got, want) {
			t.Errorf("%s: frames %v, want %v", pat, got, want)
		}
		if frames[0].Path != filepath.Join(dir, "snow.0001.prt") {
			t.Errorf("path %s", frames[0].Path)
		}
	}
	// Unpadded placeholders take any padding.
	frames, err := Find(filepath.Join(dir, "snow.%d.prt"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := numbers(t, dir, frames), []int{1, 2, 3, 4, 7, 10, 12345}; !reflect.DeepEqual(got, want) {
		t.Errorf("snow.%%d.prt: frames %v, want %v", got, want)
	}
}

func TestFindPatternNone(t *testing.T) {
	dir := t.TempDir()
	touch(t, dir, "snow.1.prt")
	pat := filepath.Join(dir, "snow.####.prt")
	_, err := Find(pat)
	if err == nil || !strings.Contains(err.Error(), pat) || !strings.Contains(err.Error(), "no file matches") {
		t.Errorf("error %v", err)
	}
	_, err = Find(filepath.Join(dir, "missing", "snow.####.prt"))
	if err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("error %v", err)
	}
	if _, err := Find(filepath.Join(dir, "a.####.####.obj")); err == nil {
		t.Error("no error for two placeholders")
	}
}

func TestFindBlender(t *testing.T) {
	// Blender's exporter: name + frame, no padding, no separator.
	dir := t.TempDir()
	touch(t, dir, "cube1.obj", "cube2.obj", "cube10.obj", "cube3.obj", "cube.obj", "cube1.mtl", "cube2.mtl", "cubes1.obj", "cube_4.obj")
	for _, given := range []string{"cube1.obj", "cube10.obj", "cube3.obj"} {
		frames, err := Find(filepath.Join(dir, given))
		if err != nil {
			t.Fatal(err)
		}
		if got, want := numbers(t, dir, frames), []int{1, 2, 3, 10}; !reflect.DeepEqual(got, want) {
			t.Errorf("%s: frames %v, want %v", given, got, want)
		}
	}
	// The legacy exporter: name_000001.obj.
	touch(t, dir, "spot_000001.obj", "spot_000002.obj", "spot_000003.obj")
	frames, err := Find(filepath.Join(dir, "spot_000002.obj"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := numbers(t, dir, frames), []int{1, 2, 3}; !reflect.DeepEqual(got, want) {
		t.Errorf("frames %v, want %v", got, want)
	}
}

func TestFindHoudini(t *testing.T) {
	dir := t.TempDir()
	touch(t, dir, "spot.1001.obj", "spot.1002.obj", "spot.1004.obj", "spot.obj", "spot.1003.abc")
	frames, err := Find(filepath.Join(dir, "spot.1004.obj"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := numbers(t, dir, frames), []int{1001, 1002, 1004}; !reflect.DeepEqual(got, want) {
		t.Errorf("frames %v, want %v", got, want)
	}
	// No extension: the digits after the dot are the frame number.
	touch(t, dir, "grid.0001", "grid.0002")
	frames, err = Find(filepath.Join(dir, "grid.0002"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := numbers(t, dir, frames), []int{1, 2}; !reflect.DeepEqual(got, want) {
		t.Errorf("frames %v, want %v", got, want)
	}
}

func TestFindSingle(t *testing.T) {
	dir := t.TempDir()
	touch(t, dir, "plough.obj", "cube1.obj", "shot2.0042.obj", "model.3ds")
	for _, c := range []struct {
		name string
		want int
	}{
		{"plough.obj", 1}, // no number: frame 1
		{"cube1.obj", 1},  // a number but no siblings: its own number
		{"shot2.0042.obj", 42},
		{"model.3ds", 1}, // digits in the extension are no frame number
	} {
		path := filepath.Join(dir, c.name)
		frames, err := Find(path)
		if err != nil {
			t.Fatal(err)
		}
		if len(frames) != 1 || frames[0].Number != c.want || frames[0].Path != path {
			t.Errorf("%s: %v, want one frame numbered %d", c.name, frames, c.want)
		}
	}
}

func TestFindDuplicate(t *testing.T) {
	dir := t.TempDir()
	touch(t, dir, "a1.obj", "a01.obj", "a2.obj")
	for _, given := range []string{"a2.obj", "a%d.obj"} {
		_, err := Find(filepath.Join(dir, given))
		if err == nil || !strings.Contains(err.Error(), "a1.obj") || !strings.Contains(err.Error(), "a01.obj") ||
			!strings.Contains(err.Error(), "both frame 1") {
			t.Errorf("%s: error %v", given, err)
		}
	}
	// Padded patterns see only their own padding, so no clash.
	frames, err := Find(filepath.Join(dir, "a%02d.obj"))
	if err != nil || len(frames) != 1 || frames[0].Number != 1 {
		t.Errorf("frames %v, error %v", frames, err)
	}
}

func TestFindMissing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "cube.obj")
	_, err := Find(path)
	if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("error %v", err)
	}
	_, err = Find(dir)
	if err == nil || !strings.Contains(err.Error(), "is a folder") {
		t.Errorf("error %v", err)
	}
}

func TestFindRelative(t *testing.T) {
	// Paths keep the user's spelling of the folder, including none at all.
	dir := t.TempDir()
	touch(t, dir, "f1.obj", "f2.obj")
	t.Chdir(dir)
	for _, c := range []struct{ given, want string }{
		{"f1.obj", "f2.obj"},
		{"f%d.obj", "f2.obj"},
		{"./f1.obj", "./f2.obj"},
	} {
		frames, err := Find(c.given)
		if err != nil {
			t.Fatal(err)
		}
		if len(frames) != 2 || frames[1].Path != filepath.FromSlash(c.want) {
			t.Errorf("%s: %v, want second path %s", c.given, frames, c.want)
		}
	}
}

// Outside lists the pattern's frames before first and after last, and nothing of
// other patterns or paddings.
func TestOutside(t *testing.T) {
	dir := t.TempDir()
	touch(t, dir, "snow.0001.prt", "snow.0003.prt", "snow.0005.prt", "snow.0009.prt", "snow.009.prt", "snow.0010.png", "spray.0011.prt", ".snow.0012.prt.tmp1")
	p, _, _ := ParsePattern(filepath.Join(dir, "snow.####.prt"))
	frames, err := Outside(p, 2, 5)
	if err != nil {
		t.Fatal(err)
	}
	var got []int
	for _, f := range frames {
		got = append(got, f.Number)
	}
	if !reflect.DeepEqual(got, []int{1, 9}) || frames[1].Path != filepath.Join(dir, "snow.0009.prt") {
		t.Errorf("outside 2-5: %v", frames)
	}
	missing, _, _ := ParsePattern(filepath.Join(dir, "none", "a.####.prt"))
	if frames, err := Outside(missing, 0, 1); err != nil || frames != nil {
		t.Errorf("missing folder: %v, %v", frames, err)
	}
}
