package main

import (
	"fmt"

	"snowtools/simcore"
)

// The keys of pressure sintering (Ye and Sugimoto) and of its experiment: a material's
// sintering law, the window in which snow sinters, presses, and gravity that starts
// late so that snow can be pressed in the air and then dropped.

// sinteringLawKeys is a [materials.NAME.sintering] table; absent keys keep
// simcore.DefaultSinteringLaw's values, so an empty table turns sintering on.
type sinteringLawKeys struct {
	RhoMax *float64 `toml:"rho_max"`
	C1     *float64 `toml:"C1"`
	C2     *float64 `toml:"C2"`
	C3     *float64 `toml:"C3"`
	C4     *float64 `toml:"C4"`
	C5     *float64 `toml:"C5"`
}

// law returns the law the keys describe.
func (k *sinteringLawKeys) law() *simcore.SinteringLaw {
	l := simcore.DefaultSinteringLaw
	setFloat(&l.MaxDensity, k.RhoMax)
	setFloat(&l.C1, k.C1)
	setFloat(&l.C2, k.C2)
	setFloat(&l.C3, k.C3)
	setFloat(&l.C4, k.C4)
	setFloat(&l.C5, k.C5)
	return &l
}

// windowKeys is a time window in seconds; an absent or zero end leaves it open.
type windowKeys struct {
	Start *float64 `toml:"start"`
	End   *float64 `toml:"end"`
}

// set copies the keys that are present.
func (w windowKeys) set(start, end *float64) {
	setFloat(start, w.Start)
	setFloat(end, w.End)
}

// pressKeys is a [[press]]: an external force field that squeezes snow towards a
// centre, or towards a plane with an axis (simcore.Press).
type pressKeys struct {
	windowKeys
	Center   *[3]float64 `toml:"center"`
	Axis     *[3]float64 `toml:"axis"`
	Radius   *float64    `toml:"radius"`
	Pressure *float64    `toml:"pressure"`
}

// press returns the press the keys describe; key names it in errors.
func (k *pressKeys) press(key string) (simcore.Press, error) {
	var p simcore.Press
	switch {
	case k.Center == nil:
		return p, fmt.Errorf("%s.center: required", key)
	case k.Radius == nil:
		return p, fmt.Errorf("%s.radius: required", key)
	case k.Pressure == nil:
		return p, fmt.Errorf("%s.pressure: required (Pa)", key)
	}
	p.Center, p.Radius, p.Pressure = *k.Center, *k.Radius, *k.Pressure
	if k.Axis != nil {
		if *k.Axis == ([3]float64{}) {
			return p, fmt.Errorf("%s.axis: must not be zero (leave it out to press towards the centre)", key)
		}
		p.Axis = *k.Axis
	}
	k.set(&p.Start, &p.End)
	if err := p.Validate(); err != nil {
		return p, fmt.Errorf("%s: %v", key, err)
	}
	return p, nil
}
