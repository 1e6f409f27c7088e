package privatize

import "sync"

// resultPool recycles the result arrays of blocks whose caller is done
// with them (ReleaseResults): a bulk caller that copies each block's
// results out (package core converts them) would otherwise leave one
// array of about 140 bytes per text to the garbage collector per block.
// Each entry is a *[]Result of length 0.
var resultPool sync.Pool

// results returns a slice of n zero Results: a released array when one
// is large enough, else a new one with an eighth more room, so that a
// stream of blocks of about the same size (the CLI's, a few lines more or
// less each) keeps reusing it rather than replacing it whenever a block
// is a line longer.
func results(n int) []Result {
	if v, ok := resultPool.Get().(*[]Result); ok && cap(*v) >= n {
		return (*v)[:n]
	}
	return make([]Result, n, n+n/8)
}

// ReleaseResults hands back rs, the results of a PrivatizeBlock call
// that the caller no longer reads (the strings it holds stay valid: only
// the array is reused), so that a later block can reuse the array. rs
// must not be used after: neither its elements nor pointers into it (as
// Privatize returns). Releasing is optional.
func ReleaseResults(rs []Result) {
	if cap(rs) == 0 {
		return
	}
	rs = rs[:cap(rs)]
	clear(rs) // a later block starts from zero Results, and no text is kept alive
	rs = rs[:0]
	resultPool.Put(&rs)
}

// passBufs are pass 1's arrays of a block (scanned's), which die with the
// block: handed back when it ends (scanned.release) and reused by the
// next, so that a stream of blocks does not leave them all to the garbage
// collector (about 3 bytes per input byte). Each entry is a *passBufs.
var passPool sync.Pool

type passBufs struct {
	ids    []int32
	cls    []uint8
	found  bitset
	ends   []textCursor
	shapes []textShape
}

// getPassBufs returns released arrays, or none (each then made afresh).
func getPassBufs() *passBufs {
	if b, ok := passPool.Get().(*passBufs); ok {
		return b
	}
	return new(passBufs)
}

// release hands sc's arrays back for the next block; sc must not be used
// after. Nothing of them outlives a block: the results hold their own
// strings and counts.
func (sc *scanned) release() {
	if sc.bufs == nil {
		return
	}
	b := sc.bufs
	b.ids, b.cls, b.found, b.ends, b.shapes = sc.ids[:0], sc.cls[:0], sc.found, sc.ends[:0], sc.shapes[:0]
	*sc = scanned{}
	passPool.Put(b)
}

// reuse returns s resliced to n elements, zeroed, when its capacity
// allows, else a new slice.
func reuse[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	s = s[:n]
	clear(s)
	return s
}
