package main

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"

	"snowtools/cmd/internal/cli"
	"snowtools/simcore/particles"
)

// The shape differences of -to compare: how far each run's shape is from the first
// run's, at every column, in cells of one size h (the first run's grid spacing, or
// -cell), by the measures of particles.Shape (centroids, cells shared, column
// heights), which are those by which simcore's TestAutoIntegrator holds the auto
// integrator to the explicit one.
//
// A frame is read once: convert summarises its shape from the positions it renders,
// in its job's slot; without -differences only the last column's shapes, which the
// log gives, are summarised, and a frame that cannot be measured (a particle a
// million cells from the origin, a malformed Mass channel) leaves its line in the log
// saying why, while the picture is still written. finish compares the rows.

// summarise sets job j's shape from its frame f and positions pos. It fails only when
// -differences asks for every number.
func (c *comparison) summarise(j job, f *frame, pos []float32) error {
	var mass []float32
	var err error
	if _, ok := f.Header.Channel("Mass"); ok {
		mass, err = f.floats("Mass", 1)
	}
	if err == nil {
		c.shapes[j.index], err = particles.SummariseShape(pos, mass, c.cell)
	}
	if err != nil {
		err = fmt.Errorf("frame %d (%s): %v; give a larger -cell, or leave out -differences", j.in.Number, j.in.Path, err)
		if c.s.compare.differences != "" {
			return err
		}
		c.shapeErrs[j.index] = err
	}
	return nil
}

// measureCell returns the size of the comparison's cells: -cell, else the grid
// spacing in the header of the first run's first frame (read alone). Without
// either it returns 0 and why, which is an error only when -differences asks for
// the numbers.
func (c *comparison) measureCell(cs *compareSettings) (h float64, source string, err error) {
	if len(c.labels) < 2 {
		return 0, "", nil // one run: nothing to measure (check refuses -differences)
	}
	if cs.cell > 0 {
		return cs.cell, "-cell", nil
	}
	first := c.jobs[0].in
	header, err := readHeader(first.Path)
	if err != nil {
		return 0, "", fmt.Errorf("frame %d (%s): %v", first.Number, first.Path, err)
	}
	if h, ok := gridSpacing(header); ok {
		return h, c.labels[0] + "'s GridSpacing", nil
	}
	why := fmt.Sprintf("%s (frame %d of the first run) has no GridSpacing metadata to measure in", first.Path, first.Number)
	if cs.differences != "" {
		return 0, "", fmt.Errorf("-differences %s: %s; give the cell size with -cell metres", cs.differences, why)
	}
	return 0, why, nil
}

// logDifferences writes the differences of the last column to the log: a line per
// run after the first.
func (c *comparison) logDifferences(log io.Writer) {
	if len(c.labels) < 2 {
		return
	}
	if c.cell == 0 {
		fmt.Fprintf(log, "  no shape differences measured: %s (give -cell metres)\n", c.noCell)
		return
	}
	fmt.Fprintf(log, "  shape differences in h = %g m (%s):\n", c.cell, c.cellSource)
	col := len(c.frames) - 1
	for r := 1; r < len(c.labels); r++ {
		line := fmt.Sprintf("  frame %d: %s against %s: ", c.frames[col], c.labels[r], c.labels[0])
		d, run, ref, err := c.difference(r, col)
		switch {
		case err != nil:
			line += "not measured: " + err.Error()
		case math.IsNaN(d.Centroid):
			line += fmt.Sprintf("no finite positions to measure (of %d and %d particles)", run.Particles, ref.Particles)
		case math.IsNaN(d.Median):
			line += fmt.Sprintf("centroids %.2f h apart, %.1f%% of the cells shared, no column of both to compare heights in", d.Centroid, 100*d.Shared)
		default:
			line += fmt.Sprintf("centroids %.2f h apart, %.1f%% of the cells shared, heights %.2f h apart (median), %.2f h (9 in 10), %.2f h (mean), %.2f h (largest)",
				d.Centroid, 100*d.Shared, d.Median, d.P90, d.Mean, d.Max)
		}
		fmt.Fprintln(log, line)
	}
}

// measures reports whether the job's shape is wanted: every column's with
// -differences, else the last column's, which the log gives.
func (c *comparison) measures(j job) bool {
	return c.shapes != nil && (c.s.compare.differences != "" || j.index%len(c.frames) == len(c.frames)-1)
}

// difference measures run r against the first run at column col, and returns both
// shapes, or why either is missing.
func (c *comparison) difference(r, col int) (d particles.ShapeDifference, run, ref *particles.Shape, err error) {
	i, i0 := r*len(c.frames)+col, col
	for _, k := range []int{i0, i} {
		if c.shapeErrs[k] != nil {
			return d, nil, nil, c.shapeErrs[k]
		}
	}
	run, ref = c.shapes[i], c.shapes[i0]
	return run.DifferenceFrom(ref), run, ref, nil
}

// differenceColumns head the -differences CSV.
var differenceColumns = []string{
	"frame", "time", "run", "against", "centroid_h", "cells_shared",
	"height_median_h", "height_p90_h", "height_mean_h", "height_max_h", "particles", "particles_against",
}

// writeDifferences writes -differences: a row per column and per run after the
// first; times are the columns' (NaN: unknown, an empty field). With -differences
// every shape was summarised (summarise fails otherwise).
func (c *comparison) writeDifferences(times []float64, log io.Writer) error {
	output := c.s.compare.differences
	write := func(w io.Writer) error {
		cw := csv.NewWriter(w)
		cw.Write(differenceColumns)
		number := func(v float64) string {
			if math.IsNaN(v) {
				return ""
			}
			return strconv.FormatFloat(v, 'g', 7, 64)
		}
		for col, n := range c.frames {
			for r := 1; r < len(c.labels); r++ {
				d, run, ref, err := c.difference(r, col)
				if err != nil {
					return err
				}
				cw.Write([]string{
					strconv.Itoa(n), number(times[col]), c.labels[r], c.labels[0],
					number(d.Centroid), number(d.Shared), number(d.Median), number(d.P90), number(d.Mean), number(d.Max),
					strconv.Itoa(run.Particles), strconv.Itoa(ref.Particles),
				})
			}
		}
		cw.Flush()
		return cw.Error()
	}
	if output == "-" {
		if err := write(reportStdout); err != nil {
			return fmt.Errorf("writing the differences to stdout: %v", err)
		}
		output = "stdout"
	} else if err := cli.WriteFileAtomic(output, write); err != nil {
		return err
	}
	fmt.Fprintf(log, "export: shape differences from %s at %d frames -> %s\n", c.labels[0], len(c.frames), output)
	return nil
}
