package prt

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/klauspost/compress/zlib"

	"snowtools/levelset/limittest"
)

// bombStream returns a PRT file of the snow layout whose header declares count
// particles, followed by a zlib stream of dataBytes zeros made on the fly (4 GiB of
// zeros compress to about 4 MB; nothing that large is ever held). Closing the
// returned reader stops the compressor.
func bombStream(t testing.TB, count, dataBytes int64) io.ReadCloser {
	t.Helper()
	file, _ := writeSnow(t, 0)
	head := bytes.Clone(file[:layoutOf(file).data])
	put64(head, offCount, count)
	zeros := limittest.CompressedZeros(nil, dataBytes, func(w io.Writer) (io.WriteCloser, error) {
		return zlib.NewWriterLevel(w, zlib.BestSpeed)
	})
	return struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(head), zeros), zeros}
}

// snowSize is the bytes per particle of the snow layout.
const snowSize = 3*4 + 3*4 + 4 + 8 + 3*2

// TestDecompressionBombs: 4 GiB of zeros behind a header fail at once, in bounded
// memory, whether the header declares that much (refused by the limit before a
// byte is decompressed) or little (refused one byte past the declared size). On main
// the first case decompressed the whole stream into a growing buffer (12 GB RSS
// through export).
func TestDecompressionBombs(t *testing.T) {
	const fourGiB = 4 << 30
	tests := []struct {
		name     string
		count    int64
		maxBytes int64
		want     string
	}{
		{"header declares 4 GiB, default limit", fourGiB / snowSize, 0,
			"prt: byte 48: particle count 102261126 times 42 bytes is 4294967292 bytes of particle data, more than the limit of 2147483648"},
		{"header declares 1 GiB, limit 512 MiB", (1 << 30) / snowSize, 512 << 20, "more than the limit of 536870912"},
		{"header declares 10 particles", 10, 0, "particle 10: trailing data"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := limittest.Run(t, limittest.Default, func() error {
				r := bombStream(t, tt.count, fourGiB)
				defer r.Close()
				_, err := ReadAllLimit(r, tt.maxBytes)
				var fe *FormatError
				if err != nil && !errors.As(err, &fe) {
					return errors.New("not a *FormatError: " + err.Error())
				}
				return err
			})
			if !strings.Contains(res.Output, tt.want) {
				t.Errorf("error %q, want it to contain %q", res.Output, tt.want)
			}
		})
	}
}

// TestReadAllLimitAcceptsAtTheLimit: a frame exactly at the limit reads.
func TestReadAllLimitAcceptsAtTheLimit(t *testing.T) {
	file, data := writeSnow(t, 100)
	f, err := ReadAllLimit(bytes.NewReader(file), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(f.Data, data) {
		t.Error("data differ")
	}
	if _, err := ReadAllLimit(bytes.NewReader(file), int64(len(data))-1); err == nil {
		t.Error("one byte over the limit: no error")
	}
}
