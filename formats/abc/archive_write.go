package abc

import (
	"encoding/binary"
	"errors"
	"strconv"
	"strings"
)

// A Writer writes an Ogawa Alembic archive, streaming: each sample goes to the file as
// it is set, and only the hierarchy, one child reference per stored sample and the
// digests of the distinct samples stay in memory. Close writes the groups and headers
// and marks the file complete; an archive whose Writer was not closed reads as "not
// cleanly closed".
//
// Like Alembic, the Writer stores each distinct sample once: a sample whose digest
// (MurmurHash3, murmur3.go) and size match one written before is referenced again,
// and a property's runs of equal samples are not stored at all (properties.go).
type Writer struct {
	o             *ogawaWriter
	metadata      Metadata
	timeSamplings []TimeSampling
	maxSamples    []uint32
	top           *ObjectWriter
	written       map[sampleKey]uint64 // data reference of each distinct sample
	metaIndex     map[string]int       // indexed metadata: string -> index (1-based)
	metaList      []string
	closed        bool
	err           error
}

// sampleKey identifies a distinct sample as Alembic does: digest and size, with the
// numeric types lumped together (their bytes can be shared) and the string types not.
type sampleKey struct {
	digest Digest
	size   int
	pod    POD // String, Wstring, or Int8 for every numeric type
}

// NewWriter starts an archive on out with the given archive metadata (such as
// "_ai_Application": "snowtools export"), which may be nil.
func NewWriter(out Output, md Metadata) (*Writer, error) {
	if _, err := md.serialize(); err != nil {
		return nil, err
	}
	w := &Writer{
		o:             newOgawaWriter(out),
		metadata:      Metadata{},
		timeSamplings: []TimeSampling{Uniform(1, 0)}, // index 0: the identity sampling
		maxSamples:    []uint32{0},
		written:       map[sampleKey]uint64{},
		metaIndex:     map[string]int{},
	}
	for k, v := range md {
		w.metadata[k] = v
	}
	w.top = &ObjectWriter{w: w, name: "ABC", path: "/"}
	w.top.props = &CompoundWriter{w: w, path: "/"}
	return w, w.o.err
}

// AddTimeSampling adds ts to the archive, if it is not there already, and returns its
// index for AddScalar and AddArray.
func (w *Writer) AddTimeSampling(ts TimeSampling) (uint32, error) {
	if err := ts.validate(); err != nil {
		return 0, errors.New("abc: time sampling: " + err.Error())
	}
	for i, t := range w.timeSamplings {
		if t.TimePerCycle == ts.TimePerCycle && equalTimes(t.Times, ts.Times) {
			return uint32(i), nil
		}
	}
	w.timeSamplings = append(w.timeSamplings, TimeSampling{TimePerCycle: ts.TimePerCycle, Times: append([]float64(nil), ts.Times...)})
	w.maxSamples = append(w.maxSamples, 0)
	return uint32(len(w.timeSamplings) - 1), nil
}

