package main

import (
	"context"
	"errors"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/wordveil/wordveil/core"
)

// maxThreads bounds -threads: more blocks at once than this gain nothing on
// any machine the CLI runs on and only hold memory (each block in flight
// holds its input and output, up to about 8 × blockBytes).
const maxThreads = 256

// partLines is how many lines of a block one worker privatizes at a time
// when the block may be cut (stream's part): small enough that the last
// blocks of a run keep every core busy (a 64 KiB block of short lines,
// what a file read gives, is about 1,850 lines), large enough that a
// part's call costs little beside its words.
const partLines = 256

// job is a block on its way through inParallel: done is closed once res
// and err are set, after its last part (left counts those still running).
type job struct {
	outcome
	done chan struct{}
	left atomic.Int32
	part int     // lines per part, when cut into parts (else 0)
	errs []error // each part's error, when cut into parts
}

// errPartResults is a part whose privatize did not give one result per
// line (never from core's AppendBlock): its block fails rather than be
// written misaligned.
var errPartResults = errors.New("a part of a block did not give one result per line")

// piece is the part of a job a worker privatizes: lines[lo:hi] of its
// block (the whole block when not cut).
type piece struct {
	j      *job
	lo, hi int
}

// inParallel privatizes blocks on threads goroutines and returns their
// outcomes in input order. At most threads blocks are queued or running
// beyond the one next returns, so memory follows threads, not the input.
// next's error is errInterrupted (ctx done). stop cancels the blocks still
// running and waits for the goroutines it started; next must not be
// called after it. The blocks carry no charge that depends on another
// block (the CLI runs a ledger or a memo in turn, inTurn), so the order in
// which they finish changes nothing but when they are written. With part
// > 0 a block of more than part lines is privatized in parts of part
// lines, each a call of privatize on its own, on whichever worker is free
// (its results in place in the block's array): only for a privatize whose
// output does not depend on where blocks are cut (no seed: every draw
// fresh), so that the last blocks of a run are spread over the workers
// too. A block fails when one of its parts does, with the first part's
// error. A block's results go into an array from spare, if it has one.
func inParallel(ctx context.Context, privatize blockFunc, blocks <-chan block, threads, part int, spare recycler[core.Result]) (next func() (outcome, error), stop func()) {
	wctx, cancel := context.WithCancel(ctx)
	order := make(chan *job, threads) // the blocks in input order, for next
	work := make(chan piece)          // the parts to privatize, for the workers
	var wg sync.WaitGroup
	wg.Add(1 + threads)
	go func() { // the dispatcher: each block into the order, then its parts to the workers
		defer wg.Done()
		defer close(work)
		defer close(order)
		for {
			var b block
			var ok bool
			select {
			case <-wctx.Done():
				return
			case b, ok = <-blocks:
			}
			if !ok {
				return
			}
			j := &job{outcome: outcome{b: b}, done: make(chan struct{})}
			n, step := len(b.lines), len(b.lines)
			if part > 0 && n > part {
				j.part, step = part, part
				j.errs = make([]error, (n+part-1)/part)
				j.res = slices.Grow(spare.get(), n)[:n]
			}
			j.left.Store(int32(max(len(j.errs), 1)))
			select {
			case order <- j:
			case <-wctx.Done():
				return
			}
			if n == 0 {
				close(j.done)
			}
			for lo := 0; lo < n; lo += step {
				select {
				case work <- piece{j, lo, min(lo+step, n)}:
				case <-wctx.Done():
					return
				}
			}
			if b.err != nil {
				return
			}
		}
	}()
	for range threads {
		go func() {
			defer wg.Done()
			for p := range work {
				p.run(wctx, privatize, spare)
			}
		}()
	}
	next = func() (outcome, error) {
		var j *job
		select {
		case <-ctx.Done():
			return outcome{}, errInterrupted
		case j = <-order:
		}
		if j == nil {
			// The dispatcher ended without the input's end: only when
			// cancelled.
			return outcome{}, errInterrupted
		}
		select {
		case <-ctx.Done():
			return outcome{}, errInterrupted
		case <-j.done:
		}
		return j.outcome, nil
	}
	stop = func() {
		cancel()
		wg.Wait()
	}
	return next, stop
}

// run privatizes the piece and, when it is its block's last, completes
// the block.
func (p piece) run(ctx context.Context, privatize blockFunc, spare recycler[core.Result]) {
	j := p.j
	if j.part == 0 { // the whole block
		j.res, j.err = privatize(ctx, &j.b, spare.get())
		close(j.done)
		return
	}
	sub := j.b
	sub.lines = j.b.lines[p.lo:p.hi]
	// The part's results land in place: one per line, appended to an
	// empty slice of exactly their room.
	got, err := privatize(ctx, &sub, j.res[p.lo:p.lo:p.hi])
	switch {
	case err != nil:
		j.errs[p.lo/j.part] = err
	case len(got) != p.hi-p.lo:
		j.errs[p.lo/j.part] = errPartResults
	case &got[0] != &j.res[p.lo]:
		copy(j.res[p.lo:p.hi], got)
	}
	if j.left.Add(-1) > 0 {
		return
	}
	for _, err := range j.errs {
		if err != nil {
			j.err = err
			break
		}
	}
	close(j.done)
}
