package prt_test

import (
	"bytes"
	"fmt"
	"log"

	"snowtools/formats/prt"
)

func Example() {
	// Describe the particles: channels are packed in the order added.
	var h prt.Header
	pos := h.AddChannel("Position", prt.Float32, 3)
	vel := h.AddChannel("Velocity", prt.Float16, 3)
	id := h.AddChannel("ID", prt.Int32, 1)
	h.Count = 2
	h.SetMeta(prt.MetaInt32("", prt.MetaCoordSys, prt.CoordSysRightHandedYUp))
	h.SetMeta(prt.MetaFloat64("", prt.MetaLengthUnitInMeters, 1))
	h.SetMeta(prt.MetaInt32("Position", prt.MetaInterpretation, prt.InterpretationPoint))

	var file bytes.Buffer
	w, err := prt.NewWriter(&file, h)
	if err != nil {
		log.Fatal(err)
	}
	rec := make([]byte, h.ParticleSize())
	for i := range 2 {
		pos.PutFloat32s(rec, float32(i), 1.5, 0)
		vel.PutFloat16s(rec, 0, -9.81, 0)
		id.PutInt32s(rec, int32(100+i))
		if err := w.WriteParticle(rec); err != nil {
			log.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}

	f, err := prt.ReadAll(&file)
	if err != nil {
		log.Fatal(err)
	}
	p, _, _ := f.Float32s("Position")
	v, _, _ := f.Float32s("Velocity")
	ids, _, _ := f.Int64s("ID")
	cs, _ := f.Header.Int64Meta("", prt.MetaCoordSys)
	fmt.Println(f.Header.Count, "particles of", f.Header.ParticleSize(), "bytes; CoordSys", cs[0])
	fmt.Println(p, v[:3], ids)
	// Output:
	// 2 particles of 22 bytes; CoordSys 1
	// [0 1.5 0 1 1.5 0] [0 -9.8125 0] [100 101]
}
