package checkpoint

import (
	"bytes"
	"encoding/binary"
	"errors"
	"testing"
)

// FuzzRead feeds arbitrary bytes to the reader: it must never panic or allocate beyond
// what the input holds; every error is a *FormatError (the input is in memory, so there
// are no I/O errors); and what it accepts writes back to a file that reads the same.
func FuzzRead(f *testing.F) {
	for n, seed := range []int{0, 1, 3} {
		st := randomState(n, uint64(seed))
		file := encode(f, Header{Frame: int64(n)}, &st)
		f.Add(file)
		f.Add(file[:len(file)-5])
		f.Add(file[:headerSize+3])
	}
	st := randomState(2, 9)
	payload := statePayload(f, encode(f, Header{}, &st))
	huge := bytes.Clone(payload)
	binary.LittleEndian.PutUint32(huge[36:], maxParticles)
	f.Add(rawFile(f, huge))
	f.Add(rawFile(f, append(bytes.Clone(payload), 1, 2, 3)))

	f.Fuzz(func(t *testing.T, data []byte) {
		h, st, err := Read(bytes.NewReader(data))
		if err != nil {
			var fe *FormatError
			if !errors.As(err, &fe) || fe.Error() == "" {
				t.Fatalf("error %v (%T) is not a *FormatError", err, err)
			}
			return
		}
		var buf bytes.Buffer
		if err := Write(&buf, h, &st); err != nil {
			t.Fatalf("read a state that Write refuses: %v", err)
		}
		h2, st2, err := Read(&buf)
		if err != nil {
			t.Fatalf("rewritten: %v", err)
		}
		if h2 != h || !bytes.Equal(stateBits(t, &st), stateBits(t, &st2)) {
			t.Fatal("rewritten file reads differently")
		}
	})
}
