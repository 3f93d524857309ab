// Package heightpng reads and writes height maps as 16-bit greyscale PNG
// files: the per-frame ground of the height-field simulation, in a form that
// any image tool opens (as a grey picture of the terrain seen from above) and
// that our own tools read back exactly, world placement included.
//
// # The file
//
// A height map file is an ordinary PNG: greyscale, 16 bits per sample, not
// interlaced, one pixel per column of the height field. Sample s (0..65535)
// stands for the height
//
//	y = Low + (High-Low)*s/65535   (metres, Y up)
//
// so 0 is Low, 65535 is High, and the step between neighbouring values is
// (High-Low)/65535.
//
// Pixel (c, r), column c from the left and row r from the top of the image,
// is the column of the height field at
//
//	x = OriginX + c*Cell,  z = OriginZ + r*Cell.
//
// Row 0 is thus the smallest z. This is a choice, made because it makes the
// picture an unmirrored view from above: with Y up in a right-handed frame,
// someone looking down the -Y axis with +x to their right sees +z pointing
// down the screen, which is the direction image rows run.
//
// The mapping is stored in a tEXt chunk, placed right after IHDR, whose
// keyword is "snowtools-heightfield" (see Keyword) and whose text is a list
// of key=value pairs separated by single spaces:
//
//	origin_x=-5 origin_z=-5 cell=0.05 low=0 high=1.25
//
// The numbers are the shortest decimal text that parses back to the same
// float64 (Go's strconv 'g' format with precision -1), so the mapping comes
// back bit for bit. All five keys are required; keys this version does not
// know are ignored, so a later version may add some. Image tools copy or
// drop tEXt chunks but never misread the picture because of one.
//
// # Reading other PNGs
//
// Read accepts any PNG that image/png decodes: every bit depth and colour
// type, interlaced or not. Colour is turned into grey with the standard
// luminance of color.Gray16Model (transparent pixels, being premultiplied,
// become 0), and 8-bit grey g becomes g*257, so 255 is still the top of the
// range. A file without the mapping chunk, such as a height map painted in
// an image editor, reads with Map.HasMapping false and a placeholder mapping
// (origin 0, one metre per pixel, heights 0 to 1 m) for the caller to
// replace.
//
// # Limits
//
// The reader holds the whole file in memory (at most MaxFileSize bytes) and
// walks its chunk list before decoding: a chunk length is checked against
// the bytes really there before it is used. Images wider or taller than
// MaxSide, or with more than MaxPixels pixels, or more than the caller's
// limit (ReadLimit; DefaultMaxPixels for Read), are refused from their
// header, as are images whose compressed data is too short to hold the
// pixels the header claims (deflate expands at most 1032 times), so that a
// small file cannot make the decoder allocate a huge image. Malformed input
// yields a *FormatError naming the byte offset at fault where it is known.
package heightpng
