package pipeline

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local" // local paths
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"       // the default runner
)

// DefaultRunner is the runner Run uses when none is named: Prism, Beam's
// portable runner, in this process.
const DefaultRunner = "prism"

// Build adds the pipeline to s: read the records matching o.Input, work
// out each one's charge, decide per user which records the cap grants,
// privatize those, and write the records and each user's budget summary
// under o.Output. It validates o first (ErrInvalidOptions), opening the
// engine once.
//
// The stages: files → Records (readFn) → charges (costFn) → per user,
// grouped: the decisions (decideFn) → joined with their records by record
// key and privatized (privatizeFn) → sharded, sorted, written (writeFn).
// Privatization runs per record, in parallel across records, so one user
// with many records does not hold up the others; only the decision, which
// handles refs (no texts), sees a user's records in one place.
func Build(s beam.Scope, o Options) error {
	st, err := settle(o)
	if err != nil {
		return err
	}
	if err := checkOutputDir(st.Output); err != nil {
		return err
	}
	s = s.Scope("wordveil")
	files := fileio.ReadMatches(s, fileio.MatchFiles(s, st.Input, fileio.MatchEmptyDisallow()), fileio.ReadDirectorySkip())
	records := beam.ParDo(s, &readFn{Format: st.Format, MaxRecordBytes: st.MaxRecordBytes, SkipMalformed: st.SkipMalformed}, files)
	refs, keyed := beam.ParDo2(s, &costFn{Engine: st.Engine, MaxRecordBytes: st.MaxRecordBytes}, records)
	decisions, budget := beam.ParDo2(s, &decideFn{CapLoss: st.capLoss, WordCost: st.wordCost, CapWords: st.CapWords, Shards: st.Shards},
		beam.GroupByKey(s, refs))
	out := beam.ParDo(s, &privatizeFn{Engine: st.Engine, MaxRecordBytes: st.MaxRecordBytes, Seed: st.Seed,
		OverCap: st.OverCap, Placeholder: st.Placeholder, Shards: st.Shards, Parallelism: st.Parallelism},
		beam.CoGroupByKey(s, keyed, decisions))
	beam.ParDo0(s, &writeFn{Dir: st.Output, Prefix: recordsPrefix, Shards: st.Shards}, beam.GroupByKey(s, out))
	beam.ParDo0(s, &writeFn{Dir: st.Output, Prefix: budgetPrefix, Shards: st.Shards}, beam.GroupByKey(s, budget))
	return nil
}

// checkOutputDir refuses a local output directory that already holds
// files: a shard no user hashes to gets no file, so an old run's file
// there would be read as this run's.
func checkOutputDir(dir string) error {
	if strings.Contains(dir, "://") {
		return nil // a remote file system: the caller's to keep clean
	}
	ents, err := os.ReadDir(dir)
	switch {
	case os.IsNotExist(err):
		return nil
	case err != nil:
		return fmt.Errorf("%w: output directory: %w", ErrInvalidOptions, err)
	case len(ents) > 0:
		return invalid("output directory %s is not empty: give a new or empty directory", dir)
	}
	return nil
}

// Run builds the pipeline and runs it to the end on runner ("" means
// DefaultRunner; any other must be registered, as beamx registers Beam's),
// and returns the run's counters. The program must have called beam.Init
// first, at the start of main (a remote runner's workers run the same
// binary and become workers there).
func Run(ctx context.Context, o Options, runner string) (Counts, error) {
	if !beam.Initialized() {
		return Counts{}, errors.New("wordveil-beam: beam.Init() was not called (call it at the start of main, after parsing flags)")
	}
	if runner == "" {
		runner = DefaultRunner
	}
	p, s := beam.NewPipelineWithRoot()
	if err := Build(s, o); err != nil {
		return Counts{}, err
	}
	res, err := beam.Run(ctx, runner, p)
	if err != nil {
		return Counts{}, &runError{err}
	}
	return countsOf(res), nil
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
