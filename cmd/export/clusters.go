package main

import (
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"

	"snowtools/cmd/internal/cli"
	"snowtools/simcore/particles"
)

// -to clusters: does the snow break into lumps or into powder? One CSV row per frame
// with the clusters of particles.Clusters: particles closer than the link distance are
// neighbours, a cluster is a chain of neighbours, powder the clusters of fewer than
// -powder particles.

// defaultLinkFactor is the link distance in grid spacings h when -link is not given.
// snowsim seeds particles about h/2 apart (8 per cell), so a link of h keeps snow in
// one piece even where it has stretched to twice its seeded spacing, while two pieces
// a grid cell apart count as two.
const defaultLinkFactor = 1.0

// reportStdout is where "-" sends the report; tests replace it.
var reportStdout io.Writer = os.Stdout

// clusterSettings are the flags of -to clusters.
type clusterSettings struct {
	link   float64 // metres; 0: defaultLinkFactor times each frame's h
	powder int     // clusters of fewer particles are powder
	report string  // the CSV file, "-" for stdout
}

func (c *clusterSettings) flags(fs *flag.FlagSet) {
	fs.Float64Var(&c.link, "link", 0, "clusters: particles closer than `metres` are neighbours (default: the simulation's h, from the PRT metadata)")
	fs.IntVar(&c.powder, "powder", 10, "clusters: clusters of fewer than `N` particles are powder")
}

func (c *clusterSettings) check() error {
	switch {
	case c.link < 0 || math.IsNaN(c.link) || math.IsInf(c.link, 0):
		return fmt.Errorf("-link %g: must be a positive distance in metres", c.link)
	case c.powder < 0:
		return fmt.Errorf("-powder %d: must be 0 or more particles", c.powder)
	}
	return nil
}

// linkFor returns a frame's link distance: -link, else defaultLinkFactor times its h.
func (c *clusterSettings) linkFor(f *frame) (float64, error) {
	if c.link > 0 {
		return c.link, nil
	}
	h, ok := f.gridSpacing()
	if !ok {
		return 0, errors.New("no GridSpacing metadata (the file is not from snowsim): give the link distance with -link")
	}
	return defaultLinkFactor * h, nil
}

// clusterReport clusters each frame and writes the report after the last one, so that
// its rows are in frame order whatever order the workers finish in.
type clusterReport struct {
	s    *settings
	rows []clusterRow // by job index
}

// A clusterRow is one frame's line of the report.
type clusterRow struct {
	frame int
	time  float64 // s, from the PRT Time metadata; NaN when the file has none
	link  float64 // m
	particles.ClusterStats
}

func newClusterReport(s *settings, jobs []job) (*clusterReport, error) {
	if report := s.clusters.report; report != "-" && replacesInput(report, jobs) {
		return nil, fmt.Errorf("report %s would replace its input", report)
	}
	return &clusterReport{s: s, rows: make([]clusterRow, len(jobs))}, nil
}

func (c *clusterReport) convert(j job, threads int) result {
	f, err := c.s.readFrame(j.in.Path)
	if err != nil {
		return result{err: err}
	}
	pos, mass, err := f.positionsAndMasses(c.s.mass)
	if err != nil {
		return result{err: err}
	}
	link, err := c.s.clusters.linkFor(f)
	if err != nil {
		return result{err: err}
	}
	stats, err := particles.Clusters(pos, mass, link, c.s.clusters.powder)
	if err != nil {
		return result{err: err}
	}
	row := clusterRow{frame: j.in.Number, time: math.NaN(), link: link, ClusterStats: stats}
	if t, ok := f.Header.Float64Meta("", "Time"); ok && len(t) == 1 {
		row.time = t[0]
	}
	// Each job has its own index, so concurrent conversions never write the same row.
	c.rows[j.index] = row
	return result{particles: f.Len()}
}

func (c *clusterReport) finish(log io.Writer) error {
	report := c.s.clusters.report
	write := func(w io.Writer) error { return writeClusterCSV(w, c.rows) }
	if report == "-" {
		if err := write(reportStdout); err != nil { // the CSV writer buffers
			return fmt.Errorf("writing the report to stdout: %v", err)
		}
		report = "stdout"
	} else {
		if err := os.MkdirAll(filepath.Dir(report), 0o755); err != nil {
			return err
		}
		if err := cli.WriteFileAtomic(report, write); err != nil {
			return err
		}
	}
	fmt.Fprintf(log, "export: clusters of %d frames (powder: clusters of fewer than %d particles) -> %s\n",
		len(c.rows), c.s.clusters.powder, report)
	// A line for the first frame, the last and the most broken in between.
	broken := mostBroken(c.rows)
	for i, r := range c.rows {
		if i != 0 && i != broken && i != len(c.rows)-1 {
			continue
		}
		note := ""
		if i == broken && broken != 0 {
			note = " (most broken)"
		}
		fmt.Fprintf(log, "  frame %d%s: %s, %s; largest %.1f%%, second %.1f%%, powder %.1f%% of %.4g kg (link %g m)\n",
			r.frame, note, plural(r.Clusters, "cluster"), plural(r.Lumps, "lump"),
			100*r.Largest.Share, 100*r.Second.Share, 100*r.Powder.Share, r.Mass, r.link)
	}
	return nil
}

// clusterColumns head the report; README.md defines each.
var clusterColumns = []string{
	"frame", "time", "particles", "mass", "link", "clusters", "lumps",
	"largest_share", "largest_particles", "second_share", "second_particles",
	"powder_share", "powder_particles",
}

// writeClusterCSV writes the report: a header line, then a row per frame.
func writeClusterCSV(w io.Writer, rows []clusterRow) error {
	cw := csv.NewWriter(w)
	cw.Write(clusterColumns)
	for _, r := range rows {
		time := ""
		if !math.IsNaN(r.time) {
			time = strconv.FormatFloat(r.time, 'g', 7, 64)
		}
		share := func(v float64) string { return strconv.FormatFloat(v, 'f', 6, 64) }
		cw.Write([]string{
			strconv.Itoa(r.frame), time, strconv.Itoa(r.Particles),
			strconv.FormatFloat(r.Mass, 'g', 7, 64), strconv.FormatFloat(r.link, 'g', -1, 64),
			strconv.Itoa(r.Clusters), strconv.Itoa(r.Lumps),
			share(r.Largest.Share), strconv.Itoa(r.Largest.Particles),
			share(r.Second.Share), strconv.Itoa(r.Second.Particles),
			share(r.Powder.Share), strconv.Itoa(r.Powder.Particles),
		})
	}
	cw.Flush()
	return cw.Error()
}

// mostBroken returns the index of the first row with the smallest largest share.
func mostBroken(rows []clusterRow) int {
	broken := 0
	for i, r := range rows {
		if r.Largest.Share < rows[broken].Largest.Share {
			broken = i
		}
	}
	return broken
}

// plural writes "1 cluster", "2 clusters".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
