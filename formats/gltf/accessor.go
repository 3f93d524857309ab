package gltf

import (
	"encoding/binary"
	"fmt"
	"math"

	qgltf "github.com/qmuntal/gltf"
)

// Accessors are read here rather than with the library's modeler package, which
// allocates count x element size before looking at the bytes: a count of 1e12 in a
// 1 kB file would end the process. Every count, offset, stride and sparse count is
// checked against the bytes that are really there before anything is allocated,
// with divisions instead of products so that nothing overflows.

// zeroSlack is how many values an accessor without a bufferView (all zeros, plus
// sparse values) may hold beyond the buffer bytes of the file. Its count is backed
// by no bytes, so it is bounded by the bytes there are: the legitimate use, a
// sparse morph target, shadows a POSITION accessor that takes 12 bytes a vertex.
const zeroSlack = 4096

// compSet says which component types a use of an accessor accepts.
type compSet uint8

const (
	compFloat   compSet = 1 << iota // 5126, not normalized
	compNorm                        // normalized 5120/5121/5122/5123
	compUint                        // 5121/5123/5125, not normalized (indices)
	compUint816                     // 5121/5123, not normalized (joint indices)
	compInt                         // 5120..5123, normalized or not (KHR_mesh_quantization)
)

func (c compSet) allows(ct qgltf.ComponentType, normalized bool) bool {
	small := ct == qgltf.ComponentByte || ct == qgltf.ComponentUbyte ||
		ct == qgltf.ComponentShort || ct == qgltf.ComponentUshort
	switch {
	case c&compFloat != 0 && ct == qgltf.ComponentFloat && !normalized:
		return true
	case c&compNorm != 0 && normalized && small:
		return true
	case c&compUint != 0 && !normalized && (ct == qgltf.ComponentUbyte || ct == qgltf.ComponentUshort || ct == qgltf.ComponentUint):
		return true
	case c&compUint816 != 0 && !normalized && (ct == qgltf.ComponentUbyte || ct == qgltf.ComponentUshort):
		return true
	case c&compInt != 0 && small:
		return true
	}
	return false
}

func (c compSet) String() string {
	switch c {
	case compFloat:
		return "FLOAT"
	case compFloat | compNorm:
		return "FLOAT or normalized BYTE/UNSIGNED_BYTE/SHORT/UNSIGNED_SHORT"
	case compUint:
		return "UNSIGNED_BYTE/UNSIGNED_SHORT/UNSIGNED_INT"
	case compUint816:
		return "UNSIGNED_BYTE/UNSIGNED_SHORT"
	}
	return "FLOAT or BYTE/UNSIGNED_BYTE/SHORT/UNSIGNED_SHORT"
}

// componentName spells a component type the way the spec's JSON does.
func componentName(ct qgltf.ComponentType, normalized bool) string {
	s := fmt.Sprintf("%d (%v)", componentCode(ct), ct)
	if normalized {
		s += " normalized"
	}
	return s
}

func componentCode(ct qgltf.ComponentType) int {
	return map[qgltf.ComponentType]int{
		qgltf.ComponentByte: 5120, qgltf.ComponentUbyte: 5121, qgltf.ComponentShort: 5122,
		qgltf.ComponentUshort: 5123, qgltf.ComponentUint: 5125, qgltf.ComponentFloat: 5126,
	}[ct]
}

