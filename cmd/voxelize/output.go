package main

import (
	"snowtools/formats/vdb"
	"snowtools/levelset/voxelize"
)

// frameMeta is what a collider file says about where it comes from.
type frameMeta struct {
	frame  int
	time   float64 // seconds
	fps    float64
	source string
	band   int // half-width in voxels
}

// colliderFile lays a collider out as the VDB file snowsim reads: a level set
// "surface", a velocity grid (m/s, OpenVDB's vector type for velocities) and a
// normal grid, with the frame's metadata on the file.
func colliderFile(c *voxelize.Volumes, m frameMeta) *vdb.File {
	sign := "pseudonormal"
	if c.Sign == voxelize.SignWinding {
		sign = "winding number"
	}
	return &vdb.File{
		Meta: vdb.Metadata{
			"frame":           int32(m.frame),
			"time":            m.time,
			"fps":             m.fps,
			"source":          m.source,
			"band_half_width": int32(m.band),
			"sign":            sign,
		},
		Grids: []*vdb.Grid{
			{Name: "surface", Class: vdb.LevelSet, Float: c.Surface},
			{Name: "velocity", VectorType: "contravariant relative", Vec3: c.Velocity},
			{Name: "normal", VectorType: "covariant normalize", Vec3: c.Normal},
		},
	}
}
