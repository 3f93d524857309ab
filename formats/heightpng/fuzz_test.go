package heightpng

import (
	"bytes"
	"errors"
	"image"
	"slices"
	"testing"
)

// FuzzRead feeds arbitrary bytes to Read. It must never panic nor allocate
// beyond what the input could fill; every error must be a *FormatError with
// an offset inside the input (the input is in memory, so there are no I/O
// errors); a map it accepts must validate and survive a write and read.
func FuzzRead(f *testing.F) {
	f.Add(mustWrite(f, testMap(4, 3)))
	f.Add(mustWrite(f, &Map{Width: 1, Height: 1, Samples: []uint16{7}, Cell: 1e-3, Low: 2, High: 2}))
	f.Add(withText(f, "origin_x=1 origin_z=2 cell=x low=0 high=1 extra=3"))
	f.Add(encodePlain(f, image.NewGray(image.Rect(0, 0, 5, 2))))
	f.Add(encodePlain(f, image.NewNRGBA64(image.Rect(0, 0, 2, 3))))
	f.Add(setSize(encodePlain(f, image.NewGray16(image.Rect(0, 0, 1, 1))), 4000, 4000))
	f.Add([]byte(pngSignature))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Read(bytes.NewReader(data))
		if err != nil {
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("error %v (%T) is not a *FormatError", err, err)
			}
			if fe.Offset < -1 || fe.Offset > int64(len(data)) {
				t.Fatalf("error at byte %d of %d: %v", fe.Offset, len(data), err)
			}
			return
		}
		if err := m.Validate(); err != nil {
			t.Fatalf("accepted an invalid map: %v", err)
		}
		var b bytes.Buffer
		if err := Write(&b, m); err != nil {
			t.Fatalf("writing back: %v", err)
		}
		m2, err := Read(&b)
		if err != nil {
			t.Fatalf("reading back: %v", err)
		}
		if m2.Width != m.Width || m2.Height != m.Height || !slices.Equal(m2.Samples, m.Samples) ||
			!sameMapping(m, m2) || !m2.HasMapping {
			t.Fatal("write/read round trip changed the map")
		}
	})
}
