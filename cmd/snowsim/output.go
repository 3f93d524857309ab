package main

import (
	"fmt"
	"io"
	"math"
	"slices"

	"snowtools/cmd/internal/scene"
	"snowtools/formats/prt"
	"snowtools/simcore"
)

// frameInfo is what a PRT frame records besides the particles.
type frameInfo struct {
	Frame int
	Time  float64 // s
	FPS   float64
	H     float64 // grid spacing, so that export can rasterize on the simulation grid
}

// frameColumn is one column of the particle records of snowsim's frames.
type frameColumn struct {
	name  string
	typ   prt.DataType
	arity int
	put   func(rec []byte, c prt.Channel, p *simcore.Particles, i int) // particle i's value
	// onRequest columns are written only when the scene's output.channels names them.
	onRequest bool
}

// allFrameColumns are the columns in record order: the channels of simcore.Channels
// that have a Frame, at the places it gives, and the derived columns at theirs. The
// columns written on request come last, and a frame leaves out those not asked for
// (frameColumns).
var allFrameColumns = placeFrameColumns()

// frameColumns returns the columns of the frames of a scene that asks for the
// channels requested (scene.Scene.Channels, names of scene.FrameChannels): every
// column that is always written and the requested ones, in record order.
func frameColumns(requested []string) []frameColumn {
	var cols []frameColumn
	for _, c := range allFrameColumns {
		if !c.onRequest || slices.Contains(requested, c.name) {
			cols = append(cols, c)
		}
	}
	return cols
}

// hasColumn reports whether cols has the column called name.
func hasColumn(cols []frameColumn, name string) bool {
	return slices.ContainsFunc(cols, func(c frameColumn) bool { return c.name == name })
}

// derivedColumns are the frame columns computed from several channels. Krakatoa
// multiplies its render density by Density, so Density is the packing ratio
// rho_p / rho_p^0 = 1 / J, J = det F_E J_P: 1 for snow as it was seeded, above 1 where
// it has been packed. PhysicalDensity is rho_p^0 / J in kg/m^3 (Particles.Density),
// rho_p^0 the density the particle was seeded with, so that snow at rest reads its
// material's rho_0 up to its surface. SinteredDensity is the density of Ye and
// Sugimoto's pressure sintering (equation 2, ParticleSintering.Density) for a
// particle that sinters, and PhysicalDensity for one that does not: one channel that
// a renderer can read for every particle of a scene that mixes both. Orientation,
// written on request, is the rotation of the particle's material
// (simcore.Particles.Orientation) as a unit quaternion, x, y, z, w.
var derivedColumns = []struct {
	at  int
	col frameColumn
}{
	{2, frameColumn{name: "Density", typ: prt.Float32, arity: 1, put: putPackingRatio}},
	{5, frameColumn{name: "PhysicalDensity", typ: prt.Float32, arity: 1, put: putPhysicalDensity}},
	{7, frameColumn{name: "SinteredDensity", typ: prt.Float32, arity: 1, put: putSinteredDensity}},
	{9, frameColumn{name: "Orientation", typ: prt.Float32, arity: 4, onRequest: true, put: putOrientation}},
}

// requestedInterpretations are the PRT Interpretation metadata of the columns written
// on request (1 point, 4 orientation: Krakatoa checks that an Orientation channel
// holds 4 floats); Position's and Velocity's are in frameMeta.
var requestedInterpretations = map[string]int32{"RestPosition": 1, "Orientation": 4}

// prtTypes are the PRT types of the Scalar types that channels are written as.
var prtTypes = map[simcore.Scalar]prt.DataType{simcore.Int32: prt.Int32, simcore.Float32: prt.Float32, simcore.Float64: prt.Float64}

// placeFrameColumns orders the written channels and the derived columns by their
// places, which must be 0, 1, ... with none taken twice, those written on request
// last, and those exactly scene.FrameChannels: the table and derivedColumns are the
// program's own, so a clash is a bug, reported as the program starts.
func placeFrameColumns() []frameColumn {
	var cols []frameColumn
	place := func(at int, c frameColumn) {
		if at >= len(cols) {
			cols = append(cols, make([]frameColumn, at+1-len(cols))...)
		}
		if cols[at].put != nil {
			panic(fmt.Sprintf("frame columns %s and %s both at place %d", cols[at].name, c.name, at))
		}
		cols[at] = c
	}
	for _, d := range derivedColumns {
		place(d.at, d.col)
	}
	for i := range simcore.Channels {
		ch := &simcore.Channels[i]
		if ch.Frame != nil {
			place(ch.Frame.At, frameColumn{name: ch.Frame.Name, typ: prtTypes[ch.Frame.Type], arity: ch.Arity(),
				onRequest: ch.Frame.OnRequest,
				put: func(rec []byte, c prt.Channel, p *simcore.Particles, i int) {
					ch.EncodeFrame(p, i, rec[c.Offset:c.End()])
				}})
		}
	}
	var requestable []string
	for at, c := range cols {
		switch {
		case c.put == nil:
			panic(fmt.Sprintf("no frame column at place %d", at))
		case c.onRequest:
			requestable = append(requestable, c.name)
		case len(requestable) > 0:
			panic(fmt.Sprintf("frame column %s, always written, comes after %s, written on request", c.name, requestable[0]))
		}
	}
	if !slices.Equal(requestable, scene.FrameChannels) {
		panic(fmt.Sprintf("the frame columns written on request are %v, but scenes may ask for %v", requestable, scene.FrameChannels))
	}
	return cols
}

