package main

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"snowtools/cmd/internal/cli"
	"snowtools/formats/prt"
)

// The shape differences of -to compare: how far each run's shape is from the first
// run's, at every column, in cells of one size h (the first run's grid spacing, or
// -cell). The measures are those of simcore's TestAutoIntegrator
// (simcore/integrator_auto_test.go, with occupancyOverlap of simcore/implicit_test.go
// and centroid of simcore/physics_test.go), with the same definitions:
//
//   - centroid: the distance between the runs' centroids, weighted by the Mass
//     channel as simcore's centroid is (the plain mean of the positions when either
//     frame has no Mass channel);
//   - cells shared: the occupied cells (floor(x/h), floor(y/h), floor(z/h)) that
//     both runs have, divided by those that either has (Jaccard);
//   - heights: in the columns of h x h in x and z (y is up) that both runs occupy,
//     the absolute difference of their top heights (the highest particle's y),
//     sorted; the median is the difference at index len/2, the 90th percentile the
//     one at len*9/10 (as TestAutoIntegrator reads heightDifferences), the mean
//     their sum over len.
//
// Particles with a coordinate that is not finite have no cell, column or share of
// the centroid; the particle counts are the files'.
//
// A frame is read once: convert summarises its shape from the positions it renders
// (a shape: the centroids, the sorted occupied cells, the sorted columns with their
// tops), in its job's slot, and keeps no positions; without -differences only the
// last column's shapes, which the log gives, are summarised. finish compares the
// rows by merging the sorted keys.

// cellBias shifts a cell index into the 21 bits that a packed key gives each axis:
// indices from -cellBias to cellBias-1 (a million cells either side of the origin:
// 10 km at h = 1 cm).
const cellBias = 1 << 20

// A shape is what the differences need of one frame.
type shape struct {
	particles int        // in the file
	finite    int        // with finite positions: those measured
	mean      [3]float64 // the centroid of the finite positions
	massMean  [3]float64 // ... weighted by Mass; valid when hasMass
	hasMass   bool
	// cells are the occupied cells, packed by cellKey, sorted and distinct; their
	// order (x, z, y) puts each column's cells together.
	cells []uint64
	// columns are the occupied columns (cellKey >> 21: x and z), sorted, and tops
	// the highest particle's y in each.
	columns []uint64
	tops    []float32
}

// cellKey packs cell indices (each within ±cellBias) into x, z, y from the high bits.
func cellKey(ix, iy, iz int64) uint64 {
	return uint64(ix+cellBias)<<42 | uint64(iz+cellBias)<<21 | uint64(iy+cellBias)
}

