package pipeline

import (
	"context"
	"fmt"
	"math"
	"strconv"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/wordveil/wordveil/core"
)

// ref is what the cap needs of a record, where it is, and what the
// re-read checks to know it found the same record again. It is what
// crosses the per-user shuffle: never the text.
type ref struct {
	Source string
	Line   int64
	Offset int64        // the byte offset of its line in Source
	Sum    lineChecksum // lineSum of its line
	Index  int          // its place among its segment's records, from 0 (the sequential re-read's bit)
	Words  int          // words the mechanism privatizes (Accounting.Words)
	Cost   float64      // its charge, Accounting.UnitFree (NaN when the mechanism's loss is unknown)
}

// slot is an element of one segment's group (segmentKey) for the re-read:
// a granted record (its user and ref), or, Marker, readFn's summary of the
// segment: its Source, the Line and Offset of its first record, the End
// of its last record line and how many Records it holds. Every segment
// with a record has one marker, so a withheld record's placeholder can be
// written from its segment even when no record of it was granted. A
// marker with Seq is a segment of a file that cannot seek (compressed, or
// on a remote file system): its Sum is then the digest of its records
// (recordDigest), and the re-read reads the whole file once (seqRereadFn).
type slot struct {
	User    string
	Source  string // the marker's; a granted record's is in its key
	Line    int64
	Offset  int64
	Sum     lineChecksum // a record's lineSum; a Seq marker's recordDigest
	Index   int          // a granted record's place among its segment's records
	Words   int
	Cost    float64
	Marker  bool
	Seq     bool // a marker's file is re-read sequentially
	End     int64
	Records int
}

// slotBatch is what crosses the shuffle to the re-read: a segment's
// marker (alone), or one user's granted slots in one segment.
type slotBatch struct {
	Slots []slot
}

// slabSlots bounds the chunks decideFn carves a user's batches from.
const slabSlots = 4096

// segmentBytes is the span of a file whose records one re-read handles:
// the re-read's groups are (file, segment), so that no group holds more
// than a segment's granted refs and the files' segments are privatized in
// parallel.
const segmentBytes = 1 << 20

// segmentKey is the re-read's key of the line at offset in source: the
// source (length-prefixed, so no two keys collide whatever its bytes) and
// the segment.
func segmentKey(source string, offset int64) string {
	return strconv.Itoa(len(source)) + ":" + source + strconv.FormatInt(offset/segmentBytes, 10)
}

// decideFn holds one user's refs as grantFn combined them (never their
// texts: about 80 bytes per ref) and their spending in earlier runs (the
// state, when there is one), sorts the refs by (Source, Line) and grants
// them in that order while the exact sum of the earlier spending and the
// granted charges stays within the cap (core.Tally, the exact arithmetic
// of the SDK's ledger); a record that does not fit is withheld, and
// later, smaller ones may still fit, as a device's ledger grants a later,
// smaller call. The order is a function of the input alone, so which
// records are released does not depend on how the runner schedules,
// splits or retries the work. It emits each granted record's slot, by
// (file, segment), for the re-read (privatizeFn), a segment's in one
// slotBatch; a withheld record has none. With State it also emits the user's
// spending for the state's next generation: unchanged for a user with no
// records in this run.
type decideFn struct {
	CapLoss  float64 // 0: no cap
	WordCost float64 // for the summary's words remaining; NaN when unknown
	CapWords int     // for the summary (0: the cap was given in loss, or none)
	Shards   int
	State    bool // emit the next generation's lines

	users, capped, withheld beam.Counter
}

func (fn *decideFn) Setup() {
	fn.users = beam.NewCounter(metricsNamespace, CounterUsers)
	fn.capped = beam.NewCounter(metricsNamespace, CounterUsersCapped)
	fn.withheld = beam.NewCounter(metricsNamespace, CounterWithheld)
}

