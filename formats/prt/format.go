package prt

// Constants of the PRT 1.1 byte layout. All integers are little-endian.
const (
	magic       = "\xc0PRT\r\n\x1a\n"          // bytes 0-7
	signature   = "Extensible Particle Format" // bytes 12-43, NUL padded to 32
	version     = 2                            // what we write: PRT 1.1
	fixedSize   = 56                           // magic .. particle count
	entrySize   = 44                           // channel table entry: name[32], type, arity, offset
	nameSize    = 32                           // name fields, NUL padded
	reservedVal = 4                            // the int32 after the chunks

	offHeaderLen = 8
	offSignature = 12
	offVersion   = 44
	offCount     = 48

	chunkMeta = "Meta"
	chunkStop = "Stop"
)
