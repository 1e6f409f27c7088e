package core

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wordveil/wordveil/internal/ledger"
	"github.com/wordveil/wordveil/internal/mechanism"
)

// The mechanisms and levels the word-cap tests run at. No ε or cost is
// written down here: each is read from the privatizer opened at the level
// (the presets are recalibrated from time to time).
var (
	capMechanisms = []Mechanism{BRR, OneDG, OneDT, TEMHamming}
	capLevels     = []Level{Strong, Balanced, Light}
)

// capWord is a lower-case vocabulary word (the default class, one word to
// the mechanism). Without a memo every occurrence is privatized afresh,
// so a text repeating it is that many fresh words.
const capWord = "house"

// wordsText is n occurrences of word.
func wordsText(word string, n int) string {
	return strings.TrimSpace(strings.Repeat(word+" ", n))
}

// capKind names which cap a test sets.
type capKind struct {
	name string
	caps func(words int) Caps
	left func(r *Receipt) int64 // the words the receipt says are left under that cap
}

var capKinds = []capKind{
	{"lifetime", func(n int) Caps { return Caps{LifetimeWords: n} }, func(r *Receipt) int64 { return r.LifetimeWordsRemaining }},
	{"per-period", func(n int) Caps { return Caps{PerPeriodWords: n} }, func(r *Receipt) int64 { return r.PeriodWordsRemaining }},
}

// spentOnDisk is the lifetime total of the ledger in dir, read by a
// second handle (the ledger is shared by handles and processes).
func spentOnDisk(t *testing.T, dir string) float64 {
	t.Helper()
	l, err := ledger.Open(dir, ledger.Caps{})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	_, life, err := l.Spent()
	if err != nil {
		t.Fatal(err)
	}
	return life
}

// grantThenRefuse privatizes n copies of word in calls of perCall words
// (the last call takes the rest); each call must be granted, with the
// receipt's words left (left, unless nil) counting down to 0. Then one more word must
// be refused with ErrBudgetExceeded, and the ledger in dir must be as the
// last granted call left it.
func grantThenRefuse(t *testing.T, p *Privatizer, dir, word string, n, perCall int, left func(*Receipt) int64) {
	t.Helper()
	granted := 0
	for granted < n {
		k := min(perCall, n-granted)
		res, err := p.Privatize(wordsText(word, k))
		if err != nil {
			t.Fatalf("after %d of %d words, a call of %d: %v", granted, n, k, err)
		}
		if res.Accounting.Words != k {
			t.Fatalf("a call of %d copies of %q privatized %d words", k, word, res.Accounting.Words)
		}
		granted += k
		if left == nil {
			continue
		}
		if got := left(res.Accounting.Ledger); got != int64(n-granted) {
			t.Fatalf("after %d of %d words: %d words left, want %d", granted, n, got, n-granted)
		}
	}
	before := spentOnDisk(t, dir)
	_, err := p.Privatize(word)
	if !errors.Is(err, ErrBudgetExceeded) {
		t.Fatalf("word %d of a cap of %d: %v, want ErrBudgetExceeded", n+1, n, err)
	}
	if after := spentOnDisk(t, dir); after != before {
		t.Fatalf("a refused word changed the ledger: spent %v, then %v", before, after)
	}
}

// capCase is one boundary test: a cap of n words, spent in calls of
// perCall words, run at the mechanisms and levels where short says (under
// -short) or full says (without it). BRR and TEM on the codes privatize
// about 10^4 words a second, the list mechanisms about 10^6: 10^5 words
// run at every level only for the latter; 500 one-word calls are 500
// fsync'd charges, run at one level per mechanism.
type capCase struct {
	n, perCall  int
	short, full func(Mechanism, Level) bool
}

func everywhere(Mechanism, Level) bool          { return true }
func brrBalanced(m Mechanism, l Level) bool     { return m == BRR && l == Balanced }
func oneDGBalanced(m Mechanism, l Level) bool   { return m == OneDG && l == Balanced }
func oneDTBalanced(m Mechanism, l Level) bool   { return m == OneDT && l == Balanced }
func listsOrBalanced(m Mechanism, l Level) bool { return lists(m, l) || l == Balanced }
func lists(m Mechanism, _ Level) bool           { return m == OneDG || m == OneDT }
func balanced(_ Mechanism, l Level) bool        { return l == Balanced }

