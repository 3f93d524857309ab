package scene

import (
	"math"
	"reflect"
	"strings"
	"testing"
)

// fillScene sets every key of the scene tables under v, the key key: pointers
// allocated, one table in each array of tables and under each named table (named m),
// every float 1, except that the float key target is NaN. It returns the float keys.
func fillScene(v reflect.Value, key, target string) []string {
	switch v.Kind() {
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		return fillScene(v.Elem(), key, target)
	case reflect.Float64:
		v.SetFloat(1)
		if key == target {
			v.SetFloat(math.NaN())
		}
		return []string{key}
	case reflect.Array, reflect.Slice:
		if v.Kind() == reflect.Slice {
			v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		}
		if v.Type().Elem().Kind() == reflect.Float64 {
			for i := range v.Len() {
				fillScene(v.Index(i), key, target)
			}
			return []string{key}
		}
		return fillScene(v.Index(0), key+"[1]", target)
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
		elem := reflect.New(v.Type().Elem()).Elem()
		keys := fillScene(elem, join(key, "m"), target)
		v.SetMapIndex(reflect.ValueOf("m"), elem)
		return keys
	case reflect.Struct:
		var keys []string
		for i := range v.NumField() {
			f := v.Type().Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
			switch {
			case f.Anonymous && name == "":
				keys = append(keys, fillScene(v.Field(i), key, target)...)
			case f.IsExported() && name != "":
				keys = append(keys, fillScene(v.Field(i), join(key, name), target)...)
			}
		}
		return keys
	}
	return nil
}

// Every float key of the scene format, in every table, goes through checkValues: a
// scene with all keys set and one of them NaN is refused with that key's name. The
// keys come from the format's types, so that a key added later is covered too.
func TestEveryFloatKeyRefusesNaN(t *testing.T) {
	var all sceneFile
	keys := fillScene(reflect.ValueOf(&all).Elem(), "", "")
	if err := checkValues(&all); err != nil {
		t.Fatalf("every key 1: %v", err)
	}
	for _, key := range keys {
		var f sceneFile
		fillScene(reflect.ValueOf(&f).Elem(), "", key)
		err := checkValues(&f)
		if err == nil || !strings.HasPrefix(err.Error(), key+": ") || !strings.Contains(err.Error(), "NaN") {
			t.Errorf("%s = nan: %v, want an error naming the key", key, err)
		}
	}
	t.Logf("%d float keys", len(keys))
	if len(keys) < 60 {
		t.Errorf("found %d float keys: the walk misses tables", len(keys))
	}
}

// Scene files with non-finite or absurd values fail naming the key, through Read, as
// snowsim reads them (issue 24, finding 11).
func TestSceneRefusesNonFiniteAndAbsurdValues(t *testing.T) {
	const press = "[[press]]\ncenter = [0.5, 0.5, 0.5]\nradius = 0.2\n"
	for _, c := range []struct{ scene, want string }{
		{strings.Replace(minimalScene, "max = [1, 1, 1]", "max = [inf, 1, 1]", 1), "domain.max: [+Inf 1 1]: must be finite"},
		{strings.Replace(minimalScene, "h = 0.05", "h = nan", 1), "domain.h: NaN: must be finite"},
		{strings.Replace(minimalScene, "h = 0.05", "h = 0.05\nwall_friction = inf", 1), "domain.wall_friction: +Inf: must be finite"},
		{minimalScene + "[time]\nmax_dt = inf\n", "time.max_dt: +Inf: must be finite"},
		{minimalScene + "[solver]\ngravity = [0, -inf, 0]\n", "solver.gravity: [0 -Inf 0]: must be finite"},
		{minimalScene + press + "pressure = 1e9\n", "press[1].pressure: 1e+09 Pa: must be in [0, 1e+08] Pa (100 MPa"},
		{minimalScene + press + "pressure = -1\n", "press[1].pressure: -1 Pa: must be in [0, 1e+08] Pa"},
		{minimalScene + press + "pressure = inf\n", "press[1].pressure: +Inf: must be finite"},
		{minimalScene + "[materials.m]\nE0 = 1e13\n", "materials.m.E0: 1e+13 Pa: must be in (0, 1e+12] Pa (stiffer than diamond"},
		{minimalScene + "[materials.m]\nrho0 = -400\n", "materials.m.rho0: -400 kg/m^3: must be in (0, 10000] kg/m^3"},
		{minimalScene + "[materials.m.sintering]\nrho_max = 1e5\n", "materials.m.sintering.rho_max: 100000 kg/m^3: must be in (0, 10000]"},
		{minimalScene + "[[collider]]\nshape = \"sphere\"\ncenter = [0, 0, 0]\nradius = 0.1\n[[collider]]\nshape = \"sphere\"\ncenter = [0, 0, nan]\nradius = 0.1\n",
			"collider[2].center: [0 0 NaN]: must be finite"},
		{minimalScene + "[[collider]]\nshape = \"sphere\"\ncenter = [0, 0, 0]\nradius = 0.1\n[[collider.key]]\ntime = inf\n",
			"collider[1].key[1].time: +Inf: must be finite"},
		{minimalScene + "[[snow]]\nshape = \"sphere\"\ncenter = [0.5, 0.5, 0.5]\nradius = 0.2\nspin = [0, -inf, 0]\n", "snow[2].spin: [0 -Inf 0]: must be finite"},
	} {
		_, err := Read("s.toml", strings.NewReader(c.scene), 1)
		if err == nil || !strings.Contains(err.Error(), "s.toml: "+c.want) {
			t.Errorf("error %v, want one naming %q", err, c.want)
		}
	}
}
