package scene

import (
	"maps"
	"slices"

	"snowtools/simcore"
)

// materials returns the presets and the scene's [materials] tables, by name; simcore
// validates each.
func materials(tables map[string]materialKeys) (map[string]simcore.Material, error) {
	ms := map[string]simcore.Material{}
	for _, name := range simcore.PresetNames() {
		ms[name], _ = simcore.Preset(name)
	}
	// In order of name, so that of two bad materials the same one is reported.
	for _, name := range slices.Sorted(maps.Keys(tables)) {
		m, err := material(tables[name], "materials."+name)
		if err != nil {
			return nil, err
		}
		ms[name] = m
	}
	return ms, nil
}

// material loads one [materials.NAME] table; key is its key.
func material(k materialKeys, key string) (simcore.Material, error) {
	m := simcore.DefaultMaterial
	if k.Preset != nil {
		var err error
		if m, err = simcore.Preset(*k.Preset); err != nil {
			return m, keyError(key+".preset", "%v", err)
		}
	}
	set(&m.CriticalCompression, k.ThetaC)
	set(&m.CriticalStretch, k.ThetaS)
	set(&m.Hardening, k.Xi)
	set(&m.Density, k.Rho0)
	set(&m.YoungsModulus, k.E0)
	set(&m.PoissonRatio, k.Nu)
	if s := k.Sintering; s != nil {
		law := simcore.DefaultSinteringLaw
		set(&law.MaxDensity, s.RhoMax)
		set(&law.C1, s.C1)
		set(&law.C2, s.C2)
		set(&law.C3, s.C3)
		set(&law.C4, s.C4)
		set(&law.C5, s.C5)
		m.Sintering = &law
	}
	return m, atKey(m.Validate(), under(key))
}
