package main

import (
	"flag"
	"fmt"
	"image"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"snowtools/cmd/internal/cli"
	"snowtools/cmd/internal/colormap"
	"snowtools/cmd/internal/preview"
	"snowtools/cmd/internal/seq"
	"snowtools/levelset/geom"
	"snowtools/levelset/parallel"
	"snowtools/simcore/particles"
)

// -to compare: one picture that compares runs as the figures of a paper do (say, a
// snowball pressed at three pressures, with and without sintering): a row per run,
// a column per chosen frame, every picture seen by one camera over one ground and
// coloured over one range, so that differences between pictures are differences
// between the runs, not between framings.

const (
	// defaultCompareColumns is how many frames a comparison shows without -frames:
	// enough to follow a motion, few enough for a page.
	defaultCompareColumns = 6
	// maxCompareColumns bounds the columns, so that a range given without -every
	// (0-1000) is a usage error rather than a picture tens of thousands of pixels
	// wide.
	maxCompareColumns = 50
	// compareCellSize is the default -size: of one picture of the table, not of
	// the whole.
	compareCellSize = "320x240"
)

// compareSettings are the arguments and flags of -to compare.
type compareSettings struct {
	output     string   // the picture
	inputs     []string // one run per row
	labelsText string   // -labels
	labels     []string // one per input; nil: the inputs' folder names
	frames     []int    // the columns, from -frames; nil: chosen from the frames the inputs share
	every      int      // -every; 0: not given
	// differences is the CSV of the shape differences (compare_shapes.go), "-" for
	// stdout, "" for none; cell the size of their cells, 0 for the first run's h.
	differences string
	cell        float64
	cellGiven   bool // -cell was given (0 is then an error, not the default)
}

func (c *compareSettings) flags(fs *flag.FlagSet) {
	fs.StringVar(&c.labelsText, "labels", "", "compare: row `labels`, comma-separated, one per input (default: each input's folder name)")
	fs.IntVar(&c.every, "every", 0, "compare: only every `N`th frame of the -frames ranges, or of the frames all inputs share")
	fs.StringVar(&c.differences, "differences", "", "compare: write how far each run's shape is from the first run's (centroids, cells shared, "+
		"column heights, in its h) at every column to this CSV `file` (- for stdout); the log gives the last column's. "+
		"Needs the first run's GridSpacing metadata or -cell: without either it is an error, while without -differences the picture is still written")
	fs.Float64Var(&c.cell, "cell", 0, "compare: measure the shape differences in cells of `metres` (default: the first run's h, from its PRT metadata)")
}

// check reads the arguments (output, then inputs) and the -frames text.
func (c *compareSettings) check(args []string, frames string) error {
	if len(args) < 2 {
		return fmt.Errorf("-to compare needs the output picture, then the inputs: export -to compare out.png 'runA/snow.####.prt' 'runB/snow.####.prt'")
	}
	c.output, c.inputs = args[0], args[1:]
	// The output comes first, unlike in the other modes: a name that is not a PNG is
	// most likely an input given first by habit.
	if !strings.EqualFold(filepath.Ext(c.output), ".png") {
		return fmt.Errorf("output %s: -to compare writes one PNG, named before the inputs: export -to compare out.png input...", c.output)
	}
	if _, isPattern, err := seq.ParsePattern(c.output); err != nil || isPattern {
		return fmt.Errorf("output %s: -to compare writes one picture; name it without #### or %%04d", c.output)
	}
	if c.every < 0 {
		return fmt.Errorf("-every %d: must be at least 1", c.every)
	}
	if c.cellGiven && !(c.cell > 0 && !math.IsInf(c.cell, 0)) {
		return fmt.Errorf("-cell %g: must be a positive size in metres", c.cell)
	}
	if c.differences != "" && len(c.inputs) < 2 {
		return fmt.Errorf("-differences %s: it measures each run against the first; give two or more inputs", c.differences)
	}
	if c.differences != "" && c.differences != "-" {
		if filepath.Clean(c.differences) == filepath.Clean(c.output) {
			return fmt.Errorf("-differences %s: that is the picture's name; name the CSV otherwise", c.differences)
		}
	}
	if frames != "" {
		ranges, err := seq.ParseList(frames)
		if err != nil {
			return fmt.Errorf("-frames %v", err)
		}
		if c.frames, err = seq.Expand(ranges, c.every, maxCompareColumns); err != nil {
			return fmt.Errorf("-frames %s: %v; at most %d columns fit a comparison (thin a range with -every N)", frames, err, maxCompareColumns)
		}
	}
	if c.labelsText != "" {
		c.labels = strings.Split(c.labelsText, ",")
		for i := range c.labels {
			c.labels[i] = strings.TrimSpace(c.labels[i])
		}
		if len(c.labels) != len(c.inputs) {
			return fmt.Errorf("-labels: %d labels for %d inputs; give one per input, comma-separated", len(c.labels), len(c.inputs))
		}
	}
	return nil
}

