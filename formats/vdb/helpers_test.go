package vdb

import (
	"bytes"
	"math"
	"math/rand/v2"
	"testing"

	"snowtools/formats/vdb/blosc"
	"snowtools/levelset"
	"snowtools/levelset/geom"
)

// testFile returns grids that exercise every part of the format: a level set with
// leaves, interior tiles of all three sizes and leaves whose inactive values take
// each of the inactive-value codes; a fog volume with active tiles; a vector grid.
func testFile(half bool) *File {
	rng := rand.New(rand.NewPCG(1, 2))
	const h, radius = 0.05, 0.9
	bg := float32(3 * h)
	ls := levelset.NewGrid(levelset.Transform{VoxelSize: h, Origin: geom.Vec3{0.3, -0.1, 0.2}}, bg)
	n := int32(radius/h) + 4
	for i := -n; i <= n; i++ {
		for j := -n; j <= n; j++ {
			for k := -n; k <= n; k++ {
				c := levelset.Coord{i, j, k}
				d := geom.Vec3{float64(i), float64(j), float64(k)}.Scale(h).Norm() - radius
				switch {
				case math.Abs(d) < 3*h:
					ls.Set(c, float32(d))
				case d < 0 && ls.ProbeLeaf(c) != nil:
					ls.SetValue(c, -bg, false)
				}
			}
		}
	}
	// The leaf-sized blocks wholly inside become tiles of -background, as OpenVDB's
	// signed flood fill makes them.
	for i := -n; i <= n; i += 8 {
		for j := -n; j <= n; j += 8 {
			for k := -n; k <= n; k += 8 {
				o := levelset.Coord{i, j, k}.AlignDown(levelset.LeafLog2)
				centre := geom.Vec3{float64(o[0]) + 3.5, float64(o[1]) + 3.5, float64(o[2]) + 3.5}.Scale(h)
				if ls.ProbeLeaf(o) == nil && centre.Norm() < radius-0.5*h*8 {
					ls.SetTile(levelset.Tile[float32]{Origin: o, Log2: levelset.LeafLog2, Value: -bg})
				}
			}
		}
	}
	ls.SetTile(levelset.Tile[float32]{Origin: levelset.Coord{128, 0, 0}, Log2: levelset.Internal1Log2, Value: -bg})
	ls.SetTile(levelset.Tile[float32]{Origin: levelset.Coord{-4096, 0, 0}, Log2: levelset.Internal2Log2, Value: -bg})
	// Leaves whose inactive values are (bg, 7), (7), (7, 9) and (7, 9, 11).
	for x, extra := range [][]float32{{7}, {7}, {7, 9}, {7, 9, 11}} {
		o := levelset.Coord{int32(200 + 8*x), 0, 0}
		ls.Set(o, 1)
		leaf := ls.ProbeLeaf(o)
		for m := 1; m < levelset.LeafVoxels; m++ {
			if x == 0 && m%2 == 0 {
				continue // keeps the background
			}
			leaf.Values[m] = extra[m%len(extra)]
		}
	}

	fog := levelset.NewGrid(levelset.Transform{VoxelSize: 0.2}, float32(0))
	for range 3000 {
		c := levelset.Coord{rng.Int32N(60) - 30, rng.Int32N(60) - 30, rng.Int32N(60) - 300}
		fog.Set(c, rng.Float32())
	}
	fog.SetTile(levelset.Tile[float32]{Origin: levelset.Coord{128, 0, 0}, Log2: levelset.Internal1Log2, Value: 0.25, Active: true})
	fog.SetTile(levelset.Tile[float32]{Origin: levelset.Coord{-64, -64, -64}, Log2: levelset.LeafLog2, Value: 0.75, Active: true})
	fog.SetTile(levelset.Tile[float32]{Origin: levelset.Coord{4096, 0, 0}, Log2: levelset.Internal2Log2, Value: 0.5})

	vel := levelset.NewGrid(levelset.Transform{VoxelSize: 0.1, Origin: geom.Vec3{-1, 2, 3}}, levelset.Vec3f{})
	for range 2000 {
		c := levelset.Coord{rng.Int32N(40) - 20, rng.Int32N(40) - 20, rng.Int32N(40) - 20}
		vel.Set(c, levelset.Vec3f{rng.Float32() - 0.5, rng.Float32(), -rng.Float32()})
	}

	return &File{
		Meta: Metadata{"creator": "vdb tests", "frame": int32(12)},
		Grids: []*Grid{
			{Name: "surface", Class: LevelSet, Half: half, Float: ls, Meta: Metadata{"creator": "voxelize"}},
			{Name: "density", Class: FogVolume, Half: half, Float: fog},
			{Name: "velocity", VectorType: "contravariant relative", Half: half, Vec3: vel},
		},
	}
}

