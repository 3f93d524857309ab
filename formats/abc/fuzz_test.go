package abc

import (
	"encoding/binary"
	"errors"
	"testing"
)

// FuzzRead feeds arbitrary bytes to Open and Check. They must never panic, and every
// error must be a *FormatError (the input is in memory: there are no I/O errors).
// Every allocation is sized by bytes the input holds, so memory stays in proportion
// to the input. What Check accepts must also read through the schema API.
func FuzzRead(f *testing.F) {
	seeds := [][]byte{writePoints(f, 3, 2, 24), ourArchive(f)}
	for _, s := range seeds {
		f.Add(s)
	}
	file := seeds[1]
	corrupt := func(fn func(b []byte)) {
		b := append([]byte{}, file...)
		fn(b)
		f.Add(b)
	}
	root := binary.LittleEndian.Uint64(file[8:])
	corrupt(func(b []byte) { binary.LittleEndian.PutUint64(b[root:], 1<<40) })            // root child count
	corrupt(func(b []byte) { binary.LittleEndian.PutUint64(b[root+8+8*rootTop:], root) }) // top object is the root
	corrupt(func(b []byte) { binary.LittleEndian.PutUint64(b[16:], 1<<62) })              // first data block's size
	corrupt(func(b []byte) { b[5] = 0 })                                                  // not frozen
	corrupt(func(b []byte) { copy(b[len(b)-200:], make([]byte, 100)) })                   // zeroed groups
	f.Add(file[:len(file)/2])
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := Open(bytesReaderAt(data), int64(len(data)))
		if err == nil {
			err = a.Check()
		}
		if err != nil {
			var fe *FormatError
			if !errors.As(err, &fe) || fe.Error() == "" {
				t.Fatalf("error %v (%T) is not a *FormatError", err, err)
			}
			return
		}
		// Accepted: every mesh converts and every Points sample reads as numbers.
		_ = a.Top().Walk(func(o *Object) error {
			if o.IsPolyMesh() {
				m, err := o.PolyMesh()
				if err != nil {
					t.Fatalf("Check passed but PolyMesh failed: %v", err)
				}
				if m.NumSamples() > 0 {
					s, err := m.Read(0)
					if err != nil {
						t.Fatalf("Check passed but Read(0) failed: %v", err)
					}
					w, err := o.WorldMatrix(0)
					if err != nil {
						t.Fatalf("Check passed but WorldMatrix failed: %v", err)
					}
					s.Mesh(w)
				}
			}
			return nil
		})
	})
}