func (fn *decideFn) ProcessElement(ctx context.Context, user string, accs func(*grants) bool, priors func(*spending) bool,
	grant func(string, slotBatch), summary func(int, lineBatch), state func(int, lineBatch)) error {
	prior, seen := spending{User: user}, 0
	for p := (spending{}); priors(&p); seen++ {
		prior = p
	}
	if seen > 1 {
		return corrupt("user key appears %d times in the state", seen)
	}
	var g grants
	nacc := 0
	for a := (grants{}); accs(&a); nacc++ {
		g = a
	}
	if nacc > 1 {
		return fmt.Errorf("wordveil-beam: user %q has %d combined accumulators (want 1)", user, nacc)
	}
	if g.Records == 0 { // in the state only: carried over as it is
		return fn.emitState(user, prior, state)
	}
	all := g.Refs // sorted by (Source, Line); the refs grantFn dropped are withheld
	// total holds the earlier runs' spending and this run's grants
	// against the cap; run (no cap) this run's grants alone.
	total, err := core.NewTally(fn.CapLoss)
	if err != nil {
		return err
	}
	run, err := core.NewTally(0)
	if err != nil {
		return err
	}
	exhausted := false // the earlier spending alone is over the cap (a cap lowered since): nothing more is granted
	if prior.Spent > 0 {
		ok, err := total.Charge(prior.Spent)
		if err != nil {
			return err
		}
		exhausted = !ok
	}
	s := Summary{User: user, Records: g.Records}
	// The granted slots go out in one batch per segment: the refs are
	// sorted by (Source, Line), so a segment's are consecutive.
	// The batches are carved from chunks of at most slabSlots slots (a
	// few allocations per user rather than a growing slice per batch);
	// slab[start:] is the batch being filled. An emitted batch's slots
	// are never written again.
	var slab []slot
	start := 0
	var batchSource string
	var batchOffset int64
	send := func() {
		if len(slab) > start {
			grant(segmentKey(batchSource, batchOffset), slotBatch{Slots: slab[start:len(slab):len(slab)]})
			start = len(slab)
		}
	}
	for i, r := range all {
		granted := true
		switch {
		case math.IsNaN(r.Cost):
			// The loss is unknown (settle allows neither a cap nor a
			// state then): the record is released, the spending unknown.
			s.unknown = true
		case exhausted:
			granted = false
		default:
			if granted, err = total.Charge(r.Cost); err != nil {
				return fmt.Errorf("wordveil-beam: %s line %d: %w", r.Source, r.Line, err)
			}
			if granted {
				run.Charge(r.Cost) // no cap, a finite charge: granted
			}
		}
		if !granted {
			continue // not sent to the re-read: withheld
		}
		s.Released++
		s.Words += r.Words
		if len(slab) > start && (r.Source != batchSource || r.Offset/segmentBytes != batchOffset/segmentBytes) {
			send()
		}
		if len(slab) == start {
			batchSource, batchOffset = r.Source, r.Offset
		}
		if len(slab) == cap(slab) { // a new chunk, with the batch so far
			n := len(slab) - start
			next := make([]slot, n, n+min(len(all)-i, max(n, slabSlots)))
			copy(next, slab[start:])
			slab, start = next, 0
		}
		slab = append(slab, slot{User: user, Line: r.Line, Offset: r.Offset, Sum: r.Sum, Index: r.Index, Words: r.Words, Cost: r.Cost})
	}
	send()
	s.Withheld = s.Records - s.Released
	crashPoint("decided")
	fn.users.Inc(ctx, 1)
	if s.Withheld > 0 {
		fn.capped.Inc(ctx, 1)
		fn.withheld.Inc(ctx, int64(s.Withheld))
	}
	next := prior
	if s.Released > 0 && !s.unknown {
		// Rounded up: the state never holds less than the exact sum, so
		// carrying it as one charge never lets a later one slip under.
		next.Spent = math.Nextafter(total.Spent(), math.Inf(1))
		if total.Spent() == prior.Spent { // only charges of 0 (empty texts)
			next.Spent = prior.Spent
		}
		next.Words += int64(s.Words)
		next.Released += int64(s.Released)
	}
	remaining := total.Remaining()
	if exhausted {
		remaining = 0
	}
	line, err := s.line(run.Spent(), remaining, fn.CapLoss, fn.CapWords, fn.WordCost, fn.State, next)
	if err != nil {
		return err
	}
	summary(shardOf(user, fn.Shards), lineBatch{Lines: []outLine{line}})
	return fn.emitState(user, next, state)
}

func (fn *decideFn) emitState(user string, s spending, state func(int, lineBatch)) error {
	if !fn.State {
		return nil
	}
	s.User = user
	j, err := toJSON(s)
	if err != nil {
		return err
	}
	state(shardOf(user, fn.Shards), lineBatch{Lines: []outLine{{User: user, JSON: j}}})
	return nil
}

// Summary is one user's line in the budget files.
type Summary struct {
	User     string   `json:"user"`
	Records  int      `json:"records"`  // the user's records read
	Released int      `json:"released"` // privatized and written
	Withheld int      `json:"withheld"` // over the cap: never released
	Words    int      `json:"words"`    // words privatized in the released records
	Spent    *float64 `json:"spent"`    // the exact sum of the released records' charges (metric loss), rounded; null when unknown
	Cap      *float64 `json:"cap"`      // the cap in metric loss; null without one
	CapWords *int     `json:"capWords"` // the cap in words, when it was given so; null otherwise
	// Remaining is the cap less everything spent (this run and, with a
	// state, the earlier ones); WordsRemaining the same in words at the
	// engine's ε, rounded down. Null without a cap.
	Remaining      *float64 `json:"remaining"`
	WordsRemaining *int64   `json:"wordsRemaining"`
	// TotalSpent and TotalWords are the user's spending and words over
	// every committed run sharing the state, this one included, as the
	// state's next generation holds them. Null without a state.
	TotalSpent *float64 `json:"totalSpent"`
	TotalWords *int64   `json:"totalWords"`

	unknown bool // some record's loss is unknown (NaN): Spent is null
}

func (s Summary) line(spent, remaining, capLoss float64, capWords int, cost float64, withState bool, next spending) (outLine, error) {
	if !s.unknown {
		s.Spent = finite(spent)
	}
	if capLoss > 0 {
		s.Cap = finite(capLoss)
		s.Remaining = finite(remaining)
		if w := math.Floor(remaining / cost); w >= 0 && w < math.MaxInt64 {
			n := int64(w)
			s.WordsRemaining = &n
		}
	}
	if capWords > 0 {
		s.CapWords = &capWords
	}
	if withState {
		s.TotalSpent, s.TotalWords = finite(next.Spent), &next.Words
	}
	j, err := toJSON(s)
	return outLine{User: s.User, JSON: j}, err
}

// finite returns &x, or nil (JSON null) for NaN and ±Inf.
func finite(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return &x
}
