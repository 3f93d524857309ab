package blosc

import "testing"

// The codecs on what OpenVDB compresses most: a level set's leaf, 512 float32
// values, byte-shuffled in one block. Run:
// go test -run '^$' -bench . ./formats/vdb/blosc
func BenchmarkCompress(b *testing.B) {
	leaf := samples()["level set leaf"]
	for _, codec := range []Codec{LZ4, BloscLZ, Zlib} {
		b.Run(codec.String(), func(b *testing.B) {
			var e Encoder
			var frame []byte
			o := Options{Codec: codec, Shuffle: ByteShuffle, TypeSize: 4}
			b.SetBytes(int64(len(leaf)))
			for range b.N {
				frame, _ = e.Compress(frame[:0], leaf, o)
			}
			b.ReportMetric(float64(len(frame))/float64(len(leaf)), "ratio")
		})
	}
}

func BenchmarkDecompress(b *testing.B) {
	leaf := samples()["level set leaf"]
	for _, codec := range []Codec{LZ4, BloscLZ, Zlib} {
		b.Run(codec.String(), func(b *testing.B) {
			frame, _ := Compress(nil, leaf, Options{Codec: codec, Shuffle: ByteShuffle, TypeSize: 4})
			var d Decoder
			var out []byte
			b.SetBytes(int64(len(leaf)))
			for range b.N {
				var err error
				if out, err = d.Decompress(out[:0], frame); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
