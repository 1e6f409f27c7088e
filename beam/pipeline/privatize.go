package pipeline

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/wordveil/wordveil"
	"github.com/wordveil/wordveil/internal/seeded"
)

// openEngine opens the engine a worker privatizes with.
func openEngine(e Engine, maxRecordBytes int) (*wordveil.Privatizer, error) {
	cfg := e.Config()
	cfg.MaxTextBytes = maxRecordBytes
	p, err := wordveil.Open(cfg)
	if err != nil {
		return nil, fmt.Errorf("wordveil-beam: opening the engine: %w", err)
	}
	return p, nil
}

// privatizeFn joins each record with its decision and privatizes the
// granted ones with the engine, the SDK's own wordveil.Privatizer: fresh
// randomness from crypto/rand for every word, or with Seed (evaluation
// only) the record's own stream, RecordSeed. A withheld record is never
// privatized or written: with OverCapPlaceholder a line saying it was
// withheld takes its place.
type privatizeFn struct {
	Engine         Engine
	MaxRecordBytes int
	Seed           uint64
	OverCap        string
	Placeholder    string
	Shards         int

	p                            *wordveil.Privatizer
	released, withheld, wordsOut beam.Counter
}

func (fn *privatizeFn) Setup() error {
	fn.released = beam.NewCounter(metricsNamespace, CounterReleased)
	fn.withheld = beam.NewCounter(metricsNamespace, CounterWithheld)
	fn.wordsOut = beam.NewCounter(metricsNamespace, CounterWordsReleased)
	var err error
	fn.p, err = openEngine(fn.Engine, fn.MaxRecordBytes)
	return err
}

func (fn *privatizeFn) Teardown() error { return fn.p.Close() }

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
	if nr != 1 || nd != 1 {
		// Every record gets exactly one decision (decideFn); anything else
		// is a fault of the runner or of this code: fail closed.
		return fmt.Errorf("wordveil-beam: a record key with %d records and %d decisions (want 1 and 1)", nr, nd)
	}
	out := Output{User: r.User, Source: r.Source, Line: r.Line}
	switch {
	case !d.Granted:
		fn.withheld.Inc(ctx, 1)
		if fn.OverCap != OverCapPlaceholder {
			return nil
		}
		out.Status, out.Text = StatusWithheld, fn.Placeholder
	case r.Text == "":
		fn.released.Inc(ctx, 1)
		out.Status = StatusReleased
	default:
		if fn.Seed != 0 {
			if err := seeded.Use(fn.p, seeded.Source(RecordSeed(fn.Seed, r.User, r.Source, r.Line))); err != nil {
				return err
			}
		}
		res, err := fn.p.Privatize(r.Text)
		if err != nil {
			return fmt.Errorf("wordveil-beam: %s line %d: %w", r.Source, r.Line, err)
		}
		a := res.Accounting
		out.Status, out.Text = StatusReleased, res.Text
		out.Words, out.OOV = a.Words, a.OOV
		out.TotalEpsilon, out.UnitFree = finite(a.TotalEpsilon), finite(a.UnitFree)
		fn.released.Inc(ctx, 1)
		fn.wordsOut.Inc(ctx, int64(a.Words))
	}
	line, err := toJSON(out)
	if err != nil {
		return err
	}
	emit(shardOf(r.User, fn.Shards), outLine{User: r.User, Source: r.Source, Line: r.Line, JSON: line})
	return nil
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
