package abc

import (
	"encoding/binary"
	"io"
	"os"
	"strconv"
)

// The root group of an archive has six children (AbcCoreOgawa's layout):
//
//	0  data   int32 AbcCoreOgawa file version: 0
//	1  data   int32 library version that wrote it, major*10000+minor*100+patch (>= 9999)
//	2  group  the top object (see object.go)
//	3  data   the archive's metadata string (_ai_Application, _ai_Description, ...)
//	4  data   the time samplings (timesampling.go)
//	5  data   the indexed metadata: strings of under 256 bytes that object and
//	          property headers refer to by index, each a uint8 length then the string
const (
	rootFileVersion = iota
	rootLibraryVersion
	rootTop
	rootMetadata
	rootTimeSamplings
	rootIndexedMetadata
	rootChildren
)

// fileVersion is the AbcCoreOgawa layout version this package reads and writes.
const fileVersion = 0

// libraryVersion is the Alembic version whose layout this package writes: 1.8.8.
const libraryVersion = 10808

// maxIndexedMetadata is the largest indexed-metadata block Alembic accepts: 254
// strings of under 256 bytes fit in it.
const maxIndexedMetadata = 65536

// MaxDepth is the deepest nesting of objects, and of compound properties in an
// object, that the reader follows: a damaged file can make a group its own
// descendant, and real archives nest a few dozen levels at most.
const MaxDepth = 1000

// An Archive is an Ogawa Alembic archive open for reading. Opening it reads the
// header, the time samplings and the metadata; objects, properties and samples are
// read only when asked for, straight from the file, so that memory follows the
// samples in use and not the archive. An Archive and its objects are not safe for
// concurrent use.
type Archive struct {
	c *container

	// Metadata is the archive's metadata (_ai_Application, _ai_Description, ...).
	Metadata Metadata
	// TimeSamplings lists the archive's time samplings; properties name them by index.
	TimeSamplings []TimeSampling
	// MaxSamples[i] is the most samples any property has with TimeSamplings[i]: the
	// length of the sequence at that sampling.
	MaxSamples []uint32
	// LibraryVersion is the Alembic version that wrote the file, such as 10808.
	LibraryVersion int32

	indexed []Metadata        // indexed metadata; entry 0 is the empty metadata
	nodes   map[uint64]string // the node (object or compound) each group opened belongs to
	top     *Object
	closer  io.Closer
}

// claim records that the group ref (stored at byte at) is the node called node, and
// refuses a group that another node already has. Every object and compound property
// of an archive has a group of its own; a damaged file can make a group its own child,
// or the child of several nodes, and without this check a walk of such a file would
// take exponential time. The empty group (0) belongs to no node.
func (a *Archive) claim(ref uint64, at int64, node string) error {
	if ref == 0 {
		return nil
	}
	if other, ok := a.nodes[ref]; ok && other != node {
		return formatError(at, "", "the group of "+node+" is also the group of "+other)
	}
	a.nodes[ref] = node
	return nil
}

// Open reads the archive in r, a file of size bytes. It returns a *FormatError for an
// input that is not an Ogawa Alembic archive (HDF5 archives have their own message).
func Open(r io.ReaderAt, size int64) (*Archive, error) {
	c, err := openContainer(r, size)
	if err != nil {
		return nil, err
	}
	root, err := c.group(c.root, 8, "")
	if err != nil {
		return nil, err
	}
	if root.len() < rootChildren {
		return nil, formatError(root.pos, "", "the root group has "+strconv.Itoa(root.len())+" children, not 6: not an Alembic archive")
	}
	a := &Archive{c: c, nodes: map[uint64]string{}}
	fv, err := a.int32Data(root, rootFileVersion, "file version")
	if err != nil {
		return nil, err
	}
	if fv < 0 || fv > fileVersion {
		return nil, formatError(root.childOffset(rootFileVersion), "", "unsupported AbcCoreOgawa file version "+strconv.Itoa(int(fv)))
	}
	if a.LibraryVersion, err = a.int32Data(root, rootLibraryVersion, "library version"); err != nil {
		return nil, err
	}
	if a.LibraryVersion < 9999 {
		return nil, formatError(root.childOffset(rootLibraryVersion), "", "unsupported Alembic version "+strconv.Itoa(int(a.LibraryVersion)))
	}
	if err := a.readTimeSamplings(root); err != nil {
		return nil, err
	}
	if err := a.readIndexedMetadata(root); err != nil {
		return nil, err
	}
	md, err := a.c.data(root, rootMetadata, "")
	if err != nil {
		return nil, err
	}
	raw, err := a.c.readAll(md, "")
	if err != nil {
		return nil, err
	}
	a.Metadata = parseMetadata(string(raw))
	if root.isData(rootTop) {
		return nil, formatError(root.childOffset(rootTop), "", "the top object is a data block, not a group")
	}
	a.top = &Object{a: a, Name: "ABC", Path: "/", Metadata: a.Metadata, ref: root.children[rootTop], refAt: root.childOffset(rootTop)}
	return a, nil
}

