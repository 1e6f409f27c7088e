package privatize

import "sync"

// resultPool recycles the result arrays of blocks whose caller is done
// with them (ReleaseResults): a bulk caller that copies each block's
// results out (package core converts them) would otherwise leave one
// array of about 140 bytes per text to the garbage collector per block.
// Each entry is a *[]Result of length 0.
var resultPool sync.Pool

// results returns a slice of n zero Results: a released array when one
// is large enough, else a new one.
func results(n int) []Result {
	if v, ok := resultPool.Get().(*[]Result); ok && cap(*v) >= n {
		return (*v)[:n]
	}
	return make([]Result, n)
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
