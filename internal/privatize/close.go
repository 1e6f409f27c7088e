package privatize

import (
	"errors"
	"fmt"
	"sync"
)

// ErrClosed is returned by every call on a Privatizer after Close.
var ErrClosed = errors.New("the privatizer is closed")

// lifecycle tracks the calls in progress on a Privatizer, so that Close
// releases nothing a call still uses. A counter rather than a
// sync.RWMutex: a call made from inside a prepare callback while Close
// waits gets ErrClosed instead of deadlocking (RWMutex forbids a second
// read lock once a writer waits).
type lifecycle struct {
	mu     sync.Mutex
	idle   sync.Cond // signalled when busy drops to 0; L is &mu
	busy   int       // calls in progress
	closed bool
}

// enter starts a call: ErrClosed once Close has begun. Every successful
// enter is paired with one leave.
func (p *Privatizer) enter() error {
	p.life.mu.Lock()
	defer p.life.mu.Unlock()
	if p.life.closed {
		return fmt.Errorf("privatize: %w", ErrClosed)
	}
	p.life.busy++
	return nil
}

// begin starts a call on p as enter does, after checking that p is a
// Privatizer New made: ErrInvalid for nil or the zero value. When it
// returns nil the caller defers p.leave().
func (p *Privatizer) begin() error {
	if p == nil {
		return fmt.Errorf("privatize: %w: a nil Privatizer", ErrInvalid)
	}
	if err := p.enter(); err != nil {
		return err
	}
	if p.m == nil {
		p.leave()
		return fmt.Errorf("privatize: %w: a Privatizer not made by New", ErrInvalid)
	}
	return nil
}

// leave ends a call started by enter.
func (p *Privatizer) leave() {
	p.life.mu.Lock()
	defer p.life.mu.Unlock()
	if p.life.busy--; p.life.busy == 0 && p.life.idle.L != nil {
		p.life.idle.Broadcast()
	}
}

// Close releases what the Privatizer holds: it closes Options.Memo and
// Options.Ledger (a Privatizer that New returned owns them; do not share
// them with another Privatizer that may be closed first) and drops its
// references to the mechanism and the asset, so that the garbage collector
// can reclaim them once nothing else refers to them.
//
// Close waits for the calls in progress to finish; calls that begin after
// it, and every later call, return an error wrapping ErrClosed. Calling
// Close again returns nil. Close must not be called from a PrivatizeBlock
// prepare callback of the same Privatizer (it would wait for itself). It
// returns the first error closing the memo or the ledger gave; both are
// released either way.
func (p *Privatizer) Close() error {
	if p == nil {
		return nil
	}
	p.life.mu.Lock()
	if p.life.closed {
		p.life.mu.Unlock()
		return nil
	}
	p.life.closed = true
	if p.life.idle.L == nil {
		p.life.idle.L = &p.life.mu
	}
	for p.life.busy > 0 {
		p.life.idle.Wait()
	}
	p.life.mu.Unlock()

	// No call is in progress and none can start: the fields are ours.
	var errs []error
	if p.opt.Memo != nil {
		errs = append(errs, p.opt.Memo.Close())
	}
	if p.opt.Ledger != nil {
		errs = append(errs, p.opt.Ledger.Close())
	}
	p.opt.Memo, p.opt.Ledger = nil, nil
	p.m, p.asset, p.outputs, p.classes = nil, nil, nil, nil
	if err := errors.Join(errs...); err != nil {
		return err // the memo's and the ledger's errors name them
	}
	return nil
}
