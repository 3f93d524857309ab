package blosc

import (
	"encoding/binary"
	"errors"
)

// BloscLZ is the LZ77 codec of c-blosc, a variant of FastLZ (level 2). A stream
// is a sequence of instructions, each starting with a control byte c:
//
//   - c < 32: a literal run; the next c+1 bytes are copied to the output.
//   - c >= 32: a match; copy L bytes from D bytes back in the output, byte by
//     byte (so D < L repeats a pattern). With t = c>>5 (1 to 7): L = t+2 for
//     t < 7; for t = 7, L = 9 plus the following bytes, added up to and including
//     the first one below 255. Then a byte b gives the near distance
//     D = ((c&31)<<8 | b) + 1, at most 8191. The pair c&31 = 31, b = 255 instead
//     announces a far distance: two more bytes, big endian, plus 8192, so
//     D = 8192 to 73727.
//
// The first instruction is a literal run, and its control byte carries 1 in its
// top three bits (FastLZ's level marker), which the decoder masks off. The stream
// ends where its bytes end. Writers end it with a literal run: c-blosc 1.21's
// decoder reads the next control byte before it copies a match, and stops there
// if there is none, so it drops a match that comes last.
const (
	blzMaxLiteral  = 32
	blzNearLimit   = 8191                     // the largest near distance
	blzFarLimit    = blzNearLimit + 1 + 65535 // the largest far distance
	blzMinMatch    = 3
	blzMinFarMatch = 5 // a far match costs 4 bytes before its length: shorter ones do not pay
	blzMarker      = 1 << 5
)

var errBloscLZ = errors.New("blosclz stream does not decode to the block's size")

// decodeBloscLZ decompresses src into dst, which it must fill exactly.
func decodeBloscLZ(dst, src []byte) error {
	if len(src) == 0 {
		return errBloscLZ
	}
	op, ip := 0, 0
	ctrl := int(src[ip] & 31)
	ip++
	for {
		if ctrl < 32 {
			n := ctrl + 1
			if ip+n > len(src) || op+n > len(dst) {
				return errBloscLZ
			}
			copy(dst[op:], src[ip:ip+n])
			op += n
			ip += n
		} else {
			length := ctrl>>5 + 2
			if ctrl>>5 == 7 {
				for {
					if ip >= len(src) {
						return errBloscLZ
					}
					b := int(src[ip])
					ip++
					length += b
					if b != 255 {
						break
					}
					if length > len(dst) {
						return errBloscLZ
					}
				}
			}
			if ip >= len(src) {
				return errBloscLZ
			}
			high, low := ctrl&31, int(src[ip])
			ip++
			dist := high<<8 | low + 1
			if high == 31 && low == 255 {
				if ip+2 > len(src) {
					return errBloscLZ
				}
				dist = int(binary.BigEndian.Uint16(src[ip:])) + blzNearLimit + 1
				ip += 2
			}
			if dist > op || op+length > len(dst) {
				return errBloscLZ
			}
			copyMatch(dst, op, dist, length)
			op += length
		}
		if ip == len(src) {
			break
		}
		ctrl = int(src[ip])
		ip++
	}
	if op != len(dst) {
		return errBloscLZ
	}
	return nil
}

// copyMatch copies length bytes to dst[op:] from dist bytes back, as if byte
// by byte: when dist < length the bytes just written are read again, repeating
// the last dist bytes. Each copy reads only bytes already final and doubles
// what the next may read, and every offset it starts at is a multiple of dist.
func copyMatch(dst []byte, op, dist, length int) {
	from := op - dist
	for n := 0; n < length; {
		n += copy(dst[op+n:op+length], dst[from:op+n])
	}
}

// blzEncoder compresses with a hash table of the last position each 3-byte
// sequence was seen at: greedy matching, every position hashed.
type blzEncoder struct {
	table [1 << blzHashLog]int32 // position + 1; 0 is empty
}

const blzHashLog = 13

func blzHash(b []byte) uint32 {
	v := uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16
	return (v * 2654435761) >> (32 - blzHashLog)
}

// encode appends src compressed to dst and returns it, or returns nil if the
// result would not be shorter than limit bytes.
func (e *blzEncoder) encode(dst, src []byte, limit int) []byte {
	if len(src) < blzMinMatch+1 {
		return nil
	}
	clear(e.table[:])
	start := len(dst)
	w := blzWriter{out: dst}
	lit := 0            // where the pending literal run starts
	end := len(src) - 1 // matches stop here: the last byte is a literal
	for i := 0; i+blzMinMatch <= end; {
		if len(w.out)-start >= limit {
			return nil
		}
		h := blzHash(src[i:])
		cand := int(e.table[h]) - 1
		e.table[h] = int32(i + 1)
		dist := i - cand
		length := 0
		if cand >= 0 && dist <= blzFarLimit {
			length = matchLength(src[cand:], src[i:end])
		}
		if length < blzMinMatch || (dist > blzNearLimit && length < blzMinFarMatch) {
			i++
			continue
		}
		w.literals(src[lit:i])
		w.match(length, dist)
		for k := i + 1; k < i+length && k+blzMinMatch <= end; k++ {
			e.table[blzHash(src[k:])] = int32(k + 1)
		}
		i += length
		lit = i
	}
	w.literals(src[lit:])
	if len(w.out)-start >= limit {
		return nil
	}
	w.out[start] |= blzMarker
	return w.out
}

// matchLength returns how many leading bytes of a and b agree.
func matchLength(a, b []byte) int {
	n := 0
	for n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// blzWriter appends instructions.
type blzWriter struct{ out []byte }

// literals appends runs of at most 32 literal bytes.
func (w *blzWriter) literals(p []byte) {
	for len(p) > 0 {
		n := min(len(p), blzMaxLiteral)
		w.out = append(w.out, byte(n-1))
		w.out = append(w.out, p[:n]...)
		p = p[n:]
	}
}

// match appends a match of length bytes from dist back.
func (w *blzWriter) match(length, dist int) {
	d := dist - 1
	high, low := d>>8, byte(d)
	if dist > blzNearLimit {
		high, low = 31, 255
	}
	if length < 9 {
		w.out = append(w.out, byte((length-2)<<5|high))
	} else {
		w.out = append(w.out, byte(7<<5|high))
		for rest := length - 9; ; rest -= 255 {
			if rest < 255 {
				w.out = append(w.out, byte(rest))
				break
			}
			w.out = append(w.out, 255)
		}
	}
	w.out = append(w.out, low)
	if dist > blzNearLimit {
		w.out = binary.BigEndian.AppendUint16(w.out, uint16(dist-blzNearLimit-1))
	}
}
