package obj

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"snowtools/levelset/geom"
)

// Write writes m as an OBJ file: a "# snowtools" comment and one "# " line per
// comment given (what the mesh is: its frame, time and axes), one "v x y z" line
// per vertex and one "f a b c" line per triangle, with 1-based indices in the
// mesh's own winding. Velocities are dropped, as OBJ has no place for them.
//
// Coordinates are written as the shortest decimal text that parses back to the
// same float64, so Read returns exactly the positions and triangles of m: a
// ground mesh written this way and read back by another of our tools has not
// moved by a rounding step. Vertex order is kept, so vertex i of m is line
// "v" number i+1 of the file.
//
// An invalid mesh (see geom.Mesh.Validate) is an error that writes nothing; an
// empty one (no vertex, no triangle: the surface of a frame without snow) writes
// only the comments. A comment with a line break is an error. Output is buffered;
// the underlying writer is not closed.
func Write(w io.Writer, m *geom.Mesh, comments ...string) error {
	if m == nil {
		return fmt.Errorf("obj: Write: nil mesh")
	}
	empty := len(m.Positions) == 0 && len(m.Triangles) == 0
	if err := m.Validate(); err != nil && !empty {
		return fmt.Errorf("obj: Write: %w", err)
	}
	for _, c := range comments {
		if strings.ContainsAny(c, "\r\n") {
			return fmt.Errorf("obj: Write: comment %q has a line break", c)
		}
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	line := make([]byte, 0, 128)
	line = append(line, "# snowtools\n"...)
	for _, c := range comments {
		line = append(append(append(line, "# "...), c...), '\n')
	}
	if _, err := bw.Write(line); err != nil {
		return err
	}
	for _, p := range m.Positions {
		line = append(line[:0], 'v')
		for _, x := range p {
			line = append(line, ' ')
			line = strconv.AppendFloat(line, x, 'g', -1, 64)
		}
		line = append(line, '\n')
		if _, err := bw.Write(line); err != nil {
			return err
		}
	}
	for _, t := range m.Triangles {
		line = append(line[:0], 'f')
		for _, v := range t {
			line = append(line, ' ')
			line = strconv.AppendInt(line, int64(v)+1, 10)
		}
		line = append(line, '\n')
		if _, err := bw.Write(line); err != nil {
			return err
		}
	}
	return bw.Flush()
}
