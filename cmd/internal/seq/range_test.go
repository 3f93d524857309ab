package seq

import "testing"

func TestParseRange(t *testing.T) {
	for text, want := range map[string][2]int{"3-7": {3, 7}, "12": {12, 12}, "0-0": {0, 0}} {
		a, b, err := ParseRange(text)
		if err != nil || a != want[0] || b != want[1] {
			t.Errorf("ParseRange(%q) = %d, %d, %v; want %v", text, a, b, err, want)
		}
	}
	for _, bad := range []string{"", "7-3", "-2", "a-b", "1-", "1-2-3"} {
		if _, _, err := ParseRange(bad); err == nil {
			t.Errorf("ParseRange(%q) accepted", bad)
		}
	}
}
