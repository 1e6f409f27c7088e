package mobile

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// TestCapWords: CapLifetimeWords and CapPerPeriodWords grant exactly N
// fresh words, in calls of one word and of several, and refuse word N+1
// with WV_BUDGET_EXCEEDED and no Result, also from a privatizer opened
// again on the same ledger; each Result says how many words are left.
// The cost per word is read from the privatizer, never written here.
func TestCapWords(t *testing.T) {
	for _, tc := range []struct {
		name    string
		set     func(c *Config, n int64)
		left    func(r *Result) int64
		other   func(r *Result) int64
		preset  string
		perCall int
	}{
		{"lifetime, one word a call", func(c *Config, n int64) { c.CapLifetimeWords = n },
			func(r *Result) int64 { return r.LifetimeWordsRemaining }, func(r *Result) int64 { return r.PeriodWordsRemaining }, "balanced", 1},
		{"lifetime, 3 words a call", func(c *Config, n int64) { c.CapLifetimeWords = n },
			func(r *Result) int64 { return r.LifetimeWordsRemaining }, func(r *Result) int64 { return r.PeriodWordsRemaining }, "strong", 3},
		{"per period, one word a call", func(c *Config, n int64) { c.CapPerPeriodWords, c.PeriodSeconds = n, 3600 },
			func(r *Result) int64 { return r.PeriodWordsRemaining }, func(r *Result) int64 { return r.LifetimeWordsRemaining }, "light", 1},
		{"per period, 60 words a call", func(c *Config, n int64) { c.CapPerPeriodWords = n },
			func(r *Result) int64 { return r.PeriodWordsRemaining }, func(r *Result) int64 { return r.LifetimeWordsRemaining }, "balanced", 60},
	} {
		for _, n := range []int64{1, 7, 500} {
			t.Run(fmt.Sprintf("%s/N=%d", tc.name, n), func(t *testing.T) {
				if testing.Short() && n == 500 && tc.perCall == 1 {
					t.Skip("500 fsync'd charges (-short)")
				}
				cfg := NewConfig()
				cfg.Mechanism, cfg.Preset, cfg.LedgerDir, cfg.Anchor = "1dt", tc.preset, t.TempDir(), &keychain{}
				tc.set(cfg, n)
				p, err := OpenPrivatizer(cfg)
				if err != nil {
					t.Fatal(err)
				}
				defer p.Close()
				if c := p.WordCost(); !(c > 0) || math.IsInf(c, 0) {
					t.Fatalf("WordCost %v", c)
				}
				for granted := int64(0); granted < n; {
					k := min(int64(tc.perCall), n-granted)
					r, err := p.Privatize(strings.TrimSpace(strings.Repeat("house ", int(k))))
					if err != nil {
						t.Fatalf("after %d of %d words: %v", granted, n, err)
					}
					granted += r.Words
					if r.Words != k || tc.left(r) != n-granted || tc.other(r) != -1 {
						t.Fatalf("after %d of %d words: %d privatized, %d left, other cap %d", granted, n, r.Words, tc.left(r), tc.other(r))
					}
				}
				refused := func(p *Privatizer) {
					t.Helper()
					r, err := p.Privatize("house")
					if err == nil || ErrCode(err.Error()) != CodeBudgetExceeded || r != nil {
						t.Fatalf("word %d: %v, %v; want %s and no Result", n+1, r, err, CodeBudgetExceeded)
					}
				}
				refused(p)
				q, err := OpenPrivatizer(cfg)
				if err != nil {
					t.Fatal(err)
				}
				defer q.Close()
				refused(q)
			})
		}
	}
}

// TestWordCostZeroAndUnknown: WordCost is 0 on a zero-value or closed
// Privatizer and NaN where P_avg is unknown ("custext"), never 0 there.
func TestWordCostZeroAndUnknown(t *testing.T) {
	if c := new(Privatizer).WordCost(); c != 0 {
		t.Errorf("zero value: %v", c)
	}
	var nilP *Privatizer
	if c := nilP.WordCost(); c != 0 {
		t.Errorf("nil: %v", c)
	}
	cfg := NewConfig()
	cfg.Mechanism, cfg.Preset = "custext", "light" // its only level on the default asset
	p, err := OpenPrivatizer(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if c := p.WordCost(); !math.IsNaN(c) {
		t.Errorf("custext: %v, want NaN", c)
	}
	p.Close()
	if c := p.WordCost(); c != 0 {
		t.Errorf("closed: %v", c)
	}
}
