// Package abc reads and writes Alembic archives in the Ogawa container (Alembic 1.5
// and later; the older HDF5 archives get "HDF5 Alembic is not supported, re-export
// as Ogawa"), in pure Go, checked against the Alembic 1.8.8 library.
//
// The layers, bottom up, each in its own files:
//
//   - Ogawa (ogawa_read.go, ogawa_write.go): a tree of groups (lists of child
//     references) and data blocks (sized byte strings) under a 16-byte header.
//   - Abc (archive_read.go, object.go, properties.go, sample.go, timesampling.go,
//     metadata.go, datatype.go, and their writers): objects, compound, scalar and
//     array properties with their headers, element types and time samplings; each
//     sample's data block starts with its MurmurHash3 digest (murmur3.go), by which
//     the writer stores each distinct sample once.
//   - AbcGeom schemas: Xform (xform.go: ops, inheritance, world matrices), PolyMesh
//     and SubD (polymesh.go), visibility (visibility.go), and Pose (pose.go), which
//     poses many objects at one time sharing their ancestors, for reading; Points
//     (points.go), PolyMesh sequences and Xforms (polymesh_write.go) for writing.
//
// Reading opens the file for random access and reads only what is asked for:
//
//	a, err := abc.OpenFile("shot.abc")
//	o, err := a.Find("/rig/bodyShape")
//	m, err := o.PolyMesh()
//	t := m.TimeSampling().SampleTime(i)      // or frame/fps
//	s, err := m.At(t)                        // positions, faces, velocities
//	w, err := o.WorldMatrix(t)               // the Xform chain above it
//	w, err = pose.WorldMatrix(o)             // the same, pose := abc.NewPose(t) shared by many objects
//	mesh := s.Mesh(w)                        // a geom.Mesh, counter-clockwise
//
// Writing streams samples to the file as they come (an *os.File is an Output):
//
//	w, err := abc.NewWriter(f, abc.Metadata{"_ai_Application": "snowtools export"})
//	ts, err := w.AddTimeSampling(abc.Uniform(1/fps, first/fps))
//	pw, err := w.AddPoints(w.Top(), "snow", ts, abc.PointsOptions{Velocities: true})
//	err = pw.WriteSample(&abc.PointsSample{Positions: p, IDs: ids, Velocities: v})
//	err = w.Close() // writes the hierarchy and marks the file complete
//
// Frame n of a sequence at fps frames per second is at time n/fps, as in every tool
// of this project. Alembic's faces wind clockwise seen from outside; MeshSample.Mesh
// and PolyMeshWriter.WriteMesh convert from and to geom.Mesh's counter-clockwise
// triangles.
//
// Malformed input yields a *FormatError naming the byte offset of the group, data
// block or reference at fault and the object or property path. Every offset, count
// and size read from the file is checked against the bytes that exist (the file's
// size, the enclosing data block) before it sizes an allocation, so memory follows
// one sample; every group belongs to one object or compound, so that a damaged file
// cannot make a walk loop or explode; Archive.Check reads everything once.
package abc