// OpenFile opens the archive in the named file; Close closes the file.
func OpenFile(name string) (*Archive, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	a, err := Open(f, st.Size())
	if err != nil {
		f.Close()
		return nil, err
	}
	a.closer = f
	return a, nil
}

// Close closes the file that OpenFile opened; it does nothing for Open's archives.
func (a *Archive) Close() error {
	if a.closer == nil {
		return nil
	}
	return a.closer.Close()
}

// Top returns the top object, "/", the parent of the archive's objects.
func (a *Archive) Top() *Object { return a.top }

// TimeSampling returns time sampling i, or an error naming path when there is none.
func (a *Archive) timeSampling(i uint32, path string) (TimeSampling, error) {
	if int64(i) >= int64(len(a.TimeSamplings)) {
		return TimeSampling{}, formatError(-1, path, "time sampling "+strconv.FormatUint(uint64(i), 10)+
			" named, the archive has "+strconv.Itoa(len(a.TimeSamplings)))
	}
	return a.TimeSamplings[i], nil
}

func (a *Archive) int32Data(root *group, i int, what string) (int32, error) {
	d, err := a.c.data(root, i, "")
	if err != nil {
		return 0, err
	}
	if d.size != 4 {
		return 0, formatError(d.pos-8, "", what+" is "+strconv.FormatInt(d.size, 10)+" bytes, not 4: not an Alembic archive")
	}
	b, err := a.c.readAll(d, "")
	if err != nil {
		return 0, err
	}
	return int32(binary.LittleEndian.Uint32(b)), nil
}

func (a *Archive) readTimeSamplings(root *group) error {
	d, err := a.c.data(root, rootTimeSamplings, "")
	if err != nil {
		return err
	}
	b, err := a.c.readAll(d, "")
	if err != nil {
		return err
	}
	a.TimeSamplings, a.MaxSamples, err = parseTimeSamplings(b, d.pos)
	if err != nil {
		return err
	}
	if len(a.TimeSamplings) == 0 {
		// Alembic always writes the identity sampling; a property without an index
		// uses it.
		a.TimeSamplings, a.MaxSamples = []TimeSampling{Uniform(1, 0)}, []uint32{0}
	}
	return nil
}

func (a *Archive) readIndexedMetadata(root *group) error {
	d, err := a.c.data(root, rootIndexedMetadata, "")
	if err != nil {
		return err
	}
	if d.size > maxIndexedMetadata {
		return formatError(d.pos-8, "", "indexed metadata of "+strconv.FormatInt(d.size, 10)+" bytes, more than 65536")
	}
	b, err := a.c.readAll(d, "")
	if err != nil {
		return err
	}
	a.indexed = []Metadata{{}}
	for pos := 0; pos < len(b); {
		n := int(b[pos])
		pos++
		if n > len(b)-pos {
			return formatError(d.pos+int64(pos-1), "", "indexed metadata string "+strconv.Itoa(len(a.indexed))+" overruns its block")
		}
		a.indexed = append(a.indexed, parseMetadata(string(b[pos:pos+n])))
		pos += n
	}
	return nil
}

// metadataAt returns indexed metadata i.
func (a *Archive) metadataAt(i int, off int64, path string) (Metadata, error) {
	if i >= len(a.indexed) {
		return nil, formatError(off, path, "metadata index "+strconv.Itoa(i)+" past the "+strconv.Itoa(len(a.indexed))+" indexed strings")
	}
	return a.indexed[i], nil
}
