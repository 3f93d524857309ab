package heightpng

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/png"
	"math"
	"runtime"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
)

func TestRoundTrip(t *testing.T) {
	maps := []*Map{
		testMap(1, 1),
		testMap(7, 5),
		testMap(300, 2),
		{Width: 2, Height: 1, Samples: []uint16{0, 1}, OriginX: math.Copysign(0, -1), OriginZ: -1e300,
			Cell: math.SmallestNonzeroFloat64, Low: 3, High: 3},
		{Width: 1, Height: 2, Samples: []uint16{65535, 7}, OriginX: 0.1, OriginZ: 0.2,
			Cell: 1e-7, Low: -1e290, High: 1e290},
	}
	for i, m := range maps {
		got := mustRead(t, mustWrite(t, m))
		if got.Width != m.Width || got.Height != m.Height || !slices.Equal(got.Samples, m.Samples) {
			t.Errorf("map %d: samples changed", i)
		}
		if !got.HasMapping || !sameMapping(got, m) {
			t.Errorf("map %d: mapping %+v, want %+v", i, *got, *m)
		}
	}
}

func TestWriteLayout(t *testing.T) {
	m := &Map{Width: 2, Height: 1, Samples: []uint16{0x0102, 0xfffe}, OriginX: -5, OriginZ: 2.5, Cell: 0.05, High: 1.25}
	data := mustWrite(t, m)
	want := chunk("tEXt", []byte(Keyword+"\x00origin_x=-5 origin_z=2.5 cell=0.05 low=0 high=1.25"))
	if !bytes.Equal(data[ihdrEnd:ihdrEnd+len(want)], want) {
		t.Errorf("after IHDR:\n%q\nwant\n%q", data[ihdrEnd:ihdrEnd+len(want)], want)
	}
	// Another tool sees a plain 16-bit grey image with the same pixels.
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	g, ok := img.(*image.Gray16)
	if !ok || g.Gray16At(0, 0).Y != 0x0102 || g.Gray16At(1, 0).Y != 0xfffe {
		t.Errorf("image/png reads %T %v", img, img)
	}
	if !bytes.Equal(data, mustWrite(t, m)) {
		t.Error("two writes of one map differ")
	}
}

func TestReadPlain(t *testing.T) {
	g8 := image.NewGray(image.Rect(0, 0, 3, 2))
	copy(g8.Pix, []byte{0, 1, 127, 128, 254, 255})
	g16 := image.NewGray16(image.Rect(0, 0, 2, 2))
	copy(g16.Pix, []byte{0, 0, 0x12, 0x34, 0xff, 0xff, 0x80, 0})
	rgba := image.NewNRGBA(image.Rect(0, 0, 2, 1))
	rgba.SetNRGBA(0, 0, color.NRGBA{200, 100, 50, 255})
	rgba.SetNRGBA(1, 0, color.NRGBA{255, 255, 255, 0})
	pal := image.NewPaletted(image.Rect(0, 0, 2, 1), color.Palette{color.Black, color.White})
	pal.SetColorIndex(1, 0, 1)
	for _, img := range []image.Image{g8, g16, rgba, pal} {
		m := mustRead(t, encodePlain(t, img))
		if m.HasMapping || m.OriginX != 0 || m.OriginZ != 0 || m.Cell != 1 || m.Low != 0 || m.High != 1 {
			t.Errorf("%T: mapping %+v, want the placeholder", img, *m)
		}
		b := img.Bounds()
		if m.Width != b.Dx() || m.Height != b.Dy() {
			t.Fatalf("%T: size %dx%d", img, m.Width, m.Height)
		}
		for r := range m.Height {
			for c := range m.Width {
				want := color.Gray16Model.Convert(img.At(c, r)).(color.Gray16).Y
				if got := m.Samples[r*m.Width+c]; got != want {
					t.Errorf("%T (%d, %d): %d, want %d", img, c, r, got, want)
				}
			}
		}
		if err := m.Validate(); err != nil {
			t.Errorf("%T: placeholder map does not validate: %v", img, err)
		}
	}
	if m := mustRead(t, encodePlain(t, g8)); m.Samples[5] != 65535 || m.Samples[1] != 257 {
		t.Errorf("8-bit grey scaled to %v", m.Samples)
	}
}

