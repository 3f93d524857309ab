package checkpoint

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"snowtools/levelset/limittest"
	"snowtools/simcore"
)

// bombStream returns a checkpoint whose state declares count particles (no optional
// columns), followed by dataBytes zeros, compressed by a streaming zstd writer on
// the fly (4 GiB of zeros are about 130 KB of zstd; nothing that large is held).
// Closing the returned reader stops the compressor.
func bombStream(t testing.TB, count uint32, dataBytes int64) io.ReadCloser {
	t.Helper()
	file := encode(t, Header{Frame: 3}, &simcore.State{})
	head := statePayload(t, file)[:stateHead]
	binary.LittleEndian.PutUint32(head[36:], count)
	zeros := limittest.CompressedZeros(head, dataBytes, func(w io.Writer) (io.WriteCloser, error) {
		return zstd.NewWriter(w, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithWindowSize(windowSize),
			zstd.WithEncoderConcurrency(1))
	})
	return struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(file[:headerSize]), zeros), zeros}
}

// TestDecompressionBombs: 4 GiB of zeros behind a state header fail at once and in
// bounded memory, whether the count declares that much or more (refused by the
// limit before a column is decoded) or little (refused one byte past the declared
// size). On main the first two decoded the zeros into growing columns (7.9 GB RSS).
func TestDecompressionBombs(t *testing.T) {
	const fourGiB = 4 << 30
	per := int64(recordSize())
	tests := []struct {
		name     string
		count    uint32
		maxBytes int64
		want     string
	}{
		{"2^31-1 particles, default limit", maxParticles, 0,
			"state byte 36 (particle count): 2147483647 particles of 148 bytes are 317827579756 bytes, more than the limit of 4294967296"},
		{"4 GiB of particles, limit 1 GiB", uint32(fourGiB / per), 1 << 30, "more than the limit of 1073741824"},
		{"1000 particles", 1000, 0, "data after the last particle"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := limittest.Run(t, limittest.Default, func() error {
				r := bombStream(t, tt.count, fourGiB)
				defer r.Close()
				_, _, err := ReadLimit(r, tt.maxBytes)
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

// TestReadLimitAtTheLimit: a state whose columns fill the limit exactly reads; one
// byte less refuses it.
func TestReadLimitAtTheLimit(t *testing.T) {
	st := randomState(10, 3) // even n: no optional columns
	file := encode(t, Header{}, &st)
	size := int64(10 * recordSize())
	if _, _, err := ReadLimit(bytes.NewReader(file), size); err != nil {
		t.Fatal(err)
	}
	if _, _, err := ReadLimit(bytes.NewReader(file), size-1); err == nil {
		t.Error("one byte over the limit: no error")
	}
}
