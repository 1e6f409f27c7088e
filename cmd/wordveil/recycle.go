package main

// recycler holds arrays of blocks already written for the blocks still
// to come: a stream of blocks then reuses a few arrays (the lines of a
// block, its results) instead of leaving one per block to the garbage
// collector, whose work and fresh pages compete with the blocks being
// privatized on every core. It keeps at most its capacity; get returns
// nil (a fresh array is then made by append) when it holds none, put
// drops an array it has no room for. The zero (nil) recycler holds
// nothing. Safe for concurrent use.
type recycler[T any] chan []T

// newRecycler returns a recycler of n arrays.
func newRecycler[T any](n int) recycler[T] {
	return make(recycler[T], n)
}

// get returns a held array emptied (length 0), or nil.
func (r recycler[T]) get() []T {
	select {
	case s := <-r:
		return s[:0]
	default:
		return nil
	}
}

// put hands s back, zeroed first so that it keeps nothing of its block
// alive (the texts its elements point to).
func (r recycler[T]) put(s []T) {
	if cap(s) == 0 {
		return
	}
	clear(s[:cap(s)])
	select {
	case r <- s:
	default:
	}
}
