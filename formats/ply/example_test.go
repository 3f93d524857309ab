package ply_test

import (
	"bytes"
	"fmt"
	"io"
	"log"

	"snowtools/formats/ply"
)

// A snow point cloud: positions, normals, colours and velocities, which
// Krakatoa reads (but the velocity), Blender reads as loose vertices, and
// a generic reader keeps whole.
func Example() {
	h := ply.Header{
		Format:   ply.ASCII, // or ply.BinaryLittleEndian: the records are the same
		Comments: []string{"snowtools export, frame 0012"},
		Elements: []ply.Element{{
			Name:  "vertex",
			Count: 2,
			Properties: []ply.Property{
				ply.Scalar("x", ply.Float), ply.Scalar("y", ply.Float), ply.Scalar("z", ply.Float),
				ply.Scalar("nx", ply.Float), ply.Scalar("ny", ply.Float), ply.Scalar("nz", ply.Float),
				ply.Scalar("red", ply.Uchar), ply.Scalar("green", ply.Uchar), ply.Scalar("blue", ply.Uchar),
				ply.Scalar("vx", ply.Float), ply.Scalar("vy", ply.Float), ply.Scalar("vz", ply.Float),
			},
		}},
	}
	var file bytes.Buffer
	w, err := ply.NewWriter(&file, h)
	if err != nil {
		log.Fatal(err)
	}
	rec := make([]byte, 0, h.Elements[0].RecordSize())
	for i := range 2 {
		rec = rec[:0]
		for _, v := range [...]float64{float64(i), 0.1, -2, 0, 1, 0} {
			rec = ply.Float.AppendFloat(rec, v)
		}
		rec = append(rec, 240, 245, 255)
		for _, v := range [...]float64{0, -9.81 * float64(i), 0} {
			rec = ply.Float.AppendFloat(rec, v)
		}
		if err := w.WriteRecord(rec); err != nil {
			log.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}
	fmt.Print(file.String())

	r, err := ply.NewReader(&file)
	if err != nil {
		log.Fatal(err)
	}
	v, _ := r.Header().Element("vertex")
	y, red, vy := v.Offset("y"), v.Offset("red"), v.Offset("vy")
	rec = make([]byte, v.RecordSize())
	for {
		if err := r.ReadRecord(rec); err == io.EOF {
			break
		} else if err != nil {
			log.Fatal(err)
		}
		fmt.Println(ply.Float.Float64(rec[y:]), rec[red], ply.Float.Float64(rec[vy:]))
	}
	// Output:
	// ply
	// format ascii 1.0
	// comment snowtools export, frame 0012
	// element vertex 2
	// property float x
	// property float y
	// property float z
	// property float nx
	// property float ny
	// property float nz
	// property uchar red
	// property uchar green
	// property uchar blue
	// property float vx
	// property float vy
	// property float vz
	// end_header
	// 0 0.1 -2 0 1 0 240 245 255 0 -0 0
	// 1 0.1 -2 0 1 0 240 245 255 0 -9.81 0
	// 0.10000000149011612 240 -0
	// 0.10000000149011612 240 -9.8100004196167
}

// A mesh: faces are a list property, whose packed record is the item count
// followed by the items.
func Example_faces() {
	h := ply.Header{Format: ply.BinaryBigEndian, Elements: []ply.Element{
		{Name: "vertex", Count: 4, Properties: []ply.Property{
			ply.Scalar("x", ply.Float), ply.Scalar("y", ply.Float), ply.Scalar("z", ply.Float),
		}},
		{Name: "face", Count: 2, Properties: []ply.Property{ply.List("vertex_indices", ply.Uchar, ply.Int)}},
	}}
	var verts []byte
	for _, p := range [][3]float64{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}} {
		for _, c := range p {
			verts = ply.Float.AppendFloat(verts, c)
		}
	}
	var file bytes.Buffer
	w, err := ply.NewWriter(&file, h)
	if err != nil {
		log.Fatal(err)
	}
	if err := w.WriteRecords(verts); err != nil { // all vertices at once
		log.Fatal(err)
	}
	for _, f := range [][]int64{{0, 1, 2}, {0, 2, 3}} {
		rec := ply.Uchar.AppendInt(nil, int64(len(f)))
		for _, i := range f {
			rec = ply.Int.AppendInt(rec, i)
		}
		if err := w.WriteRecord(rec); err != nil {
			log.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}

	f, err := ply.ReadAll(&file)
	if err != nil {
		log.Fatal(err)
	}
	e, faces, _ := f.Element("face")
	var fields [][]byte
	for len(faces) > 0 {
		n, _ := e.RecordLen(faces)
		fields, _ = e.Fields(fields[:0], faces[:n])
		idx := fields[0] // the items of vertex_indices
		var ids []int64
		for k := 0; k < len(idx); k += ply.Int.Size() {
			ids = append(ids, ply.Int.Int64(idx[k:]))
		}
		fmt.Println(ids)
		faces = faces[n:]
	}
	// Output:
	// [0 1 2]
	// [0 2 3]
}