// summarise returns the shape of a frame's particles (pos: x y z each; mass nil
// when the frame has no Mass channel) in cells of size h. A particle more than
// cellBias cells from the origin is an error that asks for a larger -cell.
func summarise(pos, mass []float32, h float64) (*shape, error) {
	n := len(pos) / 3 // from the decoded data, not from a header
	sh := &shape{particles: n, hasMass: mass != nil && len(mass) == n}
	keys := make([]uint64, 0, n)
	var sum, massSum [3]float64
	totalMass := 0.0
	index := func(v float64) (int64, bool) {
		c := math.Floor(v / h)
		return int64(c), c >= -cellBias && c < cellBias
	}
	for i := range n {
		x := [3]float64{float64(pos[3*i]), float64(pos[3*i+1]), float64(pos[3*i+2])}
		if !finite(x[0]) || !finite(x[1]) || !finite(x[2]) {
			continue
		}
		ix, okx := index(x[0])
		iy, oky := index(x[1])
		iz, okz := index(x[2])
		if !okx || !oky || !okz {
			return nil, fmt.Errorf("particle %d at (%g, %g, %g) is more than %d cells of %g m from the origin: too far to measure shapes in; give a larger -cell",
				i, x[0], x[1], x[2], cellBias, h)
		}
		keys = append(keys, cellKey(ix, iy, iz))
		sh.finite++
		for a := range 3 {
			sum[a] += x[a]
		}
		if sh.hasMass {
			m := float64(mass[i])
			totalMass += m
			for a := range 3 {
				massSum[a] += m * x[a]
			}
		}
	}
	sh.hasMass = sh.hasMass && totalMass > 0
	for a := range 3 {
		sh.mean[a] = sum[a] / float64(sh.finite)
		if sh.hasMass {
			sh.massMean[a] = massSum[a] / totalMass
		}
	}
	slices.Sort(keys)
	sh.cells = slices.Clone(slices.Compact(keys)) // the exact size: keys is as long as the frame
	keys = nil

	columns := 0
	for i, k := range sh.cells {
		if i == 0 || k>>21 != sh.cells[i-1]>>21 {
			columns++
		}
	}
	sh.columns = make([]uint64, 0, columns)
	for _, k := range sh.cells {
		if len(sh.columns) == 0 || k>>21 != sh.columns[len(sh.columns)-1] {
			sh.columns = append(sh.columns, k>>21)
		}
	}
	sh.tops = make([]float32, len(sh.columns))
	for i := range sh.tops {
		sh.tops[i] = float32(math.Inf(-1))
	}
	for i := range n {
		x, y, z := float64(pos[3*i]), float64(pos[3*i+1]), float64(pos[3*i+2])
		if !finite(x) || !finite(y) || !finite(z) {
			continue
		}
		ix, _ := index(x)
		iz, _ := index(z)
		c, _ := slices.BinarySearch(sh.columns, cellKey(ix, 0, iz)>>21)
		sh.tops[c] = max(sh.tops[c], pos[3*i+1])
	}
	return sh, nil
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// A shapeDifference is how far one run's shape is from another's at a frame; the
// lengths are in h. Every measure is NaN when either frame has no particles to
// measure, and the heights' when no column has particles of both.
type shapeDifference struct {
	centroid                 float64
	shared                   float64 // of the cells, 0 to 1
	median, p90, mean        float64 // of the heights' differences
	particles, particlesFrom int     // of the run, of the run it is measured against
}

// difference measures shape a against shape b (the first run's) in cells of h.
func difference(a, b *shape, h float64) shapeDifference {
	nan := math.NaN()
	d := shapeDifference{centroid: nan, shared: nan, median: nan, p90: nan, mean: nan,
		particles: a.particles, particlesFrom: b.particles}
	if a.finite == 0 || b.finite == 0 {
		return d
	}
	ca, cb := a.mean, b.mean
	if a.hasMass && b.hasMass {
		ca, cb = a.massMean, b.massMean
	}
	d.centroid = math.Sqrt((ca[0]-cb[0])*(ca[0]-cb[0])+(ca[1]-cb[1])*(ca[1]-cb[1])+(ca[2]-cb[2])*(ca[2]-cb[2])) / h

	both := 0
	for i, j := 0, 0; i < len(a.cells) && j < len(b.cells); {
		switch {
		case a.cells[i] < b.cells[j]:
			i++
		case a.cells[i] > b.cells[j]:
			j++
		default:
			both, i, j = both+1, i+1, j+1
		}
	}
	d.shared = float64(both) / float64(len(a.cells)+len(b.cells)-both)

	var heights []float64
	for i, j := 0, 0; i < len(a.columns) && j < len(b.columns); {
		switch {
		case a.columns[i] < b.columns[j]:
			i++
		case a.columns[i] > b.columns[j]:
			j++
		default:
			heights = append(heights, math.Abs(float64(a.tops[i])-float64(b.tops[j])))
			i, j = i+1, j+1
		}
	}
	if len(heights) == 0 {
		return d
	}
	slices.Sort(heights)
	mean := 0.0
	for _, v := range heights {
		mean += v / float64(len(heights))
	}
	d.median, d.p90, d.mean = heights[len(heights)/2]/h, heights[len(heights)*9/10]/h, mean/h
	return d
}

// measureCell returns the size of the comparison's cells: -cell, else the grid
// spacing in the header of the first run's first frame (read alone). Without
// either it returns 0 and why, which is an error only when -differences asks for
// the numbers.
func (c *comparison) measureCell(cs *compareSettings) (h float64, source string, err error) {
	if len(c.labels) < 2 && cs.differences == "" {
		return 0, "", nil // one run: nothing to measure
	}
	if cs.cell > 0 {
		return cs.cell, "-cell", nil
	}
	first := c.jobs[0].in
	header, err := readHeader(first.Path)
	if err != nil {
		return 0, "", fmt.Errorf("frame %d (%s): %v", first.Number, first.Path, err)
	}
	if h, ok := (&frame{Frame: &prt.Frame{Header: header}}).gridSpacing(); ok {
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
		d := c.difference(r, col)
		line := fmt.Sprintf("  frame %d: %s against %s: ", c.frames[col], c.labels[r], c.labels[0])
		switch {
		case math.IsNaN(d.centroid):
			line += fmt.Sprintf("no particles to measure (%d and %d)", d.particles, d.particlesFrom)
		case math.IsNaN(d.median):
			line += fmt.Sprintf("centroids %.2f h apart, %.1f%% of the cells shared, no column of both to compare heights in", d.centroid, 100*d.shared)
		default:
			line += fmt.Sprintf("centroids %.2f h apart, %.1f%% of the cells shared, heights %.2f h apart (median), %.2f h (9 in 10), %.2f h (mean)",
				d.centroid, 100*d.shared, d.median, d.p90, d.mean)
		}
		fmt.Fprintln(log, line)
	}
}

// measures reports whether the job's shape is wanted: every column's with
// -differences, else the last column's, which the log gives.
func (c *comparison) measures(j job) bool {
	return c.shapes != nil && (c.s.compare.differences != "" || j.index%len(c.frames) == len(c.frames)-1)
}

// difference measures run r against the first run at column col.
func (c *comparison) difference(r, col int) shapeDifference {
	columns := len(c.frames)
	return difference(c.shapes[r*columns+col], c.shapes[col], c.cell)
}

// differenceColumns head the -differences CSV.
var differenceColumns = []string{
	"frame", "time", "run", "against", "centroid_h", "cells_shared",
	"height_median_h", "height_p90_h", "height_mean_h", "particles", "particles_against",
}

// writeDifferences writes -differences: a row per column and per run after the
// first; times are the columns' (NaN: unknown, an empty field).
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
				d := c.difference(r, col)
				cw.Write([]string{
					strconv.Itoa(n), number(times[col]), c.labels[r], c.labels[0],
					number(d.centroid), number(d.shared), number(d.median), number(d.p90), number(d.mean),
					strconv.Itoa(d.particles), strconv.Itoa(d.particlesFrom),
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
	} else {
		if err := os.MkdirAll(filepath.Dir(output), 0o755); err != nil {
			return err
		}
		if err := cli.WriteFileAtomic(output, write); err != nil {
			return err
		}
	}
	fmt.Fprintf(log, "export: shape differences from %s at %d frames -> %s\n", c.labels[0], len(c.frames), output)
	return nil
}
