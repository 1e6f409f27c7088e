package mobile

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestClassSettingsRefused: every bad word-class setting is refused with
// WV_INVALID_ARGUMENT (code once), no privatizer comes back, and a refused
// memo configuration leaves no memo directory behind.
func TestClassSettingsRefused(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	for _, tc := range []struct {
		name   string
		mutate func(*Config)
	}{
		{"RareEpsilon -1", func(c *Config) { c.RareEpsilon, c.RareRank = -1, 100 }},
		{"RareEpsilon NaN", func(c *Config) { c.RareEpsilon, c.RareRank = nan, 100 }},
		{"RareEpsilon +Inf", func(c *Config) { c.RareEpsilon, c.RareRank = inf, 100 }},
		{"RareEpsilon 1e7", func(c *Config) { c.RareEpsilon, c.RareRank = 1e7, 100 }},
		{"CapitalizedEpsilon -0.5", func(c *Config) { c.CapitalizedEpsilon = -0.5 }},
		{"CapitalizedEpsilon NaN", func(c *Config) { c.CapitalizedEpsilon = nan }},
		{"CapitalizedEpsilon -Inf", func(c *Config) { c.CapitalizedEpsilon = -inf }},
		{"NumberEpsilon +Inf", func(c *Config) { c.NumberEpsilon = inf }},
		{"NumberEpsilon MaxFloat64", func(c *Config) { c.NumberEpsilon = math.MaxFloat64 }},
		{"NumberEpsilon saturated", func(c *Config) { c.NumberEpsilon = 500 }},
		{"RareEpsilon without RareRank", func(c *Config) { c.RareEpsilon = 0.5 }},
		{"RareRank without RareEpsilon", func(c *Config) { c.RareRank = 100 }},
		{"RareRank -1", func(c *Config) { c.RareEpsilon, c.RareRank = 0.5, -1 }},
		{"RareRank MinInt64", func(c *Config) { c.RareEpsilon, c.RareRank = 0.5, math.MinInt64 }},
		{"RareRank MaxInt64", func(c *Config) { c.RareEpsilon, c.RareRank = 0.5, math.MaxInt64 }},
		{"RareRank 2^32 (wraps to 0 in 32 bits)", func(c *Config) { c.RareEpsilon, c.RareRank = 0.5, 1<<32 }},
		{"RareRank = vocabulary size", func(c *Config) { c.RareEpsilon, c.RareRank = 0.5, 50000 }},
		{"class ε other than the main one, with a memo", func(c *Config) {
			c.Epsilon, c.CapitalizedEpsilon, c.MemoDir, c.MemoSecret, c.Anchor = 1, 0.5, "MEMO", make([]byte, 32), &keychain{}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := NewConfig()
			tc.mutate(cfg)
			memoDir := filepath.Join(t.TempDir(), "memo")
			if cfg.MemoDir != "" {
				cfg.MemoDir = memoDir
			}
			p, err := OpenPrivatizer(cfg)
			wantCode(t, tc.name, err, CodeInvalidArgument)
			if p != nil {
				t.Fatal("a privatizer came back with the error: fails open")
			}
			if strings.Count(err.Error(), CodeInvalidArgument) != 1 {
				t.Errorf("code not exactly once: %q", err)
			}
			if _, err := os.Stat(memoDir); err == nil {
				t.Error("a memo directory was created for a refused configuration")
			}
		})
	}
}

// TestClassesEndToEnd: through the facade, each word is billed at its
// class's ε (computed here by hand), the ledger is charged that sum times
// P_avg, and without classes the same text costs the main ε per word.
func TestClassesEndToEnd(t *testing.T) {
	// Title, default, default, number (its id, like every number's in the
	// embedded asset, is ≥ 40000 too: the smaller ε, number's, applies),
	// rare (id 48000).
	const text = "The cat has 5 recycles"
	for _, tc := range []struct {
		name  string
		set   func(*Config)
		total float64
	}{
		{"classes", func(c *Config) {
			c.CapitalizedEpsilon, c.NumberEpsilon, c.RareEpsilon, c.RareRank = 0.5, 0.25, 0.375, 40000
		}, 0.5 + 1 + 1 + 0.25 + 0.375},
		{"classes at the main ε with a memo", func(c *Config) {
			c.CapitalizedEpsilon, c.MemoDir, c.MemoSecret = 1, "MEMO", make([]byte, 32)
		}, 5},
		{"no classes (negative control)", func(c *Config) {}, 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := NewConfig()
			cfg.Mechanism, cfg.Epsilon, cfg.LedgerDir, cfg.Anchor = "1dg", 1, t.TempDir(), &keychain{}
			tc.set(cfg)
			if cfg.MemoDir != "" {
				cfg.MemoDir = t.TempDir()
			}
			p, err := OpenPrivatizer(cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close() // the memo's file: left to a finalizer, later descriptor counts would see it
			r, err := p.Privatize(text)
			if err != nil {
				t.Fatal(err)
			}
			if r.Words != 5 || r.TotalEpsilon != tc.total || r.Epsilon != 1 {
				t.Fatalf("words %d, TotalEpsilon %v, Epsilon %v; want 5, %v, 1", r.Words, r.TotalEpsilon, r.Epsilon, tc.total)
			}
			if want := tc.total * r.PAvg; math.Abs(r.UnitFree-want) > 1e-9*want || math.Abs(r.LifetimeSpent-want) > 1e-9*want {
				t.Fatalf("UnitFree %v, ledger %v; want %v", r.UnitFree, r.LifetimeSpent, want)
			}
			t.Logf("%q: TotalEpsilon %v, UnitFree %.2f, ledger %.2f", text, r.TotalEpsilon, r.UnitFree, r.LifetimeSpent)
		})
	}
	// A class with the preset as main ε.
	cfg := NewConfig()
	cfg.CapitalizedEpsilon = 0.5
	p, err := OpenPrivatizer(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if r, err := p.Privatize("Smith"); err != nil || r.TotalEpsilon != 0.5 {
		t.Fatalf("preset main ε: %+v, %v", r, err)
	}
}
