package mobile

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wordveil/wordveil/internal/ledger"
)

// TestInvalidSettings: each bad setting is refused through the facade with
// its code, before anything is opened or written (no ledger file appears),
// and the message carries its code once. None fails open.
func TestInvalidSettings(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	withLedger := func(f func(*Config)) func(*Config) {
		return func(c *Config) { c.LedgerDir, c.Anchor = "LEDGER", &keychain{}; f(c) }
	}
	for _, tc := range []struct {
		name   string
		mutate func(*Config)
		code   string
	}{
		{"epsilon -1", func(c *Config) { c.Epsilon = -1 }, CodeInvalidArgument},
		{"epsilon NaN", func(c *Config) { c.Epsilon = nan }, CodeInvalidArgument},
		{"epsilon +Inf", func(c *Config) { c.Epsilon = inf }, CodeInvalidArgument},
		{"epsilon -Inf", func(c *Config) { c.Epsilon = -inf }, CodeInvalidArgument},
		{"MaxTextBytes -1", func(c *Config) { c.MaxTextBytes = -1 }, CodeInvalidArgument},
		{"MaxTextBytes 2^30+1", func(c *Config) { c.MaxTextBytes = 1<<30 + 1 }, CodeInvalidArgument},
		{"MaxTextBytes MaxInt64", func(c *Config) { c.MaxTextBytes = math.MaxInt64 }, CodeInvalidArgument},
		{"MaxTextBytes MinInt64", func(c *Config) { c.MaxTextBytes = math.MinInt64 }, CodeInvalidArgument},
		// 18446744074 s × 10^9 wraps around int64 nanoseconds to ≈ 0.3 s: the
		// per-period cap would have stopped capping.
		{"PeriodSeconds 18446744074", withLedger(func(c *Config) { c.CapPerPeriod, c.PeriodSeconds = 1, 18446744074 }), CodeInvalidArgument},
		{"PeriodSeconds MaxInt64", withLedger(func(c *Config) { c.CapPerPeriod, c.PeriodSeconds = 1, math.MaxInt64 }), CodeInvalidArgument},
		{"PeriodSeconds -1", withLedger(func(c *Config) { c.CapPerPeriod, c.PeriodSeconds = 1, -1 }), CodeInvalidArgument},
		{"PeriodSeconds MinInt64", withLedger(func(c *Config) { c.CapPerPeriod, c.PeriodSeconds = 1, math.MinInt64 }), CodeInvalidArgument},
		{"PeriodSeconds 100 years + 1", withLedger(func(c *Config) { c.CapPerPeriod, c.PeriodSeconds = 1, maxPeriodSeconds+1 }), CodeInvalidArgument},
		{"PeriodSeconds overflow, no cap", withLedger(func(c *Config) { c.PeriodSeconds = 18446744074 }), CodeInvalidArgument},
		{"PeriodSeconds overflow, no ledger", func(c *Config) { c.PeriodSeconds = 18446744074 }, CodeInvalidArgument},
		{"CapLifetime without ledger", func(c *Config) { c.CapLifetime = 1 }, CodeInvalidArgument},
		{"CapPerPeriod without ledger", func(c *Config) { c.CapPerPeriod, c.PeriodSeconds = 1, 3600 }, CodeInvalidArgument},
		{"CapLifetime -1", withLedger(func(c *Config) { c.CapLifetime = -1 }), CodeInvalidArgument},
		{"CapLifetime NaN", withLedger(func(c *Config) { c.CapLifetime = nan }), CodeInvalidArgument},
		{"CapLifetime +Inf", withLedger(func(c *Config) { c.CapLifetime = inf }), CodeInvalidArgument},
		{"CapPerPeriod -1", withLedger(func(c *Config) { c.CapPerPeriod = -1 }), CodeInvalidArgument},
		{"CapPerPeriod NaN", withLedger(func(c *Config) { c.CapPerPeriod = nan }), CodeInvalidArgument},
		{"CapPerPeriod +Inf", withLedger(func(c *Config) { c.CapPerPeriod = inf }), CodeInvalidArgument},
		{"CapPerPeriod -Inf", withLedger(func(c *Config) { c.CapPerPeriod = -inf }), CodeInvalidArgument},
		{"NaN cap without ledger", func(c *Config) { c.CapLifetime = nan }, CodeInvalidArgument},
		{"CapLifetimeWords without ledger", func(c *Config) { c.CapLifetimeWords = 5 }, CodeInvalidArgument},
		{"CapPerPeriodWords without ledger", func(c *Config) { c.CapPerPeriodWords = 5 }, CodeInvalidArgument},
		{"CapLifetimeWords -1", withLedger(func(c *Config) { c.CapLifetimeWords = -1 }), CodeInvalidArgument},
		{"CapPerPeriodWords -1", withLedger(func(c *Config) { c.CapPerPeriodWords = -1 }), CodeInvalidArgument},
		{"CapLifetimeWords 2^40 + 1", withLedger(func(c *Config) { c.CapLifetimeWords = 1<<40 + 1 }), CodeInvalidArgument},
		{"CapPerPeriodWords MaxInt64", withLedger(func(c *Config) { c.CapPerPeriodWords = math.MaxInt64 }), CodeInvalidArgument},
		{"CapLifetimeWords with CapLifetime", withLedger(func(c *Config) { c.CapLifetimeWords, c.CapLifetime = 5, 1 }), CodeInvalidArgument},
		{"CapPerPeriodWords with CapPerPeriod", withLedger(func(c *Config) { c.CapPerPeriodWords, c.CapPerPeriod = 5, 1 }), CodeInvalidArgument},
		{"CapLifetimeWords with custext", withLedger(func(c *Config) { c.Mechanism, c.CapLifetimeWords = "custext", 5 }), CodeInvalidArgument},
		{"unknown mechanism", func(c *Config) { c.Mechanism = "vickrey" }, CodeInvalidArgument},
		{"unknown preset", func(c *Config) { c.Preset = "paranoid" }, CodeInvalidArgument},
		{"preset strong with ε", func(c *Config) { c.Preset, c.Epsilon = "strong", 0.3 }, CodeInvalidArgument},
		{"preset light with ε", func(c *Config) { c.Preset, c.Epsilon = "light", 0.3 }, CodeInvalidArgument},
		{"unknown OOV", func(c *Config) { c.OOV = "keep" }, CodeInvalidArgument},
		{"tem (Euclidean lists, not offered) at a preset", func(c *Config) { c.Mechanism = "tem" }, CodeInvalidArgument},
		{"tem (Euclidean lists, not offered) at ε 10", func(c *Config) { c.Mechanism, c.Epsilon = "tem", 10 }, CodeInvalidArgument},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := NewConfig()
			tc.mutate(cfg)
			dir := t.TempDir()
			if cfg.LedgerDir != "" {
				cfg.LedgerDir = filepath.Join(dir, "ledger")
			}
			p, err := OpenPrivatizer(cfg)
			wantCode(t, tc.name, err, tc.code)
			if p != nil {
				t.Fatalf("a privatizer came back with the error: fails open")
			}
			if strings.Count(err.Error(), tc.code) != 1 {
				t.Errorf("code not exactly once: %q", err)
			}
			if _, err := os.Stat(filepath.Join(dir, "ledger", ledger.FileName)); err == nil {
				t.Errorf("a ledger file was written for a refused configuration")
			}
		})
	}
}

