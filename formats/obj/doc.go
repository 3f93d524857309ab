// Package obj reads Wavefront OBJ files as triangle meshes: one frame of a mesh
// sequence such as Blender's "cube1.obj, cube2.obj, ..." or Houdini's
// "name.0001.obj".
//
// Only geometry that a collider needs is kept: vertex positions ("v x y z", a
// fourth w and vertex-colour values are ignored) and faces ("f" with the v, v/vt,
// v//vn and v/vt/vn forms; 1-based indices, or negative ones counting back from
// the last vertex read). Polygons are split into triangles that keep the winding of
// the polygon (geom.TriangulatePolygon): those of up to five vertices into a fan
// around their first vertex, larger ones by ear clipping in their best-fit plane,
// which keeps the triangles local (a fan of a polygon with 450,000 vertices is
// 450,000 slivers across it). Every other statement
// (vt, vn, o, g, s, usemtl, mtllib, l, p, curves, surfaces, ...) is ignored, all
// objects and groups are merged into one mesh, and the result has no velocities.
//
// Lexically, "#" starts a comment that runs to the end of the physical line, and
// a backslash at the end of a line (after any comment is removed) joins the next
// line to it. Lines may end in "\n" or "\r\n".
//
// The reader streams: memory grows with the vertices and triangles actually
// read, never with a number written in the file, and a logical line longer than
// MaxLineLength is an error rather than an unbounded allocation. Malformed input
// yields a *FormatError naming the line.
package obj
