// Package prt reads and writes Krakatoa PRT particle files, version 1.1
// (the header's version field is 2), the format Thinkbox Krakatoa, Houdini,
// Maya and Blender plug-ins load as particle caches. Version 1.0 files
// (version field 1, no metadata) are read too.
//
// A file is a fixed 56-byte header (magic number, header length, signature,
// version, particle count), then in version 2 a list of chunks ("Meta"
// chunks carrying typed metadata, closed by a "Stop" chunk), a channel table
// and finally one zlib stream holding the particles back to back. Each
// particle is a record of Header.ParticleSize bytes in which every channel
// (Position, Velocity, ID, ...) occupies Arity values of its DataType at its
// byte Offset, little-endian.
//
// Writing:
//
//	var h prt.Header
//	pos := h.AddChannel("Position", prt.Float32, 3)
//	id := h.AddChannel("ID", prt.Int64, 1)
//	h.Count = int64(len(particles))
//	h.SetMeta(prt.MetaInt32("", "CoordSys", prt.CoordSysRightHandedYUp))
//	w, err := prt.NewWriter(f, h)
//	rec := make([]byte, h.ParticleSize())
//	for _, p := range particles {
//		pos.PutFloat32s(rec, p.X, p.Y, p.Z)
//		id.PutInt64s(rec, p.ID)
//		err = w.WriteParticle(rec)
//	}
//	err = w.Close() // fails unless exactly h.Count particles were written
//
// Reading, one particle at a time with NewReader and Reader.ReadParticle,
// or a whole frame with ReadAll and typed column accessors such as
// Frame.Float32s.
//
// Malformed input yields a *FormatError naming the byte offset of the
// offending header field or the index of the offending particle. The reader
// never sizes an allocation from a count in the file: tables and buffers
// grow only as the bytes they describe actually arrive, and the channel
// count, particle size and metadata chunk size have fixed upper limits
// (MaxChannels, MaxParticleSize, MaxMetaChunk). ReadAll refuses a header whose
// particle data (count times particle size) exceeds a limit (ReadAllLimit;
// DefaultMaxData) before decompressing it, and no reader decompresses more than
// one byte past the declared size.
package prt
