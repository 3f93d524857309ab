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
