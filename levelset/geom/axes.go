package geom

// Axes says how a file's coordinates map onto the tools' own: right-handed, Y up,
// metres. Many DCC exports are Z up (Blender's STL and OBJ by default, 3ds Max) and
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
