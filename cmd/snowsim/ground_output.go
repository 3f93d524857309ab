package main

import (
	"encoding/binary"
	"io"
	"math"

	"snowtools/formats/heightpng"
	"snowtools/formats/obj"
	"snowtools/formats/ply"
	"snowtools/formats/prt"
	"snowtools/levelset/geom"
	"snowtools/simcore/heightfield"
)

// The files of a ground scene, per frame: the spray as PRT, the ground as a mesh
// (PLY or OBJ) and as a 16-bit PNG height map.

// groundMesh returns the part of the ground the scene writes: the whole virtual
// grid, or only the columns the simulation created.
func groundMesh(g *GroundScene, f *heightfield.Field) *geom.Mesh {
	if g.Touched {
		return f.Mesh()
	}
	return f.GridMesh(g.Config.Extent)
}

// writeMeshPLY writes m (nil: no vertex and no face) as a binary little-endian PLY
// with float x y z vertices and uchar-int vertex_indices faces, the names Blender
// and Krakatoa read.
func writeMeshPLY(w io.Writer, m *geom.Mesh) error {
	if m == nil {
		m = &geom.Mesh{}
	}
	h := ply.Header{Format: ply.BinaryLittleEndian, Comments: []string{"snowsim ground, metres, Y up"},
		Elements: []ply.Element{
			{Name: "vertex", Count: int64(len(m.Positions)), Properties: []ply.Property{
				ply.Scalar("x", ply.Float), ply.Scalar("y", ply.Float), ply.Scalar("z", ply.Float)}},
			{Name: "face", Count: int64(len(m.Triangles)), Properties: []ply.Property{
				ply.List("vertex_indices", ply.Uchar, ply.Int)}},
		}}
	pw, err := ply.NewWriter(w, h)
	if err != nil {
		return err
	}
	const chunk = 4096
	buf := make([]byte, 0, chunk*13)
	for lo := 0; lo < len(m.Positions); lo += chunk {
		buf = buf[:0]
		for _, p := range m.Positions[lo:min(lo+chunk, len(m.Positions))] {
			for _, v := range p {
				buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(float32(v)))
			}
		}
		if err := pw.WriteRecords(buf); err != nil {
			return err
		}
	}
	for lo := 0; lo < len(m.Triangles); lo += chunk {
		buf = buf[:0]
		for _, t := range m.Triangles[lo:min(lo+chunk, len(m.Triangles))] {
			buf = append(buf, 3)
			for _, v := range t {
				buf = binary.LittleEndian.AppendUint32(buf, uint32(v))
			}
		}
		if err := pw.WriteRecords(buf); err != nil {
			return err
		}
	}
	return pw.Close()
}

// writeMeshOBJ writes m as OBJ (nil: an empty file with the header comment).
func writeMeshOBJ(w io.Writer, m *geom.Mesh) error {
	if m == nil {
		_, err := io.WriteString(w, "# snowtools: no ground stored yet\n")
		return err
	}
	return obj.Write(w, m)
}

// writeHeightMap writes the heights of the columns in r as a 16-bit PNG height map
// over [low, high], with its mapping to the world.
func writeHeightMap(w io.Writer, g *GroundScene, f *heightfield.Field, r heightfield.Rect) error {
	m := &heightpng.Map{Width: r.I1 - r.I0, Height: r.J1 - r.J0, Cell: g.Config.Cell,
		OriginX: g.Config.X(r.I0), OriginZ: g.Config.Z(r.J0)}
	if err := m.Quantize(f.Heights(r), g.Low, g.High); err != nil {
		return err
	}
	return heightpng.Write(w, m)
}

// writeSpray writes the airborne spray as one PRT frame: Position, Velocity and ID,
// with the grid's cell as GridSpacing.
func writeSpray(w io.Writer, p *heightfield.Particles, info frameInfo) error {
	n := p.Len()
	var bounds [6]float32
	if n > 0 {
		lo, hi := p.Pos[0], p.Pos[0]
		for _, x := range p.Pos {
			lo, hi = lo.Min(x), hi.Max(x)
		}
		bounds = [6]float32{float32(lo[0]), float32(lo[1]), float32(lo[2]), float32(hi[0]), float32(hi[1]), float32(hi[2])}
	}
	var h prt.Header
	position := h.AddChannel("Position", prt.Float32, 3)
	velocity := h.AddChannel("Velocity", prt.Float32, 3)
	id := h.AddChannel("ID", prt.Int64, 1)
	h.Count = int64(n)
	h.Meta = frameMeta(info, bounds)
	pw, err := prt.NewWriter(w, h)
	if err != nil {
		return err
	}
	rec := make([]byte, h.ParticleSize())
	for i := range n {
		x, v := p.Pos[i], p.Vel[i]
		position.PutFloat32s(rec, float32(x[0]), float32(x[1]), float32(x[2]))
		velocity.PutFloat32s(rec, float32(v[0]), float32(v[1]), float32(v[2]))
		id.PutInt64s(rec, int64(p.ID[i]))
		if err := pw.WriteParticle(rec); err != nil {
			return err
		}
	}
	return pw.Close()
}
