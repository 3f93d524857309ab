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

// visibilityCache is an object's "visible" property, opened once, and the value of
// the stored sample it last read: objects under one parent ask for the parent's
// visibility at the same time, and read the file once.
type visibilityCache struct {
	prop      *Property // nil when the object has none
	err       error     // why the property could not be opened
	lastIndex int       // stored sample of lastValue, -1 for none
	lastValue Visibility
}

// visibilityOf opens the object's "visible" property on the first call.
func (o *Object) visibilityOf() *visibilityCache {
	if o.visibility == nil {
		o.visibility = &visibilityCache{lastIndex: -1}
		o.visibility.prop, o.visibility.err = o.openVisibility()
	}
	return o.visibility
}

// openVisibility opens the object's "visible" property, or returns nil when it has
// none.
func (o *Object) openVisibility() (*Property, error) {
	props, err := o.Properties()
	if err != nil {
		return nil, err
	}
	if !props.Has(visibilityProperty) {
		return nil, nil
	}
	p, err := props.Property(visibilityProperty)
	if err != nil {
		return nil, err
	}
	if p.Header.Kind != ScalarProperty || (p.Header.DataType != DataType{POD: Int8, Extent: 1}) {
		return nil, formatError(-1, p.Path, "visibility is a "+p.Header.Kind.String()+" of "+p.Header.DataType.String()+", not a scalar int8")
	}
	return p, nil
}

// Visibility returns the object's own visibility at time t (nearest sample).
func (o *Object) Visibility(t float64) (Visibility, error) {
	c := o.visibilityOf()
	if c.err != nil {
		return VisibilityDeferred, c.err
	}
	p := c.prop
	if p == nil || p.NumSamples() == 0 {
		return VisibilityDeferred, nil
	}
	i := p.TimeSampling.NearIndex(t, p.NumSamples())
	if stored := storedIndexOf(p, i); stored == c.lastIndex {
		return c.lastValue, nil
	}
	s, err := p.Read(i, nil)
	if err != nil {
		return VisibilityDeferred, err
	}
	v := Visibility(int8(s.Data[0]))
	if v != VisibilityHidden && v != VisibilityVisible {
		v = VisibilityDeferred
	}
	c.lastIndex, c.lastValue = storedIndexOf(p, i), v
	return v, nil
}

// IsVisible reports whether the object is visible at time t: its own visibility, or
// when deferred its parent's, up to the top, which is visible. To ask about many
// objects at one time, use one Pose.
func (o *Object) IsVisible(t float64) (bool, error) { return NewPose(t).IsVisible(o) }
