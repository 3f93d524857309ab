package scene

import (
	"errors"
	"math"

	"snowtools/levelset/geom"
)

// shapeNames lists the shapes a scene knows.
const shapeNames = `"plane", "box", "sphere", "cylinder", "mesh" or "vdb"`

// analytic turns the keys of an analytic shape (a sphere, box, plane or cylinder)
// into the shape and the box that bounds it (infinite for a plane); key is the
// body's key, as in snow[1].
func (k *shapeKeys) analytic(key string) (geom.Shape, geom.Box, error) {
	if err := k.meshKeysOnly(key); err != nil {
		return nil, geom.Box{}, err
	}
	switch k.Shape {
	case "sphere":
		return k.sphere(key)
	case "box":
		return k.box(key)
	case "plane":
		return k.plane(key)
	case "cylinder":
		return k.cylinder(key)
	case "":
		return nil, geom.Box{}, keyError(key+".shape", "required (%s)", shapeNames)
	}
	return nil, geom.Box{}, keyError(key+".shape", "%q is not one of %s", k.Shape, shapeNames)
}

// vector returns a vector key that the shape needs: absent or not finite, an error.
func (k *shapeKeys) vector(key, name string, v *geom.Vec3) (geom.Vec3, error) {
	switch {
	case v == nil:
		return geom.Vec3{}, keyError(key+"."+name, "required for shape %q", k.Shape)
	case !v.IsFinite():
		return geom.Vec3{}, keyError(key+"."+name, "%v must be finite", *v)
	}
	return *v, nil
}

// radius returns the radius key, which the shape needs.
func (k *shapeKeys) radius(key string) (float64, error) {
	switch {
	case k.Radius == nil:
		return 0, keyError(key+".radius", "required for shape %q", k.Shape)
	case !(*k.Radius > 0) || math.IsInf(*k.Radius, 0):
		return 0, keyError(key+".radius", "%g must be > 0", *k.Radius)
	}
	return *k.Radius, nil
}

func (k *shapeKeys) sphere(key string) (geom.Shape, geom.Box, error) {
	c, errC := k.vector(key, "center", k.Center)
	r, errR := k.radius(key)
	if err := errors.Join(errC, errR); err != nil {
		return nil, geom.Box{}, err
	}
	rr := geom.Vec3{r, r, r}
	return geom.Sphere{Center: c, Radius: r}, geom.Box{Min: c.Sub(rr), Max: c.Add(rr)}, nil
}

func (k *shapeKeys) box(key string) (geom.Shape, geom.Box, error) {
	lo, errLo := k.vector(key, "min", k.Min)
	hi, errHi := k.vector(key, "max", k.Max)
	if err := errors.Join(errLo, errHi); err != nil {
		return nil, geom.Box{}, err
	}
	b := geom.Box{Min: lo, Max: hi}
	for a := 0; a < 3; a++ {
		if !(hi[a] > lo[a]) {
			return nil, b, keyError(key+".max", "%v must exceed min %v on every axis", hi, lo)
		}
	}
	return b, b, nil
}

func (k *shapeKeys) plane(key string) (geom.Shape, geom.Box, error) {
	p, errP := k.vector(key, "point", k.Point)
	n, errN := k.vector(key, "normal", k.Normal)
	if err := errors.Join(errP, errN); err != nil {
		return nil, geom.Box{}, err
	}
	if n.Norm() == 0 {
		return nil, geom.Box{}, keyError(key+".normal", "must not be zero")
	}
	inf := math.Inf(1)
	return geom.HalfSpace{Point: p, Normal: n.Unit()},
		geom.Box{Min: geom.Vec3{-inf, -inf, -inf}, Max: geom.Vec3{inf, inf, inf}}, nil
}

func (k *shapeKeys) cylinder(key string) (geom.Shape, geom.Box, error) {
	a, errA := k.vector(key, "a", k.A)
	b, errB := k.vector(key, "b", k.B)
	r, errR := k.radius(key)
	if err := errors.Join(errA, errB, errR); err != nil {
		return nil, geom.Box{}, err
	}
	if a == b {
		return nil, geom.Box{}, keyError(key+".b", "the axis ends a and b must differ")
	}
	rr := geom.Vec3{r, r, r}
	return geom.Cylinder{A: a, B: b, Radius: r}, geom.Box{Min: a.Min(b).Sub(rr), Max: a.Max(b).Add(rr)}, nil
}