// comparison renders the cells of the table and puts them together at the end.
// Its jobs are row-major: input r at column c is job r*len(frames) + c.
type comparison struct {
	s      *settings // with the picture's colour range (see newComparison)
	frames []int     // the columns' frame numbers
	labels []string  // the rows'
	jobs   []job
	radius []float32       // by row: runs may differ in resolution
	ground []*meshSequence // by row: -ground's mesh of each run; nil without
	camera preview.Camera
	opt    preview.Options
	shared bool // the colour range was computed over the pictures, not given

	cells []image.Image // by job index
	times []float64     // by job index: the PRT Time metadata, NaN without

	// The shape differences (compare_shapes.go): the size of their cells and what
	// gave it, or 0 and why none is known (noCell); the shapes by job index, nil
	// without a cell size, and why a job's shape is missing (shapeErrs).
	cell               float64
	cellSource, noCell string
	shapes             []*particles.Shape
	shapeErrs          []error
}

// newComparison finds every input's frames, chooses the columns, and fixes what all
// pictures share: the camera that frames all selected frames of all inputs, the ground
// under the lowest particle of any of them and, for -color without -color-range, one
// colour range. Every check that needs no particle data comes first, so that a
// missing frame fails at once.
func newComparison(s *settings) (*comparison, error) {
	cs := &s.compare
	runs := make([][]seq.Frame, len(cs.inputs))
	for r, in := range cs.inputs {
		var err error
		if runs[r], err = seq.Find(in); err != nil {
			return nil, err
		}
	}
	frames, err := compareColumns(cs, runs)
	if err != nil {
		return nil, err
	}
	c := &comparison{frames: frames, labels: cs.labels, radius: make([]float32, len(runs))}
	if c.labels == nil {
		c.labels = defaultLabels(cs.inputs)
	}
	if err := c.addJobs(cs.inputs, runs); err != nil {
		return nil, err
	}
	if cs.differences != "" && cs.differences != "-" && replacesInput(cs.differences, c.jobs) {
		return nil, fmt.Errorf("-differences %s would replace its input", cs.differences)
	}
	var why string
	if c.cell, why, err = c.measureCell(cs); err != nil {
		return nil, err
	}
	if c.cell > 0 {
		c.cellSource, c.shapes, c.shapeErrs = why, make([]*particles.Shape, len(c.jobs)), make([]error, len(c.jobs))
	} else {
		c.noCell = why
	}
	if s.view.groundMesh != "" { // a missing mesh frame fails before anything is read
		c.ground = make([]*meshSequence, len(runs))
		for r := range runs {
			if c.ground[r], err = findMeshes("-ground", s.view.groundMesh, cs.inputs[r]); err != nil {
				return nil, err
			}
			if err := c.ground[r].check(c.row(r)); err != nil {
				return nil, err
			}
		}
	}
	if err := c.frameScene(s); err != nil {
		return nil, err
	}
	own := *s // the caller's settings stay as parsed
	c.s = &own
	if s.color != "" && s.colorRange == nil {
		r, err := pictureColorRange(s, c.jobs)
		if err != nil {
			return nil, err
		}
		c.s.colorRange, c.shared = &r, true
	}
	if err := os.MkdirAll(filepath.Dir(cs.output), 0o755); err != nil {
		return nil, err
	}
	c.cells = make([]image.Image, len(c.jobs))
	c.times = make([]float64, len(c.jobs))
	return c, nil
}

