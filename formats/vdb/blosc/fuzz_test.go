package blosc

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// FuzzDecompress feeds arbitrary frames to Decompress. It must never panic,
// every error must be an *Error, the output must be what the header says and no
// larger than the frame's bytes can expand to, and what decodes must compress
// and decode back to itself.
//
// Seeds: c-blosc 1.21.3's frames of a level set's leaf (testdata/cblosc_*.bin,
// written by testdata/cblosc.py from samples()["level set leaf"]: lz4, blosclz
// and zlib, byte and bit shuffle, type size 4, one block, clevel 9), and ours of
// small samples in every codec and shuffle.
func FuzzDecompress(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "cblosc_*.bin"))
	if len(seeds) == 0 {
		f.Fatal("no seed frames in testdata")
	}
	for _, path := range seeds {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, data := range [][]byte{samples()["one of each"], samples()["long repeated"][:300], samples()["level set leaf"][:512]} {
		for _, codec := range []Codec{LZ4, BloscLZ, Zlib} {
			for _, shuffle := range []Shuffle{NoShuffle, ByteShuffle, BitShuffle} {
				frame, err := Compress(nil, data, Options{Codec: codec, Shuffle: shuffle, TypeSize: 4, BlockSize: 256})
				if err != nil {
					f.Fatal(err)
				}
				f.Add(frame)
			}
		}
	}
	f.Fuzz(func(t *testing.T, frame []byte) {
		h, headerErr := ReadHeader(frame)
		out, err := Decompress(nil, frame)
		if err != nil {
			var be *Error
			if !errors.As(err, &be) {
				t.Fatalf("error %v is not a *blosc.Error", err)
			}
			return
		}
		if headerErr != nil {
			t.Fatalf("Decompress accepts a frame whose header ReadHeader refuses: %v", headerErr)
		}
		if len(out) != h.NBytes {
			t.Fatalf("%d bytes out, the header says %d", len(out), h.NBytes)
		}
		if len(out) > 1032*len(frame) {
			t.Fatalf("%d bytes from a %d-byte frame", len(out), len(frame))
		}
		codec, _ := h.Codec()
		if !codec.supported() {
			codec = LZ4 // a memcpyed frame may name any codec
		}
		again, err := Compress(nil, out, Options{Codec: codec, Shuffle: h.Shuffle(), TypeSize: h.TypeSize, BlockSize: h.BlockSize})
		if err != nil {
			t.Fatal(err)
		}
		back, err := Decompress(nil, again)
		if err != nil || !bytes.Equal(back, out) {
			t.Fatalf("what decoded does not round trip: %v", err)
		}
	})
}
