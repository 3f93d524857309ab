package heightfield

import (
	"math"
	"testing"
)

func TestPresetsAreTable1(t *testing.T) {
	// Table 1 of the paper: liquidity, roughness, inside slope, outside slope, compression.
	table := map[string][5]float64{
		"sand": {0.8, 0.2, 0.8, 0.436, 0.3},
		"mud":  {1.1, 0.2, 1.57, 1.1, 0.41},
		"snow": {1.57, 0.2, 1.57, 1.57, 0.0},
	}
	for name, want := range table {
		m, err := Preset(name)
		if err != nil {
			t.Fatal(err)
		}
		got := [5]float64{m.Liquidity, m.Roughness, m.InsideSlope, m.OutsideSlope, m.Compression}
		if got != want {
			t.Errorf("%s: %v, want %v", name, got, want)
		}
		if err := m.Validate(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := Preset("gravel"); err == nil {
		t.Error("unknown preset accepted")
	}
}

func TestMaterialValidate(t *testing.T) {
	bad := []Material{
		{Liquidity: 0, Roughness: 0.2, InsideSlope: 1, OutsideSlope: 1, Compression: 0.3},
		{Liquidity: 1, Roughness: 0, InsideSlope: 1, OutsideSlope: 1, Compression: 0.3},
		{Liquidity: 1, Roughness: 0.2, InsideSlope: 2, OutsideSlope: 1, Compression: 0.3},
		{Liquidity: 1, Roughness: 0.2, InsideSlope: 1, OutsideSlope: math.NaN(), Compression: 0.3},
		{Liquidity: 1, Roughness: 0.2, InsideSlope: 1, OutsideSlope: 1, Compression: 1.5},
	}
	for _, m := range bad {
		if m.Validate() == nil {
			t.Errorf("%+v accepted", m)
		}
	}
}

func TestSteepness(t *testing.T) {
	if got := steepness(math.Pi / 4); math.Abs(got-1) > 1e-15 {
		t.Errorf("tan(pi/4) = %g", got)
	}
	// The paper's 1.57 means vertical: no slope test ever fires.
	if got := steepness(1.57); !math.IsInf(got, 1) {
		t.Errorf("steepness(1.57) = %g, want +Inf", got)
	}
}