// putPackingRatio writes rho_p / rho_p^0 = 1 / J.
func putPackingRatio(rec []byte, c prt.Channel, p *simcore.Particles, i int) {
	c.PutFloat32s(rec, float32(1/p.VolumeRatio(i)))
}

// putPhysicalDensity writes rho_p^0 / J (kg/m^3).
func putPhysicalDensity(rec []byte, c prt.Channel, p *simcore.Particles, i int) {
	c.PutFloat32s(rec, float32(p.Density(i)))
}

// putSinteredDensity writes the sintering density rho of a particle that sinters, and
// the physical density of one that does not (kg/m^3).
func putSinteredDensity(rec []byte, c prt.Channel, p *simcore.Particles, i int) {
	c.PutFloat32s(rec, float32(p.SinteredDensity(i)))
}

// putOrientation writes the rotation of the particle's material as the unit
// quaternion x, y, z, w (w >= 0): the real part last, as Krakatoa's PRT Orientation
// channel stores it (its quat4t lays out x, y, z, w "to match the Max layout") and as
// Houdini's orient attribute does.
func putOrientation(rec []byte, c prt.Channel, p *simcore.Particles, i int) {
	w, x, y, z := p.Orientation(i)
	c.PutFloat32s(rec, float32(x), float32(y), float32(z), float32(w))
}

// newHeader returns the header of a frame of n particles with the columns cols.
func newHeader(n int, cols []frameColumn, info frameInfo, bounds [6]float32) (prt.Header, []prt.Channel) {
	var h prt.Header
	chans := make([]prt.Channel, len(cols))
	for k, c := range cols {
		chans[k] = h.AddChannel(c.name, c.typ, c.arity)
	}
	h.Count = int64(n)
	h.Meta = frameMeta(info, bounds)
	for _, c := range cols {
		if v, ok := requestedInterpretations[c.name]; ok && c.onRequest {
			h.Meta = append(h.Meta, prt.MetaInt32(c.name, "Interpretation", v))
		}
	}
	return h, chans
}

// frameMeta is the metadata of a frame snowsim writes: the particles' box, the
// axes, units and frame rate Krakatoa reads, and what export needs.
func frameMeta(info frameInfo, bounds [6]float32) []prt.Meta {
	num, den := frameRate(info.FPS)
	return []prt.Meta{
		prt.MetaFloat32("", "BoundBox", bounds[:]...),
		prt.MetaInt32("", "CoordSys", 1), // right-handed, Y up
		prt.MetaFloat64("", "LengthUnitInMeters", 1),
		prt.MetaUint32("", "FrameRate", num, den),
		prt.MetaString("", "Creator", "snowsim"),
		prt.MetaInt32("", "Frame", int32(info.Frame)),
		prt.MetaFloat64("", "Time", info.Time),
		prt.MetaFloat64("", "GridSpacing", info.H),
		prt.MetaInt32("Position", "Interpretation", 1), // point
		prt.MetaInt32("Velocity", "Interpretation", 2), // vector
	}
}

// frameRate writes fps as a ratio: integers exactly, others to 1/1000.
func frameRate(fps float64) (num, den uint32) {
	if fps == math.Trunc(fps) {
		return uint32(fps), 1
	}
	return uint32(math.Round(fps * 1000)), 1000
}

// writePRT writes the particles as one PRT frame of the columns cols (frameColumns).
func writePRT(w io.Writer, p *simcore.Particles, cols []frameColumn, info frameInfo) error {
	n := p.Len()
	bounds := [6]float32{}
	if n > 0 {
		lo, hi := p.X[0], p.X[0]
		for _, x := range p.X {
			lo, hi = lo.Min(x), hi.Max(x)
		}
		bounds = [6]float32{float32(lo[0]), float32(lo[1]), float32(lo[2]), float32(hi[0]), float32(hi[1]), float32(hi[2])}
	}
	h, chans := newHeader(n, cols, info, bounds)
	pw, err := prt.NewWriter(w, h)
	if err != nil {
		return err
	}
	rec := make([]byte, h.ParticleSize())
	for i := 0; i < n; i++ {
		for k, c := range cols {
			c.put(rec, chans[k], p, i)
		}
		if err := pw.WriteParticle(rec); err != nil {
			return err
		}
	}
	return pw.Close()
}