// TestBoundarySettingsWork is the positive control of TestInvalidSettings:
// the extreme valid values are accepted, and a per-period cap with the
// longest period really caps.
func TestBoundarySettingsWork(t *testing.T) {
	cfg := NewConfig()
	cfg.Mechanism = "1dg"
	p0, err := OpenPrivatizer(cfg)
	if err != nil {
		t.Fatal(err)
	}
	r, err := p0.Privatize("the cat")
	if err != nil {
		t.Fatal(err)
	}
	cfg.MaxTextBytes = 1 << 30
	cfg.LedgerDir, cfg.Anchor = t.TempDir(), &keychain{}
	cfg.PeriodSeconds = maxPeriodSeconds
	cfg.CapPerPeriod = 1.5 * r.UnitFree
	p, err := OpenPrivatizer(cfg)
	if err != nil {
		t.Fatalf("boundary configuration refused: %v", err)
	}
	if _, err := p.Privatize("the cat"); err != nil {
		t.Fatalf("first call: %v", err)
	}
	r2, err := p.Privatize("the cat")
	wantCode(t, "second call over the per-period cap", err, CodeBudgetExceeded)
	if r2 != nil {
		t.Error("a Result came back with the refusal")
	}
	cfg.PeriodSeconds = 0 // 0: one day
	if _, err := OpenPrivatizer(cfg); err != nil {
		t.Fatalf("PeriodSeconds 0: %v", err)
	}
}

// TestDeniabilityBounds: the work words·draws is bounded, and the check of
// the product cannot overflow.
func TestDeniabilityBounds(t *testing.T) {
	cfg := NewConfig()
	cfg.Mechanism = "1dg"
	p, err := OpenPrivatizer(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range [][2]int64{{0, 1}, {1, 0}, {-1, 5}, {10001, 1}, {1, 10001}, {1001, 1000},
		{10000, 10000}, {math.MaxInt64, math.MaxInt64}, {math.MinInt64, 2}} {
		d, err := p.Deniability(a[0], a[1])
		wantCode(t, "Deniability", err, CodeInvalidArgument)
		if d != nil {
			t.Errorf("Deniability(%d, %d) returned a result with the error", a[0], a[1])
		}
	}
	for _, a := range [][2]int64{{1, 1}, {10000, 1}, {1, 10000}, {50, 40}} {
		d, err := p.Deniability(a[0], a[1])
		if err != nil || d.Words != a[0] || d.Draws != a[1] || d.MeanS < 1 {
			t.Errorf("Deniability(%d, %d) = %+v, %v", a[0], a[1], d, err)
		}
	}
}

// TestEpsilonBesideDefaultPreset is the positive control of the "preset
// with ε" rows of TestInvalidSettings: NewConfig's preset (balanced), or
// none, beside Epsilon opens at that ε.
func TestEpsilonBesideDefaultPreset(t *testing.T) {
	for _, preset := range []string{"balanced", ""} {
		cfg := NewConfig()
		cfg.Preset, cfg.Epsilon = preset, 0.3
		p, err := OpenPrivatizer(cfg)
		if err != nil {
			t.Fatalf("preset %q with ε 0.3: %v", preset, err)
		}
		if eps := p.Epsilon(); eps != 0.3 {
			t.Errorf("preset %q with ε 0.3: opened at ε %v", preset, eps)
		}
		if err := p.Close(); err != nil {
			t.Fatal(err)
		}
	}
}
