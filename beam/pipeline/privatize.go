package pipeline

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"
	"sync"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"

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

// privatizeFn re-reads the granted records of one segment of a file
// (segmentKey: readFn's marker and decideFn's grants) and privatizes them
// with the engine, the SDK's own core.Privatizer: fresh randomness from
// crypto/rand for every word, or with Seed (evaluation only) the record's
// own stream, RecordSeed. A withheld record is never privatized or
// written: with OverCapPlaceholder a line saying it was withheld takes
// its place (the whole segment is then read, to find them). A segment
// of a file that cannot seek (its marker's Seq) is not re-read here: it
// goes on, as one bit per record, to the file's one sequential re-read
// (seqRereadFn, sequential.go), on the second output.
//
// The texts are read here, from the files, rather than carried through
// the shuffles: what crosses them is refs, so memory does not grow with
// the texts (a runner such as Prism holds a shuffle in memory). The
// re-read checks that each granted line is the one that was charged (its
// lineSum, its user, its line number when the whole segment is read, its
// charge once privatized) and fails the run if the input changed during it.
//
// Records are privatized in batches, by Parallelism goroutines, each with
// its own Privatizer: a runner may hand a whole stage to one DoFn instance
// (Prism on one machine does), and one goroutine would then leave the
// other cores idle while BRR searches its codes. A batch is written to the
// segment's records file (records.go) in its input order, from the
// goroutine the runner called, once all of it is done; the file is put in
// place when the segment's last batch is written, and dropped if any of it
// fails. Each record's output depends on the record alone (fresh
// randomness, or its own seeded stream), never on which goroutine or
// batch it fell in.
type privatizeFn struct {
	Engine         Engine
	Format         string
	MaxRecordBytes int
	Seed           uint64
	OverCap        string
	Placeholder    string
	Dir            string // where the records files are staged
	Parallelism    int

	ps                 []*core.Privatizer // one per goroutine
	results            [][]core.Result    // ps[w]'s block results, reused from batch to batch
	batch              []job
	granted            []slot // ProcessElement's, reused
	released, wordsOut beam.Counter
}

// job is one re-read record and, once done, its output line.
type job struct {
	r       record
	granted bool
	want    slot       // a granted record's slot: its charge, to check
	out     recordLine // its output line, for the writer to encode
	n       int        // words privatized
	err     error
}

// maxKeptSlots bounds the granted slots' array privatizeFn keeps for the
// next segment (a segment's records, some 10,000 of typed text).
const maxKeptSlots = 1 << 16

// batchPerWorker is how many records each goroutine gets per batch: enough
// that starting the goroutines, each block's call and each batch's
// elements to the writers cost little beside the words' privatization,
// few enough that a batch's texts and outputs stay small (some 100 KiB).
const batchPerWorker = 256

