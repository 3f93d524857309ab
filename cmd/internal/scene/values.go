package scene

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
)

// checkValues is the one place that every number of a scene passes through, between
// decode and load: it walks the decoded tables and refuses, naming the key, a float
// that is NaN or infinite (TOML writes them nan and inf, and a comparison such as
// "max > min" lets them through) and one outside the range that valueRanges gives its
// key. The loaders and the solvers' Validate then check what only they can see: how
// keys relate, and each setting's own domain (a radius > 0, a CFL in (0, 1]).
func checkValues(f *sceneFile) error {
	return walkValues(reflect.ValueOf(f).Elem(), "", "")
}

// A valueRange is what a scene key may hold beyond being finite: Min < value <= Max
// (Min <= value when MinIncluded), in Unit.
type valueRange struct {
	Min, Max    float64
	MinIncluded bool
	Unit        string
	Why         string // what lies beyond Max
}

// valueRanges are the keys whose absurd values are refused, by pattern: an array of
// tables' index is [], a table of named tables' name is *. The bounds are far beyond
// any snow a scene means, so that only a slip (a wrong unit, an extra digit) meets
// them: a value the solver could take but not resolve or survive, such as a press of
// 1e9 Pa that crushes snow past ice in microseconds, is refused before it runs.
var valueRanges = map[string]valueRange{
	"press[].pressure": {Min: 0, MinIncluded: true, Max: 1e8, Unit: "Pa",
		Why: "100 MPa, 1,000 atmospheres, crushes snow to ice at once"},
	"materials.*.E0": {Max: 1e12, Unit: "Pa",
		Why: "stiffer than diamond; ice is 9e9 Pa, Table 2's snow 1.4e5"},
	"materials.*.rho0": {Max: 1e4, Unit: "kg/m^3",
		Why: "ten times ice (917 kg/m^3)"},
	"materials.*.sintering.rho_max": {Max: 1e4, Unit: "kg/m^3",
		Why: "ten times ice (917 kg/m^3)"},
}

// walkValues checks the value v of the scene key key, whose valueRanges pattern is
// pattern, and every key below it.
func walkValues(v reflect.Value, key, pattern string) error {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return nil
		}
		return walkValues(v.Elem(), key, pattern)
	case reflect.Float64:
		return checkFloat(key, pattern, v.Float(), v.Float())
	case reflect.Array, reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Float64 { // a vector: the key names all of it
			for i := range v.Len() {
				if err := checkFloat(key, pattern, v.Index(i).Float(), v.Interface()); err != nil {
					return err
				}
			}
			return nil
		}
		for i := range v.Len() { // an array of tables: snow[2]
			if err := walkValues(v.Index(i), fmt.Sprintf("%s[%d]", key, i+1), pattern+"[]"); err != nil {
				return err
			}
		}
	case reflect.Map: // tables by name: materials.fresh
		names := v.MapKeys()
		slices.SortFunc(names, func(a, b reflect.Value) int { return strings.Compare(a.String(), b.String()) })
		for _, name := range names {
			if err := walkValues(v.MapIndex(name), join(key, name.String()), join(pattern, "*")); err != nil {
				return err
			}
		}
	case reflect.Struct:
		t := v.Type()
		for i := range t.NumField() {
			field := t.Field(i)
			name, _, _ := strings.Cut(field.Tag.Get("toml"), ",")
			fieldKey, fieldPattern := join(key, name), join(pattern, name)
			if field.Anonymous && name == "" { // keys shared by several tables, inline
				fieldKey, fieldPattern = key, pattern
			} else if !field.IsExported() || name == "" || name == "-" {
				continue
			}
			if err := walkValues(v.Field(i), fieldKey, fieldPattern); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkFloat checks x, the value or a component of the value shown, of key.
func checkFloat(key, pattern string, x float64, shown any) error {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return keyError(key, "%v: must be finite", shown)
	}
	r, ok := valueRanges[pattern]
	if !ok {
		return nil
	}
	low := x > r.Min || (r.MinIncluded && x == r.Min)
	if low && x <= r.Max {
		return nil
	}
	open := "("
	if r.MinIncluded {
		open = "["
	}
	why := ""
	if x > r.Max {
		why = " (" + r.Why + ")"
	}
	return keyError(key, "%g %s: must be in %s%g, %g] %s%s", x, r.Unit, open, r.Min, r.Max, r.Unit, why)
}

// join returns the dotted key of name in the table key.
func join(key, name string) string {
	if key == "" {
		return name
	}
	return key + "." + name
}
