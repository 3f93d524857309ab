package scene

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"snowtools/levelset/limittest"
)

// hostileScenes are scene texts that made the TOML parser grow without bound on
// main (issue 24, finding 4), each with the error Read must give now.
var hostileScenes = []struct {
	name, text, want string
}{
	{"table header of 100,000 dotted parts",
		"[" + strings.Repeat("a.", 99_999) + "a]\n",
		"line 1: a dotted key of more than 32 parts"},
	{"key of 100,000 dotted parts",
		"[domain]\n" + strings.Repeat("b.", 99_999) + "b = 1\n",
		"line 2: a dotted key of more than 32 parts"},
	{"inline tables nested 100,000 deep",
		"x = " + strings.Repeat("{a = ", 100_000) + "1" + strings.Repeat("}", 100_000) + "\n",
		"line 1: arrays, tables or inline tables nested more than 64 deep"},
	{"arrays nested 100,000 deep",
		"[time]\n\nx = " + strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000) + "\n",
		"line 3: arrays, tables or inline tables nested more than 64 deep"},
	{"17 MiB of comments",
		strings.Repeat("# snow\n", 17<<20/7),
		"more than 16777216 bytes: too large for a scene file"},
}

// TestHostileScenes: each text fails at once with its line and in bounded memory,
// through Read and through Override (which parses the text first when -set is
// given, and leaves the error to Read).
func TestHostileScenes(t *testing.T) {
	for _, tt := range hostileScenes {
		t.Run(tt.name, func(t *testing.T) {
			res := limittest.Run(t, limittest.Default, func() error {
				text, err := Override([]byte(tt.text), []string{"time.frames=2"})
				if err != nil {
					return err
				}
				_, err = Read("hostile.toml", bytes.NewReader(text), 1)
				return err
			})
			if want := "hostile.toml: " + tt.want; res.Output != want {
				t.Errorf("error %q, want %q", res.Output, want)
			}
		})
	}
}

// TestCheckTextAcceptsScenes: every example scene passes the pre-scan, and so do
// strings, quoted keys and comments full of dots and brackets, numbers and times
// (one dot each), and nesting and dotted keys at the limits.
func TestCheckTextAcceptsScenes(t *testing.T) {
	files, _ := filepath.Glob("../../../examples/*.toml")
	if len(files) == 0 {
		t.Fatal("no examples/*.toml")
	}
	for _, name := range files {
		text, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if err := checkText(text); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	dots := strings.Repeat(".", 100)
	brackets := strings.Repeat("[{", 100)
	atLimit := strings.Repeat("[", MaxNesting) + strings.Repeat("]", MaxNesting)
	key := strings.Repeat("k.", MaxKeyParts-1) + "k"
	for _, text := range []string{
		`pattern = "` + dots + brackets + `"`,
		`pattern = '` + dots + brackets + `'`,
		`a = "\"` + dots + `\\"` + "\n" + `b = 1.5`,
		"a = \"\"\"\n" + dots + brackets + "\n\"\"\"\"\"\nb = '''" + dots + "\n'''",
		`"` + dots + `".'` + dots + `' = 1`,
		"# " + dots + brackets + "\nx = [1.5, 2.5e-3, 3.25, -0.5]",
		"t = 1979-05-27T07:32:00.999999Z",
		"x = " + atLimit,
		key + " = 1",
		"[" + key + "]",
	} {
		if err := checkText([]byte(text)); err != nil {
			t.Errorf("%q: %v", text, err)
		}
	}
	for _, text := range []string{"x = [" + atLimit + "]", key + ".k = 1"} {
		if err := checkText([]byte(text)); err == nil {
			t.Errorf("%.40q... past a limit: no error", text)
		}
	}
}

// TestReadFileRefusesSpecialFiles: `snowsim /dev/zero` read forever on main; the
// scene loader's ReadFile refuses a device, a FIFO (which would block) and a file
// over MaxFileSize (by its size) at once, naming each.
func TestReadFileRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "scene.toml")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.toml")
	if err := os.WriteFile(big, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, MaxFileSize+1); err != nil {
		t.Fatal(err)
	}
	cases := map[string]string{
		"/dev/zero": "/dev/zero is a character device, not a regular file",
		fifo:        fifo + " is a named pipe (FIFO), not a regular file",
		big:         big + " is 16777217 bytes, more than the limit of 16777216",
	}
	for path, want := range cases {
		done := make(chan error, 1)
		go func() { _, err := ReadFile(path); done <- err }()
		select {
		case err := <-done:
			if err == nil || err.Error() != want {
				t.Errorf("%s: error %v, want %q", path, err, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: ReadFile still running after 10 s", path)
		}
	}
}