// read decodes accessor idx as count x Components(typ) float64 values, element
// after element. use is the JSON location that refers to the accessor, for errors.
//
// Normalized integers c become max(c/127, -1), c/255, max(c/32767, -1), c/65535 for
// BYTE, UNSIGNED_BYTE, SHORT, UNSIGNED_SHORT (glTF 2.0 section 3.11). Floating-point
// values must be finite. The result is cached per accessor and must not be modified.
func (l *loader) read(idx int, use string, typ qgltf.AccessorType, allow compSet) ([]float64, error) {
	if idx < 0 || idx >= len(l.doc.Accessors) || l.doc.Accessors[idx] == nil {
		return nil, errorf(l.file, use, "accessor %d does not exist (the file has %d)", idx, len(l.doc.Accessors))
	}
	a := l.doc.Accessors[idx]
	where := fmt.Sprintf("accessors[%d]", idx)
	fail := func(format string, args ...any) error {
		return errorf(l.file, where, "%s (read as %s)", fmt.Sprintf(format, args...), use)
	}
	if a.Type != typ {
		return nil, fail("type %v, expected %v", a.Type, typ)
	}
	if !allow.allows(a.ComponentType, a.Normalized) {
		return nil, fail("componentType %s, expected %v", componentName(a.ComponentType, a.Normalized), allow)
	}
	if v, ok := l.cache[idx]; ok {
		return v, nil
	}
	comps := typ.Components()
	csize := a.ComponentType.ByteSize()
	elem := comps * csize // no column padding: matrices are only read as FLOAT
	n := a.Count
	if n < 1 {
		return nil, fail("count %d must be at least 1", n)
	}
	var out []float64
	var err error
	if a.BufferView != nil {
		out, err = l.dense(a, where, elem, comps, fail)
	} else {
		out, err = l.zeros(n, comps, fail)
	}
	if err != nil {
		return nil, err
	}
	if a.Sparse != nil {
		if err := l.sparse(a, where, out, elem, comps, fail); err != nil {
			return nil, err
		}
	}
	if a.ComponentType == qgltf.ComponentFloat {
		for i, v := range out {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fail("element %d component %d is %v", i/comps, i%comps, v)
			}
		}
	}
	l.cache[idx] = out
	return out, nil
}

// dense decodes accessor a's count elements of comps components, elem bytes each,
// from its bufferView, after checking that they fit there.
func (l *loader) dense(a *qgltf.Accessor, where string, elem, comps int, fail func(string, ...any) error) ([]float64, error) {
	n := a.Count
	data, stride, err := l.view(*a.BufferView, where+".bufferView", elem)
	if err != nil {
		return nil, err
	}
	if a.ByteOffset < 0 || a.ByteOffset > len(data) {
		return nil, fail("byteOffset %d is outside bufferViews[%d] (%d bytes)", a.ByteOffset, *a.BufferView, len(data))
	}
	data = data[a.ByteOffset:]
	if len(data) < elem || n-1 > (len(data)-elem)/stride {
		room := 0
		if len(data) >= elem {
			room = (len(data)-elem)/stride + 1
		}
		return nil, fail("count %d does not fit: bufferViews[%d] has %d bytes after byteOffset %d, room for %d elements of %d bytes with stride %d",
			n, *a.BufferView, len(data), a.ByteOffset, room, elem, stride)
	}
	if err := l.spend(n*comps, fail); err != nil {
		return nil, err
	}
	out := make([]float64, n*comps)
	for i := range n {
		decodeElem(out[i*comps:(i+1)*comps], data[i*stride:], a.ComponentType, a.Normalized)
	}
	return out, nil
}

// zeros is an accessor without a bufferView: zeros, which only sparse values make
// useful; the count is backed by no bytes at all, so it is bounded by the file's.
func (l *loader) zeros(n, comps int, fail func(string, ...any) error) ([]float64, error) {
	if limit := l.bufferBytes + zeroSlack; n > limit/comps {
		return nil, fail("count %d without a bufferView exceeds the limit of %d values (the buffer bytes of the file + %d)", n, limit, zeroSlack)
	}
	if err := l.spend(n*comps, fail); err != nil {
		return nil, err
	}
	return make([]float64, n*comps), nil
}

// spend takes n values from the decoding budget of the file, which is a few times
// its buffer bytes: accessors may alias the same bytes, and a small JSON listing
// many of them must not make a huge amount of work.
func (l *loader) spend(n int, fail func(string, ...any) error) error {
	if n > l.budget {
		return fail("decoding it would exceed the limit of values this file's %d buffer bytes can justify", l.bufferBytes)
	}
	l.budget -= n
	return nil
}

