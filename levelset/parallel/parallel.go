// Package parallel runs loops on a fixed number of goroutines, with results that never
// depend on the scheduling: each worker has an id for its own scratch memory.
package parallel

import (
	"sync"
	"sync/atomic"
)

// For calls body(worker, i) for every i in [0, n) on up to `workers`
// goroutines, handing out indices one at a time. Each worker has its own id in
// [0, workers) for its scratch memory. Results never depend on which worker ran
// which index: bodies write disjoint data, and reductions are combined by the
// caller in worker-independent ways.
func For(workers, n int, body func(worker, i int)) {
	if workers > n {
		workers = n
	}
	if workers <= 1 {
		for i := 0; i < n; i++ {
			body(0, i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	wg.Add(workers)
	for w := 0; w < workers; w++ {
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				body(w, i)
			}
		}()
	}
	wg.Wait()
}

// Ranges splits [0, n) into chunks of about chunk indices and calls
// body(worker, lo, hi) for each, in parallel.
func Ranges(workers, n, chunk int, body func(worker, lo, hi int)) {
	chunks := (n + chunk - 1) / chunk
	For(workers, chunks, func(w, c int) {
		lo := c * chunk
		body(w, lo, min(lo+chunk, n))
	})
}
