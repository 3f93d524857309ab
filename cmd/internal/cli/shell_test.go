package cli

import (
	"os/exec"
	"strings"
	"testing"
)

// A quoted word comes back from a real shell as it was, whatever it holds; safe
// words are left bare and the rest single-quoted.
func TestShellQuote(t *testing.T) {
	words := []string{"plain", "/a/b.####.prt", "-set", "output.pattern=\"snow.####.prt\"", "two words",
		"it's", "'", "$HOME", "`id`", "a\\b", "*", "new\nline", "", "é", "x;y", "a|b", "~user"}
	for _, w := range words {
		q := ShellQuote(w)
		bare := q == w
		if safe := shellSafe.MatchString(w); bare != safe {
			t.Errorf("ShellQuote(%q) = %q: left bare %v, want %v", w, q, bare, safe)
		}
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh to read the words back")
	}
	// printf prints each argument followed by a NUL: the words as sh split them.
	out, err := exec.Command(sh, "-c", "printf '%s\\0' "+strings.Join(ShellQuoteAll(words), " ")).Output()
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	if len(got) != len(words) {
		t.Fatalf("sh read %d words, want %d: %q", len(got), len(words), got)
	}
	for i := range words {
		if got[i] != words[i] {
			t.Errorf("word %d: sh read %q, want %q (quoted %q)", i, got[i], words[i], ShellQuote(words[i]))
		}
	}
}
