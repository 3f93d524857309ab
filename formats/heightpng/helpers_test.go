package heightpng

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/png"
	"math"
	"testing"
)

// testMap returns a w x h map with varied samples and an awkward mapping.
func testMap(w, h int) *Map {
	m := &Map{Width: w, Height: h, OriginX: -5.25, OriginZ: 1.0 / 3, Cell: 0.05, Low: -0.1, High: 1.7}
	m.Samples = make([]uint16, w*h)
	x := uint32(12345)
	for i := range m.Samples {
		x = x*1664525 + 1013904223
		m.Samples[i] = uint16(x >> 16)
	}
	if len(m.Samples) > 1 {
		m.Samples[0], m.Samples[1] = 0, 65535
	}
	return m
}

// mustWrite writes m, failing the test on error.
func mustWrite(t testing.TB, m *Map) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, m); err != nil {
		t.Fatalf("Write: %v", err)
	}
	return b.Bytes()
}

// mustRead reads data, failing the test on error.
func mustRead(t testing.TB, data []byte) *Map {
	t.Helper()
	m, err := Read(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	return m
}

// readError reads data and returns its *FormatError, failing if there is none.
func readError(t testing.TB, data []byte) *FormatError {
	t.Helper()
	return readErrorLimit(t, data, 0)
}

// readErrorLimit is readError with ReadLimit's limit.
func readErrorLimit(t testing.TB, data []byte, maxPixels int) *FormatError {
	t.Helper()
	_, err := ReadLimit(bytes.NewReader(data), maxPixels)
	if err == nil {
		t.Fatalf("no error")
	}
	var fe *FormatError
	if !errors.As(err, &fe) {
		t.Fatalf("error %v (%T) is not a *FormatError", err, err)
	}
	return fe
}

// encodePlain writes img with image/png alone.
func encodePlain(t testing.TB, img image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// chunk returns a whole PNG chunk with a correct CRC.
func chunk(typ string, body []byte) []byte {
	c := binary.BigEndian.AppendUint32(nil, uint32(len(body)))
	c = append(c, typ...)
	c = append(c, body...)
	return binary.BigEndian.AppendUint32(c, crc32.ChecksumIEEE(c[4:]))
}

// insertAt returns data with extra inserted at byte off.
func insertAt(data []byte, off int, extra []byte) []byte {
	out := append([]byte(nil), data[:off]...)
	out = append(out, extra...)
	return append(out, data[off:]...)
}

// withText returns a file written by Write with the text of its metadata
// chunk replaced (and the CRC fixed).
func withText(t testing.TB, text string) []byte {
	t.Helper()
	data := mustWrite(t, testMap(3, 2))
	n := int(binary.BigEndian.Uint32(data[ihdrEnd:]))
	rest := data[ihdrEnd+12+n:]
	body := append([]byte(Keyword+"\x00"), text...)
	return append(append(append([]byte(nil), data[:ihdrEnd]...), chunk("tEXt", body)...), rest...)
}

// setSize returns data with the width and height in IHDR changed.
func setSize(data []byte, w, h uint32) []byte {
	out := append([]byte(nil), data...)
	binary.BigEndian.PutUint32(out[16:], w)
	binary.BigEndian.PutUint32(out[20:], h)
	binary.BigEndian.PutUint32(out[29:], crc32.ChecksumIEEE(out[12:29]))
	return out
}

// sameMapping reports whether a and b have bit-identical mappings.
func sameMapping(a, b *Map) bool {
	for _, p := range [][2]float64{{a.OriginX, b.OriginX}, {a.OriginZ, b.OriginZ}, {a.Cell, b.Cell}, {a.Low, b.Low}, {a.High, b.High}} {
		if math.Float64bits(p[0]) != math.Float64bits(p[1]) {
			return false
		}
	}
	return true
}
