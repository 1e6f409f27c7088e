package main

import (
	"context"
	"sync"

	"github.com/wordveil/wordveil/core"
)

// maxThreads bounds -threads: more blocks at once than this gain nothing on
// any machine the CLI runs on and only hold memory (each block in flight
// holds its input and output, up to about 8 × blockBytes).
const maxThreads = 256

// job is a block on its way through inParallel: done is closed once res
// and err are set.
type job struct {
	outcome
	done chan struct{}
}

// inParallel privatizes blocks on threads goroutines and returns their
// outcomes in input order. At most threads blocks are queued or running
// beyond the one next returns, so memory follows threads, not the input.
// next's error is errInterrupted (ctx done). stop cancels the blocks still
// running and waits for the goroutines it started; next must not be
// called after it. The blocks carry no charge that depends on another
// block (the CLI runs a ledger or a memo in turn, inTurn), so the order in
// which they finish changes nothing but when they are written. A block's
// results go into an array from spare, if it has one.
func inParallel(ctx context.Context, privatize blockFunc, blocks <-chan block, threads int, spare recycler[core.Result]) (next func() (outcome, error), stop func()) {
	wctx, cancel := context.WithCancel(ctx)
	order := make(chan *job, threads) // the blocks in input order, for next
	work := make(chan *job)           // the blocks to privatize, for the workers
	var wg sync.WaitGroup
	wg.Add(1 + threads)
	go func() { // the dispatcher: each block into the order, then to a worker
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
			select {
			case order <- j:
			case <-wctx.Done():
				return
			}
			if len(b.lines) == 0 {
				close(j.done)
			} else {
				select {
				case work <- j:
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
			for j := range work {
				j.res, j.err = privatize(wctx, &j.b, spare.get())
				close(j.done)
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
