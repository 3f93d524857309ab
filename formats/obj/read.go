package obj

import (
	"fmt"
	"io"
	"math"
	"slices"

	"snowtools/levelset/geom"
)

// Read reads an OBJ file and returns its faces as one triangle mesh, with the
// vertices in file order. Errors in the file are *FormatError; errors of r are
// returned wrapped, naming the line being read.
func Read(r io.Reader) (*geom.Mesh, error) {
	p := parser{lines: newLineReader(r)}
	for {
		line, n, err := p.lines.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			if _, ok := err.(*FormatError); ok {
				return nil, err
			}
			return nil, fmt.Errorf("obj: reading line %d: %w", n, err)
		}
		if err := p.statement(line, n); err != nil {
			return nil, err
		}
	}
	return p.finish()
}

// parser turns logical lines into a mesh.
type parser struct {
	lines   *lineReader
	mesh    geom.Mesh
	poly    []int32       // the current face's vertices; reused
	forward []forwardFace // faces naming vertices not read yet
	later   []laterFace   // large polygons waiting for their vertices
}

// laterFace is a polygon of more than geom.FanCorners corners that names vertices
// not read yet: its triangulation needs their positions, so it is made at the end,
// into the triangle slots reserved for it in file order.
type laterFace struct {
	corners []int32
	first   int // its first triangle's index
}

// forwardFace remembers a face that names a vertex after the last one read so
// far, which is legal only if the file defines that vertex later: whether it
// does is known only at the end.
type forwardFace struct {
	line int
	max  int32 // the largest 0-based index the face names
}

// statement handles one logical line.
func (p *parser) statement(line []byte, n int) error {
	keyword, rest := nextField(line)
	switch string(keyword) {
	case "v":
		return p.vertex(rest, n)
	case "f":
		return p.face(rest, n)
	}
	return nil // blank line, or a statement that does not shape the surface
}

// vertex reads "x y z", ignoring the w or vertex-colour values that may follow.
func (p *parser) vertex(rest []byte, n int) error {
	var v geom.Vec3
	for i := range v {
		var f []byte
		f, rest = nextField(rest)
		if len(f) == 0 {
			return &FormatError{Line: n, Msg: fmt.Sprintf("vertex has %d coordinates, needs 3", i)}
		}
		x, err := parseFloat(f)
		if err != nil {
			return &FormatError{Line: n, Msg: err.Error()}
		}
		v[i] = x
	}
	if len(p.mesh.Positions) == math.MaxInt32 {
		return &FormatError{Line: n, Msg: "more vertices than a 32-bit index can reach"}
	}
	p.mesh.Positions = append(p.mesh.Positions, v)
	return nil
}

// face reads the vertices of a polygon and adds its triangles, in the polygon's
// winding (geom.TriangulatePolygon): a fan around the first vertex for up to
// geom.FanCorners vertices, local ears for larger polygons.
func (p *parser) face(rest []byte, n int) error {
	p.poly = p.poly[:0]
	nv := len(p.mesh.Positions)
	max := int32(-1)
	for {
		var f []byte
		f, rest = nextField(rest)
		if len(f) == 0 {
			break
		}
		i, err := vertexIndex(f, nv)
		if err != nil {
			return &FormatError{Line: n, Msg: err.Error()}
		}
		p.poly = append(p.poly, i)
		if i > max {
			max = i
		}
	}
	if len(p.poly) < 3 {
		return &FormatError{Line: n, Msg: fmt.Sprintf("face has %d vertices, needs at least 3", len(p.poly))}
	}
	if int(max) >= nv {
		p.forward = append(p.forward, forwardFace{line: n, max: max})
		if len(p.poly) > geom.FanCorners {
			p.later = append(p.later, laterFace{corners: slices.Clone(p.poly), first: len(p.mesh.Triangles)})
			p.mesh.Triangles = append(p.mesh.Triangles, make([][3]int32, len(p.poly)-2)...)
			return nil
		}
	}
	p.mesh.Triangles = geom.TriangulatePolygon(p.mesh.Positions, p.poly, p.mesh.Triangles)
	return nil
}

// finish checks what could only be checked once every vertex was known.
func (p *parser) finish() (*geom.Mesh, error) {
	if len(p.mesh.Triangles) == 0 {
		return nil, &FormatError{Msg: fmt.Sprintf("no faces (%d vertices): a collider needs a surface", len(p.mesh.Positions))}
	}
	nv := len(p.mesh.Positions)
	for _, f := range p.forward {
		if int(f.max) >= nv {
			return nil, &FormatError{Line: f.line, Msg: fmt.Sprintf("vertex index %d is out of range: the file has %d vertices", int64(f.max)+1, nv)}
		}
	}
	for _, f := range p.later {
		slots := p.mesh.Triangles[f.first : f.first+len(f.corners)-2]
		geom.TriangulatePolygon(p.mesh.Positions, f.corners, slots[:0])
	}
	return &p.mesh, nil
}
