package meshfile

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"

	"snowtools/formats/ply"
	"snowtools/levelset/geom"
)

// WritePLY writes m (nil: no vertex and no face) as a binary little-endian PLY with
// float x y z vertices and uchar-int vertex_indices faces, the names Blender and
// Krakatoa read (and decodePLY), and float vx vy vz per vertex when m has velocities
// (m/s, for motion blur; the names export's point clouds use). comments go into the
// header.
func WritePLY(w io.Writer, m *geom.Mesh, comments ...string) error {
	if m == nil {
		m = &geom.Mesh{}
	}
	vertex := []ply.Property{ply.Scalar("x", ply.Float), ply.Scalar("y", ply.Float), ply.Scalar("z", ply.Float)}
	withVelocity := m.Velocities != nil
	if withVelocity {
		if len(m.Velocities) != len(m.Positions) {
			return fmt.Errorf("ply: %d velocities for %d vertices", len(m.Velocities), len(m.Positions))
		}
		vertex = append(vertex, ply.Scalar("vx", ply.Float), ply.Scalar("vy", ply.Float), ply.Scalar("vz", ply.Float))
	}
	h := ply.Header{Format: ply.BinaryLittleEndian, Comments: comments,
		Elements: []ply.Element{
			{Name: "vertex", Count: int64(len(m.Positions)), Properties: vertex},
			{Name: "face", Count: int64(len(m.Triangles)), Properties: []ply.Property{
				ply.List("vertex_indices", ply.Uchar, ply.Int)}},
		}}
	pw, err := ply.NewWriter(w, h)
	if err != nil {
		return err
	}
	// Records go out in chunks: one call per record costs more than the encoding.
	const chunk = 4096
	buf := make([]byte, 0, chunk*24)
	for lo := 0; lo < len(m.Positions); lo += chunk {
		buf = buf[:0]
		for i := lo; i < min(lo+chunk, len(m.Positions)); i++ {
			buf = appendFloat32s(buf, m.Positions[i])
			if withVelocity {
				buf = appendFloat32s(buf, m.Velocities[i])
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

// appendFloat32s appends v's components as little-endian float32s.
func appendFloat32s(buf []byte, v geom.Vec3) []byte {
	for _, x := range v {
		buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(float32(x)))
	}
	return buf
}
