package budget

import (
	"errors"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for in, want := range map[string]int64{
		"512M": 512 << 20, "8G": 8 << 30, "1.5g": 3 << 29, "2GiB": 2 << 30, "2GB": 2 << 30,
		"1048576": 1 << 20, "1024k": 1 << 20, "1T": 1 << 40,
	} {
		if got, err := Parse(in); err != nil || got != want {
			t.Errorf("Parse(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "G", "-1G", "0", "nan", "inf", "1e30T", "8 apples", "4", "100", "64k"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q): no error", bad)
		}
	}
}

func TestCheck(t *testing.T) {
	b := Budget{Bytes: 1 << 30, Source: "-memory 1G"}
	if err := b.Check("1e6 particles", 1<<30); err != nil {
		t.Errorf("at the budget: %v", err)
	}
	err := b.Check("5.8e+07 particles", 12<<30)
	var e *ExceededError
	if !errors.As(err, &e) || e.Need != 12<<30 {
		t.Fatalf("over the budget: %v", err)
	}
	for _, want := range []string{"5.8e+07 particles", "12 GiB", "1 GiB", "-memory 1G"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q does not say %q", err, want)
		}
	}
}

func TestDefault(t *testing.T) {
	d := Default()
	if d.Bytes <= 0 || d.Source == "" {
		t.Fatalf("Default() = %+v", d)
	}
	t.Logf("default budget: %s (%s)", Format(d.Bytes), d.Source)
}