func TestReadForeignChunks(t *testing.T) {
	data := mustWrite(t, testMap(4, 3))
	// A text chunk of another tool is ignored, wherever it is.
	other := insertAt(data, ihdrEnd, chunk("tEXt", []byte("Software\x00GIMP")))
	other = insertAt(other, len(other)-12, chunk("tEXt", []byte("no keyword end")))
	if m := mustRead(t, other); !m.HasMapping || !sameMapping(m, testMap(4, 3)) {
		t.Error("foreign tEXt chunks changed the mapping")
	}
	// Our chunk is found after the image data too, where an editor may move it.
	plain := encodePlain(t, image.NewGray16(image.Rect(0, 0, 2, 2)))
	moved := insertAt(plain, len(plain)-12, chunk("tEXt", []byte(Keyword+"\x00cell=2 low=1 high=3 origin_x=4 origin_z=5 version=9")))
	m := mustRead(t, moved)
	if !m.HasMapping || m.OriginX != 4 || m.OriginZ != 5 || m.Cell != 2 || m.Low != 1 || m.High != 3 {
		t.Errorf("mapping after IDAT: %+v", *m)
	}
}

func TestCorruptMetadata(t *testing.T) {
	all := "origin_x=1 origin_z=2 cell=0.5 low=0 high=1"
	cases := []struct{ text, want string }{
		{"origin_z=2 cell=0.5 low=0 high=1", "lacks the key origin_x"},
		{"origin_x=1 origin_z=2 cell=0.5 low=0", "lacks the key high"},
		{"", "lacks the key origin_x"},
		{all + " cell=0.5", "key cell appears twice"},
		{all + " junk", `field "junk" is not key=value`},
		{all + " =3", `field "=3" is not key=value`},
		{"origin_x=1 origin_z=2 cell=abc low=0 high=1", `cell="abc" is not a float64`},
		{"origin_x=1 origin_z=2 cell= low=0 high=1", `cell="" is not a float64`},
		{"origin_x=1e999 origin_z=2 cell=1 low=0 high=1", "origin_x=\"1e999\" is not a float64"},
		{"origin_x=1 origin_z=NaN cell=1 low=0 high=1", "origin_z=\"NaN\" is not finite"},
		{"origin_x=1 origin_z=2 cell=1 low=-inf high=1", "not finite"},
		{"origin_x=1 origin_z=2 cell=0 low=0 high=1", "grid spacing must be positive"},
		{"origin_x=1 origin_z=2 cell=-0.1 low=0 high=1", "grid spacing must be positive"},
		{"origin_x=1 origin_z=2 cell=1 low=2 high=1", "high = 1 is below low = 2"},
		{"origin_x=1 origin_z=2 cell=1 low=-1e308 high=1e308", "too large"},
		{"origin_x=1 origin_z=2 cell=" + strings.Repeat("9", 200) + "x low=0 high=1", `"... is not a float64`},
	}
	textStart := int64(ihdrEnd + 8 + len(Keyword) + 1)
	for _, c := range cases {
		data := withText(t, c.text)
		e := readError(t, data)
		if !strings.Contains(e.Error(), c.want) {
			t.Errorf("%.50q: error %q, want %q", c.text, e, c.want)
		}
		if e.Offset < textStart || e.Offset > textStart+int64(len(c.text)) {
			t.Errorf("%.50q: offset %d outside the text at %d", c.text, e.Offset, textStart)
		}
	}
	// The offset names the field at fault.
	if e := readError(t, withText(t, "origin_x=1 origin_z=2 cell=x low=0 high=1")); e.Offset != textStart+22 {
		t.Errorf("offset %d, want %d", e.Offset, textStart+22)
	}
	// Extra blanks and unknown keys are fine.
	m := mustRead(t, withText(t, "  version=2 high=1\tlow=0 cell=0.5 origin_z=2 origin_x=1 \n"))
	if m.OriginX != 1 || m.OriginZ != 2 || m.Cell != 0.5 || m.Low != 0 || m.High != 1 {
		t.Errorf("mapping %+v", *m)
	}
}