func (fn *privatizeFn) Setup() error {
	fn.released = beam.NewCounter(metricsNamespace, CounterReleased)
	fn.wordsOut = beam.NewCounter(metricsNamespace, CounterWordsReleased)
	n := fn.Parallelism
	if n == 0 {
		n = runtime.GOMAXPROCS(0) // this worker's cores, not the submitting machine's
	}
	fn.ps = make([]*core.Privatizer, n)
	fn.results = make([][]core.Result, n)
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

func (fn *privatizeFn) ProcessElement(ctx context.Context, key string, batches func(*slotBatch) bool, written func(int, int), seq func(string, segmentBits)) (err error) {
	var marker slot
	granted := fn.granted[:0] // copied into the jobs: reused by the next segment
	defer func() {
		if cap(granted) <= maxKeptSlots {
			fn.granted = granted[:0]
		}
	}()
	markers := 0
	for b := (slotBatch{}); batches(&b); {
		for _, s := range b.Slots {
			if s.Marker {
				marker = s
				markers++
			} else {
				granted = append(granted, s)
			}
		}
	}
	if markers != 1 {
		// readFn emits one marker for each segment with a record, and
		// decideFn grants only records it read: anything else is a fault
		// of the runner or of this code: fail closed.
		return fmt.Errorf("wordveil-beam: a segment with %d markers and %d granted records (want 1 marker)", markers, len(granted))
	}
	if marker.Seq {
		// A file that cannot seek: its segments go, as one bit per
		// record, to the file's one sequential re-read (seqRereadFn).
		b, err := segmentOf(marker, granted)
		if err != nil {
			return err
		}
		seq(marker.Source, b)
		return nil
	}
	placeholders := fn.OverCap == OverCapPlaceholder
	if len(granted) == 0 && !placeholders {
		return nil
	}
	slices.SortFunc(granted, func(a, b slot) int { return cmp.Compare(a.Offset, b.Offset) })
	path := marker.Source
	rc, err := fileio.ReadableFile{Metadata: fileio.FileMetadata{Path: path}}.Open(ctx)
	if err != nil {
		return fmt.Errorf("wordveil-beam: opening %s again: %w", path, err)
	}
	defer func() {
		if cerr := rc.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("wordveil-beam: closing %s: %w", path, cerr)
		}
	}()
	out := newSegmentOut(fn.Dir, path, marker.Offset)
	defer func() {
		if err != nil {
			fn.drop()
			out.abort(ctx)
		}
	}()
	r := newLineReader(rc, fn.MaxRecordBytes)
	if !placeholders {
		// Straight to each granted line.
		for _, g := range granted {
			if err := r.skipTo(g.Offset); err != nil {
				return changed(path, g.Line, err.Error())
			}
			l, err := r.readLine()
			if err != nil && err != io.EOF {
				return changed(path, g.Line, err.Error())
			}
			rec, ok, why := fn.check(l, g)
			if !ok {
				return changed(path, g.Line, why)
			}
			rec.Source, rec.Line = path, g.Line
			if err := fn.add(ctx, job{r: rec, granted: true, want: g}, &out); err != nil {
				return err
			}
		}
		return fn.finish(ctx, &out, written)
	}
	// Every line of the segment: each record is granted or withheld.
	if err := r.skipTo(marker.Offset); err != nil {
		return changed(path, marker.Line, err.Error())
	}
	records := 0
	for n := marker.Line; r.off < marker.End; n++ {
		start := r.off
		l, err := r.readLine()
		switch {
		case errors.Is(err, errLineTooLong):
			if err := r.skipLine(); err != nil {
				return changed(path, n, err.Error())
			}
			continue // malformed: counted by readFn
		case err != nil && err != io.EOF:
			return changed(path, n, err.Error())
		}
		if len(granted) > 0 && granted[0].Offset == start {
			g := granted[0]
			granted = granted[1:]
			rec, ok, why := fn.check(l, g)
			switch {
			case !ok:
				return changed(path, n, why)
			case g.Line != n:
				return changed(path, n, "at another line")
			}
			rec.Source, rec.Line = path, n
			records++
			if err := fn.add(ctx, job{r: rec, granted: true, want: g}, &out); err != nil {
				return err
			}
		} else if user, _, ok, perr := parseLine(fn.Format, trimEOL(l)); perr == nil && ok {
			records++
			if err := fn.add(ctx, job{r: record{User: user, Source: path, Line: n}}, &out); err != nil {
				return err
			}
		}
		if err == io.EOF {
			break
		}
	}
	if len(granted) > 0 || records != marker.Records {
		return changed(path, marker.Line, fmt.Sprintf("%d records in the segment, %d when first read", records, marker.Records))
	}
	return fn.finish(ctx, &out, written)
}

// check parses l, a granted record's line re-read, and says whether it is
// the line that was charged (why not, if not): its lineSum and its user.
func (fn *privatizeFn) check(l string, g slot) (record, bool, string) {
	l = trimEOL(l)
	if lineSum(l) != g.Sum {
		return record{}, false, "its bytes differ"
	}
	user, text, ok, err := parseLine(fn.Format, l)
	if err != nil || !ok || user != g.User {
		return record{}, false, "not the same record"
	}
	return record{User: user, Text: text}, true, ""
}

// add appends j to the batch, which is privatized and written to out
// once full.
func (fn *privatizeFn) add(ctx context.Context, j job, out *segmentOut) error {
	fn.batch = append(fn.batch, j)
	if len(fn.batch) < batchPerWorker*len(fn.ps) {
		return nil
	}
	return fn.flush(ctx, out)
}

// finish privatizes and writes what is left of the segment's batch, puts
// its records file in place and emits its line count.
func (fn *privatizeFn) finish(ctx context.Context, out *segmentOut, written func(int, int)) error {
	if err := fn.flush(ctx, out); err != nil {
		return err
	}
	n, err := out.finish(ctx)
	if err != nil {
		return err
	}
	if n > 0 {
		written(recordsWritten, n)
	}
	return nil
}

// recordsWritten is the key of a records file's line count in what the
// write stages emit (build drops them): the budget and state files'
// shard numbers are never negative.
const recordsWritten = -1

// drop empties the batch: the segment failed, and none of it is written.
func (fn *privatizeFn) drop() {
	clear(fn.batch)
	fn.batch = fn.batch[:0]
}