// row returns the jobs of run r: one per column.
func (c *comparison) row(r int) []job { return c.jobs[r*len(c.frames) : (r+1)*len(c.frames)] }

// addJobs adds a job for every run and column, row by row, or says which chosen
// frames an input lacks.
func (c *comparison) addJobs(inputs []string, runs [][]seq.Frame) error {
	for r, run := range runs {
		byNumber := make(map[int]seq.Frame, len(run))
		for _, f := range run {
			byNumber[f.Number] = f
		}
		var missing []string
		for _, n := range c.frames {
			f, ok := byNumber[n]
			if !ok {
				missing = append(missing, strconv.Itoa(n))
				continue
			}
			c.jobs = append(c.jobs, job{index: len(c.jobs), in: f})
		}
		if len(missing) > 0 {
			noun := "frame"
			if len(missing) > 1 {
				noun = "frames"
			}
			return fmt.Errorf("%s has no %s %s (it has %s); -to compare needs every chosen frame in every input",
				inputs[r], noun, strings.Join(missing, ", "), describeFrames(run))
		}
	}
	return nil
}

// frameScene sets the particle radius of every run and the one camera and ground
// plane that frame all of them: the box of every run's particles and ground meshes.
func (c *comparison) frameScene(s *settings) error {
	lo := geom.Vec3{math.Inf(1), math.Inf(1), math.Inf(1)}
	hi, floor, rim := lo.Scale(-1), math.Inf(1), math.Inf(1)
	for r := range c.radius {
		row := c.row(r)
		var err error
		if c.radius[r], err = particleRadius(s, jobPaths(row)); err != nil {
			return err
		}
		rowFrames := make([]seq.Frame, len(row))
		for i, j := range row {
			rowFrames[i] = j.in
		}
		rlo, rhi, err := s.sequenceBounds(rowFrames)
		if err != nil {
			return err
		}
		lo, hi = lo.Min(rlo), hi.Max(rhi)
		floor = min(floor, rlo[1]-float64(c.radius[r]))
		if c.ground != nil {
			mlo, mhi, runRim, err := groundOf(c.ground[r], c.frames, s.threads)
			if err != nil {
				return err
			}
			lo, hi = lo.Min(mlo), hi.Max(mhi)
			if !math.IsNaN(runRim) {
				rim = min(rim, runRim)
			}
		}
	}
	if !math.IsInf(rim, 1) { // one ground plane for every picture, at the lowest run's rim
		floor = rim
	}
	c.camera, c.opt = s.view.scene(lo, hi, floor)
	return nil
}