// probeCoords returns voxels all over a grid's interesting regions: a lattice over
// its active bounds and a margin, the voxels of every leaf and far-away points.
func probeCoords[T levelset.Value](g *levelset.Grid[T]) []levelset.Coord {
	var cs []levelset.Coord
	for _, l := range g.Leaves() {
		for n := range levelset.LeafVoxels {
			cs = append(cs, levelset.LeafCoord(l.Origin, n))
		}
	}
	for _, t := range g.Tiles() {
		cs = append(cs, t.Origin, t.Origin.Add(levelset.Coord{1, 2, 3}))
	}
	for _, far := range []levelset.Coord{{1 << 30, 0, 0}, {-5000, 0, 0}, {0, 0, 0}, {4196, 50, 50}} {
		cs = append(cs, far)
	}
	return cs
}

// expectSameGrid checks that got holds what want holds, voxel by voxel at the
// probe coordinates, with values rounded through half precision when half is set.
func expectSameGrid[T levelset.Value](t *testing.T, label string, want, got *levelset.Grid[T], half bool) {
	t.Helper()
	round := func(v T) T {
		if half {
			return roundedToHalf(v)
		}
		return v
	}
	if got.Transform != want.Transform {
		t.Errorf("%s: transform %+v, want %+v", label, got.Transform, want.Transform)
	}
	if got.Background != round(want.Background) {
		t.Errorf("%s: background %v, want %v", label, got.Background, round(want.Background))
	}
	if g, w := got.ActiveVoxelCount(), want.ActiveVoxelCount(); g != w {
		t.Errorf("%s: %d active voxels, want %d", label, g, w)
	}
	bad := 0
	for _, c := range probeCoords(want) {
		wv, won := want.Probe(c)
		gv, gon := got.Probe(c)
		if gv != round(wv) || gon != won {
			if bad++; bad <= 5 {
				t.Errorf("%s: voxel %v = (%v, active %v), want (%v, %v)", label, c, gv, gon, round(wv), won)
			}
		}
	}
	if bad > 5 {
		t.Errorf("%s: %d voxels differ in all", label, bad)
	}
}

// encode writes f with the given compression and returns the bytes.
func encode(t testing.TB, f *File, comp Compression) []byte {
	t.Helper()
	return encodeWith(t, f, Options{Compression: comp})
}

// encodeWith writes f with the given options and returns the bytes.
func encodeWith(t testing.TB, f *File, o Options) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, f, &o); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// compressions are every combination of flags Write offers; Blosc with its
// default codec, LZ4.
var compressions = []Compression{0, ActiveMask, ZIP, ZIP | ActiveMask, Blosc, Blosc | ActiveMask}

// writeOptions are compressions and the other codecs Blosc frames may hold.
func writeOptions() []Options {
	var opts []Options
	for _, c := range compressions {
		opts = append(opts, Options{Compression: c})
	}
	for _, codec := range []blosc.Codec{blosc.BloscLZ, blosc.Zlib} {
		opts = append(opts, Options{Compression: Blosc | ActiveMask, BloscCodec: codec})
	}
	return opts
}

// label names the compression of o.
func (o Options) label() string {
	if o.Compression&Blosc != 0 {
		return o.Compression.String() + " (" + o.BloscCodec.String() + ")"
	}
	return o.Compression.String()
}
