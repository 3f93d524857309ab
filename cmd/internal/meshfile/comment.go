package meshfile

import (
	"bufio"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"snowtools/formats/input"
	"snowtools/formats/ply"
	"snowtools/levelset/geom"
)

// The meshes that snowsim writes a frame at a time (the ground, the colliders) say
// what they are in one header comment (a PLY "comment" line, an OBJ "# " line):
//
//	snowsim ground, frame 12 time 0.5, metres, Y up
//	snowsim colliders, frame 3 time 0.125, units of 0.01 m, Z up
//
// FrameComment writes that text and ParseFrameComment reads it back, so that a
// sequence of such meshes can be put together again (export -to abc) with its times
// and in metres, Y up, whatever [output] up and scale wrote it in. export's own
// surface meshes carry "frame N time T" as a comment of its own, without axes.

// A FrameComment is what a mesh file says of itself: which frame of which run, at
// what time, and in which axes and unit its coordinates are.
type FrameComment struct {
	What    string    // what the mesh is: "snowsim ground"
	Frame   int       // the frame number
	Time    float64   // the frame's time in seconds
	Axes    geom.Axes // how the file's coordinates map onto ours (Axes.Point)
	HasAxes bool      // the comment states the axes; else they are unknown
}

// String is the comment as snowsim writes it: What, the frame and time (the time
// as the shortest decimal that reads back exactly), and the axes in words.
func (c FrameComment) String() string {
	return fmt.Sprintf("%s, frame %d time %g, %s", c.What, c.Frame, c.Time, AxesText(c.Axes))
}

// AxesText says in words what the axes of written files are: "metres, Y up",
// "units of 0.01 m, Z up".
func AxesText(a geom.Axes) string {
	unit := "metres"
	if a.Scale != 0 && a.Scale != 1 {
		unit = fmt.Sprintf("units of %g m", a.Scale)
	}
	if a.ZUp {
		return unit + ", Z up"
	}
	return unit + ", Y up"
}

// ParseFrameComment finds the frame and time ("frame N time T", a comment of its
// own or a comma-separated part of one) and the axes ("metres" or "units of S m",
// then "Y up" or "Z up") among a file's comments. ok is false when no comment gives
// a frame and a time.
func ParseFrameComment(comments []string) (c FrameComment, ok bool) {
	for _, text := range comments {
		parts := strings.Split(text, ", ")
		for i, part := range parts {
			if frame, t, found := parseFrameTime(part); found {
				c.Frame, c.Time, ok = frame, t, true
				if i > 0 {
					c.What = strings.Join(parts[:i], ", ")
				}
				if axes, found := parseAxes(parts[i+1:]); found {
					c.Axes, c.HasAxes = axes, true
				}
				return c, ok
			}
		}
	}
	return c, false
}

// parseFrameTime reads "frame N time T".
func parseFrameTime(text string) (frame int, t float64, ok bool) {
	w := strings.Fields(text)
	if len(w) != 4 || w[0] != "frame" || w[2] != "time" {
		return 0, 0, false
	}
	frame, errN := strconv.Atoi(w[1])
	t, errT := strconv.ParseFloat(w[3], 64)
	return frame, t, errN == nil && errT == nil && !math.IsNaN(t) && !math.IsInf(t, 0)
}

// parseAxes reads AxesText's two parts, the unit and the up axis.
func parseAxes(parts []string) (geom.Axes, bool) {
	var a geom.Axes
	if len(parts) != 2 {
		return a, false
	}
	switch unit := parts[0]; {
	case unit == "metres":
	default:
		w := strings.Fields(unit)
		if len(w) != 4 || w[0] != "units" || w[1] != "of" || w[3] != "m" {
			return a, false
		}
		s, err := strconv.ParseFloat(w[2], 64)
		if err != nil || !(s > 0) || math.IsInf(s, 0) {
			return a, false
		}
		a.Scale = s
	}
	switch parts[1] {
	case "Y up":
	case "Z up":
		a.ZUp = true
	default:
		return a, false
	}
	return a, true
}

// maxCommentLines bounds the comment lines Comments reads from an OBJ file: its
// header comments, not a file that is all comments.
const maxCommentLines = 64

// Comments returns the header comments of the mesh in path: a PLY file's comment
// lines, or the "#" lines that open an OBJ file (without the "#" and one blank).
// Other formats have none (nil). Only the header is read.
func Comments(path string) ([]string, error) {
	ext := strings.ToLower(filepath.Ext(path))
	if ext != ".ply" && ext != ".obj" {
		return nil, nil
	}
	f, err := input.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if ext == ".ply" {
		r, err := ply.NewReader(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		return r.Header().Comments, nil
	}
	var comments []string
	lines := bufio.NewScanner(f)
	for len(comments) < maxCommentLines && lines.Scan() {
		line, isComment := strings.CutPrefix(lines.Text(), "#")
		if !isComment {
			break
		}
		comments = append(comments, strings.TrimSpace(line))
	}
	if err := lines.Err(); err != nil && err != bufio.ErrTooLong {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return comments, nil
}
