// Package checkpoint reads and writes snowsim checkpoints: the complete state of a
// simulation (simcore.State) at the end of a frame, from which a run continues with
// results bit-identical to a run that never stopped.
//
// A file is a 60-byte header, all integers little-endian:
//
//	offset  size  field
//	     0     8  magic "SNOWSTAT"
//	     8     4  format version (4)
//	    12     4  compression (1 = zstd; the only one)
//	    16     8  frame number (int64, >= 0)
//	    24    32  scene identity: whatever the writer uses to recognize its input
//	              (snowsim: a SHA-256 of the scene text and the grid spacing)
//	    56     4  CRC-32C (Castagnoli) of bytes 0-55
//
// then one zstd frame, with its content checksum, holding the state:
//
//	offset  size    field
//	     0     8    time (float64, s)
//	     8     8    steps taken (int64)
//	    16     8    fastest particle of the last step (float64, m/s)
//	    24     8    fastest elastic wave of the last step (float64, m/s)
//	    32     4    flags: bit 0 set when particle volumes are known; bit 1 up, one for
//	                each Optional channel of simcore.Channels in table order, set when
//	                the particles carry it (bit 1: Sinter, 2: Affine, 3: Rest, 4: Quiet);
//	                others 0
//	    36     4    particle count n (uint32, at most 2^31 - 1)
//	    40          the particle columns: one per channel of simcore.Channels, in table
//	                order (an Optional one only with its flag), each n values in the
//	                solver's particle order, a value being the channel's Arity numbers
//	                of its Scalar type, in the order the element type declares them
//
// and nothing after it. Columns rather than records, because a column's values are
// alike (the materials and masses are often all equal) and compress far better.
//
// In version 4 the columns are ID int32, X 3 float64, V 3 float64, Mass float32, Vol0
// float32, FE 9 float32 (row-major), JP float32, Mat 5 float32 (Mu0, Lambda0, Xi,
// ThetaC, ThetaS), Stress 6 float32 (xx, yy, zz, xy, xz, yz); with flag bit 1, then
// Sinter 9 float32 (MaxDensity, C1-C5, EMax, NuMax, Density), 36 bytes; with flag bit 2,
// then Affine 9 float32 (APIC's C_p, row-major), 36 bytes; then Rho0 float32 (the rest
// density); with flag bit 3, then Rest 3 float64 (the rest position), 24 bytes; with
// flag bit 4, then Quiet float32 (how long the particle has rested, for sleeping snow),
// 4 bytes: 148 bytes per particle without the optional columns. Version 1 had neither
// Affine nor Rho0, version 2 no Rest, version 3 no Quiet; this package reads none of
// them. A change to the table changes
// the layout, and TestLayoutVersion asks for the version to be raised.
//
// Floating-point values are stored bit for bit. The state carries no random state: the
// solver draws random numbers only when seeding particles, which a checkpoint follows.
//
// Malformed input yields a *FormatError naming the byte offset in the file (header) or
// in the decompressed state, and the field. The reader never sizes an allocation from
// the particle count: columns grow as their bytes actually arrive, so a file that
// claims two billion particles but holds three costs three. A state whose declared
// size (count times bytes per particle) exceeds a limit (ReadLimit; DefaultMaxState for
// Read) is refused before a column is decoded, and decompression stops one byte past
// the declared size, so a small file of zstd that expands to gigabytes costs nothing.
//
// The layout is the solver's private state, not an interchange format: a checkpoint is
// read back only by snowsim, to continue a run. The package
// sits beside simcore, which stays free of byte streams, versions and compression,
// and follows its channel table rather than naming the particle fields.
package checkpoint
