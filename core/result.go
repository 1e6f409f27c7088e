package core

import (
	"math"
	"time"

	"github.com/wordveil/wordveil/internal/privatize"
)

// Result is a privatized text and its privacy bill.
type Result struct {
	// Text is the privatized text: upload this, never the input.
	Text string
	// Accounting is the text's bill (in a block, Ledger is the block's
	// shared receipt).
	Accounting Accounting
}

// Accounting is one text's privacy bill. The text is TotalEpsilon-bounded
// in the sense of metric DP composition over its freshly privatized words.
type Accounting struct {
	// Mechanism is the mechanism that privatized the words.
	Mechanism Mechanism
	// Words is how many words went through the mechanism, counting each
	// piece of a word cut into pieces ("do" and "n't"), each segment of a
	// hyphenated word, each stand-in and each privatized number. Tokens the
	// OOV policy replaced cost nothing: their replacement does not depend
	// on them.
	Words int
	// OOV is how many tokens and pieces the OOV policy replaced.
	OOV int
	// Memoized is how many of Words were answered from the memo: they
	// repeat an earlier response and cost nothing more.
	Memoized int
	// Epsilon is the per-word ε in Metric (with word classes, the main ε).
	Epsilon float64
	// Metric names the metric d that Epsilon and TotalEpsilon are in.
	Metric string
	// TotalEpsilon is (Words − Memoized)·Epsilon; with word classes, the
	// sum over Classes of each class's fresh words times its ε.
	TotalEpsilon float64
	// Classes splits Words by word class, the default class first, when
	// Config.Classes is set; nil otherwise.
	Classes []ClassCount
	// PAvg is the mean metric distance between two vocabulary words; the
	// metric loss ε·PAvg per word compares ε within one mechanism, not
	// across mechanisms (docs/TEXT_PRIVACY.md). NaN when unknown (LossUnknown says why), never 0, which
	// would read as "no loss".
	PAvg float64
	// UnitFree is TotalEpsilon·PAvg, what a ledger is charged; NaN when
	// PAvg is unknown.
	UnitFree float64
	// LossUnknown says why PAvg and UnitFree are unknown ("" when known).
	LossUnknown string
	// Ledger is the ledger's receipt, when one was charged (nil without a
	// ledger).
	Ledger *Receipt
}

// ClassCount is one word class's share of a text's bill.
type ClassCount struct {
	Class    string  // "default", "number", "rare" or "capitalized"
	Epsilon  float64 // the class's per-word ε
	Words    int     // the text's privatized words in the class
	Memoized int     // how many of them the memo answered
}

// Receipt is the ledger's state after a charge.
type Receipt struct {
	Amount            float64   // this charge (a block's, shared by its texts)
	PeriodSpent       float64   // within the period, this charge included
	LifetimeSpent     float64   // since the ledger was created, this charge included
	PeriodRemaining   float64   // +Inf without a per-period cap
	LifetimeRemaining float64   // +Inf without a lifetime cap
	At                time.Time // the ledger time the charge is recorded at
	// PeriodWordsRemaining and LifetimeWordsRemaining are PeriodRemaining
	// and LifetimeRemaining in fresh words at the main ε (Info.WordCost),
	// rounded down: how many more such words the caps grant, what an app
	// shows as "N words left". −1 without that cap.
	PeriodWordsRemaining   int64
	LifetimeWordsRemaining int64
}

// wordsLeft is a remaining loss in words of cost each, rounded down: −1
// without a cap (remaining +Inf), 0 when the cost is unknown (NaN; no
// ledger charges such a mechanism), at most MaxInt64.
func wordsLeft(remaining, cost float64) int64 {
	if math.IsInf(remaining, 1) {
		return -1
	}
	w := math.Floor(remaining / cost)
	switch {
	case !(w >= 0):
		return 0
	case w >= math.MaxInt64:
		return math.MaxInt64
	}
	return int64(w)
}

func newResult(r *privatize.Result) Result {
	return Result{Text: r.Text, Accounting: newAccounting(&r.Accounting)}
}

// newAccounting converts the text privatizer's bill (Privatize's, or
// Cost's) to the package's.
func newAccounting(a *privatize.Accounting) Accounting {
	out := Accounting{
		Mechanism: Mechanism(a.Mechanism), Words: a.Words, OOV: a.OOV, Memoized: a.Memoized,
		Epsilon: a.Epsilon, Metric: a.Metric, TotalEpsilon: a.TotalEpsilon,
		PAvg: a.PAvg, UnitFree: a.UnitFree, LossUnknown: a.LossUnknown,
	}
	if a.Classes != nil {
		out.Classes = make([]ClassCount, len(a.Classes))
		for i, c := range a.Classes {
			out.Classes[i] = ClassCount{Class: c.Class, Epsilon: c.Epsilon, Words: c.Words, Memoized: c.Memoized}
		}
	}
	if l := a.Ledger; l != nil {
		out.Ledger = &Receipt{Amount: l.Amount, PeriodSpent: l.PeriodSpent, LifetimeSpent: l.LifetimeSpent,
			PeriodRemaining: l.PeriodRemaining, LifetimeRemaining: l.LifetimeRemaining, At: l.At}
		// a.Epsilon·a.PAvg is Info.WordCost (wordCost): the main ε's.
		cost := a.Epsilon * a.PAvg
		out.Ledger.PeriodWordsRemaining = wordsLeft(l.PeriodRemaining, cost)
		out.Ledger.LifetimeWordsRemaining = wordsLeft(l.LifetimeRemaining, cost)
	}
	return out
}
