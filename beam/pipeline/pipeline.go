package pipeline

import (
	"context"
	"errors"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local" // local paths
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"       // the default runner
)

// DefaultRunner is the runner Run uses when none is named: Prism, Beam's
// portable runner, in this process.
const DefaultRunner = "prism"

// build adds the pipeline to s: read the records matching o.Input and
// work out each one's charge, combine them by user into what the cap can
// grant, join that with each user's spending in the state generation the
// run reads (sr; none without a state), decide per user which records the
// cap grants, re-read those from their files, privatize them and write
// them (a records file per segment), and write each user's budget summary
// and the state's next generation; all under staging names, for commit to
// publish.
//
// The stages: files → refs by user and segment markers (readFn: the read
// and the charge, in one pass) → per user, combined (grantFn) and joined
// with the state (readStateFn, CoGroupByKey): the grants (decideFn) → by
// (file, segment), with the segment's marker: re-read and privatized
// (privatizeFn; a file that cannot seek: by file, re-read once from its
// start, seqRereadFn) and written, a records file per segment (records.go);
// the budget and state lines sharded by user, sorted, written (writeFn).
// No text crosses a shuffle, neither read nor privatized: the texts stay
// in the files, and only refs (file, line, offset, a checksum, the charge)
// are grouped, so the memory a runner needs for the shuffles grows with
// the records granted, not with the texts read or written. Privatization
// runs per segment, in parallel across them, so one user with many records
// does not hold up the others; a file that cannot seek (compressed, or
// remote) is re-read by one worker, once, in time linear in its size
// (sequential.go).
func build(s beam.Scope, st settled, sr *stateRun) {
	s = s.Scope("wordveil")
	files := fileio.ReadMatches(s, fileio.MatchFiles(s, st.Input, fileio.MatchEmptyDisallow()), fileio.ReadDirectorySkip())
	refs, markers := beam.ParDo2(s, &readFn{Format: st.Format, MaxRecordBytes: st.MaxRecordBytes, SkipMalformed: st.SkipMalformed, Engine: st.Engine}, files)
	grants, budget, states := beam.ParDo3(s, &decideFn{CapLoss: st.capLoss, WordCost: st.wordCost, CapWords: st.CapWords, Shards: st.Shards, State: sr != nil},
		beam.CoGroupByKey(s, beam.CombinePerKey(s, &grantFn{CapLoss: st.capLoss}, refs), readStates(s, sr)))
	pfn := privatizeFn{Engine: st.Engine, Format: st.Format, MaxRecordBytes: st.MaxRecordBytes, Seed: st.Seed,
		OverCap: st.OverCap, Placeholder: st.Placeholder, Dir: st.Output, Parallelism: st.Parallelism}
	records, seq := beam.ParDo2(s, &pfn, beam.GroupByKey(s, beam.Flatten(s, markers, grants)))
	written := []beam.PCollection{
		records,
		beam.ParDo(s, &seqRereadFn{P: pfn}, beam.GroupByKey(s, seq)),
		beam.ParDo(s, &writeFn{Dir: st.Output, Prefix: stagingPrefix + budgetPrefix, Shards: st.Shards}, beam.GroupByKey(s, budget)),
	}
	if sr != nil {
		written = append(written, beam.ParDo(s, &writeFn{Dir: sr.dir, Prefix: statePrefix(sr.next), Shards: st.Shards}, beam.GroupByKey(s, states)))
	}
	// The write stages' output, each file's line count, is grouped and
	// dropped (writtenFn; a records file's is keyed recordsWritten): it is there because Prism, the default
	// runner, busy-waits through a stage with no output from the moment
	// the stage's input is sent until the stage's bundle ends (its wait
	// for the stage's output data returns at once, and its progress loop
	// spins on it); a stage with an output waits for that output's end
	// instead. In the 10-million-word throughput benchmark that spin was
	// a sixth of the run's CPU time. The group holds one element per
	// file.
	beam.ParDo0(s, &writtenFn{}, beam.GroupByKey(s, beam.Flatten(s, written...)))
}

// writtenFn drops the write stages' line counts (see build).
type writtenFn struct{}

func (*writtenFn) ProcessElement(shard int, lines func(*int) bool) {
	for n := 0; lines(&n); {
	}
}

// Run runs the pipeline to the end on runner ("" means DefaultRunner; any
// other must be registered, as beamx registers Beam's) and commits it
// (see commit.go): it returns the run's counters once MANIFEST.json is
// written. Before anything runs it checks the options, the output
// directory and the state (a state that fails its checks is
// ErrCorruptState, and nothing is written). A run that fails or is
// interrupted (ErrInterrupted) removes what it staged and leaves the
// state as it was. The program must have called beam.Init first, at the
// start of main (a remote runner's workers run the same binary and
// become workers there).
func Run(ctx context.Context, o Options, runner string) (Counts, error) {
	if !beam.Initialized() {
		return Counts{}, errors.New("wordveil-beam: beam.Init() was not called (call it at the start of main, after parsing flags)")
	}
	if runner == "" {
		runner = DefaultRunner
	}
	st, err := settle(o)
	if err != nil {
		return Counts{}, err
	}
	if err := checkOutputDir(ctx, st.Output); err != nil {
		return Counts{}, err
	}
	var sr *stateRun
	if st.State != "" {
		if sr, err = openState(ctx, st); err != nil {
			return Counts{}, err
		}
	}
	crashPoint("opened")
	run := newRunID()
	if err := cleanOutput(ctx, st.Output); err != nil {
		return Counts{}, err
	}
	if sr != nil {
		if err := sr.apply(ctx, run, st.Output); err != nil {
			return Counts{}, err
		}
	}
	crashPoint("pending")
	p, s := beam.NewPipelineWithRoot()
	build(s, st, sr)
	stop := progressStart()
	res, err := beam.Run(ctx, runner, p)
	stop()
	if err != nil {
		bg := context.WithoutCancel(ctx)
		cleanOutput(bg, st.Output)
		if sr != nil {
			sr.abort(bg)
		}
		if ctx.Err() != nil {
			return Counts{}, ErrInterrupted
		}
		return Counts{}, &runError{err}
	}
	c := countsOf(res)
	crashPoint("staged")
	// Once the pipeline has finished, the commit runs to its end: it is a
	// few renames and small files, and an interruption half-way would only
	// leave work for the next run.
	return c, commit(context.WithoutCancel(ctx), st, sr, run, c)
}

// runError is a failed run. Its message is the cause a DoFn reported (a
// runner's error also carries the whole failed plan); Unwrap gives the
// runner's error in full.
type runError struct{ err error }

func (e *runError) Error() string {
	msg := e.err.Error()
	// Prism ends its error with "caused by:\n…failed:\n<the DoFn's error>".
	if i := strings.LastIndex(msg, "caused by:"); i >= 0 {
		cause := strings.TrimSpace(msg[i+len("caused by:"):])
		if j := strings.LastIndex(cause, "failed:\n"); j >= 0 {
			cause = strings.TrimSpace(cause[j+len("failed:\n"):])
		}
		msg = cause
	}
	if !strings.HasPrefix(msg, "wordveil-beam: ") {
		msg = "wordveil-beam: " + msg
	}
	return "wordveil-beam: the run failed: " + strings.TrimPrefix(msg, "wordveil-beam: ")
}

func (e *runError) Unwrap() error { return e.err }