// TestWordCapBoundary: a cap of N words grants exactly N fresh words at
// the main ε and refuses word N+1, which changes nothing on disk, at every
// tested mechanism and level, for lifetime and per-period caps, one word
// per call and several. (N in single-word calls beyond 500, and N beyond
// 10^5, are TestWordCapArithmetic's: one fsync'd charge per call makes
// 10^5 calls too slow for a unit test.)
func TestWordCapBoundary(t *testing.T) {
	cases := []capCase{
		{n: 1, perCall: 1, short: everywhere, full: everywhere},
		{n: 7, perCall: 1, short: everywhere, full: everywhere},
		{n: 7, perCall: 3, short: everywhere, full: everywhere},
		{n: 7, perCall: 7, short: everywhere, full: everywhere},
		{n: 500, perCall: 1, short: brrBalanced, full: balanced},
		{n: 500, perCall: 60, short: balanced, full: everywhere},
		{n: 100000, perCall: 25000, short: oneDGBalanced, full: listsOrBalanced},
		{n: 100000, perCall: 100000, short: oneDTBalanced, full: lists},
	}
	for _, m := range capMechanisms {
		for _, lv := range capLevels {
			for _, kind := range capKinds {
				for _, c := range cases {
					run := c.full
					if testing.Short() {
						run = c.short
					}
					if !run(m, lv) {
						continue
					}
					name := fmt.Sprintf("%s/%s/%s/N=%d/per-call=%d", m, lv, kind.name, c.n, c.perCall)
					t.Run(name, func(t *testing.T) {
						dir := t.TempDir()
						p, err := Open(Config{Mechanism: m, Level: lv, LedgerDir: dir, Caps: kind.caps(c.n)})
						if err != nil {
							t.Fatal(err)
						}
						defer p.Close()
						grantThenRefuse(t, p, dir, capWord, c.n, c.perCall, kind.left)
					})
				}
			}
		}
	}
}

// TestWordCapOneCallOverCap: a single call of N+1 words is refused whole
// on a fresh ledger with a cap of N words (the message restating the cap
// in words), and one of N words granted.
func TestWordCapOneCallOverCap(t *testing.T) {
	for _, n := range []int{1, 7, 500} {
		dir := t.TempDir()
		p, err := Open(Config{Mechanism: OneDT, Level: Strong, LedgerDir: dir, Caps: Caps{LifetimeWords: n}})
		if err != nil {
			t.Fatal(err)
		}
		_, err = p.Privatize(wordsText(capWord, n+1))
		if !errors.Is(err, ErrBudgetExceeded) {
			t.Errorf("N=%d: a call of N+1 words: %v, want ErrBudgetExceeded", n, err)
		}
		if want := fmt.Sprintf("caps in words: %d words in the lifetime", n); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("N=%d: the refusal %q does not say %q", n, err, want)
		}
		if _, err := p.Privatize(wordsText(capWord, n)); err != nil {
			t.Errorf("N=%d: a call of N words: %v", n, err)
		}
		p.Close()
	}
}

// capModel is the ledger's arithmetic: calls of k fresh words at ε are
// charged float64(k)·ε·pavg each (internal/privatize), and the ledger
// compares the exact sum of its charges with the cap (internal/ledger).
type capModel struct{ eps, pavg float64 }

func (m capModel) charge(k int) float64 { return float64(k) * m.eps * m.pavg }

// spent is the exact sum of the charges of n words in calls of perCall
// words, the last taking the rest, then extra more calls of one word.
func (m capModel) spent(n, perCall, extra int) *big.Float {
	const prec = 1024 // the charges are within a factor 2^41 of each other: exact
	s := new(big.Float).SetPrec(prec)
	q, r := n/perCall, n%perCall
	s.Mul(new(big.Float).SetPrec(prec).SetInt64(int64(q)), new(big.Float).SetPrec(prec).SetFloat64(m.charge(perCall)))
	s.Add(s, new(big.Float).SetPrec(prec).SetFloat64(m.charge(r)))
	for range extra {
		s.Add(s, new(big.Float).SetPrec(prec).SetFloat64(m.charge(1)))
	}
	if s.Acc() != big.Exact {
		panic("inexact model sum")
	}
	return s
}

