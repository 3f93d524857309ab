package vdb

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"snowtools/levelset"
)

// TestWriteRefusesNonFiniteValues: a NaN or infinite value anywhere a file stores
// one (a leaf voxel, active or not, a tile, the background) stops Write with the
// grid's name and the voxel; on main a NaN velocity was written with exit 0 (issue
// 24, finding 11).
func TestWriteRefusesNonFiniteValues(t *testing.T) {
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	tr := levelset.Transform{VoxelSize: 0.5, Origin: [3]float64{1, 0, 0}}
	velocity := func() *levelset.Vec3Grid {
		g := levelset.NewGrid(tr, levelset.Vec3f{})
		g.Set(levelset.Coord{0, 0, 0}, levelset.Vec3f{1, 2, 3})
		return g
	}
	density := func() *levelset.FloatGrid {
		g := levelset.NewGrid(tr, float32(0))
		g.Set(levelset.Coord{0, 0, 0}, 1)
		return g
	}
	cases := []struct {
		name string
		grid *Grid
		want string
	}{
		{"NaN velocity", func() *Grid {
			g := velocity()
			g.Set(levelset.Coord{3, -2, 9}, levelset.Vec3f{0, nan, 0})
			return &Grid{Name: "v", Vec3: g}
		}(), `vdb: grid "v": voxel [3 -2 9] (at [2.5 -1 4.5] m) holds [0 NaN 0], not a finite value`},
		{"inactive infinite density", func() *Grid {
			g := density()
			g.SetValue(levelset.Coord{1, 0, 0}, inf, false)
			return &Grid{Name: "density", Float: g}
		}(), `vdb: grid "density": voxel [1 0 0] (at [1.5 0 0] m) holds +Inf`},
		{"infinite tile", func() *Grid {
			g := density()
			g.SetTile(levelset.Tile[float32]{Origin: levelset.Coord{8, 0, 0}, Log2: levelset.LeafLog2, Value: -inf, Active: true})
			return &Grid{Name: "density", Float: g}
		}(), `vdb: grid "density": the tile of 512 voxels at voxel [8 0 0] holds -Inf`},
		{"NaN background", func() *Grid {
			g := density()
			g.Background = nan
			return &Grid{Name: "density", Float: g}
		}(), `vdb: grid "density": background NaN is not finite`},
	}
	for _, c := range cases {
		err := Write(&bytes.Buffer{}, &File{Grids: []*Grid{c.grid}}, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
	if err := Write(&bytes.Buffer{}, &File{Grids: []*Grid{{Name: "v", Vec3: velocity()}, {Name: "d", Float: density()}}}, nil); err != nil {
		t.Errorf("finite grids: %v", err)
	}
}
