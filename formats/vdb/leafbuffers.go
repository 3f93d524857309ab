package vdb

import (
	"sync"
	"sync/atomic"

	"snowtools/levelset"
)

// leafChunk is how many consecutive leaves one goroutine encodes at a time: enough
// that handing out chunks costs nothing next to compressing them (a few hundred
// microseconds a chunk), few enough that two threads share a small grid.
const leafChunk = 32

// leafChunks are one grid's leaves, ready to be encoded a chunk at a time: encode
// returns the buffers of chunk i (leaves i*leafChunk onwards), compressed by z.
type leafChunks struct {
	count  int
	encode func(i int, z *packer) []byte
}

// newLeafChunks cuts leaves, in the order the file stores them, into chunks that
// treeWriters from newWriter encode (LeafNode::writeBuffers: the active mask, then
// the values).
func newLeafChunks[T levelset.Value](leaves []*levelset.Leaf[T], newWriter func(*packer) *treeWriter[T]) leafChunks {
	return leafChunks{
		count: (len(leaves) + leafChunk - 1) / leafChunk,
		encode: func(i int, z *packer) []byte {
			w := newWriter(z)
			e := enc{b: z.chunk[:0]}
			for _, leaf := range leaves[i*leafChunk : min((i+1)*leafChunk, len(leaves))] {
				e.mask(leaf.Active[:])
				w.values(&e, leaf.Values[:], leaf.Active[:], nil)
			}
			z.chunk = e.b
			return append([]byte(nil), e.b...) // exactly sized: the chunks are kept until written
		},
	}
}

// encodeLeafChunks encodes the chunks of every grid on up to threads goroutines,
// each with its own packer, and returns each grid's buffers in order. Each leaf is
// its own zip stream, so the bytes do not depend on who encodes which chunk.
func encodeLeafChunks(grids []leafChunks, threads int) [][][]byte {
	type job struct{ grid, chunk int }
	var jobs []job
	buffers := make([][][]byte, len(grids))
	for g, c := range grids {
		buffers[g] = make([][]byte, c.count)
		for i := range c.count {
			jobs = append(jobs, job{g, i})
		}
	}
	var next atomic.Int64
	work := func() {
		z := packers.Get().(*packer)
		defer packers.Put(z)
		for {
			i := int(next.Add(1) - 1)
			if i >= len(jobs) {
				return
			}
			j := jobs[i]
			buffers[j.grid][j.chunk] = grids[j.grid].encode(j.chunk, z)
		}
	}
	// The package's layer does not import levelset/parallel; this is its For.
	var wg sync.WaitGroup
	for range min(threads, len(jobs)) - 1 {
		wg.Go(work)
	}
	work()
	wg.Wait()
	return buffers
}