// compareColumns returns the columns' frame numbers: -frames, or else the frames
// every input has (-every N: the first of them and each Nth number after it that they
// all have; otherwise defaultCompareColumns of them spread evenly).
func compareColumns(cs *compareSettings, runs [][]seq.Frame) ([]int, error) {
	if cs.frames != nil {
		return cs.frames, nil
	}
	count := map[int]int{}
	for _, run := range runs {
		for _, f := range run {
			count[f.Number]++
		}
	}
	var shared []int
	for _, f := range runs[0] {
		if count[f.Number] == len(runs) {
			shared = append(shared, f.Number)
		}
	}
	if len(shared) == 0 {
		spans := make([]string, len(runs))
		for r, run := range runs {
			spans[r] = cs.inputs[r] + " has " + describeFrames(run)
		}
		return nil, fmt.Errorf("the inputs have no frame number in common (%s); -to compare shows the same frames of every input",
			strings.Join(spans, ", "))
	}
	if cs.every == 0 {
		return seq.Spread(shared, defaultCompareColumns), nil
	}
	var frames []int
	for _, f := range shared {
		if (f-shared[0])%cs.every == 0 {
			frames = append(frames, f)
		}
	}
	if len(frames) > maxCompareColumns {
		return nil, fmt.Errorf("-every %d leaves %d of the %d frames the inputs share (%d-%d); at most %d columns fit a comparison",
			cs.every, len(frames), len(shared), shared[0], shared[len(shared)-1], maxCompareColumns)
	}
	return frames, nil
}

// describeFrames says which frames a sequence has, for messages: "frames 1-50", or
// with gaps "12 frames from 1 to 50".
func describeFrames(run []seq.Frame) string {
	first, last := run[0].Number, run[len(run)-1].Number
	switch {
	case len(run) == 1:
		return fmt.Sprintf("only frame %d", first)
	case last-first+1 == len(run):
		return fmt.Sprintf("frames %d-%d", first, last)
	}
	return fmt.Sprintf("%d frames from %d to %d", len(run), first, last)
}

// defaultLabels names each input by its folder, as runs are usually kept one to a
// folder (ball_p1_sinter/snow.####.prt): the folder's name, or as many trailing
// folder names as it takes to tell the inputs apart (a/sim, b/sim). Inputs that
// share a folder are named by their file names instead.
func defaultLabels(inputs []string) []string {
	dirs := make([][]string, len(inputs))
	for i, in := range inputs {
		dir, err := filepath.Abs(filepath.Dir(in))
		if err != nil {
			dir = filepath.Dir(in)
		}
		dirs[i] = strings.FieldsFunc(filepath.ToSlash(dir), func(r rune) bool { return r == '/' })
	}
	labels := make([]string, len(inputs))
	depth := 0
	for _, d := range dirs {
		depth = max(depth, len(d))
	}
	for k := 1; k <= depth; k++ {
		for i, d := range dirs {
			labels[i] = strings.Join(d[max(0, len(d)-k):], "/")
		}
		if distinct(labels) {
			return labels
		}
	}
	for i, in := range inputs {
		labels[i] = filepath.Base(in)
	}
	return labels
}

// distinct reports whether no two of the strings are the same.
func distinct(s []string) bool {
	sorted := slices.Clone(s)
	slices.Sort(sorted)
	return len(slices.Compact(sorted)) == len(s)
}

// pictureColorRange returns the one colour range of a comparison without
// -color-range: the union of the pictures' own ranges (their 1st to 99th
// percentiles, as -to png uses per frame), so that a colour means the same value in
// every picture and no picture saturates more than its own stray percent. The frames
// are read in parallel, before any is rendered; empty frames have no say.
func pictureColorRange(s *settings, jobs []job) (colormap.Range, error) {
	ranges := make([]colormap.Range, len(jobs))
	empty := make([]bool, len(jobs))
	errs := make([]error, len(jobs))
	parallel.For(s.threads, len(jobs), func(_, i int) {
		f, err := s.readFrame(jobs[i].in.Path)
		if err == nil && f.Len() == 0 {
			empty[i] = true
			return
		}
		var values []float32
		if err == nil {
			values, err = s.colorValues(f)
		}
		if err != nil {
			errs[i] = fmt.Errorf("frame %d (%s): %v", jobs[i].in.Number, jobs[i].in.Path, err)
			return
		}
		ranges[i] = colormap.Robust(values)
	})
	union := colormap.Range{Lo: math.Inf(1), Hi: math.Inf(-1)}
	for i, r := range ranges {
		if errs[i] != nil {
			return colormap.Range{}, errs[i]
		}
		if !empty[i] {
			union = colormap.Range{Lo: min(union.Lo, r.Lo), Hi: max(union.Hi, r.Hi)}
		}
	}
	if union.Lo > union.Hi { // every frame empty: nothing to colour
		union = colormap.Range{Lo: 0, Hi: 1}
	}
	return union, nil
}