// sparse overwrites the elements of out listed by a.Sparse. Indices must be
// strictly increasing and inside the accessor.
func (l *loader) sparse(a *qgltf.Accessor, where string, out []float64, elem, comps int, fail func(string, ...any) error) error {
	s := a.Sparse
	n := a.Count
	if s.Count < 1 || s.Count > n {
		return fail("sparse.count %d is outside 1..%d", s.Count, n)
	}
	ict := s.Indices.ComponentType
	if !compUint.allows(ict, false) {
		return fail("sparse.indices.componentType %s, expected %v", componentName(ict, false), compUint)
	}
	isize := ict.ByteSize()
	idata, _, err := l.view(s.Indices.BufferView, where+".sparse.indices.bufferView", isize)
	if err != nil {
		return err
	}
	vdata, _, err := l.view(s.Values.BufferView, where+".sparse.values.bufferView", elem)
	if err != nil {
		return err
	}
	if s.Indices.ByteOffset < 0 || s.Indices.ByteOffset > len(idata) || s.Count > (len(idata)-s.Indices.ByteOffset)/isize {
		return fail("sparse.indices: %d indices of %d bytes from byteOffset %d do not fit in bufferViews[%d] (%d bytes)",
			s.Count, isize, s.Indices.ByteOffset, s.Indices.BufferView, len(idata))
	}
	if s.Values.ByteOffset < 0 || s.Values.ByteOffset > len(vdata) || s.Count > (len(vdata)-s.Values.ByteOffset)/elem {
		return fail("sparse.values: %d elements of %d bytes from byteOffset %d do not fit in bufferViews[%d] (%d bytes)",
			s.Count, elem, s.Values.ByteOffset, s.Values.BufferView, len(vdata))
	}
	idata = idata[s.Indices.ByteOffset:]
	vdata = vdata[s.Values.ByteOffset:]
	prev := -1
	for k := range s.Count {
		j := int(readUint(idata[k*isize:], isize))
		if j <= prev || j >= n {
			return fail("sparse index %d (entry %d) is not increasing or not below count %d", j, k, n)
		}
		prev = j
		decodeElem(out[j*comps:(j+1)*comps], vdata[k*elem:], a.ComponentType, a.Normalized)
	}
	return nil
}

// view returns the bytes of bufferView i and its stride for elements of elem bytes
// (byteStride 0 means tightly packed).
func (l *loader) view(i int, use string, elem int) ([]byte, int, error) {
	if i < 0 || i >= len(l.doc.BufferViews) || l.doc.BufferViews[i] == nil {
		return nil, 0, errorf(l.file, use, "bufferView %d does not exist (the file has %d)", i, len(l.doc.BufferViews))
	}
	bv := l.doc.BufferViews[i]
	where := fmt.Sprintf("bufferViews[%d]", i)
	if bv.Buffer < 0 || bv.Buffer >= len(l.doc.Buffers) {
		return nil, 0, errorf(l.file, where, "buffer %d does not exist (the file has %d)", bv.Buffer, len(l.doc.Buffers))
	}
	buf := l.doc.Buffers[bv.Buffer].Data
	if bv.ByteOffset < 0 || bv.ByteLength < 1 || bv.ByteOffset > len(buf) || bv.ByteLength > len(buf)-bv.ByteOffset {
		return nil, 0, errorf(l.file, where, "byteOffset %d and byteLength %d do not fit in buffers[%d] (%d bytes)",
			bv.ByteOffset, bv.ByteLength, bv.Buffer, len(buf))
	}
	stride := bv.ByteStride
	switch {
	case stride == 0:
		stride = elem
	case stride < elem:
		return nil, 0, errorf(l.file, where, "byteStride %d is shorter than an element (%d bytes, read as %s)", stride, elem, use)
	}
	return buf[bv.ByteOffset : bv.ByteOffset+bv.ByteLength], stride, nil
}

// decodeElem converts the len(dst) components at the start of src.
func decodeElem(dst []float64, src []byte, ct qgltf.ComponentType, normalized bool) {
	size := ct.ByteSize()
	for c := range dst {
		b := src[c*size:]
		var v float64
		switch ct {
		case qgltf.ComponentFloat:
			v = float64(math.Float32frombits(binary.LittleEndian.Uint32(b)))
		case qgltf.ComponentUint:
			v = float64(binary.LittleEndian.Uint32(b))
		case qgltf.ComponentUshort:
			v = float64(binary.LittleEndian.Uint16(b))
			if normalized {
				v /= 65535
			}
		case qgltf.ComponentShort:
			v = float64(int16(binary.LittleEndian.Uint16(b)))
			if normalized {
				v = math.Max(v/32767, -1)
			}
		case qgltf.ComponentUbyte:
			v = float64(b[0])
			if normalized {
				v /= 255
			}
		case qgltf.ComponentByte:
			v = float64(int8(b[0]))
			if normalized {
				v = math.Max(v/127, -1)
			}
		}
		dst[c] = v
	}
}

// readUint reads an unsigned little-endian integer of size 1, 2 or 4 bytes.
func readUint(b []byte, size int) uint32 {
	switch size {
	case 1:
		return uint32(b[0])
	case 2:
		return uint32(binary.LittleEndian.Uint16(b))
	}
	return binary.LittleEndian.Uint32(b)
}
