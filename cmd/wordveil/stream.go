package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/wordveil/wordveil/core"
	"github.com/wordveil/wordveil/internal/linereader"
	"github.com/wordveil/wordveil/internal/progress"
	"github.com/wordveil/wordveil/internal/tokenize"
)

// Block limits: lines already at hand are privatized, charged and written
// together, so the ledger is charged (and fsync'd) once per block rather
// than once per line.
const (
	blockLines = 4096
	blockBytes = 1 << 20
)

// block is a group of input texts — lines, or parts of a long line — or
// the error that ended the input.
type block struct {
	lines       []string
	first, last int    // numbers (from 1) of the lines lines[0] and the last text belong to
	err         error  // io.EOF at the end
	errLine     int    // the number of the line err concerns
	index       uint64 // the block's number in the input, from 0 (a seeded run's stream)
}

// readBlocks reads lines into blocks: a block takes every line that is
// already available (up to blockLines and blockBytes), so a pipe is
// charged per block while an interactive user gets each line back at once.
// With cut, a line longer than blockBytes is cut between tokens
// (tokenize.Split) into parts of about blockBytes, each privatized, charged
// and written as a block of its own: memory then follows blockBytes, not
// the line (whose output can be 7 times its size), and the output is the
// same text as the line's would be. A block's lines go into an array from
// spare when it has one (the blocks are the same either way). It runs in
// its own goroutine so that a signal is seen while a read blocks.
func readBlocks(ctx context.Context, r *linereader.Reader, out chan<- block, cut bool, spare recycler[string]) {
	defer close(out)
	var pending []string // the parts of the current line not yet in a block
	var whole [1]string  // pending's array for a line in one part (most lines: no allocation per line)
	var rerr error       // the reader's error, passed on once pending is empty
	line := 1            // the number of the line pending (or the next line read) belongs to
	room := 0            // the lines of the block before: the next one's likely count
	for index := uint64(0); ; index++ {
		b := block{first: line, last: line, index: index, lines: spare.get()}
		if b.lines == nil && room > 0 {
			b.lines = make([]string, 0, room)
		}
		size := 0
		for {
			if len(pending) == 0 && rerr == nil {
				l, err := r.ReadLine()
				if l != "" {
					pending = splitLine(whole[:0], l, cut)
				}
				rerr = err
			}
			for len(pending) > 0 && size < blockBytes {
				b.lines = append(b.lines, pending[0])
				size += len(pending[0])
				b.last = line
				if pending = pending[1:]; len(pending) == 0 {
					line++
				}
			}
			if len(pending) > 0 {
				break // a long line goes on in the next block
			}
			if rerr != nil {
				b.err, b.errLine = rerr, line
				break
			}
			if len(b.lines) >= blockLines || size >= blockBytes || !r.Buffered() {
				break
			}
		}
		room = min(len(b.lines), blockLines)
		select {
		case out <- b:
		case <-ctx.Done():
			return
		}
		if b.err != nil {
			return
		}
	}
}

// splitLine returns the parts a line is privatized in: the line itself
// (appended to dst), or with cut and a line over blockBytes its parts at
// token boundaries.
func splitLine(dst []string, l string, cut bool) []string {
	if !cut || len(l) <= blockBytes {
		return append(dst, l)
	}
	return tokenize.Split(l, blockBytes)
}

// blockFunc privatizes one block's texts and appends their results to dst
// (an array of a block already written, or nil): the privatizer's
// AppendBlock, or with -seed core.AppendEvaluationBlock at the block's
// index.
type blockFunc func(ctx context.Context, b *block, dst []core.Result) ([]core.Result, error)

// privatizeBlocks is the blockFunc of p: with a seed, block i draws from
// the seed's stream for block i (core.AppendEvaluationBlock), so that
// the output does not depend on how many blocks run at once; without,
// from p's secure sources.
func privatizeBlocks(p *core.Privatizer, seed uint64) blockFunc {
	if seed != 0 {
		return func(ctx context.Context, b *block, dst []core.Result) ([]core.Result, error) {
			return core.AppendEvaluationBlock(ctx, dst, p, b.lines, seed, b.index)
		}
	}
	return func(ctx context.Context, b *block, dst []core.Result) ([]core.Result, error) {
		return p.AppendBlock(ctx, dst, b.lines)
	}
}

// stream privatizes blocks of input lines until the end of the input, up
// to threads blocks at once (threads 1: each in turn, in this goroutine).
// Outputs are written in input order, a block's after its charge,
// straight from the results (plain text as it is, -json records with
// their text escaped on the way out: no copy of either). The first error
// in input order ends the stream: nothing after it is written, and the
// blocks already running are cancelled. A signal stops at once, writing
// nothing of an unfinished block. bar, if not nil, counts input bytes
// written out. A written block's arrays (its lines, its results) go to
// the blocks after it. With part > 0 and threads > 1 the blocks are
// privatized in parts of part lines (inParallel): only for a privatize
// whose output does not depend on where blocks are cut.
func stream(ctx context.Context, privatize blockFunc, threads, part int, r *linereader.Reader, w io.Writer, enc recordEncoder, bar *progress.Bar) error {
	blocks := make(chan block, 1)
	rctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// Enough arrays for every block in flight: read ahead, queued in
	// order and running (inParallel), plus the one being written.
	lines, results := newRecycler[string](2*threads+4), newRecycler[core.Result](2*threads+2)
	go readBlocks(rctx, r, blocks, true, lines)
	next := inTurn(ctx, privatize, blocks, results)
	if threads > 1 {
		var stop func()
		next, stop = inParallel(ctx, privatize, blocks, threads, part, results)
		defer stop()
	}
	defer bar.Done()
	bw := bufio.NewWriterSize(w, 64<<10)
	done := 0
	for {
		o, err := next()
		if err != nil {
			return err
		}
		b := &o.b
		if len(b.lines) > 0 {
			switch {
			case ctx.Err() != nil:
				return errInterrupted
			case o.err != nil:
				return fromRoot(o.err, fmt.Sprintf("lines %d–%d", b.first, b.last))
			}
			ends := func(i int) bool { return endsLine(b.lines[i], b.err != nil && i == len(b.lines)-1) }
			if err := enc.write(bw, o.res, ends); err != nil {
				return err
			}
			if err := bw.Flush(); err != nil {
				return err
			}
			for _, l := range b.lines {
				done += len(l)
			}
			bar.Set(done)
			lines.put(b.lines)
			results.put(o.res)
		}
		switch {
		case b.err == io.EOF:
			return nil
		case errors.Is(b.err, linereader.ErrLineTooLong):
			return fmt.Errorf("line %d: %w (see -max-line)", b.errLine, b.err)
		case b.err != nil:
			return fmt.Errorf("read standard input: %w", b.err)
		}
	}
}

// outcome is a block and what privatizing it gave.
type outcome struct {
	b   block
	res []core.Result
	err error
}

// inTurn returns the blocks' outcomes in input order, privatizing each
// when asked for it (its results in an array from spare, if it has one):
// the sequential stream, in which a block is charged only after the one
// before it is written. Its error is errInterrupted.
func inTurn(ctx context.Context, privatize blockFunc, blocks <-chan block, spare recycler[core.Result]) func() (outcome, error) {
	return func() (outcome, error) {
		var o outcome
		select {
		case <-ctx.Done():
			return o, errInterrupted
		case o.b = <-blocks:
		}
		if len(o.b.lines) > 0 {
			o.res, o.err = privatize(ctx, &o.b, spare.get())
		}
		return o, nil
	}
}
