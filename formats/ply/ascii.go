package ply

import (
	"encoding/binary"
	"errors"
	"math"
	"strconv"
)

// appendASCII appends the ASCII line of the valid packed record rec of an
// element with properties props: the values separated by single blanks,
// then "\n".
func appendASCII(dst []byte, props []Property, rec []byte) []byte {
	off := 0
	for i, q := range props {
		if i > 0 {
			dst = append(dst, ' ')
		}
		if !q.IsList {
			dst = appendValue(dst, q.Type, rec[off:])
			off += q.Type.Size()
			continue
		}
		count := q.CountType.Int64(rec[off:])
		dst = appendValue(dst, q.CountType, rec[off:])
		off += q.CountType.Size()
		sz := q.Type.Size()
		for range count {
			dst = append(dst, ' ')
			dst = appendValue(dst, q.Type, rec[off:])
			off += sz
		}
	}
	return append(dst, '\n')
}

// appendValue appends the text of the little-endian value of type t at
// the start of b.
func appendValue(dst []byte, t Type, b []byte) []byte {
	le := binary.LittleEndian
	switch t {
	case Char:
		return strconv.AppendInt(dst, int64(int8(b[0])), 10)
	case Uchar:
		return strconv.AppendUint(dst, uint64(b[0]), 10)
	case Short:
		return strconv.AppendInt(dst, int64(int16(le.Uint16(b))), 10)
	case Ushort:
		return strconv.AppendUint(dst, uint64(le.Uint16(b)), 10)
	case Int:
		return strconv.AppendInt(dst, int64(int32(le.Uint32(b))), 10)
	case Uint:
		return strconv.AppendUint(dst, uint64(le.Uint32(b)), 10)
	case Float:
		u := le.Uint32(b)
		if u&0x7f800000 == 0x7f800000 {
			return appendSpecial(dst, u&0x7fffff != 0, u>>31 != 0)
		}
		return strconv.AppendFloat(dst, float64(math.Float32frombits(u)), 'g', -1, 32)
	case Double:
		u := le.Uint64(b)
		if u&0x7ff0000000000000 == 0x7ff0000000000000 {
			return appendSpecial(dst, u&(1<<52-1) != 0, u>>63 != 0)
		}
		return strconv.AppendFloat(dst, math.Float64frombits(u), 'g', -1, 64)
	}
	panic("ply: invalid " + t.String())
}

// appendSpecial appends a NaN or an infinity as C's printf("%g") spells
// it, which C's strtod, Python's float and Go's strconv all read back.
// The sign of a NaN is kept, its payload is not.
func appendSpecial(dst []byte, nan, neg bool) []byte {
	if neg {
		dst = append(dst, '-')
	}
	if nan {
		return append(dst, "nan"...)
	}
	return append(dst, "inf"...)
}

// nextWord splits the first blank-separated word off b; word is empty when
// b holds only blanks.
func nextWord(b []byte) (word, rest []byte) {
	i := 0
	for i < len(b) && isBlank(b[i]) {
		i++
	}
	j := i
	for j < len(b) && !isBlank(b[j]) {
		j++
	}
	return b[i:j], b[j:]
}

// appendParsed appends the value of the ASCII word tok, of type t, to dst
// as little-endian bytes, or explains why tok is not such a value.
//
// Integers are decimal, with an optional sign, and must fit the type
// (uchar 0..255, ...): a fraction or exponent is an error, not a rounding.
// Floats are what C's strtod reads (decimal, hexadecimal with a p
// exponent, "nan" and "inf" or "infinity" in any case, signed or not) and
// must be within the range of the type; denormals and underflow to zero
// are fine.
func appendParsed(dst []byte, t Type, tok []byte) ([]byte, string, error) {
	if t.IsFloat() {
		return appendParsedFloat(dst, t, tok)
	}
	v, ok := parseInt(tok)
	if !ok {
		if isDecimal(tok) {
			return dst, "value " + strconv.Quote(string(tok)) + " is out of range for " + t.String() + rangeOf(t), nil
		}
		return dst, strconv.Quote(string(tok)) + " is not a decimal integer (the type is " + t.String() + ")", nil
	}
	if info := typeInfo[t]; v < info.min || v > info.max {
		return dst, "value " + strconv.Quote(string(tok)) + " is out of range for " + t.String() + rangeOf(t), nil
	}
	return appendBits(dst, t, uint64(v)), "", nil
}

func rangeOf(t Type) string {
	return " (" + strconv.FormatInt(typeInfo[t].min, 10) + ".." + strconv.FormatInt(typeInfo[t].max, 10) + ")"
}

// parseInt parses an optionally signed decimal integer that fits in an
// int64.
func parseInt(s []byte) (int64, bool) {
	if !isDecimal(s) {
		return 0, false
	}
	neg := s[0] == '-'
	if s[0] == '-' || s[0] == '+' {
		s = s[1:]
	}
	var u uint64
	for _, c := range s {
		if u > (1<<63)/10 {
			return 0, false
		}
		u = u*10 + uint64(c-'0')
		if u > 1<<63 {
			return 0, false
		}
	}
	if neg {
		return -int64(u), true // -(1<<63) wraps to itself, which is right
	}
	if u > math.MaxInt64 {
		return 0, false
	}
	return int64(u), true
}

// isDecimal reports whether s is an optional sign followed by one or more
// decimal digits.
func isDecimal(s []byte) bool {
	if len(s) > 0 && (s[0] == '-' || s[0] == '+') {
		s = s[1:]
	}
	if len(s) == 0 {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func appendParsedFloat(dst []byte, t Type, tok []byte) ([]byte, string, error) {
	if neg, ok := isNaN(tok); ok {
		if t == Float {
			u := uint32(0x7fc00000)
			if neg {
				u |= 1 << 31
			}
			return binary.LittleEndian.AppendUint32(dst, u), "", nil
		}
		u := uint64(0x7ff8000000000000)
		if neg {
			u |= 1 << 63
		}
		return binary.LittleEndian.AppendUint64(dst, u), "", nil
	}
	for _, c := range tok {
		if c == '_' { // strconv allows digit separators, strtod does not
			return dst, strconv.Quote(string(tok)) + " is not a number (the type is " + t.String() + ")", nil
		}
	}
	bits := 64
	if t == Float {
		bits = 32
	}
	v, err := strconv.ParseFloat(string(tok), bits)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return dst, "value " + strconv.Quote(string(tok)) + " is out of range for " + t.String(), err
		}
		return dst, strconv.Quote(string(tok)) + " is not a number (the type is " + t.String() + ")", nil
	}
	if t == Float {
		return binary.LittleEndian.AppendUint32(dst, math.Float32bits(float32(v))), "", nil
	}
	return binary.LittleEndian.AppendUint64(dst, math.Float64bits(v)), "", nil
}

// isNaN reports whether s spells a NaN, "nan" in any case with an optional
// sign, and whether it is negative. strconv.ParseFloat does not accept a
// sign on a NaN, but C's printf writes "-nan" for a NaN with its sign bit
// set.
func isNaN(s []byte) (neg, ok bool) {
	if len(s) > 0 && (s[0] == '-' || s[0] == '+') {
		neg = s[0] == '-'
		s = s[1:]
	}
	return neg, len(s) == 3 && (s[0]|0x20) == 'n' && (s[1]|0x20) == 'a' && (s[2]|0x20) == 'n'
}
