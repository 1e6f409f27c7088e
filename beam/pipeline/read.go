package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
)

// readFn reads one input file into Records, line by line: memory is one
// line (at most MaxRecordBytes) and a 64 KiB buffer, whatever the file.
// A malformed line fails the run, naming its file and line (never its
// text), unless SkipMalformed, which counts it and goes on.
type readFn struct {
	Format         string
	MaxRecordBytes int
	SkipMalformed  bool

	read, malformed beam.Counter
}

func (fn *readFn) Setup() {
	fn.read = beam.NewCounter(metricsNamespace, CounterRecordsRead)
	fn.malformed = beam.NewCounter(metricsNamespace, CounterMalformed)
}

func (fn *readFn) ProcessElement(ctx context.Context, f fileio.ReadableFile, emit func(record)) (err error) {
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
	for n := int64(1); ; n++ {
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
			user, text, ok, perr := parseLine(fn.Format, trimEOL(l))
			switch {
			case perr != nil:
				if merr := fn.bad(ctx, path, n, perr); merr != nil {
					return merr
				}
			case ok:
				fn.read.Inc(ctx, 1)
				emit(record{User: user, Source: path, Line: n, Text: text})
				crashPoint("read")
			}
		}
		if err == io.EOF {
			return nil
		}
	}
}

// bad handles a malformed line: an error that ends the run, or, with
// SkipMalformed, a count.
func (fn *readFn) bad(ctx context.Context, path string, line int64, err error) error {
	if !fn.SkipMalformed {
		return fmt.Errorf("wordveil-beam: %s line %d: %w (-skip-malformed, Options.SkipMalformed, counts and skips such lines)", path, line, err)
	}
	fn.malformed.Inc(ctx, 1)
	return nil
}
