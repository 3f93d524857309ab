package ply

import "encoding/binary"

// plan is what the writer and the reader precompute about an element.
type plan struct {
	name  string
	count int64
	props []Property
	size  int   // packed record size, or -1 if the element has lists
	runs  []run // for size >= 0: the record as runs of same-size values, for byte swapping
}

// run is n consecutive values of size bytes each.
type run struct{ size, n int }

func newPlans(h Header) []plan {
	plans := make([]plan, len(h.Elements))
	for i, e := range h.Elements {
		p := plan{name: e.Name, count: e.Count, props: append([]Property(nil), e.Properties...), size: e.RecordSize()}
		if p.size >= 0 {
			for _, q := range e.Properties {
				sz := q.Type.Size()
				if k := len(p.runs) - 1; k >= 0 && p.runs[k].size == sz {
					p.runs[k].n++
				} else {
					p.runs = append(p.runs, run{sz, 1})
				}
			}
		}
		plans[i] = p
	}
	return plans
}

// swapRecords reverses the byte order of every value of the whole
// fixed-size records in b, in place. The loops are written out per value
// size, without calls, because this is the inner loop of big-endian I/O.
func (p *plan) swapRecords(b []byte) {
	if len(p.runs) == 1 {
		swapValues(b, p.runs[0].size)
		return
	}
	le, be := binary.LittleEndian, binary.BigEndian
	for ; len(b) >= p.size; b = b[p.size:] {
		rec := b[:p.size]
		off := 0
		for _, r := range p.runs {
			switch r.size {
			case 1:
				off += r.n
			case 2:
				for end := off + 2*r.n; off < end; off += 2 {
					v := rec[off : off+2]
					be.PutUint16(v, le.Uint16(v))
				}
			case 4:
				for end := off + 4*r.n; off < end; off += 4 {
					v := rec[off : off+4]
					be.PutUint32(v, le.Uint32(v))
				}
			case 8:
				for end := off + 8*r.n; off < end; off += 8 {
					v := rec[off : off+8]
					be.PutUint64(v, le.Uint64(v))
				}
			}
		}
	}
}

// swapValues reverses the byte order of each size-byte value in b.
func swapValues(b []byte, size int) {
	le, be := binary.LittleEndian, binary.BigEndian
	switch size {
	case 2:
		for i := 0; i+2 <= len(b); i += 2 {
			be.PutUint16(b[i:], le.Uint16(b[i:]))
		}
	case 4:
		for i := 0; i+4 <= len(b); i += 4 {
			be.PutUint32(b[i:], le.Uint32(b[i:]))
		}
	case 8:
		for i := 0; i+8 <= len(b); i += 8 {
			be.PutUint64(b[i:], le.Uint64(b[i:]))
		}
	}
}
