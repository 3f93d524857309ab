// Package stl reads binary and ASCII STL files as triangle meshes, through
// github.com/hschendel/stl, for colliders exported from CAD tools or from a DCC
// one frame per file.
//
// STL is a triangle soup: every triangle carries its own three corners. Read
// welds corners with bit-identical float32 coordinates into shared vertices,
// numbered in order of first appearance, so that a closed surface reads as a
// closed mesh and the frames of a sequence exported from one animated mesh get
// the same vertex numbering (geom.SameTopology says when they do not, for
// example when two vertices meet in some frames only). Triangles keep the file's
// corner order, which STL defines as counter-clockwise seen from outside; the
// stored facet normals are ignored, since exporters often leave them zero.
//
// A binary file is recognised, as the library does it, by its size being exactly
// 84 + 50 x (the triangle count in its header). Otherwise a file that starts with
// "solid" and holds no NUL bytes near its start is read as ASCII; anything else is
// reported as a binary file whose size does not match its header (a truncated
// file, or a count that lies), before any triangle is read. The ASCII reader of the
// library wants the first line to be "solid " followed by an optional name, and
// reads only the first solid of a file.
//
// Malformed input yields a *FormatError. The reader never sizes an allocation
// from the triangle count before checking it against the file size, and caps what
// it preallocates even then.
package stl
