package gltf

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"path"
	"strings"

	qgltf "github.com/qmuntal/gltf"

	"snowtools/formats/input"
)

// readDocument parses a .gltf or .glb stream with qmuntal/gltf and makes every
// buffer's bytes available, exactly byteLength of them.
//
// The library checks the JSON syntax, the required fields and enum values, the GLB
// header and BIN chunk, and decodes data: URIs. It is given no file system, so it
// never opens a file itself: external buffers are read here, through fsys only,
// after checking that the URI is a relative path that stays in the folder, and no
// more than byteLength bytes are read from them.
func readDocument(r io.Reader, fsys fs.FS, file string) (*qgltf.Document, error) {
	doc := new(qgltf.Document)
	if err := qgltf.NewDecoder(r).Decode(doc); err != nil {
		// A bad buffer URI is reported by the library without saying which buffer;
		// say it precisely when that is the cause.
		for i, b := range doc.Buffers {
			if b != nil && b.Data == nil && b.URI != "" && !b.IsEmbeddedResource() {
				if _, uerr := bufferPath(b.URI); uerr != nil {
					return nil, &FormatError{File: file, Where: fmt.Sprintf("buffers[%d]", i), Msg: uerr.Error()}
				}
			}
		}
		return nil, &FormatError{File: file, Msg: "not a readable glTF 2.0 file", Err: err}
	}
	if doc.Asset.Version != "2.0" && !strings.HasPrefix(doc.Asset.Version, "2.") {
		return nil, errorf(file, "asset.version", "version %q: only glTF 2.x is supported", doc.Asset.Version)
	}
	for _, ext := range doc.ExtensionsRequired {
		if unsupportedExtensions[ext] {
			return nil, errorf(file, "extensionsRequired", "extension %s changes the geometry and is not supported; re-export without it", ext)
		}
	}
	for i, b := range doc.Buffers {
		where := fmt.Sprintf("buffers[%d]", i)
		if b == nil {
			return nil, errorf(file, where, "null buffer")
		}
		if b.ByteLength < 1 {
			return nil, errorf(file, where, "byteLength %d must be at least 1", b.ByteLength)
		}
		if b.Data == nil {
			if err := readExternal(b, fsys, file, where); err != nil {
				return nil, err
			}
		}
		if len(b.Data) < b.ByteLength {
			return nil, errorf(file, where, "holds %d bytes, byteLength says %d", len(b.Data), b.ByteLength)
		}
		// Views are checked against byteLength, the size the file declares.
		b.Data = b.Data[:b.ByteLength:b.ByteLength]
	}
	return doc, nil
}

// unsupportedExtensions are required extensions without which the positions or
// triangles cannot be decoded correctly. KHR_mesh_quantization is supported.
var unsupportedExtensions = map[string]bool{
	"KHR_draco_mesh_compression": true,
	"EXT_meshopt_compression":    true,
	"KHR_meshopt_compression":    true,
	"EXT_mesh_gpu_instancing":    true,
}

// bufferPath turns a buffer URI into a path that fs.FS accepts, refusing anything
// that is not a relative reference inside the folder of the glTF file.
func bufferPath(uri string) (string, error) {
	if strings.HasPrefix(uri, "data:") {
		return "", errors.New("data: URI is not base64 application/octet-stream or application/gltf-buffer")
	}
	u, err := url.Parse(strings.ReplaceAll(uri, "\\", "/"))
	if err != nil {
		return "", fmt.Errorf("URI %q is not valid: %v", uri, err)
	}
	if u.Scheme != "" || u.Host != "" {
		return "", fmt.Errorf("URI %q: only relative file names are read, not %s: URIs", uri, u.Scheme)
	}
	p := u.Path // already percent-decoded
	if p == "" {
		return "", fmt.Errorf("URI %q names no file", uri)
	}
	if strings.HasPrefix(p, "/") || (len(p) > 1 && p[1] == ':') {
		return "", fmt.Errorf("URI %q is an absolute path; buffers must be relative to the glTF file", uri)
	}
	p = path.Clean(p)
	if p == ".." || strings.HasPrefix(p, "../") || !fs.ValidPath(p) {
		return "", fmt.Errorf("URI %q points outside the folder of the glTF file", uri)
	}
	return p, nil
}

// readExternal reads buffer b from fsys. It reads at most byteLength bytes, so a
// huge or endless file costs no more than the declared size, and the slice grows
// only as bytes arrive.
func readExternal(b *qgltf.Buffer, fsys fs.FS, file, where string) error {
	p, err := bufferPath(b.URI)
	if err != nil {
		return &FormatError{File: file, Where: where, Msg: err.Error()}
	}
	if fsys == nil {
		return errorf(file, where, "external buffer %q: no folder to read it from (decoded from a stream)", b.URI)
	}
	// A FIFO would block the open forever and a device never end: only a regular
	// file is a buffer.
	if err := input.CheckFS(fsys, p); err != nil {
		return &FormatError{File: file, Where: where, Msg: fmt.Sprintf("cannot read external buffer %q", b.URI), Err: err}
	}
	f, err := fsys.Open(p)
	if err != nil {
		return &FormatError{File: file, Where: where, Msg: fmt.Sprintf("cannot read external buffer %q", b.URI), Err: err}
	}
	defer f.Close()
	b.Data, err = io.ReadAll(io.LimitReader(f, int64(b.ByteLength)))
	if err != nil {
		return &FormatError{File: file, Where: where, Msg: fmt.Sprintf("reading external buffer %q", b.URI), Err: err}
	}
	if b.Data == nil {
		b.Data = []byte{}
	}
	return nil
}