func TestBadChunks(t *testing.T) {
	good := mustWrite(t, testMap(3, 2))

	bad := append([]byte(nil), good...)
	bad[ihdrEnd+8+len(Keyword)+3]++ // a byte of the text, CRC left alone
	if e := readError(t, bad); e.Offset != ihdrEnd || !strings.Contains(e.Msg, "bad CRC") {
		t.Errorf("damaged text: %v", e)
	}

	n := len(textChunk(testMap(3, 2)))
	twice := insertAt(good, ihdrEnd+n, good[ihdrEnd:ihdrEnd+n])
	if e := readError(t, twice); e.Offset != int64(ihdrEnd+n) || !strings.Contains(e.Msg, "second") {
		t.Errorf("two mapping chunks: %v", e)
	}

	for _, c := range []struct {
		data []byte
		off  int64
		want string
	}{
		{nil, 0, "bad signature"},
		{[]byte("GIF89a......"), 0, "bad signature"},
		{good[:8], 8, "without an IEND"},
		{good[:19], 8, "truncated chunk: 11 bytes left"},
		{good[:20], 8, `chunk "IHDR" of 13 bytes runs past the end of the file: it takes 25 bytes, 12 are left`},
		{good[:30], 8, `chunk "IHDR" of 13 bytes runs past the end`},
		{append(good[:8:8], "\x7f\xff\xff\xffIDATxxxxxxxx"...), 8, "runs past the end"},
		{append(good[:8:8], "\xff\xff\xff\xffIDATxxxxxxxx"...), 8, "more than PNG allows"},
		{append(good[:8:8], chunk("tEXt", []byte("a\x00b"))...), 8, `first chunk is "tEXt"`},
		{good[:len(good)-12], int64(len(good) - 12), "without an IEND"},
	} {
		e := readError(t, c.data)
		if e.Offset != c.off || !strings.Contains(e.Error(), c.want) {
			t.Errorf("%.20q: error %q at %d, want %q at %d", c.data, e, e.Offset, c.want, c.off)
		}
	}

	// A damaged IDAT is found by image/png, whose error is wrapped.
	bad = append([]byte(nil), good...)
	bad[len(bad)-12-5]++ // inside the last IDAT
	e := readError(t, bad)
	var pe png.FormatError
	if !errors.As(e, &pe) || e.Offset != -1 {
		t.Errorf("damaged IDAT: %v (%T)", e, e.Err)
	}
}

func TestTruncated(t *testing.T) {
	for _, data := range [][]byte{mustWrite(t, testMap(5, 4)), encodePlain(t, image.NewGray(image.Rect(0, 0, 3, 3)))} {
		for n := range len(data) {
			e := readError(t, data[:n])
			if e.Offset > int64(n) {
				t.Errorf("%d of %d bytes: offset %d past the end", n, len(data), e.Offset)
			}
		}
	}
}

func TestLimits(t *testing.T) {
	wide := encodePlain(t, image.NewGray(image.Rect(0, 0, MaxSide+1, 1)))
	if e := readError(t, wide); !strings.Contains(e.Msg, "16385x1 pixels is beyond the limits") {
		t.Errorf("wide image: %v", e)
	}
	// A 100-byte file claiming 16384x16384 16-bit pixels must be refused
	// before the decoder allocates 512 MiB for them.
	bomb := setSize(encodePlain(t, image.NewGray16(image.Rect(0, 0, 1, 1))), MaxSide, MaxSide)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	e := readErrorLimit(t, bomb, MaxPixels)
	runtime.ReadMemStats(&after)
	if !strings.Contains(e.Msg, "cannot hold a 16384x16384 image") {
		t.Errorf("bomb: %v", e)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
		t.Errorf("refusing the bomb allocated %d bytes", grew)
	}
	// Every chunk length is checked against the bytes there.
	huge := append(bomb[:ihdrEnd:ihdrEnd], "\x7f\xff\xff\xfetEXtcrc!"...)
	if e := readError(t, huge); e.Offset != ihdrEnd || !strings.Contains(e.Msg, "runs past the end") {
		t.Errorf("huge chunk: %v", e)
	}
}

func TestReadFailure(t *testing.T) {
	data := mustWrite(t, testMap(3, 3))
	_, err := Read(iotest.TimeoutReader(iotest.OneByteReader(bytes.NewReader(data))))
	if !errors.Is(err, iotest.ErrTimeout) || !strings.HasPrefix(err.Error(), "heightpng: reading") {
		t.Errorf("error %v", err)
	}
	var fe *FormatError
	if errors.As(err, &fe) {
		t.Errorf("I/O error %v reported as a format error", err)
	}
}

func TestFormatError(t *testing.T) {
	if s := (&FormatError{Offset: 33, Msg: "bad"}).Error(); s != "heightpng: byte 33: bad" {
		t.Error(s)
	}
	inner := errors.New("inner")
	e := &FormatError{Offset: -1, Msg: "decoding", Err: inner}
	if s := e.Error(); s != "heightpng: decoding: inner" || !errors.Is(e, inner) {
		t.Error(s)
	}
}