// grantsExactly reports whether cap grants n words in calls of perCall
// words and refuses word n+1 under the model.
func (m capModel) grantsExactly(limit float64, n, perCall int) bool {
	c := new(big.Float).SetFloat64(limit)
	return m.spent(n, perCall, 0).Cmp(c) <= 0 && m.spent(n, perCall, 1).Cmp(c) > 0
}

// capModels are the (ε, P_avg) of every tested mechanism and level, read
// from the privatizers, and random ones: ε log-uniform over the accepted
// range (10^-12 to 10^6), P_avg over 1 to 10^5.
func capModels(t *testing.T) []capModel {
	var ms []capModel
	for _, m := range capMechanisms {
		for _, lv := range capLevels {
			p, err := Open(Config{Mechanism: m, Level: lv})
			if err != nil {
				t.Fatal(err)
			}
			pavg, ok := mechanism.MeanDistance(p.mech)
			if !ok {
				t.Fatalf("%s: P_avg unknown", m)
			}
			ms = append(ms, capModel{p.mech.Epsilon(), pavg})
			p.Close()
		}
	}
	r := rand.New(rand.NewPCG(27, 3))
	for range 200 {
		ms = append(ms, capModel{math.Pow(10, -12+18*r.Float64()), math.Pow(10, 5*r.Float64())})
	}
	return ms
}

var (
	capModelNs       = []int{1, 7, 500, 100000, 10_000_000, 1 << 30}
	capModelPerCalls = []int{1, 3, 1000}
)

// TestWordCapArithmetic: under the ledger's exact arithmetic, the cap
// ledger.WordCap computes (the ledger's conversion of a cap in words, for
// the lifetime and the period alike: ledger.TestCapsInLoss) grants exactly N words and refuses word N+1 for
// every model cost, N up to 2^30 (and ledger.MaxCapWords) and calls of 1, 3 and
// 1000 words (and all N words in one call).
func TestWordCapArithmetic(t *testing.T) {
	for _, m := range capModels(t) {
		for _, n := range append(capModelNs, int(min(ledger.MaxCapWords, math.MaxInt))) {
			limit, err := ledger.WordCap(n, m.charge(1))
			if err != nil {
				t.Fatal(err)
			}
			for _, k := range append(capModelPerCalls, n) {
				if !m.grantsExactly(limit, n, k) {
					t.Errorf("ε %v, P_avg %v, N %d, calls of %d words: cap %v does not grant exactly N", m.eps, m.pavg, n, k, limit)
				}
			}
		}
	}
}

// TestWordCapNegativeControl: the arithmetic test catches a conversion
// without the half word (N·cost), and one with a cost off by 2^-28 (a
// word in 2^28: seen from N = 2^27 on).
func TestWordCapNegativeControl(t *testing.T) {
	for _, bad := range []struct {
		name string
		cap  func(n int, cost float64) float64
	}{
		{"no half word", func(n int, cost float64) float64 { return float64(n) * cost }},
		{"cost 2^-28 too high", func(n int, cost float64) float64 { return (float64(n) + 0.5) * cost * (1 + 0x1p-28) }},
		{"cost 2^-28 too low", func(n int, cost float64) float64 { return (float64(n) + 0.5) * cost * (1 - 0x1p-28) }},
	} {
		wrong := 0
		for _, m := range capModels(t) {
			for _, n := range append(capModelNs, int(min(ledger.MaxCapWords, math.MaxInt))) {
				for _, k := range capModelPerCalls {
					if !m.grantsExactly(bad.cap(n, m.eps*m.pavg), n, k) {
						wrong++
					}
				}
			}
		}
		if wrong == 0 {
			t.Errorf("%s: the arithmetic test finds no case it gets wrong", bad.name)
		}
		t.Logf("%s: wrong in %d cases", bad.name, wrong)
	}
}