// flush privatizes the batch, then writes its lines, in order, to out.
// An error fails the segment: the runner fails or retries the bundle, and
// the segment's file is not put in place.
func (fn *privatizeFn) flush(ctx context.Context, out *segmentOut) error {
	b := fn.batch
	fn.batch = fn.batch[:0]
	if len(b) == 0 {
		return nil
	}
	var wg sync.WaitGroup
	per := (len(b) + len(fn.ps) - 1) / len(fn.ps)
	for w, p := range fn.ps {
		lo, hi := min(len(b), w*per), min(len(b), (w+1)*per)
		if lo == hi {
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn.doAll(ctx, p, b[lo:hi], &fn.results[w])
		}()
	}
	wg.Wait()
	released, words := int64(0), int64(0)
	for i := range b {
		j := &b[i]
		if j.err != nil {
			clear(b)
			return j.err
		}
		if j.granted {
			released++
			words += int64(j.n)
		}
		if err := out.write(ctx, j); err != nil {
			clear(b)
			return fmt.Errorf("wordveil-beam: writing %s: %w", out.name, err)
		}
	}
	clear(b) // the texts go with the batch
	fn.released.Inc(ctx, released)
	fn.wordsOut.Inc(ctx, words)
	crashPoint("privatized")
	return nil
}

// doAll privatizes the granted records of js with p and writes every
// job's line. Without a seed the granted texts go to the engine as
// blocks (core.Privatizer.PrivatizeBlock: one call for many records,
// which BRR searches together; each text still gets fresh noise for
// every word and its own accounting), each at most MaxRecordBytes long,
// the engine's bound on a call; with a seed each record is privatized
// alone, from its own stream (RecordSeed). The block results go into
// *results, which is reused by p's next blocks (core.Privatizer.AppendBlock:
// no new array of results per block for the collector); do copies what
// it keeps of a result.
func (fn *privatizeFn) doAll(ctx context.Context, p *core.Privatizer, js []job, results *[]core.Result) {
	if fn.Seed != 0 {
		for i := range js {
			fn.do(p, &js[i], nil)
		}
		return
	}
	var texts []string
	var at []int // texts[k] is js[at[k]]'s
	size := 0
	run := func() {
		if len(texts) == 0 {
			return
		}
		res, err := p.AppendBlock(ctx, (*results)[:0], texts)
		*results = res
		for k, i := range at {
			j := &js[i]
			if err != nil {
				j.err = fmt.Errorf("wordveil-beam: %s line %d: %w", j.r.Source, j.r.Line, err)
				continue
			}
			fn.do(p, j, &res[k])
		}
		texts, at, size = texts[:0], at[:0], 0
	}
	for i := range js {
		j := &js[i]
		if !j.granted || j.r.Text == "" {
			fn.do(p, j, nil)
			continue
		}
		if size+len(j.r.Text) > fn.MaxRecordBytes {
			run()
		}
		texts, at = append(texts, j.r.Text), append(at, i)
		size += len(j.r.Text)
	}
	run()
}

// do privatizes one job with p (a granted record) or makes its withheld
// line, setting j.out, j.n and j.err. res, when not nil, is the granted
// record's result, privatized already (doAll's block).
func (fn *privatizeFn) do(p *core.Privatizer, j *job, res *core.Result) {
	r := j.r
	switch {
	case !j.granted:
		j.out = recordLine{Status: withheld, Text: fn.Placeholder, TotalEpsilon: math.NaN(), UnitFree: math.NaN()}
	case r.Text == "":
		j.out = recordLine{Status: released}
	default:
		if res == nil {
			if fn.Seed != 0 {
				if j.err = core.UseEvaluationSeed(p, RecordSeed(fn.Seed, r.User, r.Source, r.Line)); j.err != nil {
					return
				}
			}
			one, err := p.Privatize(r.Text)
			if err != nil {
				j.err = fmt.Errorf("wordveil-beam: %s line %d: %w", r.Source, r.Line, err)
				return
			}
			res = &one
		}
		a := res.Accounting
		if w := j.want; a.Words-a.Memoized > w.Words || !(a.UnitFree <= w.Cost || math.IsNaN(w.Cost) && math.IsNaN(a.UnitFree)) {
			// The text was checked against its lineSum: a different
			// charge is a fault in this code or the engine. Fail closed.
			j.err = fmt.Errorf("wordveil-beam: %s line %d: privatized as %d words (charge %v), charged as %d (%v)", r.Source, r.Line, a.Words-a.Memoized, a.UnitFree, w.Words, w.Cost)
			return
		}
		j.out = recordLine{Status: released, Text: res.Text, Words: a.Words, OOV: a.OOV, TotalEpsilon: a.TotalEpsilon, UnitFree: a.UnitFree}
		j.n = a.Words
	}
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
