// Package seq names and finds numbered file sequences: one file per frame, the
// frame number written in the file name.
//
// A pattern is a path with one frame placeholder in its file name:
//
//   - a run of N '#' stands for the frame number zero-padded to N digits, so
//     "snow.####.prt" is snow.0007.prt for frame 7, "a.##.obj" is a.07.obj and
//     "a.#.obj" is a.7.obj (one '#' per digit, as in Maya and Nuke; fileseq's
//     "#" for four digits is not followed);
//   - "%0Nd" does the same in printf form ("%04d" is "####"), and "%d" is
//     unpadded, like a single '#'.
//
// Numbers that need more digits than the padding get them (frame 12345 of
// "####" is "12345"). Frame numbers are never negative: in a name such as
// "rock-0002.obj" the '-' is a separator, not a sign. A '%' that does not start
// %d or %0Nd is an ordinary character; "%4d" (space padding) is refused.
//
// Find turns what a user typed into the frames that exist, which covers the
// names DCCs write: Houdini's "name.0001.obj" and "name_$F4.obj", Blender's
// "cube1.obj, cube2.obj, ..." (no padding, no separator) and "name_000001.obj".
// Given a pattern it lists the files that match it; given one existing file
// whose name ends in a number, it lists the whole sequence that file belongs
// to, whatever its padding. Gaps in the numbering are allowed and visible in
// the frame numbers.
package seq
