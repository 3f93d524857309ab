package seq

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseRange(t *testing.T) {
	for text, want := range map[string][2]int{"3-7": {3, 7}, "12": {12, 12}, "0-0": {0, 0}} {
		a, b, err := ParseRange(text)
		if err != nil || a != want[0] || b != want[1] {
			t.Errorf("ParseRange(%q) = %d, %d, %v; want %v", text, a, b, err, want)
		}
	}
	for _, bad := range []string{"", "7-3", "-2", "a-b", "1-", "1-2-3", "20,40"} {
		if _, _, err := ParseRange(bad); err == nil {
			t.Errorf("ParseRange(%q) accepted", bad)
		}
	}
}

func TestParseList(t *testing.T) {
	for text, want := range map[string][]Range{
		"20,40,60-80":   {{20, 20}, {40, 40}, {60, 80}},
		"5":             {{5, 5}},
		"0-100":         {{0, 100}},
		" 3 , 1-2 ,3 ":  {{3, 3}, {1, 2}, {3, 3}},
		"100-200,10-20": {{100, 200}, {10, 20}},
	} {
		got, err := ParseList(text)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("ParseList(%q) = %v, %v; want %v", text, got, err, want)
		}
	}
	for text, item := range map[string]string{
		"":         `""`,
		"20,,40":   `""`,
		"20,40,":   `""`,
		"20,x":     `"x"`,
		"20,80-60": `"80-60"`,
		"20;40":    `"20;40"`,
		"-5,10":    `"-5"`,
		"1-2-3,4":  `"1-2-3"`,
	} {
		_, err := ParseList(text)
		if err == nil || !strings.Contains(err.Error(), item) || !strings.Contains(err.Error(), "commas") {
			t.Errorf("ParseList(%q): error %v, want one naming %s", text, err, item)
		}
	}
}

func TestExpand(t *testing.T) {
	for _, c := range []struct {
		ranges []Range
		every  int
		want   []int
	}{
		{[]Range{{20, 20}, {40, 40}}, 0, []int{20, 40}},
		{[]Range{{3, 6}}, 1, []int{3, 4, 5, 6}},
		{[]Range{{0, 100}}, 25, []int{0, 25, 50, 75, 100}},
		{[]Range{{1, 100}}, 25, []int{1, 26, 51, 76}},                      // steps count from the range's start
		{[]Range{{60, 60}, {10, 30}, {20, 20}}, 10, []int{10, 20, 30, 60}}, // sorted, each once
		{[]Range{{5, 7}}, 100, []int{5}},
	} {
		got, err := Expand(c.ranges, c.every, 50)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("Expand(%v, %d) = %v, %v; want %v", c.ranges, c.every, got, err, c.want)
		}
	}
	// The limit counts before allocating: a huge range is refused at once.
	if _, err := Expand([]Range{{0, 1 << 60}}, 1, 50); err == nil || !strings.Contains(err.Error(), "more than 50") {
		t.Errorf("huge range: %v", err)
	}
	if _, err := Expand([]Range{{0, 99}}, 2, 50); err != nil {
		t.Errorf("exactly 50 frames: %v", err)
	}
	if _, err := Expand([]Range{{0, 9}, {0, 40}}, 1, 50); err == nil {
		t.Error("51 frames (counted with their repeats) accepted") // the count is an upper bound
	}
}

func TestSpread(t *testing.T) {
	seq := func(a, b int) []int {
		var s []int
		for f := a; f <= b; f++ {
			s = append(s, f)
		}
		return s
	}
	for _, c := range []struct {
		frames []int
		n      int
		want   []int
	}{
		{seq(1, 100), 6, []int{1, 21, 41, 60, 80, 100}},
		{seq(0, 10), 6, []int{0, 2, 4, 6, 8, 10}},
		{seq(1, 4), 6, []int{1, 2, 3, 4}},
		{[]int{2, 4, 8, 16, 32, 64, 128}, 3, []int{2, 16, 128}}, // by position, not by number
		{seq(1, 10), 2, []int{1, 10}},
		{seq(1, 10), 1, []int{1}},
		{nil, 6, nil},
	} {
		got := Spread(c.frames, c.n)
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("Spread(%v, %d) = %v, want %v", c.frames, c.n, got, c.want)
		}
	}
	frames := seq(1, 5)
	Spread(frames, 10)[0] = 99
	if frames[0] != 1 {
		t.Error("Spread returned its argument, not a copy")
	}
}
