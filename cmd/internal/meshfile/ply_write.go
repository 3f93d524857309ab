package meshfile

import (
	"encoding/binary"
	"io"
	"math"

	"snowtools/formats/ply"
	"snowtools/levelset/geom"
)

// WritePLY writes m (nil: no vertex and no face) as a binary little-endian PLY with
// float x y z vertices and uchar-int vertex_indices faces, the names Blender and
// Krakatoa read (and decodePLY). comments go into the header.
func WritePLY(w io.Writer, m *geom.Mesh, comments ...string) error {
	if m == nil {
		m = &geom.Mesh{}
	}
	h := ply.Header{Format: ply.BinaryLittleEndian, Comments: comments,
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
	// Records go out in chunks: one call per record costs more than the encoding.
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
