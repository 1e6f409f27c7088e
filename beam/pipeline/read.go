package pipeline

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"hash"
	"io"
	"sync"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"

	"github.com/wordveil/wordveil/core"
)

// readFn reads one input file line by line and works out each record's
// charge there, with the engine (core.Privatizer.Cost: tokenization and
// vocabulary lookup, no draws): it emits each record's ref keyed by user,
// for the decision (a user's refs in batches: see refBatch), and one
// marker per segment of the file, for the re-read. The texts never leave
// it: they are read again, from the file, by privatizeFn, for the records
// the cap grants. Memory is one line (at most MaxRecordBytes), a 64 KiB
// buffer and at most refBatch refs, whatever the file. A malformed line fails the run, naming its file and line (never
// its text), unless SkipMalformed, which counts it and goes on.
type readFn struct {
	Format         string
	MaxRecordBytes int
	SkipMalformed  bool
	Engine         Engine

	p               *core.Privatizer
	read, malformed beam.Counter
}

func (fn *readFn) Setup() error {
	fn.read = beam.NewCounter(metricsNamespace, CounterRecordsRead)
	fn.malformed = beam.NewCounter(metricsNamespace, CounterMalformed)
	var err error
	fn.p, err = openEngine(fn.Engine, fn.MaxRecordBytes)
	return err
}

func (fn *readFn) Teardown() error { return fn.p.Close() }

func (fn *readFn) ProcessElement(ctx context.Context, f fileio.ReadableFile, emitRefs func(string, grants), markers func(string, slotBatch)) (err error) {
	path := f.Metadata.Path
	rc, err := f.Open(ctx)
	if err != nil {
		return fmt.Errorf("wordveil-beam: opening %s: %w", path, err)
	}
	defer func() {
		if cerr := rc.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("wordveil-beam: closing %s: %w", path, cerr)
		}
	}()
	// A line is the record's text plus its framing: the bound is on the
	// line, and a text is never longer than its line.
	r := newLineReader(rc, fn.MaxRecordBytes)
	// A file that cannot seek (compressed, or on a remote file system) is
	// re-read once from its start (seqRereadFn): its markers say so and
	// carry the digest of their records, which that re-read checks.
	_, seekable := rc.(io.Seeker)
	var digest *recordDigest
	if !seekable {
		digest = newRecordDigest()
	}
	seg := slot{Marker: true, Source: path, Offset: -1}
	flush := func() {
		if seg.Records > 0 {
			if digest != nil {
				seg.Sum = digest.sum()
			}
			markers(segmentKey(path, seg.Offset), slotBatch{Slots: []slot{seg}})
		}
	}
	// The refs go to the per-user combine in batches, one element per
	// user per refBatch refs read (a runner pays its per-element work
	// once per batch, not per record); what is held is at most refBatch
	// refs, whatever the file.
	byUser := map[string][]ref{}
	held := 0
	send := func() {
		for u, rs := range byUser {
			emitRefs(u, grants{Refs: rs, Records: len(rs)})
		}
		clear(byUser)
		held = 0
	}
	defer func() {
		if err == nil {
			send()
		}
	}()
	for n := int64(1); ; n++ {
		start := r.off
		l, err := r.readLine()
		switch {
		case errors.Is(err, errLineTooLong):
			if merr := fn.bad(ctx, path, n, fmt.Errorf("%w: longer than %d bytes", errMalformed, fn.MaxRecordBytes)); merr != nil {
				return merr
			}
			if err := r.skipLine(); err != nil {
				return fmt.Errorf("wordveil-beam: reading %s after line %d: %w", path, n, err)
			}
			continue
		case err != nil && err != io.EOF:
			return fmt.Errorf("wordveil-beam: reading %s at line %d: %w", path, n, err)
		}
		if l != "" {
			l = trimEOL(l)
			user, text, ok, perr := parseLine(fn.Format, l)
			switch {
			case perr != nil:
				if merr := fn.bad(ctx, path, n, perr); merr != nil {
					return merr
				}
			case ok:
				rf := ref{Source: path, Line: n, Offset: start, Sum: lineSum(l)}
				var cerr error
				if rf.Words, rf.Cost, cerr = charge(fn.p, text); cerr != nil {
					return fmt.Errorf("wordveil-beam: %s line %d: %w", path, n, cerr)
				}
				if start/segmentBytes != seg.Offset/segmentBytes || seg.Records == 0 {
					flush()
					seg = slot{Marker: true, Seq: !seekable, Source: path, Line: n, Offset: start}
				}
				rf.Index = seg.Records
				if digest != nil {
					digest.record(rf.Sum, start, n)
				}
				seg.Records++
				seg.End = r.off
				fn.read.Inc(ctx, 1)
				progressAdd(rf.Words)
				byUser[user] = append(byUser[user], rf)
				if held++; held == refBatch {
					send()
				}
				crashPoint("read")
			}
		}
		if err == io.EOF {
			flush()
			return nil
		}
	}
}

// charge is a record's charge as readFn works it out and the sequential
// re-read works it out again: the words the mechanism privatizes and the
// metric loss (core.Privatizer.Cost); an empty text privatizes to itself
// and costs nothing.
func charge(p *core.Privatizer, text string) (words int, cost float64, err error) {
	if text == "" {
		return 0, 0, nil
	}
	acc, err := p.Cost(text)
	if err != nil {
		return 0, 0, err
	}
	return acc.Words - acc.Memoized, acc.UnitFree, nil
}

// refBatch is how many refs readFn holds before it sends them to the
// per-user combine (about 80 bytes each: some 1.3 MB): with a thousand
// users in a file, a batch is some 16 refs per user and element.
const refBatch = 16384

// bad handles a malformed line: an error that ends the run, or, with
// SkipMalformed, a count.
func (fn *readFn) bad(ctx context.Context, path string, line int64, err error) error {
	if !fn.SkipMalformed {
		return fmt.Errorf("wordveil-beam: %s line %d: %w (-skip-malformed, Options.SkipMalformed, counts and skips such lines)", path, line, err)
	}
	fn.malformed.Inc(ctx, 1)
	return nil
}

// lineSum is what a ref carries of its line (its line break removed) so
// that the re-read can tell that it found the same record: the first 16
// bytes of its SHA-256.
func lineSum(l string) lineChecksum {
	s := lineSummers.Get().(*lineSummer)
	defer lineSummers.Put(s)
	s.h.Reset()
	s.buf = append(s.buf[:0], l...)
	s.h.Write(s.buf)
	s.buf = s.h.Sum(s.buf[:0])
	c := lineChecksum(s.buf[:16])
	if cap(s.buf) > lineBuf { // one long line must not keep its copy
		s.buf = nil
	}
	return c
}

// lineSummer is a hash and a buffer lineSum reuses from line to line
// (sha256.Sum256 would allocate a copy of every line and a hash).
type lineSummer struct {
	h   hash.Hash
	buf []byte
}

var lineSummers = sync.Pool{New: func() any { return &lineSummer{h: sha256.New()} }}

// lineChecksum is a lineSum: an array, so that a ref holds it without an
// allocation of its own, and the coders write it as its 16 bytes.
type lineChecksum [16]byte
