package geom

// Axes says how a file's coordinates map onto the tools' own: right-handed, Y up,
// metres. Many DCC exports are Z up (Blender's STL by default, 3ds Max) and
// some scenes are in centimetres.
type Axes struct {
	// ZUp marks a file whose up axis is Z: its (x, y, z) is the tools' (x, z, -y),
	// the turn of -90 degrees about X that a Y-up exporter applies. Handedness and
	// so winding are kept.
	ZUp bool
	// Scale multiplies lengths into metres (0.01 for centimetres); 0 means 1.
	Scale float64
}

// Identity reports whether a leaves coordinates as they are.
func (a Axes) Identity() bool { return !a.ZUp && (a.Scale == 0 || a.Scale == 1) }

// Point maps a file's point into the tools' frame.
func (a Axes) Point(p Vec3) Vec3 {
	if a.ZUp {
		p = Vec3{p[0], p[2], -p[1]}
	}
	if a.Scale != 0 {
		p = p.Scale(a.Scale)
	}
	return p
}

// Direction maps a file's direction (a normal) into the tools' frame: the turn
// alone, no scale.
func (a Axes) Direction(v Vec3) Vec3 {
	if a.ZUp {
		v = Vec3{v[0], v[2], -v[1]}
	}
	return v
}

// Inverse returns the map from the tools' frame back into the file's, for writing.
func (a Axes) Inverse() func(Vec3) Vec3 {
	return func(p Vec3) Vec3 {
		if a.Scale != 0 {
			p = p.Scale(1 / a.Scale)
		}
		if a.ZUp {
			p = Vec3{p[0], -p[2], p[1]}
		}
		return p
	}
}

// InverseDirection is Inverse for directions: the turn back alone.
func (a Axes) InverseDirection(v Vec3) Vec3 {
	if a.ZUp {
		v = Vec3{v[0], -v[2], v[1]}
	}
	return v
}

// Apply maps m's positions and velocities into the tools' frame, in place.
func (a Axes) Apply(m *Mesh) {
	if a.Identity() {
		return
	}
	for i, p := range m.Positions {
		m.Positions[i] = a.Point(p)
	}
	for i, v := range m.Velocities {
		m.Velocities[i] = a.Point(v)
	}
}

// Written returns m in the file's frame, for writing: m itself when a is the
// identity, else a copy that shares m's triangles, its positions and velocities
// mapped by Inverse.
func (a Axes) Written(m *Mesh) *Mesh {
	if m == nil || a.Identity() {
		return m
	}
	back := a.Inverse()
	out := *m
	out.Positions = make([]Vec3, len(m.Positions))
	for i, p := range m.Positions {
		out.Positions[i] = back(p)
	}
	if m.Velocities != nil {
		out.Velocities = make([]Vec3, len(m.Velocities))
		for i, v := range m.Velocities {
			out.Velocities[i] = back(v)
		}
	}
	return &out
}
