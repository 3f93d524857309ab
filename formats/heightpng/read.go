package heightpng

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"strconv"
)

// MaxFileSize is the largest file Read accepts, in bytes. Read holds the
// whole file in memory; a 16-bit map at the MaxPixels limit is at most
// 512 MiB even stored uncompressed.
const MaxFileSize = 1 << 30

// maxInflate bounds how many bytes deflate can expand one compressed byte
// into (its maximum ratio is 1032:1), rounded up for safety.
const maxInflate = 1040

// DefaultMaxPixels is the most pixels Read decodes: 8192 x 8192. Decoding
// costs up to 10 bytes a pixel here (image/png's image and the 16-bit
// samples), and a caller that turns the samples into float64 heights 8 more:
// about 1.2 GB at this limit. Callers that know how much memory they may use
// pass their own limit to ReadLimit.
const DefaultMaxPixels = 8192 * 8192

// Read reads a PNG height map of at most DefaultMaxPixels pixels; see
// ReadLimit.
func Read(r io.Reader) (*Map, error) {
	return ReadLimit(r, 0)
}

// ReadLimit reads a PNG height map: any PNG that image/png decodes, converted
// to 16-bit grey (see the package comment), with the mapping from the
// snowtools-heightfield tEXt chunk if there is one (HasMapping tells). An
// image of more than maxPixels pixels (0 means DefaultMaxPixels; never more
// than MaxPixels) is refused from its header, before a pixel is decoded: a
// half-megabyte file of one grey level can declare 16384 x 16384 pixels.
//
// Malformed input, including a damaged mapping chunk and an image beyond the
// limits, is a *FormatError; errors of image/png are wrapped in one. An error
// of r is returned wrapped, not as a FormatError.
func ReadLimit(r io.Reader, maxPixels int) (*Map, error) {
	if maxPixels <= 0 {
		maxPixels = DefaultMaxPixels
	}
	data, err := io.ReadAll(io.LimitReader(r, MaxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("heightpng: reading: %w", err)
	}
	if len(data) > MaxFileSize {
		return nil, &FormatError{Offset: MaxFileSize, Msg: "file is larger than 1 GiB, too large for a height map"}
	}
	return decode(data, min(maxPixels, MaxPixels))
}

// layout is what the chunk walk learns before any pixel is decoded.
type layout struct {
	width, height       int64
	depth, colour, lace byte
	idat                int64 // bytes of compressed image data, over all IDAT chunks
	firstIDAT           int64 // offset of the first IDAT chunk, or -1
	mapping             *mapping
}

// mapping is the content of the metadata chunk.
type mapping struct {
	originX, originZ, cell, low, high float64
}

func decode(data []byte, maxPixels int) (*Map, error) {
	lay, err := scan(data)
	if err != nil {
		return nil, err
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, &FormatError{Offset: -1, Msg: "decoding the header", Err: err}
	}
	if err := checkSize(cfg.Width, cfg.Height); err != nil {
		return nil, &FormatError{Offset: 16, Msg: fmt.Sprintf("image of %dx%d pixels is beyond the limits of %d on a side and %d pixels",
			cfg.Width, cfg.Height, MaxSide, MaxPixels)}
	}
	if pixels := int64(cfg.Width) * int64(cfg.Height); pixels > int64(maxPixels) {
		return nil, &FormatError{Offset: 16, Msg: fmt.Sprintf("image of %dx%d = %d pixels is more than the limit of %d pixels",
			cfg.Width, cfg.Height, pixels, maxPixels)}
	}
	// The decoder allocates the whole image before it inflates a byte, so a
	// header can ask for far more memory than the file could ever fill.
	// Refuse a file whose compressed data cannot hold the pixels claimed.
	if need := lay.rawBytes(); need > maxInflate*(lay.idat+1) {
		off := lay.firstIDAT
		return nil, &FormatError{Offset: off, Msg: fmt.Sprintf("%d bytes of image data cannot hold a %dx%d image (truncated or corrupt file)",
			lay.idat, lay.width, lay.height)}
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, &FormatError{Offset: -1, Msg: "decoding the image", Err: err}
	}
	m := &Map{Width: cfg.Width, Height: cfg.Height, Cell: 1, High: 1}
	m.Samples = grey16(img, m.Width, m.Height)
	if p := lay.mapping; p != nil {
		m.OriginX, m.OriginZ, m.Cell, m.Low, m.High = p.originX, p.originZ, p.cell, p.low, p.high
		m.HasMapping = true
	}
	return m, nil
}

// rawBytes returns a lower bound on the inflated size of the image data:
// exact for a non-interlaced image (a filter byte and the packed pixels of
// each row), the packed pixels alone for an interlaced one.
func (l *layout) rawBytes() int64 {
	channels := map[byte]int64{0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[l.colour]
	bits := channels * int64(l.depth) // png.DecodeConfig has checked the pair
	if l.lace == 0 {
		return l.height * (1 + (l.width*bits+7)/8)
	}
	return (l.width*l.height*bits + 7) / 8
}

// grey16 returns the pixels of img as 16-bit grey, row-major.
func grey16(img image.Image, w, h int) []uint16 {
	s := make([]uint16, w*h)
	b := img.Bounds()
	switch im := img.(type) {
	case *image.Gray16:
		for r := range h {
			row := im.Pix[r*im.Stride:]
			for c := range w {
				s[r*w+c] = binary.BigEndian.Uint16(row[2*c:])
			}
		}
	case *image.Gray:
		for r := range h {
			row := im.Pix[r*im.Stride:]
			for c := range w {
				s[r*w+c] = uint16(row[c]) * 0x101 // as color.Gray16Model: 255 -> 65535
			}
		}
	default:
		for r := range h {
			for c := range w {
				s[r*w+c] = color.Gray16Model.Convert(img.At(b.Min.X+c, b.Min.Y+r)).(color.Gray16).Y
			}
		}
	}
	return s
}

// scan walks the chunk list of a PNG file from the signature to IEND,
// checking that every chunk fits in the file, and reads IHDR and the
// mapping chunk. Other chunks, and their CRCs, are left to image/png.
func scan(data []byte) (layout, error) {
	lay := layout{firstIDAT: -1}
	if len(data) < 8 || string(data[:8]) != pngSignature {
		return lay, &FormatError{Offset: 0, Msg: "not a PNG file: bad signature"}
	}
	for off := 8; ; {
		left := len(data) - off
		if left == 0 {
			return lay, &FormatError{Offset: int64(off), Msg: "file ends without an IEND chunk (truncated?)"}
		}
		if left < 12 {
			return lay, &FormatError{Offset: int64(off), Msg: fmt.Sprintf("truncated chunk: %d bytes left, a chunk takes at least 12", left)}
		}
		n := binary.BigEndian.Uint32(data[off:])
		typ := data[off+4 : off+8]
		if n > math.MaxInt32 {
			return lay, &FormatError{Offset: int64(off), Msg: fmt.Sprintf("chunk %s claims %d bytes, more than PNG allows", quote(typ), n)}
		}
		if int64(n) > int64(left-12) {
			return lay, &FormatError{Offset: int64(off), Msg: fmt.Sprintf("chunk %s of %d bytes runs past the end of the file: it takes %d bytes, %d are left (truncated?)",
				quote(typ), n, int64(n)+12, left)}
		}
		body := data[off+8 : off+8+int(n)]
		switch {
		case off == 8:
			if string(typ) != "IHDR" || n != 13 {
				return lay, &FormatError{Offset: int64(off), Msg: fmt.Sprintf("first chunk is %s of %d bytes, not IHDR of 13", quote(typ), n)}
			}
			lay.width = int64(binary.BigEndian.Uint32(body))
			lay.height = int64(binary.BigEndian.Uint32(body[4:]))
			lay.depth, lay.colour, lay.lace = body[8], body[9], body[12]
		case string(typ) == "IDAT":
			if lay.firstIDAT < 0 {
				lay.firstIDAT = int64(off)
			}
			lay.idat += int64(n)
		case string(typ) == "tEXt":
			k := bytes.IndexByte(body, 0)
			if k < 0 || string(body[:k]) != Keyword {
				break // someone else's text
			}
			crc := binary.BigEndian.Uint32(data[off+8+int(n):])
			if crc32.ChecksumIEEE(data[off+4:off+8+int(n)]) != crc {
				return lay, &FormatError{Offset: int64(off), Msg: "bad CRC in the " + Keyword + " tEXt chunk (file damaged)"}
			}
			if lay.mapping != nil {
				return lay, &FormatError{Offset: int64(off), Msg: "a second " + Keyword + " tEXt chunk: which mapping applies is ambiguous"}
			}
			p, err := parseMapping(body[k+1:], int64(off+8+k+1))
			if err != nil {
				return lay, err
			}
			lay.mapping = p
		case string(typ) == "IEND":
			return lay, nil
		}
		off += 12 + int(n)
	}
}

// mappingKeys are the keys of the metadata text, in the order Write writes
// them and of the fields of mapping.
var mappingKeys = [...]string{"origin_x", "origin_z", "cell", "low", "high"}

// parseMapping parses the text of the metadata chunk, which starts at byte
// base of the file: key=value fields separated by blanks. Unknown keys are
// skipped; each known key must appear once, with a finite number.
func parseMapping(text []byte, base int64) (*mapping, error) {
	var vals [len(mappingKeys)]float64
	var seen [len(mappingKeys)]bool
	blank := func(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }
	for i := 0; i < len(text); {
		if blank(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && !blank(text[j]) {
			j++
		}
		field := text[i:j]
		at := base + int64(i)
		eq := bytes.IndexByte(field, '=')
		if eq <= 0 {
			return nil, &FormatError{Offset: at, Msg: fmt.Sprintf("metadata field %s is not key=value", quote(field))}
		}
		key, val := field[:eq], field[eq+1:]
		k := -1
		for n, name := range mappingKeys {
			if string(key) == name {
				k = n
			}
		}
		i = j
		if k < 0 {
			continue // a key of a later version
		}
		if seen[k] {
			return nil, &FormatError{Offset: at, Msg: "metadata key " + mappingKeys[k] + " appears twice"}
		}
		x, err := strconv.ParseFloat(string(val), 64)
		if err != nil {
			return nil, &FormatError{Offset: at, Msg: fmt.Sprintf("metadata value %s=%s is not a float64", mappingKeys[k], quote(val))}
		}
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, &FormatError{Offset: at, Msg: fmt.Sprintf("metadata value %s=%s is not finite", mappingKeys[k], quote(val))}
		}
		vals[k], seen[k] = x, true
	}
	for k, ok := range seen {
		if !ok {
			return nil, &FormatError{Offset: base, Msg: "metadata lacks the key " + mappingKeys[k]}
		}
	}
	p := &mapping{vals[0], vals[1], vals[2], vals[3], vals[4]}
	if msg := checkMapping(p.originX, p.originZ, p.cell, p.low, p.high); msg != "" {
		return nil, &FormatError{Offset: base, Msg: "metadata " + msg}
	}
	return p, nil
}
