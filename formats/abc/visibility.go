package abc

// Visibility is an object's "visible" property: a scalar int8 in its top compound,
// -1 deferred (as its parent), 0 hidden, 1 visible. An object without it is deferred.
type Visibility int8

const (
	VisibilityDeferred Visibility = -1
	VisibilityHidden   Visibility = 0
	VisibilityVisible  Visibility = 1
)

const visibilityProperty = "visible"

// Visibility returns the object's own visibility at time t (nearest sample).
func (o *Object) Visibility(t float64) (Visibility, error) {
	props, err := o.Properties()
	if err != nil {
		return VisibilityDeferred, err
	}
	if !props.Has(visibilityProperty) {
		return VisibilityDeferred, nil
	}
	p, err := props.Property(visibilityProperty)
	if err != nil {
		return VisibilityDeferred, err
	}
	if p.Header.Kind != ScalarProperty || (p.Header.DataType != DataType{POD: Int8, Extent: 1}) {
		return VisibilityDeferred, formatError(-1, p.Path, "visibility is a "+p.Header.Kind.String()+" of "+p.Header.DataType.String()+", not a scalar int8")
	}
	if p.NumSamples() == 0 {
		return VisibilityDeferred, nil
	}
	s, err := p.Read(p.TimeSampling.NearIndex(t, p.NumSamples()), nil)
	if err != nil {
		return VisibilityDeferred, err
	}
	switch v := Visibility(int8(s.Data[0])); v {
	case VisibilityHidden, VisibilityVisible:
		return v, nil
	default:
		return VisibilityDeferred, nil
	}
}

// IsVisible reports whether the object is visible at time t: its own visibility, or
// when deferred its parent's, up to the top, which is visible.
func (o *Object) IsVisible(t float64) (bool, error) {
	for p := o; p != nil; p = p.Parent {
		v, err := p.Visibility(t)
		if err != nil {
			return false, err
		}
		if v != VisibilityDeferred {
			return v == VisibilityVisible, nil
		}
	}
	return true, nil
}
