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

// encodeLeafBuffers encodes every leaf's active mask and values, in the order given
// (LeafNode::writeBuffers), in chunks of leafChunk leaves that up to threads
// goroutines compress, each with its own treeWriter from newWriter. Each leaf is
// its own zip stream, so the bytes do not depend on who encodes which chunk; the
// chunks come back in order and exactly sized.
func encodeLeafBuffers[T levelset.Value](leaves []*levelset.Leaf[T], threads int, newWriter func() *treeWriter[T]) [][]byte {
	chunks := make([][]byte, (len(leaves)+leafChunk-1)/leafChunk)
	var next atomic.Int64
	work := func() {
		w := newWriter()
		var scratch enc
		for {
			i := int(next.Add(1) - 1)
			if i >= len(chunks) {
				return
			}
			scratch.b = scratch.b[:0]
			for _, leaf := range leaves[i*leafChunk : min((i+1)*leafChunk, len(leaves))] {
				scratch.mask(leaf.Active[:])
				w.values(&scratch, leaf.Values[:], leaf.Active[:], nil)
			}
			chunks[i] = append([]byte(nil), scratch.b...)
		}
	}
	// The package's layer does not import levelset/parallel; this is its For.
	var wg sync.WaitGroup
	for range min(threads, len(chunks)) - 1 {
		wg.Go(work)
	}
	work()
	wg.Wait()
	return chunks
}
