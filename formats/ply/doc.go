// Package ply reads and writes PLY files (the Stanford polygon format,
// version 1.0) in its three encodings: ascii, binary_little_endian and
// binary_big_endian: for the export tool, snow frames as PLY point clouds
// to preview in DCCs and generic viewers; for the rest, any PLY a tool
// hands us, read strictly.
//
// A file is a text header, then the records of each declared element in
// turn (vertices, then faces, ...), each record holding the element's
// properties in declared order. The package hands records over in one
// layout whatever the encoding: the packed record of Element, which is a
// binary_little_endian record (scalars tightly packed, a list as its item
// count followed by its items, all little-endian). So code that builds or
// decodes records is the same for the three encodings, and ASCII files
// hold exactly the values of binary ones: floats are printed in the
// shortest form that reads back to the same bits.
//
// Writing a point cloud of snow particles:
//
//	h := ply.Header{
//		Format:   ply.BinaryLittleEndian,
//		Comments: []string{"snowtools export, frame 0012"},
//		Elements: []ply.Element{{
//			Name:  "vertex",
//			Count: int64(len(particles)),
//			Properties: []ply.Property{
//				ply.Scalar("x", ply.Float), ply.Scalar("y", ply.Float), ply.Scalar("z", ply.Float),
//				ply.Scalar("nx", ply.Float), ply.Scalar("ny", ply.Float), ply.Scalar("nz", ply.Float),
//				ply.Scalar("red", ply.Uchar), ply.Scalar("green", ply.Uchar), ply.Scalar("blue", ply.Uchar),
//				ply.Scalar("vx", ply.Float), ply.Scalar("vy", ply.Float), ply.Scalar("vz", ply.Float),
//			},
//		}},
//	}
//	w, err := ply.NewWriter(f, h)
//	rec := make([]byte, 0, h.Elements[0].RecordSize()) // 39 bytes
//	for _, p := range particles {
//		rec = rec[:0]
//		for _, v := range [...]float64{p.X, p.Y, p.Z, p.NX, p.NY, p.NZ} {
//			rec = ply.Float.AppendFloat(rec, v)
//		}
//		rec = append(rec, p.R, p.G, p.B)
//		for _, v := range [...]float64{p.VX, p.VY, p.VZ} {
//			rec = ply.Float.AppendFloat(rec, v)
//		}
//		err = w.WriteRecord(rec) // or build a block and call WriteRecords once
//	}
//	err = w.Close() // fails unless exactly Count records were written
//
// Reading it back, one record at a time:
//
//	r, err := ply.NewReader(f)
//	v, _ := r.Header().Element("vertex")
//	ox, ored := v.Offset("x"), v.Offset("red") // -1 if absent
//	rec := make([]byte, v.RecordSize())
//	for {
//		if err := r.ReadRecord(rec); err == io.EOF {
//			break
//		} else if err != nil {
//			return err
//		}
//		x := ply.Float.Float64(rec[ox:])
//		red := rec[ored]
//		...
//	}
//
// or the whole file with ReadAll. Faces are a list property, declared as
// ply.List("vertex_indices", ply.Uchar, ply.Int), written as records built
// with Uchar.AppendInt (the count) and Int.AppendInt (the indices), and
// read with AppendRecord and Element.Fields.
//
// Which consumer reads what (from specs/mesh-inputs-and-ply.md):
//
//   - Blender 3.4 (the python io_mesh_ply of Debian 12) reads x y z, and
//     red green blue [alpha] (uchar divided by 255, float as is) only as
//     face-corner colours, so they are dropped when there are no faces;
//     it ignores normals and every other property. Faces must be the list
//     "vertex_indices" (not "vertex_index"). It knows only the classic
//     type names (char uchar short ushort int uint float double), which is
//     why the writer never writes int8, float32 and the like. A
//     vertex-only file imports as loose vertices: fine as a preview.
//   - Krakatoa (thinkbox-library ply_reader) reads x y z as Position,
//     nx ny nz as Normal, red green blue as Color, always divided by 255,
//     so write colours as uchar, and u v t as TextureCoord. It reads no
//     velocity from PLY: give Krakatoa PRT (snowtools/formats/prt).
//   - Houdini is said to map x y z to P, nx ny nz to N, red green blue to
//     Cd and to keep other properties, such as vx vy vz, as point
//     attributes (unverified).
//   - Maya has no PLY importer; use PRT through Krakatoa for Maya.
//
// So a snow point cloud is x y z float, nx ny nz float, red green blue
// uchar and vx vy vz float: every consumer finds what it can use and a
// generic reader keeps the velocity as named properties.
//
// The header is strict: the first line is "ply", the second the format
// line with version 1.0, then only comment, obj_info, element and property
// lines up to end_header, element names unique, property names unique in
// their element, counts non-negative decimal integers, and at most
// MaxHeaderLines lines of MaxHeaderLineLength bytes, so that a file that is
// not PLY fails fast. Lines end in "\n" as the format says; "\r\n" is
// accepted too. See Reader for the body. Malformed input yields a
// *FormatError that names the header line, or the element and record and
// the line or byte offset at fault. The reader never sizes an allocation
// from a count in the header: a file that declares 10^12 vertices and ends
// after 100 bytes fails after allocating for what it holds.
package ply