// TestWordCostIsOneWordsCharge: Info.WordCost is what a ledger charges for
// one fresh word at the main ε (Accounting.UnitFree, Receipt.Amount), at
// every tested mechanism and level; NaN where P_avg is unknown.
func TestWordCostIsOneWordsCharge(t *testing.T) {
	for _, m := range capMechanisms {
		for _, lv := range capLevels {
			p, err := Open(Config{Mechanism: m, Level: lv, LedgerDir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			res, err := p.Privatize(capWord)
			if err != nil {
				t.Fatal(err)
			}
			cost := p.Info().WordCost
			if !(cost > 0) || res.Accounting.UnitFree != cost || res.Accounting.Ledger.Amount != cost {
				t.Errorf("%s %s: WordCost %v, one word's UnitFree %v, charge %v", m, lv, cost, res.Accounting.UnitFree, res.Accounting.Ledger.Amount)
			}
			if r := res.Accounting.Ledger; r.LifetimeWordsRemaining != -1 || r.PeriodWordsRemaining != -1 {
				t.Errorf("%s %s: no caps, words left %d and %d, want -1", m, lv, r.LifetimeWordsRemaining, r.PeriodWordsRemaining)
			}
			p.Close()
		}
	}
	p, err := Open(Config{Mechanism: CusText, Level: Light})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if c := p.Info().WordCost; !math.IsNaN(c) {
		t.Errorf("CusText: WordCost %v, want NaN (P_avg unknown)", c)
	}
}

// TestWordCapClasses: a word cap counts words at the main ε. A class word
// at ε/3 costs a third of a word: (N+½)·3 = 3N+1.5, so 3N+1 of them are
// granted and the next refused; at 2ε, ⌊(N+½)/2⌋ are.
func TestWordCapClasses(t *testing.T) {
	for _, tc := range []struct {
		name  string
		scale float64
		want  func(n int) int
	}{
		{"capitalized at ε/3", 1.0 / 3, func(n int) int { return 3*n + 1 }},
		{"capitalized at 2ε", 2, func(n int) int { return n / 2 }},
	} {
		for _, n := range []int{1, 7} {
			t.Run(fmt.Sprintf("%s/N=%d", tc.name, n), func(t *testing.T) {
				eps := mainEpsilon(t, OneDT, Balanced)
				dir := t.TempDir()
				p, err := Open(Config{Mechanism: OneDT, Level: Balanced, LedgerDir: dir, Caps: Caps{LifetimeWords: n},
					Classes: Classes{Capitalized: eps * tc.scale}, AllowSaturatedEpsilon: true})
				if err != nil {
					t.Fatal(err)
				}
				defer p.Close()
				// The words left are main-ε words: not checked here.
				grantThenRefuse(t, p, dir, "House", tc.want(n), 1, nil)
			})
		}
	}
	// The default class of the same privatizer still gets N words.
	eps := mainEpsilon(t, OneDT, Balanced)
	dir := t.TempDir()
	p, err := Open(Config{Mechanism: OneDT, Level: Balanced, LedgerDir: dir, Caps: Caps{LifetimeWords: 7},
		Classes: Classes{Capitalized: eps / 3}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	grantThenRefuse(t, p, dir, capWord, 7, 2, capKinds[0].left)
}

// mainEpsilon is the ε of m at level lv.
func mainEpsilon(t *testing.T, m Mechanism, lv Level) float64 {
	t.Helper()
	p, err := Open(Config{Mechanism: m, Level: lv})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	return p.Info().Epsilon
}

// TestWordCapRefused: a word cap Open cannot honour is ErrInvalidConfig,
// and nothing is created on disk.
func TestWordCapRefused(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config
	}{
		{"negative lifetime words", Config{Caps: Caps{LifetimeWords: -1}}},
		{"negative per-period words", Config{Caps: Caps{PerPeriodWords: -1}}},
		{"above 2^40 words", Config{Caps: Caps{LifetimeWords: int(aboveCapWords)}}}, // wraps where int has 32 bits: skipped there
		{"lifetime in words and in loss", Config{Caps: Caps{LifetimeWords: 5, Lifetime: 1}}},
		{"per period in words and in loss", Config{Caps: Caps{PerPeriodWords: 5, PerPeriod: 1}}},
		{"CusText: no cost per word", Config{Mechanism: CusText, Level: Light, Caps: Caps{LifetimeWords: 5}}},
		{"CusText: no cost per word, per period", Config{Mechanism: CusText, Level: Light, Caps: Caps{PerPeriodWords: 5}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if int64(tc.cfg.Caps.LifetimeWords) != aboveCapWords && tc.name == "above 2^40 words" {
				t.Skip("int has 32 bits: 2^40 + 1 words cannot be given")
			}
			dir := filepath.Join(t.TempDir(), "ledger")
			tc.cfg.LedgerDir = dir
			p, err := Open(tc.cfg)
			if !errors.Is(err, ErrInvalidConfig) {
				p.Close()
				t.Fatalf("Open: %v, want ErrInvalidConfig", err)
			}
			t.Log(err)
			if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the ledger directory exists after a refused Open (%v)", err)
			}
		})
	}
	// A word cap without a ledger, and the two kinds of cap side by side.
	if _, err := Open(Config{Caps: Caps{LifetimeWords: 5}}); !errors.Is(err, ErrInvalidConfig) {
		t.Errorf("a word cap without LedgerDir: %v, want ErrInvalidConfig", err)
	}
	p, err := Open(Config{LedgerDir: t.TempDir(), Caps: Caps{Lifetime: 1e9, PerPeriodWords: 3}})
	if err != nil {
		t.Fatalf("a lifetime cap in loss beside a per-period cap in words: %v", err)
	}
	p.Close()
}

// aboveCapWords is one past the largest word cap, as a variable: a
// constant would not compile where int has 32 bits.
var aboveCapWords = int64(ledger.MaxCapWords) + 1

// TestWordCapOtherLevel: the ledger keeps charges, not caps. A directory
// that spent words at balanced, reopened at another level with the same
// word cap, grants ⌊(N+½) − spent/cost'⌋ words at the new cost per word
// (cost'), none if that is negative.
func TestWordCapOtherLevel(t *testing.T) {
	const n, spent = 10, 4
	for _, lv := range []Level{Strong, Light} {
		t.Run(string(lv), func(t *testing.T) {
			dir := t.TempDir()
			p, err := Open(Config{Mechanism: OneDG, Level: Balanced, LedgerDir: dir, Caps: Caps{LifetimeWords: n}})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := p.Privatize(wordsText(capWord, spent)); err != nil {
				t.Fatal(err)
			}
			before := p.Info().WordCost
			p.Close()
			q, err := Open(Config{Mechanism: OneDG, Level: lv, LedgerDir: dir, Caps: Caps{LifetimeWords: n}})
			if err != nil {
				t.Fatal(err)
			}
			defer q.Close()
			after := q.Info().WordCost
			want := int(max(0, math.Floor(n+0.5-spent*before/after)))
			t.Logf("%d words spent at balanced (%v each), at %s (%v each) %d of %d words are left", spent, before, lv, after, want, n)
			grantThenRefuse(t, q, dir, capWord, want, 1, nil)
		})
	}
}

// TestWordCapMemoRepeatsFree: with a memo, a cap in words counts fresh
// words only: a word the memo answers again costs nothing.
func TestWordCapMemoRepeatsFree(t *testing.T) {
	dir := t.TempDir()
	p, err := Open(Config{Mechanism: OneDG, Level: Balanced, LedgerDir: dir, Caps: Caps{LifetimeWords: 2},
		MemoDir: t.TempDir(), MemoSecret: make([]byte, 32)})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	for i := range 5 {
		res, err := p.Privatize(wordsText(capWord, 3))
		if err != nil {
			t.Fatalf("call %d repeating one word: %v", i, err)
		}
		if got := res.Accounting.Ledger.LifetimeWordsRemaining; got != 1 {
			t.Fatalf("call %d repeating one word: %d words left, want 1", i, got)
		}
	}
	res, err := p.Privatize("garden")
	if err != nil || res.Accounting.Ledger.LifetimeWordsRemaining != 0 {
		t.Fatalf("the second fresh word: %v, %+v", err, res.Accounting.Ledger)
	}
	if _, err := p.Privatize("garden house garden"); err != nil {
		t.Fatalf("repeats after the cap is spent: %v", err)
	}
	before := spentOnDisk(t, dir)
	if _, err := p.Privatize("river"); !errors.Is(err, ErrBudgetExceeded) {
		t.Fatalf("the third fresh word: %v, want ErrBudgetExceeded", err)
	}
	if after := spentOnDisk(t, dir); after != before {
		t.Fatalf("a refused word changed the ledger: spent %v, then %v", before, after)
	}
}
