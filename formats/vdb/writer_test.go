package vdb

import (
	"bytes"
	"testing"

	"snowtools/levelset"
)

// Two grids of a file may share one tree; encoding them at the same time must not
// race on the tree's cached leaf order (go test -race).
func TestWriteSharedTreeThreads(t *testing.T) {
	g := levelset.NewGrid(levelset.Transform{VoxelSize: 0.1}, float32(0))
	for i := range int32(200) {
		g.Set(levelset.Coord{i, 2 * i, -i}, float32(i))
	}
	f := &File{Grids: []*Grid{{Name: "a", Float: g}, {Name: "b", Float: g}}}
	var one, two bytes.Buffer
	if err := Write(&one, f, &Options{Compression: DefaultOptions.Compression, Threads: 1}); err != nil {
		t.Fatal(err)
	}
	g2 := levelset.NewGrid(levelset.Transform{VoxelSize: 0.1}, float32(0))
	for i := range int32(200) {
		g2.Set(levelset.Coord{i, 2 * i, -i}, float32(i))
	}
	f.Grids[0].Float, f.Grids[1].Float = g2, g2
	if err := Write(&two, f, &Options{Compression: DefaultOptions.Compression, Threads: 2}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(one.Bytes(), two.Bytes()) {
		t.Errorf("a file of two grids sharing a tree: %d bytes on 1 thread, %d on 2, not the same", one.Len(), two.Len())
	}
}
