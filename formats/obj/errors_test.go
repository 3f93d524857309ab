package obj

import (
	"errors"
	"strings"
	"testing"
	"testing/iotest"
)

func TestErrors(t *testing.T) {
	tri := "v 0 0 0\nv 1 0 0\nv 0 1 0\n"
	cases := []struct {
		src  string
		line int
		want string
	}{
		{tri + "f 0 1 2\n", 4, "index 0"},
		{tri + "f 1 2 4\n", 4, "index 4 is out of range: the file has 3 vertices"},
		{"f 1 2 3\n" + tri + "f 1 2 3 4 5\nv 1 1 1\n", 5, "index 5 is out of range: the file has 4 vertices"},
		{"f 1 2 9\nf 1 2 3\nf 1 2 8\n" + tri, 1, "index 9 is out of range"}, // the first bad face is named
		{tri + "f 1 2 99999999999\n", 4, "more than a 32-bit index"},
		{tri + "f 1 2 99999999999999999999\n", 4, "out of range"},
		{tri + "f -1 -2 -4\n", 4, "before the first vertex"},
		{"f -1 -2 -3\n" + tri, 1, "before the first vertex"},
		{tri + "f 1 2 x\n", 4, `face vertex "x" is not an index`},
		{tri + "f 1 2 /3\n", 4, "is not an index"},
		{tri + "f 1 2 3.0\n", 4, "is not an index"},
		{tri + "f 1 2\n", 4, "face has 2 vertices, needs at least 3"},
		{tri + "f\n", 4, "face has 0 vertices"},
		{"v 0 0\n", 1, "vertex has 2 coordinates, needs 3"},
		{"v\n", 1, "vertex has 0 coordinates"},
		{"v 1 2 z\n", 1, `coordinate "z" is not a number`},
		{"v 1 2 3,5\n", 1, `coordinate "3,5" is not a number`},
		{"v 1 nan 3\n", 1, "not finite"},
		{"v 1 NaN 3\n", 1, "not finite"},
		{"v inf 2 3\n", 1, "not finite"},
		{"v 1 2 -Infinity\n", 1, "not finite"},
		{"v 1e400 2 3\n", 1, "too large"},
		{"v 1 2 " + strings.Repeat("9", 100) + "x\n", 1, `"... is not a number`}, // long garbage is shortened
		{tri, 0, "no faces (3 vertices)"},
		{"", 0, "no faces (0 vertices)"},
		{"# nothing\n\n", 0, "no faces"},
		{"v 0 0 0\n" + strings.Repeat("x", MaxLineLength+10), 2, "longer than 16 MiB"},
		{"v 0 0 0\n" + strings.Repeat("f 1 1 1 \\\n", MaxLineLength/8), 2, "longer than 16 MiB"},
	}
	for _, c := range cases {
		e := readError(t, c.src)
		if e.Line != c.line || !strings.Contains(e.Error(), c.want) {
			t.Errorf("%.40q: error %q on line %d, want %q on line %d", c.src, e, e.Line, c.want, c.line)
		}
	}
}

func TestErrorFormat(t *testing.T) {
	if s := (&FormatError{Line: 12, Msg: "bad"}).Error(); s != "obj: line 12: bad" {
		t.Error(s)
	}
	if s := (&FormatError{Msg: "no faces"}).Error(); s != "obj: no faces" {
		t.Error(s)
	}
}

func TestReadFailure(t *testing.T) {
	boom := errors.New("disk on fire")
	r := iotest.TimeoutReader(strings.NewReader("v 0 0 0\nv 1 0 0\n")) // second read fails
	_, err := Read(r)
	if err == nil || !errors.Is(err, iotest.ErrTimeout) || !strings.HasPrefix(err.Error(), "obj: reading line") {
		t.Errorf("error %v", err)
	}
	_, err = Read(iotest.ErrReader(boom))
	if !errors.Is(err, boom) {
		t.Errorf("error %v does not wrap %v", err, boom)
	}
	var fe *FormatError
	if errors.As(err, &fe) {
		t.Errorf("I/O error %v reported as a format error", err)
	}
}
