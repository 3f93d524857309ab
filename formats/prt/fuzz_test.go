package prt

import (
	"bytes"
	"errors"
	"io"
	"testing"
)

// FuzzReader feeds arbitrary bytes to the reader. It must never panic or
// allocate without bound; every error must be a *FormatError (the input is
// in memory, so there are no I/O errors); what it accepts must be
// self-consistent, read the same way by ReadAllLimit (with a limit no input
// of its size can reach), ReadAll and ReadParticle, and, when the writer
// accepts the header, write back to a file that reads the same.
func FuzzReader(f *testing.F) {
	for _, n := range []int{0, 1, 3} {
		file, _ := writeSnow(f, n)
		f.Add(file)
	}
	file, _ := writeSnow(f, 20)
	f.Add(file)
	l := layoutOf(file)
	corrupt := func(fn func(b []byte) []byte) {
		f.Add(fn(append([]byte{}, file...)))
	}
	corrupt(func(b []byte) []byte { put64(b, offCount, -1); return b })
	corrupt(func(b []byte) []byte { put64(b, offCount, 21); return b })
	corrupt(func(b []byte) []byte { put64(b, offCount, 19); return b })
	corrupt(func(b []byte) []byte { return b[:len(b)-7] })
	corrupt(func(b []byte) []byte { return b[:l.data] })
	corrupt(func(b []byte) []byte { put32(b, l.chanCount, 4096); return b })
	corrupt(func(b []byte) []byte { put32(b, l.entrySize, 48); return b })
	corrupt(func(b []byte) []byte { put32(b, l.entries+44+40, 4); return b })
	corrupt(func(b []byte) []byte { put32(b, offVersion, 1); return b })
	var h Header
	h.AddChannel("P", Uint8, 1)
	h.Count = 1
	var buf bytes.Buffer
	w, _ := NewWriter(&buf, h)
	w.Write([]byte{42})
	w.Close()
	f.Add(buf.Bytes())
	// More particles than ReadAll's default limit, and data that ends early.
	huge := append([]byte{}, buf.Bytes()...)
	put64(huge, offCount, 3472328296227680304)
	f.Add(huge[:len(huge)-1])

	f.Fuzz(func(t *testing.T, data []byte) {
		// A limit in proportion to the input: zlib inflates at most about 1032-fold,
		// so no input can hold more, and the buffer stays bounded for any input.
		limit := 1100*int64(len(data)) + 1<<16
		fr, err := ReadAllLimit(bytes.NewReader(data), limit)
		_, lerr := ReadAll(bytes.NewReader(data))
		for _, e := range []error{err, lerr} {
			var fe *FormatError
			if e != nil && (!errors.As(e, &fe) || fe.Error() == "") {
				t.Fatalf("error %v (%T) is not a *FormatError with a message", e, e)
			}
		}
		if lerr == nil && err != nil {
			t.Fatalf("ReadAll read what ReadAllLimit(%d) refused: %v", limit, err)
		}
		if r, rerr := NewReader(bytes.NewReader(data)); rerr == nil && r.total > limit {
			// Refused by its header for the limit, where the streaming reader starts.
			if err == nil {
				t.Fatalf("ReadAllLimit(%d) read a header declaring %d bytes", limit, r.total)
			}
			return
		}
		if lerr != nil && err == nil {
			t.Fatalf("ReadAll refused what ReadAllLimit(%d) read: %v", limit, lerr)
		}

		// Streaming must agree with ReadAll.
		var streamed []byte
		var serr error
		if r, err := NewReader(bytes.NewReader(data)); err != nil {
			serr = err
		} else {
			rec := make([]byte, r.Header().ParticleSize())
			for {
				if err := r.ReadParticle(rec); err != nil {
					if err != io.EOF {
						serr = err
					}
					break
				}
				streamed = append(streamed, rec...)
			}
		}
		if (err == nil) != (serr == nil) {
			t.Fatalf("ReadAll error %v, streaming error %v", err, serr)
		}
		if err != nil {
			if err.Error() != serr.Error() {
				t.Fatalf("ReadAll error %q, streaming error %q", err, serr)
			}
			return
		}
		if !bytes.Equal(streamed, fr.Data) {
			t.Fatal("streamed particles differ from ReadAll's")
		}

		h := fr.Header
		size := h.ParticleSize()
		if size <= 0 || size > MaxParticleSize || len(h.Channels) > MaxChannels {
			t.Fatalf("accepted particle size %d with %d channels", size, len(h.Channels))
		}
		if int64(len(fr.Data)) != h.Count*int64(size) {
			t.Fatalf("%d bytes of data for %d particles of %d bytes", len(fr.Data), h.Count, size)
		}
		for _, c := range h.Channels {
			if c.Type.IsFloat() {
				if v, arity, err := fr.Float32s(c.Name); err != nil || len(v) != arity*fr.Len() {
					t.Fatalf("Float32s(%s): %d values, %v", c.Name, len(v), err)
				}
			}
		}
		if h.Validate() != nil {
			return // e.g. metadata for a missing channel: readable, not writable
		}
		var out bytes.Buffer
		if _, err := fr.WriteTo(&out); err != nil {
			t.Fatalf("writing back: %v", err)
		}
		fr2, err := ReadAll(&out)
		if err != nil {
			t.Fatalf("reading back: %v", err)
		}
		if !bytes.Equal(fr2.Data, fr.Data) || len(fr2.Header.Channels) != len(h.Channels) || len(fr2.Header.Meta) != len(h.Meta) {
			t.Fatal("write/read round trip changed the frame")
		}
	})
}
