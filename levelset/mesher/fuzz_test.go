package mesher

import (
	"math"
	"slices"
	"testing"

	"snowtools/levelset"
)

// fuzzBox is the voxels a fuzz input fills: 15 a side across three leaves per
// axis, x-major, one byte each.
var fuzzLo, fuzzHi = levelset.Coord{-4, -4, -4}, levelset.Coord{11, 11, 11}

// fuzzTile is where an input may put an inside tile, next to the box's leaves.
var fuzzTile = levelset.Coord{16, 0, 0}

// fuzzValues are what a byte's low bits pick: values on the isovalue (0), on
// either side, and values that are not finite.
var fuzzValues = [...]float32{-1.5, -1, -0.5, 0, 0.5, 1, 1.5, float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), -0.01, 3}

// fuzzGrid turns data into a grid: the first byte's bit 0 adds an inside tile
// (bit 1 makes it active); then each byte sets one voxel of the box to the value
// its low bits pick, active when its bit 7 is set.
func fuzzGrid(data []byte) *levelset.FloatGrid {
	g := levelset.NewGrid(levelset.Transform{VoxelSize: 1, Origin: [3]float64{0.5, 0, -0.25}}, float32(2))
	if len(data) == 0 {
		return g
	}
	if flags := data[0]; flags&1 == 1 {
		g.AddTile(levelset.Tile[float32]{Origin: fuzzTile, Log2: levelset.LeafLog2, Value: -2, Active: flags&2 != 0})
	}
	side := fuzzHi[0] - fuzzLo[0]
	for i, b := range data[1:] {
		if i >= int(side*side*side) {
			break
		}
		c := fuzzLo.Add(levelset.Coord{int32(i) / (side * side), int32(i) / side % side, int32(i) % side})
		g.SetValue(c, fuzzValues[int(b&0x7f)%len(fuzzValues)], b&0x80 != 0)
	}
	return g
}

// cellCensus checks every cell that could hold the surface (the box, the tile
// and a voxel around): how many the surface crosses with an active corner in a
// leaf (the mesher meshes those), and how many it crosses without one (it leaves
// those open).
func cellCensus(g *levelset.FloatGrid) (meshed, open int) {
	activeInLeaf := func(c levelset.Coord) bool {
		l := g.ProbeLeaf(c)
		return l != nil && l.Active.IsOn(levelset.LeafOffset(c))
	}
	for x := fuzzLo[0] - 1; x <= fuzzTile[0]+levelset.LeafDim; x++ {
		for y := fuzzLo[1] - 1; y <= fuzzHi[1]+1; y++ {
			for z := fuzzLo[2] - 1; z <= fuzzHi[2]+1; z++ {
				inside, active := 0, false
				for n := range 8 {
					c := levelset.Coord{x + int32(n>>2), y + int32(n>>1&1), z + int32(n&1)}
					if g.Get(c) < 0 {
						inside++
					}
					active = active || activeInLeaf(c)
				}
				switch {
				case inside == 0 || inside == 8:
				case active:
					meshed++
				default:
					open++
				}
			}
		}
	}
	return meshed, open
}

// FuzzMesh meshes random small grids: random values (on the isovalue, not
// finite), random active voxels, sometimes an inside tile. It never fails or
// panics, never yields a vertex that is not finite, meshes exactly when some
// crossed cell has an active corner, gives the same mesh for 1 and 3 threads, and
// is a closed, consistently oriented manifold whenever every crossed cell has an
// active corner.
func FuzzMesh(f *testing.F) {
	f.Add([]byte{0, 0x80})             // one inside active voxel at a box corner
	f.Add([]byte{1, 0x83, 0x84, 0x01}) // an inside tile, values on the isovalue
	f.Add([]byte{2, 0x80, 0x81, 0x07, 0x8a, 0x89, 0x0b, 0x80, 0x82, 0x85, 0x86})
	f.Add(slices.Repeat([]byte{0x80, 0x05, 0x81, 0x8b, 0x09, 0x83, 0x0a}, 500))
	f.Fuzz(func(t *testing.T, data []byte) {
		g := fuzzGrid(data)
		m, err := Mesh(g, Options{Threads: 1})
		if err != nil {
			t.Fatal(err)
		}
		if len(m.Triangles) > 0 {
			if err := m.Validate(); err != nil {
				t.Fatal(err)
			}
		}
		again, err := Mesh(g, Options{Threads: 3})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(m.Positions, again.Positions) || !slices.Equal(m.Triangles, again.Triangles) {
			t.Fatal("3 threads give a different mesh from 1 thread's")
		}
		meshed, open := cellCensus(g)
		if (meshed > 0) != (len(m.Triangles) > 0) {
			t.Fatalf("%d crossed cells with an active corner, %d triangles", meshed, len(m.Triangles))
		}
		if meshed > 0 && open == 0 {
			checkSurface(t, m)
		}
	})
}
