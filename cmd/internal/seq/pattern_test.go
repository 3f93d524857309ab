package seq

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestPath(t *testing.T) {
	for _, c := range []struct {
		pattern string
		frame   int
		want    string
	}{
		{"snow.####.prt", 7, "snow.0007.prt"},
		{"snow_%04d.prt", 12, "snow_0012.prt"},
		{"snow.####.prt", 12345, "snow.12345.prt"},
		{"snow.####.prt", 0, "snow.0000.prt"},
		{"a.##.obj", 7, "a.07.obj"},
		{"a.#.obj", 7, "a.7.obj"},
		{"cube%d.obj", 12, "cube12.obj"},
		{"cube_%06d.obj", 1, "cube_000001.obj"},
		{"%03d", 5, "005"},
		{"####.vdb", 1001, "1001.vdb"},
		{"100%.####.obj", 3, "100%.0003.obj"}, // a '%' without a verb is text
		{"out/frames/snow.####.prt", 1, "out/frames/snow.0001.prt"},
		{"snow.%004d.prt", 1, "snow.0001.prt"},
	} {
		p, ok, err := ParsePattern(filepath.FromSlash(c.pattern))
		if err != nil || !ok {
			t.Errorf("%q: ok %v, error %v", c.pattern, ok, err)
			continue
		}
		if got := p.Path(c.frame); got != filepath.FromSlash(c.want) {
			t.Errorf("%q frame %d: %q, want %q", c.pattern, c.frame, got, c.want)
		}
		if p.String() != filepath.FromSlash(c.pattern) {
			t.Errorf("String() = %q", p)
		}
		if got := p.Prefix() + pad(c.frame, p.Width()) + p.Suffix(); got != p.Path(c.frame) {
			t.Errorf("%q: Prefix, Width and Suffix give %q", c.pattern, got)
		}
		base := filepath.Base(p.Path(c.frame))
		if f, ok := p.Match(base); !ok || f != c.frame {
			t.Errorf("%q: Match(%q) = %d, %v", c.pattern, base, f, ok)
		}
	}
}

func TestNoPlaceholder(t *testing.T) {
	for _, s := range []string{"snow.prt", "cube1.obj", "a%b.obj", "a%", "50%off.obj", "a%3"} {
		p, ok, err := ParsePattern(s)
		if ok || err != nil {
			t.Errorf("%q: %v, ok %v, error %v", s, p, ok, err)
		}
	}
}

func TestPatternErrors(t *testing.T) {
	for _, c := range []struct{ pattern, want string }{
		{"snow.####.####.prt", "more than one"},
		{"snow.####.%04d.prt", "more than one"},
		{"snow.%d_%d.prt", "more than one"},
		{"shot_####/snow.####.prt", "not in a folder"},
		{"shot_%04d/snow.prt", "not in a folder"},
		{"snow.%4d.prt", `pads with spaces; write %04d`},
		{"snow.%0d.prt", "padding must be 1 to 18"},
		{"snow.%099d.prt", "padding must be 1 to 18"},
		{"snow." + strings.Repeat("#", 19) + ".prt", "at most 18"},
	} {
		_, ok, err := ParsePattern(filepath.FromSlash(c.pattern))
		if err == nil || ok || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "snow") {
			t.Errorf("%q: ok %v, error %v; want %q", c.pattern, ok, err, c.want)
		}
	}
}

func TestMatch(t *testing.T) {
	p4, _, _ := ParsePattern("a.####.obj")
	p1, _, _ := ParsePattern("a.%d.obj")
	for _, c := range []struct {
		name   string
		f4, f1 int // -1: no match
	}{
		{"a.0007.obj", 7, 7},
		{"a.7.obj", -1, 7},
		{"a.07.obj", -1, 7},
		{"a.00007.obj", -1, 7},
		{"a.12345.obj", 12345, 12345},
		{"a.0000.obj", 0, 0},
		{"a.-001.obj", -1, -1},
		{"a.+001.obj", -1, -1},
		{"a..obj", -1, -1},
		{"a.0007.obj.bak", -1, -1},
		{"b.0007.obj", -1, -1},
		{"a.0x07.obj", -1, -1},
		{"a." + strings.Repeat("9", 30) + ".obj", -1, -1},
	} {
		for _, m := range []struct {
			p    Pattern
			want int
		}{{p4, c.f4}, {p1, c.f1}} {
			f, ok := m.p.Match(c.name)
			if ok != (m.want >= 0) || (ok && f != m.want) {
				t.Errorf("%s.Match(%q) = %d, %v; want %d", m.p, c.name, f, ok, m.want)
			}
		}
	}
}

func TestNegativeFramePanics(t *testing.T) {
	p, _, _ := ParsePattern("a.####.obj")
	defer func() {
		if recover() == nil {
			t.Error("no panic")
		}
	}()
	p.Path(-1)
}

func TestStem(t *testing.T) {
	for in, want := range map[string]string{
		"out/walk.####.obj": "walk", "walk.%04d.obj": "walk", "walk1.obj": "walk", "a/walk.obj": "walk",
		"cube_000001.obj": "cube", "sim/snow.0012.prt": "snow", "0001.obj": "",
	} {
		if got := Stem(in); got != want {
			t.Errorf("Stem(%q) = %q, want %q", in, got, want)
		}
	}
}