func equalTimes(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Top returns the top object, the parent of the archive's objects.
func (w *Writer) Top() *ObjectWriter { return w.top }

// writeSample stores the data of a sample, or finds the identical one stored before,
// and returns its data reference.
func (w *Writer) writeSample(key sampleKey, data []byte) uint64 {
	if len(data) == 0 {
		return dataBit // the empty data block
	}
	if ref, ok := w.written[key]; ok {
		return ref
	}
	ref := w.o.data(key.digest[:], data)
	w.written[key] = ref
	return ref
}

// metadataIndex returns the index under which headers refer to md: 0 for the empty
// string, 1..254 for short strings (indexed the first time they are seen), or 0xff
// for a string written in the header itself.
func (w *Writer) metadataIndex(md string) int {
	if md == "" {
		return 0
	}
	if len(md) >= 256 {
		return metadataInline
	}
	if i, ok := w.metaIndex[md]; ok {
		return i
	}
	if len(w.metaList) >= 254 {
		return metadataInline
	}
	w.metaList = append(w.metaList, md)
	w.metaIndex[md] = len(w.metaList)
	return len(w.metaList)
}

// Close writes the objects' and properties' groups and headers, the archive's metadata
// and time samplings, then the root group, and marks the file complete. It does not
// close the Output.
func (w *Writer) Close() error {
	if w.closed {
		return errors.New("abc: Writer closed twice")
	}
	w.closed = true
	if w.err != nil {
		return w.err
	}
	top, _ := w.top.finish()
	if w.err != nil {
		return w.err
	}
	md, _ := w.metadata.serialize()
	var ts []byte
	for i, t := range w.timeSamplings {
		ts = appendTimeSampling(ts, t, w.maxSamples[i])
	}
	var indexed []byte
	for _, s := range w.metaList {
		indexed = append(indexed, byte(len(s)))
		indexed = append(indexed, s...)
	}
	root := []uint64{
		rootFileVersion:     w.o.data(binary.LittleEndian.AppendUint32(nil, fileVersion)),
		rootLibraryVersion:  w.o.data(binary.LittleEndian.AppendUint32(nil, libraryVersion)),
		rootTop:             top,
		rootMetadata:        w.o.data([]byte(md)),
		rootTimeSamplings:   w.o.data(ts),
		rootIndexedMetadata: w.o.data(indexed),
	}
	return w.o.finish(w.o.group(root))
}

// fail records the first error of the archive.
func (w *Writer) fail(err error) error {
	if w.err == nil {
		w.err = err
	}
	return err
}

// An ObjectWriter is an object being written: add children and properties to it.
type ObjectWriter struct {
	w          *Writer
	name, path string
	md         Metadata
	props      *CompoundWriter
	children   []*ObjectWriter
}

// Path returns the object's full name.
func (o *ObjectWriter) Path() string { return o.path }

// AddChild adds a child object called name with metadata md (such as its schema).
func (o *ObjectWriter) AddChild(name string, md Metadata) (*ObjectWriter, error) {
	if err := checkName(name, o.path); err != nil {
		return nil, err
	}
	if o.w.closed {
		return nil, errors.New("abc: AddChild after Close")
	}
	for _, c := range o.children {
		if c.name == name {
			return nil, errors.New("abc: " + o.path + " already has a child called " + strconv.Quote(name))
		}
	}
	if _, err := md.serialize(); err != nil {
		return nil, err
	}
	path := o.path + "/" + name
	if o.path == "/" {
		path = "/" + name
	}
	c := &ObjectWriter{w: o.w, name: name, path: path, md: md}
	c.props = &CompoundWriter{w: o.w, path: path}
	o.children = append(o.children, c)
	return c, nil
}

// Properties returns the object's top compound property.
func (o *ObjectWriter) Properties() *CompoundWriter { return o.props }

func checkName(name, parent string) error {
	if name == "" || strings.Contains(name, "/") {
		return errors.New("abc: " + parent + ": name " + strconv.Quote(name) + " is empty or holds '/'")
	}
	return nil
}

// finish writes the object's properties, then its children, then its group, and
// returns the group's reference and the object's hash.
func (o *ObjectWriter) finish() (uint64, Digest) {
	props, _, propsHash := o.props.finish()
	refs := []uint64{props}
	var headers, childHashes []byte
	for _, c := range o.children {
		ref, h := c.finish()
		refs = append(refs, ref)
		childHashes = append(childHashes, h[:]...)
		md, _ := c.md.serialize()
		headers = binary.LittleEndian.AppendUint32(headers, uint32(len(c.name)))
		headers = append(headers, c.name...)
		idx := o.w.metadataIndex(md)
		headers = append(headers, byte(idx))
		if idx == metadataInline {
			headers = binary.LittleEndian.AppendUint32(headers, uint32(len(md)))
			headers = append(headers, md...)
		}
	}
	// The 32 hash bytes: Alembic fills them with SpookyHash digests of the properties
	// and of the children, which readers only compare with each other; this writer
	// fills them with MurmurHash3 digests of the same contents (the property hashes,
	// the children's hashes), so that equal objects hash equal here too.
	var children Digest
	if len(childHashes) > 0 {
		children = Sum128(childHashes)
	}
	headers = append(headers, propsHash[:]...)
	headers = append(headers, children[:]...)
	refs = append(refs, o.w.o.data(headers))
	return o.w.o.group(refs), Sum128(append(propsHash[:], children[:]...))
}
