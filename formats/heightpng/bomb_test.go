package heightpng

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"strings"
	"testing"

	"snowtools/levelset/limittest"
)

// greyPNG returns a w x h 8-bit grey PNG of zeros, its image data compressed row by
// row with a streaming writer: 16384 x 16384 (268 MB of pixels) is a file of about
// 260 KB, which passes the deflate-ratio check, and is made without holding the
// pixels.
func greyPNG(t testing.TB, w, h int) []byte {
	t.Helper()
	ihdr := binary.BigEndian.AppendUint32(nil, uint32(w))
	ihdr = binary.BigEndian.AppendUint32(ihdr, uint32(h))
	ihdr = append(ihdr, 8, 0, 0, 0, 0) // depth 8, grey, deflate, filter 0, not interlaced
	var idat bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&idat, zlib.BestSpeed)
	row := make([]byte, 1+w) // filter byte 0, then the pixels
	for range h {
		if _, err := zw.Write(row); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	file := append([]byte(pngSignature), chunk("IHDR", ihdr)...)
	file = append(file, chunk("IDAT", idat.Bytes())...)
	return append(file, chunk("IEND", nil)...)
}

// TestPixelLimit: a 260 KB PNG of 16384 x 16384 pixels is refused from its header
// by the default limit, in bounded memory (on main it was decoded: 805 MB here,
// 3.1 GB through snowsim's ground); a caller's lower limit refuses a small image,
// and the limit itself is accepted.
func TestPixelLimit(t *testing.T) {
	res := limittest.Run(t, limittest.Default, func() error {
		file := greyPNG(t, MaxSide, MaxSide)
		_, err := Read(bytes.NewReader(file))
		return err
	})
	want := "heightpng: byte 16: image of 16384x16384 = 268435456 pixels is more than the limit of 67108864 pixels"
	if res.Output != want {
		t.Errorf("error %q, want %q", res.Output, want)
	}
	small := greyPNG(t, 30, 20)
	if e := readErrorLimit(t, small, 599); !strings.Contains(e.Msg, "30x20 = 600 pixels is more than the limit of 599") {
		t.Errorf("limit 599: %v", e)
	}
	if _, err := ReadLimit(bytes.NewReader(small), 600); err != nil {
		t.Errorf("limit 600: %v", err)
	}
}
