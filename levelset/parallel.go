package levelset

import (
	"sync"
	"sync/atomic"
)

// ParallelFor calls body(worker, i) for every i in [0, n) on up to `workers`
// goroutines, handing out indices one at a time. Each worker has its own id in
// [0, workers) for its scratch memory. Results never depend on which worker ran
// which index: bodies write disjoint data, and reductions are combined by the
// caller in worker-independent ways.
func ParallelFor(workers, n int, body func(worker, i int)) {
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

// ParallelRanges splits [0, n) into chunks of about chunk indices and calls
// body(worker, lo, hi) for each, in parallel.
func ParallelRanges(workers, n, chunk int, body func(worker, lo, hi int)) {
	chunks := (n + chunk - 1) / chunk
	ParallelFor(workers, chunks, func(w, c int) {
		lo := c * chunk
		body(w, lo, min(lo+chunk, n))
	})
}
