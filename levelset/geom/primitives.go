package geom

import "math"

// BoxMesh returns the closed 12-triangle surface of the box [lo, hi], counter-clockwise
// from outside. Corner i has x from bit 0 of i, y from bit 1 and z from bit 2.
func BoxMesh(lo, hi Vec3) *Mesh {
	m := &Mesh{}
	for i := range 8 {
		p := lo
		for k := range 3 {
			if i&(1<<k) != 0 {
				p[k] = hi[k]
			}
		}
		m.Positions = append(m.Positions, p)
	}
	quads := [6][4]int32{
		{0, 2, 3, 1}, // z = lo
		{4, 5, 7, 6}, // z = hi
		{0, 1, 5, 4}, // y = lo
		{2, 6, 7, 3}, // y = hi
		{0, 4, 6, 2}, // x = lo
		{1, 3, 7, 5}, // x = hi
	}
	for _, q := range quads {
		m.Triangles = append(m.Triangles, [3]int32{q[0], q[1], q[2]}, [3]int32{q[0], q[2], q[3]})
	}
	return m
}

// SphereMesh returns a closed UV sphere of the given centre and radius, with rings
// bands of latitude (at least 2) and segments of longitude (at least 3), counter-
// clockwise from outside.
func SphereMesh(center Vec3, radius float64, rings, segments int) *Mesh {
	return OpenSphereMesh(center, radius, rings, segments, 0)
}

// OpenSphereMesh is SphereMesh without the first `removed` bands around the +Y pole: an
// open mesh with a circular hole whose rim is at polar angle pi removed/rings (the
// +Y pole vertex stays in Positions, unused, when removed > 0).
func OpenSphereMesh(center Vec3, radius float64, rings, segments, removed int) *Mesh {
	m := &Mesh{}
	vert := func(theta, phi float64) int32 {
		st, ct := math.Sincos(theta)
		sp, cp := math.Sincos(phi)
		m.Positions = append(m.Positions, center.Add(Vec3{st * cp, ct, st * sp}.Scale(radius)))
		return int32(len(m.Positions) - 1)
	}
	north := vert(0, 0)
	ring := make([][]int32, rings+1)
	for i := 1; i < rings; i++ {
		for j := range segments {
			ring[i] = append(ring[i], vert(math.Pi*float64(i)/float64(rings), 2*math.Pi*float64(j)/float64(segments)))
		}
	}
	south := vert(math.Pi, 0)
	add := func(a, b, c int32) {
		pa, pb, pc := m.Positions[a], m.Positions[b], m.Positions[c]
		n := pb.Sub(pa).Cross(pc.Sub(pa))
		if n.Dot(pa.Add(pb).Add(pc).Scale(1.0/3).Sub(center)) < 0 {
			b, c = c, b // outward normal: counter-clockwise from outside
		}
		m.Triangles = append(m.Triangles, [3]int32{a, b, c})
	}
	for i := removed; i < rings; i++ {
		for j := range segments {
			k := (j + 1) % segments
			switch {
			case i == 0:
				add(north, ring[1][j], ring[1][k])
			case i == rings-1:
				add(ring[i][j], south, ring[i][k])
			default:
				add(ring[i][j], ring[i+1][j], ring[i+1][k])
				add(ring[i][j], ring[i+1][k], ring[i][k])
			}
		}
	}
	return m
}

// CylinderMesh returns the closed surface of the capped cylinder c, counter-clockwise
// from outside: a ring of segments corners (at least 3) around each end, joined by
// two triangles a segment along the side and fanned from each end's centre across
// the caps. The rings are inscribed in the end circles, so the mesh encloses the
// prism of volume segments/2 sin(2 pi/segments) r^2 |B - A|, which is within
// 1 - sin(x)/x, x = 2 pi/segments, of the cylinder's pi r^2 |B - A|.
func CylinderMesh(c Cylinder, segments int) *Mesh {
	u := c.B.Sub(c.A).Unit()
	e1 := perpendicular(u)
	e2 := u.Cross(e1) // (e1, e2, u) is right-handed: angles grow counter-clockwise seen from B
	m := &Mesh{Positions: []Vec3{c.A, c.B}}
	for _, end := range []Vec3{c.A, c.B} {
		for j := range segments {
			s, co := math.Sincos(2 * math.Pi * float64(j) / float64(segments))
			m.Positions = append(m.Positions, end.Add(e1.Scale(co*c.Radius)).Add(e2.Scale(s*c.Radius)))
		}
	}
	ringA := func(j int) int32 { return int32(2 + j%segments) }
	ringB := func(j int) int32 { return int32(2 + segments + j%segments) }
	for j := range segments {
		// Counter-clockwise seen from B: j to j+1 turns about +u.
		m.Triangles = append(m.Triangles,
			[3]int32{ringA(j), ringA(j + 1), ringB(j + 1)}, // side, outward
			[3]int32{ringA(j), ringB(j + 1), ringB(j)},
			[3]int32{1, ringB(j), ringB(j + 1)}, // cap at B, facing +u
			[3]int32{0, ringA(j + 1), ringA(j)}, // cap at A, facing -u
		)
	}
	return m
}

// WithoutEvery returns m without its triangles n-1, 2n-1, 3n-1, ...: an open mesh with
// one-triangle holes spread over it (n = 50 leaves the 5,856-triangle spot mesh 117),
// sharing m's positions.
func (m *Mesh) WithoutEvery(n int) *Mesh {
	open := &Mesh{Positions: m.Positions}
	for t, tri := range m.Triangles {
		if (t+1)%n != 0 {
			open.Triangles = append(open.Triangles, tri)
		}
	}
	return open
}
