package pipeline

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"sync"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/wordveil/wordveil/core"
)

// openEngine opens the engine a worker privatizes with.
func openEngine(e Engine, maxRecordBytes int) (*core.Privatizer, error) {
	cfg := e.Config()
	cfg.MaxTextBytes = maxRecordBytes
	p, err := core.Open(cfg)
	if err != nil {
		return nil, fmt.Errorf("wordveil-beam: opening the engine: %w", err)
	}
	return p, nil
}

// privatizeFn joins each record with its decision and privatizes the
// granted ones with the engine, the SDK's own core.Privatizer: fresh
// randomness from crypto/rand for every word, or with Seed (evaluation
// only) the record's own stream, RecordSeed. A withheld record is never
// privatized or written: with OverCapPlaceholder a line saying it was
// withheld takes its place.
//
// Records are privatized in batches, by Parallelism goroutines, each with
// its own Privatizer: a runner may hand a whole stage to one DoFn instance
// (Prism on one machine does), and one goroutine would then leave the
// other cores idle while BRR searches its codes. A batch is emitted in
// its input order, from the goroutine the runner called, once all of it
// is done; the last batch at FinishBundle. Each record's output depends
// on the record alone (fresh randomness, or its own seeded stream), never
// on which goroutine or batch it fell in.
type privatizeFn struct {
	Engine         Engine
	MaxRecordBytes int
	Seed           uint64
	OverCap        string
	Placeholder    string
	Shards         int
	Parallelism    int

	ps                           []*core.Privatizer // one per goroutine
	batch                        []job
	released, withheld, wordsOut beam.Counter
}

// job is one joined record and, once done, its output line.
type job struct {
	r    record
	d    decision
	line string // the output's JSON; "" for a dropped withheld record
	n    int    // words privatized
	err  error
}

// batchPerWorker is how many records each goroutine gets per batch: enough
// that starting the goroutines costs little beside BRR's ~20 µs per word,
// few enough that a batch's texts and outputs stay small.
const batchPerWorker = 64

func (fn *privatizeFn) Setup() error {
	fn.released = beam.NewCounter(metricsNamespace, CounterReleased)
	fn.withheld = beam.NewCounter(metricsNamespace, CounterWithheld)
	fn.wordsOut = beam.NewCounter(metricsNamespace, CounterWordsReleased)
	n := fn.Parallelism
	if n == 0 {
		n = runtime.GOMAXPROCS(0) // this worker's cores, not the submitting machine's
	}
	fn.ps = make([]*core.Privatizer, n)
	for i := range fn.ps {
		p, err := openEngine(fn.Engine, fn.MaxRecordBytes)
		if err != nil {
			return err
		}
		fn.ps[i] = p
	}
	return nil
}

func (fn *privatizeFn) Teardown() error {
	var err error
	for _, p := range fn.ps {
		if cerr := p.Close(); err == nil {
			err = cerr
		}
	}
	return err
}

func (fn *privatizeFn) ProcessElement(ctx context.Context, key string, recs func(*record) bool, decs func(*decision) bool, emit func(int, outLine)) error {
	var r record
	var d decision
	nr, nd := 0, 0
	for recs(&r) {
		nr++
	}
	for decs(&d) {
		nd++
	}
	if nr != 1 || nd > 1 {
		// decideFn emits one decision for each granted record and none
		// for a withheld one (grantFn may have dropped its ref); anything
		// else is a fault of the runner or of this code: fail closed. No
		// decision means withheld.
		return fmt.Errorf("wordveil-beam: a record key with %d records and %d decisions (want 1 and at most 1)", nr, nd)
	}
	fn.batch = append(fn.batch, job{r: r, d: d})
	if len(fn.batch) < batchPerWorker*len(fn.ps) {
		return nil
	}
	return fn.flush(ctx, emit)
}

func (fn *privatizeFn) FinishBundle(ctx context.Context, emit func(int, outLine)) error {
	return fn.flush(ctx, emit)
}

// flush privatizes the batch, then emits it in order. An error drops the
// whole batch: the runner fails or retries the bundle, and nothing of it
// was emitted.
func (fn *privatizeFn) flush(ctx context.Context, emit func(int, outLine)) error {
	b := fn.batch
	fn.batch = fn.batch[:0]
	if len(b) == 0 {
		return nil
	}
	var wg sync.WaitGroup
	for w, p := range fn.ps {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(b); i += len(fn.ps) {
				fn.do(p, &b[i])
			}
		}()
	}
	wg.Wait()
	for i := range b {
		j := &b[i]
		if j.err != nil {
			return j.err
		}
		if j.d.Granted {
			fn.released.Inc(ctx, 1)
			fn.wordsOut.Inc(ctx, int64(j.n))
		} else {
			fn.withheld.Inc(ctx, 1)
		}
		if j.line != "" {
			emit(shardOf(j.r.User, fn.Shards), outLine{User: j.r.User, Source: j.r.Source, Line: j.r.Line, JSON: j.line})
		}
		*j = job{} // the texts go with the batch
	}
	crashPoint("privatized")
	return nil
}

// do privatizes one job with p (a granted record) or writes its withheld
// line, setting j.line, j.n and j.err.
func (fn *privatizeFn) do(p *core.Privatizer, j *job) {
	r := j.r
	out := Output{User: r.User, Source: r.Source, Line: r.Line}
	zero := 0.0
	switch {
	case !j.d.Granted:
		if fn.OverCap != OverCapPlaceholder {
			return
		}
		out.Status, out.Text = StatusWithheld, fn.Placeholder
	case r.Text == "":
		out.Status, out.TotalEpsilon, out.UnitFree = StatusReleased, &zero, &zero
	default:
		if fn.Seed != 0 {
			if j.err = core.UseEvaluationSeed(p, RecordSeed(fn.Seed, r.User, r.Source, r.Line)); j.err != nil {
				return
			}
		}
		res, err := p.Privatize(r.Text)
		if err != nil {
			j.err = fmt.Errorf("wordveil-beam: %s line %d: %w", r.Source, r.Line, err)
			return
		}
		a := res.Accounting
		out.Status, out.Text = StatusReleased, res.Text
		out.Words, out.OOV = a.Words, a.OOV
		out.TotalEpsilon, out.UnitFree = finite(a.TotalEpsilon), finite(a.UnitFree)
		j.n = a.Words
	}
	j.line, j.err = toJSON(out)
}

// A record's status in the output.
const (
	StatusReleased = "released"
	StatusWithheld = "withheld"
)

// Output is one line of the record files: the privatized text and its
// accounting, or (OverCapPlaceholder) the placeholder of a withheld
// record. The input's text is never in it.
type Output struct {
	User         string   `json:"user"`
	Source       string   `json:"source"`
	Line         int64    `json:"line"`
	Status       string   `json:"status"`
	Text         string   `json:"text"`
	Words        int      `json:"words"`        // words the mechanism privatized
	OOV          int      `json:"oov"`          // tokens the OOV policy replaced
	TotalEpsilon *float64 `json:"totalEpsilon"` // words·ε in the mechanism's metric
	UnitFree     *float64 `json:"unitFree"`     // the record's charge, words·ε·P_avg; null when unknown
}

// toJSON encodes v, an Output or a Summary (strings, integers and
// pointers to finite floats, so it does not fail in practice).
func toJSON(v any) (string, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("wordveil-beam: encoding %T: %w", v, err)
	}
	return string(b), nil
}