func (c *comparison) convert(j job, threads int) result {
	f, pts, err := c.s.points(j.in.Path, c.radius[j.index/len(c.frames)])
	if err != nil {
		return result{err: err}
	}
	opt := c.opt
	opt.Workers = threads
	if c.ground != nil {
		if opt.Mesh, err = c.ground[j.index/len(c.frames)].load(j.in.Number); err != nil {
			return result{err: err}
		}
	}
	// Each job has its own index, so concurrent conversions never write the same slot.
	c.cells[j.index] = preview.Render(pts, c.camera, opt)
	c.times[j.index] = math.NaN()
	if t, ok := f.Header.Float64Meta("", "Time"); ok && len(t) == 1 {
		c.times[j.index] = t[0]
	}
	if c.measures(j) {
		if err := c.summarise(j, f, pts.Pos); err != nil {
			return result{err: err}
		}
	}
	return result{particles: f.Len()}
}

func (c *comparison) finish(log io.Writer) error {
	columns := len(c.frames)
	rows := make([][]image.Image, len(c.cells)/columns)
	for r := range rows {
		rows[r] = c.cells[r*columns : (r+1)*columns]
	}
	times := c.columnTimes(log)
	picture := preview.Grid(rows, c.labels, labelColumns(c.frames, times))
	output := c.s.compare.output
	if err := cli.WriteFileAtomic(output, func(w io.Writer) error { return png.Encode(w, picture) }); err != nil {
		return err
	}
	b := picture.Bounds()
	fmt.Fprintf(log, "export: comparison of %d runs at %d frames, %dx%d pixels -> %s\n", len(rows), columns, b.Dx(), b.Dy(), output)
	if c.shared {
		fmt.Fprintf(log, "  colours: %s from %.4g to %.4g in every picture (give -color-range to choose)\n",
			c.s.color, c.s.colorRange.Lo, c.s.colorRange.Hi)
	}
	c.logDifferences(log)
	if c.s.compare.differences != "" {
		return c.writeDifferences(times, log)
	}
	return nil
}

// labelColumns returns "frame 40 (1.667 s)" per column: the frame number and its time
// (columnTimes), or the number alone where the time is NaN.
func labelColumns(frames []int, times []float64) []string {
	labels := make([]string, len(frames))
	for col, n := range frames {
		labels[col] = fmt.Sprintf("frame %d", n)
		if !math.IsNaN(times[col]) {
			labels[col] += fmt.Sprintf(" (%.4g s)", times[col])
		}
	}
	return labels
}

// columnTimes returns each column's time, from the inputs' Time metadata; NaN when
// none has one, or when inputs disagree on it (runs written at other frame rates),
// which the log says: the picture then compares frames, not moments.
func (c *comparison) columnTimes(log io.Writer) []float64 {
	columns := len(c.frames)
	times := make([]float64, columns)
	for col, n := range c.frames {
		var seen []string
		at, agree := math.NaN(), true
		for r := range len(c.times) / columns {
			t := c.times[r*columns+col]
			if math.IsNaN(t) {
				continue
			}
			seen = append(seen, fmt.Sprintf("%.4g s in %s", t, c.labels[r]))
			if math.IsNaN(at) {
				at = t
			} else if math.Abs(t-at) > 1e-6*max(1, math.Abs(at)) {
				agree = false
			}
		}
		times[col] = at
		if !agree {
			times[col] = math.NaN()
			fmt.Fprintf(log, "export: frame %d is at different times in the inputs (%s)\n", n, strings.Join(seen, ", "))
		}
	}
	return times
}
