package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wordveil/wordveil/assets"
	"github.com/wordveil/wordveil/core"
	"github.com/wordveil/wordveil/internal/cli"
	"github.com/wordveil/wordveil/internal/epsrange"
	"github.com/wordveil/wordveil/internal/wva"
	"github.com/wordveil/wordveil/mobile"
)

// The three front doors of the SDK — package core (core.Open),
// the binding (package mobile) and this command (`wordveil privatize`) —
// must accept and refuse the same configurations, and report a refusal in
// the same class: package core's error category, the binding's code
// and the command's exit code name one class each. TestFrontDoorsAgree
// runs one table of configurations through all three and compares the
// classes, and on success the texts (package core and command: the same
// seed, the same text) and the accounting (all three).

// fdClass is the outcome class of a front door.
type fdClass int

const (
	fdOK           fdClass = iota // success: nil, no code, exit 0
	fdInvalid                     // ErrInvalidConfig, WV_INVALID_ARGUMENT, exit 2
	fdBudget                      // ErrBudgetExceeded, WV_BUDGET_EXCEEDED, exit 3
	fdCorruptAsset                // ErrCorruptAsset, WV_CORRUPT_ASSET, exit 1
	fdCorruptState                // ErrCorruptState, WV_CORRUPT_STATE, exit 1
	fdTooLarge                    // ErrTextTooLarge, WV_TEXT_TOO_LARGE, exit 1
	fdIO                          // a file-system error (fs.ErrNotExist, *fs.PathError), WV_IO, exit 1
	fdOther                       // anything else: never expected
)

func (c fdClass) String() string {
	return [...]string{"ok", "invalid-config", "budget-exceeded", "corrupt-asset", "corrupt-state", "text-too-large", "io", "other"}[c]
}

// exit is the command's exit code for the class; the command's exit code 1
// covers every failure that is neither a usage error nor a budget refusal.
func (c fdClass) exit() int {
	switch c {
	case fdOK:
		return 0
	case fdInvalid:
		return 2
	case fdBudget:
		return 3
	}
	return 1
}

// fdRootClass classifies an error of package core by its category.
func fdRootClass(err error) fdClass {
	for _, c := range []struct {
		category error
		class    fdClass
	}{
		{nil, fdOK},
		{core.ErrInvalidConfig, fdInvalid},
		{core.ErrBudgetExceeded, fdBudget},
		{core.ErrCorruptAsset, fdCorruptAsset},
		{core.ErrCorruptState, fdCorruptState},
		{core.ErrTextTooLarge, fdTooLarge},
	} {
		if c.category == nil && err == nil || c.category != nil && errors.Is(err, c.category) {
			return c.class
		}
	}
	var pathErr *fs.PathError
	if errors.Is(err, fs.ErrNotExist) || errors.As(err, &pathErr) {
		return fdIO
	}
	return fdOther
}

// fdMobileClass classifies an error of the binding by its code.
func fdMobileClass(err error) fdClass {
	if err == nil {
		return fdOK
	}
	switch mobile.ErrCode(err.Error()) {
	case mobile.CodeInvalidArgument:
		return fdInvalid
	case mobile.CodeBudgetExceeded:
		return fdBudget
	case mobile.CodeCorruptAsset:
		return fdCorruptAsset
	case mobile.CodeCorruptState:
		return fdCorruptState
	case mobile.CodeTextTooLarge:
		return fdTooLarge
	case mobile.CodeIO:
		return fdIO
	}
	return fdOther
}

// fdText is the one text every row privatizes: a capitalized word, a
// clitic, numbers the vocabulary has, an e-mail address (OOV), punctuation,
// and the line end the command reads it with.
const fdText = "Hello Smith, I'm at 5 Main St. with 3 cats since 1990: bob@example.com!\n"

// fdSecret seals every memo of the table; fdOtherSecret seals the memo of
// the corrupt-state row before the doors open it with fdSecret.
var (
	fdSecret      = bytes.Repeat([]byte{7}, 32)
	fdOtherSecret = bytes.Repeat([]byte{8}, 32)
)

// fdDir marks a directory field of a row's Config: each door gets a
// fresh temporary directory in its place.
const fdDir = "<temp dir>"

// fdRow is one configuration. cfg is package core's Config; the
// binding's is derived from it field by field (fdMobileConfig); cli lists
// the command's flags for every setting, written out by hand, while the
// paths and the memo secret are added from cfg (fdCLIArgs). "{key}" in cli
// is a file holding fdSecret, "{state}" a fresh directory.
type fdRow struct {
	name string
	cfg  core.Config
	cli  []string
	want fdClass
	// noMobile and noCLI, when set, say why that door cannot express the
	// row; the row then skips it.
	noMobile, noCLI string
	// prepare, if set, fills a door's memo directory before it opens.
	prepare func(t *testing.T, memoDir string)
	// long: the row only repeats a class other rows check; -short skips it.
	long bool
}

// fdBelow and fdAbove are the floats just below and above a bound.
func fdBelow(x float64) float64 { return math.Nextafter(x, math.Inf(-1)) }
func fdAbove(x float64) float64 { return math.Nextafter(x, math.Inf(1)) }

// fdF formats ε for a flag: the shortest decimal that parses back to x.
func fdF(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// fdRows is the table, over an asset of vocab words (the embedded one).
// Each row sets what its name says on top of the zero Config.
func fdRows(t *testing.T, vocab int) []fdRow {
	// The asset files: a truncated copy of the embedded asset, a missing
	// file, a directory.
	dir := t.TempDir()
	full := assets.DefaultBytes()
	truncated := filepath.Join(dir, "truncated.wva")
	if err := os.WriteFile(truncated, full[:len(full)/2], 0o600); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing.wva")
	// The ε floors: of the Hamming mechanisms (BRR, TEM-Hamming, SanText),
	// of the list mechanisms (1-DG, 1-DT) on vocab words; CusText's is
	// epsrange.Floor(1).
	hamming := epsrange.Floor(epsrange.HammingDiameter)
	lists := epsrange.Floor(epsrange.ListDiameter(vocab))
	const century = 100 * 365 * 24 * time.Hour
	anchor := &fdAnchor{}
	ledgerCaps := func(c core.Caps) core.Config { return core.Config{LedgerDir: fdDir, Caps: c} }
	classes := func(c core.Classes) core.Config { return core.Config{Classes: c} }
	memo := func(c core.Config) core.Config {
		c.MemoDir, c.MemoSecret = fdDir, fdSecret
		return c
	}
	return []fdRow{
		// The zero Config: BRR, balanced, exclusion on.
		{name: "zero", want: fdOK},

		// Mechanisms: each one offered, at its default level.
		{name: "mechanism tem-hamming", cfg: core.Config{Mechanism: core.TEMHamming}, cli: []string{"-mechanism", "tem-hamming"}, want: fdOK},
		{name: "mechanism 1dg", cfg: core.Config{Mechanism: core.OneDG}, cli: []string{"-mechanism", "1dg"}, want: fdOK},
		{name: "mechanism 1dt", cfg: core.Config{Mechanism: core.OneDT}, cli: []string{"-mechanism", "1dt"}, want: fdOK, long: true},
		{name: "mechanism santext", cfg: core.Config{Mechanism: core.SanText}, cli: []string{"-mechanism", "santext"}, want: fdOK, long: true},
		{name: "mechanism custext", cfg: core.Config{Mechanism: core.CusText, Level: core.Light}, cli: []string{"-mechanism", "custext", "-preset", "light"}, want: fdOK},
		{name: "mechanism custext, a level out of its reach", cfg: core.Config{Mechanism: core.CusText}, cli: []string{"-mechanism", "custext"}, want: fdInvalid},
		// Unknown names, and the "+" variants that keep words by construction.
		{name: "mechanism santext+", cfg: core.Config{Mechanism: "santext+"}, cli: []string{"-mechanism", "santext+"}, want: fdInvalid},
		{name: "mechanism custext+", cfg: core.Config{Mechanism: "custext+"}, cli: []string{"-mechanism", "custext+"}, want: fdInvalid},
		{name: "mechanism BRR", cfg: core.Config{Mechanism: "BRR"}, cli: []string{"-mechanism", "BRR"}, want: fdInvalid},
		{name: "mechanism ' brr'", cfg: core.Config{Mechanism: " brr"}, cli: []string{"-mechanism", " brr"}, want: fdInvalid, long: true},
		// TEM over the asset's Euclidean lists is not offered, at any ε
		// (1-DT is the device's TEM over precomputed lists).
		{name: "tem at a level", cfg: core.Config{Mechanism: "tem"}, cli: []string{"-mechanism", "tem"}, want: fdInvalid},
		{name: "tem ε=1", cfg: core.Config{Mechanism: "tem", Epsilon: 1}, cli: []string{"-mechanism", "tem", "-epsilon", "1"}, want: fdInvalid},
		{name: "tem ε=10", cfg: core.Config{Mechanism: "tem", Epsilon: 10}, cli: []string{"-mechanism", "tem", "-epsilon", "10"}, want: fdInvalid},

		// Levels.
		{name: "level strong", cfg: core.Config{Level: core.Strong}, cli: []string{"-preset", "strong"}, want: fdOK},
		// Level and ε: the level would be ignored. The binding's default
		// preset is balanced (NewConfig), which it reads beside Epsilon as
		// no level.
		{name: "level strong and ε", cfg: core.Config{Level: core.Strong, Epsilon: 0.3}, cli: []string{"-preset", "strong", "-epsilon", "0.3"}, want: fdInvalid},
		{name: "level balanced and ε", cfg: core.Config{Level: core.Balanced, Epsilon: 0.3}, cli: []string{"-preset", "balanced", "-epsilon", "0.3"}, want: fdInvalid,
			noMobile: "the binding cannot tell NewConfig's default preset, balanced, from one set: with Epsilon it means no level"},
		{name: "level light 1dg", cfg: core.Config{Mechanism: core.OneDG, Level: core.Light}, cli: []string{"-mechanism", "1dg", "-preset", "light"}, want: fdOK, long: true},
		{name: "level Strong", cfg: core.Config{Level: "Strong"}, cli: []string{"-preset", "Strong"}, want: fdInvalid},
		{name: "level maximum", cfg: core.Config{Level: "maximum"}, cli: []string{"-preset", "maximum"}, want: fdInvalid, long: true},

		// ε: each mechanism's floor, the float just below it, the ceiling
		// 10^6, saturation with and without the allow flag, non-numbers.
		{name: "brr ε at floor", cfg: core.Config{Epsilon: hamming}, cli: []string{"-epsilon", fdF(hamming)}, want: fdOK},
		{name: "brr ε below floor", cfg: core.Config{Epsilon: fdBelow(hamming)}, cli: []string{"-epsilon", fdF(fdBelow(hamming))}, want: fdInvalid},
		{name: "tem-hamming ε below floor", cfg: core.Config{Mechanism: core.TEMHamming, Epsilon: fdBelow(hamming)}, cli: []string{"-mechanism", "tem-hamming", "-epsilon", fdF(fdBelow(hamming))}, want: fdInvalid, long: true},
		{name: "santext ε below floor", cfg: core.Config{Mechanism: core.SanText, Epsilon: fdBelow(hamming)}, cli: []string{"-mechanism", "santext", "-epsilon", fdF(fdBelow(hamming))}, want: fdInvalid, long: true},
		{name: "1dg ε at floor", cfg: core.Config{Mechanism: core.OneDG, Epsilon: lists}, cli: []string{"-mechanism", "1dg", "-epsilon", fdF(lists)}, want: fdOK},
		{name: "1dg ε below floor", cfg: core.Config{Mechanism: core.OneDG, Epsilon: fdBelow(lists)}, cli: []string{"-mechanism", "1dg", "-epsilon", fdF(fdBelow(lists))}, want: fdInvalid},
		{name: "1dt ε below floor", cfg: core.Config{Mechanism: core.OneDT, Epsilon: fdBelow(lists)}, cli: []string{"-mechanism", "1dt", "-epsilon", fdF(fdBelow(lists))}, want: fdInvalid, long: true},
		{name: "custext ε below floor", cfg: core.Config{Mechanism: core.CusText, Epsilon: fdBelow(epsrange.Floor(1))}, cli: []string{"-mechanism", "custext", "-epsilon", fdF(fdBelow(epsrange.Floor(1)))}, want: fdInvalid},
		{name: "brr ε 10 (not saturated)", cfg: core.Config{Epsilon: 10}, cli: []string{"-epsilon", "10"}, want: fdOK, long: true},
		{name: "brr ε 11 saturated", cfg: core.Config{Epsilon: 11}, cli: []string{"-epsilon", "11"}, want: fdInvalid},
		{name: "brr ε 11 saturated, allowed", cfg: core.Config{Epsilon: 11, AllowSaturatedEpsilon: true}, cli: []string{"-epsilon", "11", "-allow-saturated"}, want: fdOK},
		{name: "1dg ε 1e6 saturated", cfg: core.Config{Mechanism: core.OneDG, Epsilon: 1e6}, cli: []string{"-mechanism", "1dg", "-epsilon", "1e6"}, want: fdInvalid, long: true},
		{name: "ε 1e6 allowed", cfg: core.Config{Epsilon: 1e6, AllowSaturatedEpsilon: true}, cli: []string{"-epsilon", "1e6", "-allow-saturated"}, want: fdOK},
		{name: "ε above 1e6 allowed", cfg: core.Config{Epsilon: fdAbove(1e6), AllowSaturatedEpsilon: true}, cli: []string{"-epsilon", fdF(fdAbove(1e6)), "-allow-saturated"}, want: fdInvalid},
		{name: "ε negative", cfg: core.Config{Epsilon: -0.5}, cli: []string{"-epsilon", "-0.5"}, want: fdInvalid},
		{name: "ε NaN", cfg: core.Config{Epsilon: math.NaN()}, cli: []string{"-epsilon", "NaN"}, want: fdInvalid},
		{name: "ε +Inf allowed", cfg: core.Config{Epsilon: math.Inf(1), AllowSaturatedEpsilon: true}, cli: []string{"-epsilon", "+Inf", "-allow-saturated"}, want: fdInvalid, long: true},

		// Word classes.
		{name: "class capitalized", cfg: classes(core.Classes{Capitalized: 0.5}), cli: []string{"-class-epsilon", "capitalized=0.5"}, want: fdOK},
		{name: "class rare, rank 1", cfg: classes(core.Classes{Rare: 0.3, RareRank: 1}), cli: []string{"-class-epsilon", "rare=0.3", "-rare-rank", "1"}, want: fdOK},
		{name: "class rare, rank vocabulary−1", cfg: classes(core.Classes{Rare: 0.3, RareRank: vocab - 1}), cli: []string{"-class-epsilon", "rare=0.3", "-rare-rank", strconv.Itoa(vocab - 1)}, want: fdOK, long: true},
		{name: "class rare, rank vocabulary", cfg: classes(core.Classes{Rare: 0.3, RareRank: vocab}), cli: []string{"-class-epsilon", "rare=0.3", "-rare-rank", strconv.Itoa(vocab)}, want: fdInvalid},
		{name: "class rare, rank −1", cfg: classes(core.Classes{Rare: 0.3, RareRank: -1}), cli: []string{"-class-epsilon", "rare=0.3", "-rare-rank", "-1"}, want: fdInvalid, long: true},
		{name: "class rare without rank", cfg: classes(core.Classes{Rare: 0.3}), cli: []string{"-class-epsilon", "rare=0.3"}, want: fdInvalid},
		{name: "rank without class rare", cfg: classes(core.Classes{RareRank: 5}), cli: []string{"-rare-rank", "5"}, want: fdInvalid},
		{name: "class ε at brr floor", cfg: classes(core.Classes{Capitalized: hamming}), cli: []string{"-class-epsilon", "capitalized=" + fdF(hamming)}, want: fdOK, long: true},
		{name: "class ε 1e6 allowed", cfg: core.Config{Classes: core.Classes{Number: 1e6}, AllowSaturatedEpsilon: true}, cli: []string{"-class-epsilon", "number=1e6", "-allow-saturated"}, want: fdOK, long: true},
		{name: "class ε NaN", cfg: classes(core.Classes{Number: math.NaN()}), cli: []string{"-class-epsilon", "number=NaN"}, want: fdInvalid},
		{name: "class ε negative", cfg: classes(core.Classes{Number: -1}), cli: []string{"-class-epsilon", "number=-1"}, want: fdInvalid, long: true},
		{name: "class ε above 1e6", cfg: classes(core.Classes{Number: 2e6}), cli: []string{"-class-epsilon", "number=2e6"}, want: fdInvalid, long: true},
		{name: "class ε below brr floor", cfg: classes(core.Classes{Capitalized: fdBelow(hamming)}), cli: []string{"-class-epsilon", "capitalized=" + fdF(fdBelow(hamming))}, want: fdInvalid},
		{name: "class ε saturated", cfg: classes(core.Classes{Capitalized: 11}), cli: []string{"-class-epsilon", "capitalized=11"}, want: fdInvalid},
		{name: "class ε saturated, allowed", cfg: core.Config{Classes: core.Classes{Capitalized: 11}, AllowSaturatedEpsilon: true}, cli: []string{"-class-epsilon", "capitalized=11", "-allow-saturated"}, want: fdOK, long: true},

		// Text options.
		{name: "oov placeholder", cfg: core.Config{OOV: core.Placeholder, Placeholder: "#"}, cli: []string{"-oov", "placeholder", "-placeholder", "#"}, want: fdOK},
		{name: "oov unknown", cfg: core.Config{OOV: "drop"}, cli: []string{"-oov", "drop"}, want: fdInvalid},
		{name: "numbers replace, punctuation, excluded outputs", cfg: core.Config{Numbers: core.ReplaceNumbers, PrivatizePunctuation: true, AllowExcludedOutputs: true}, cli: []string{"-numbers", "replace", "-punct", "-all-outputs"}, want: fdOK},
		{name: "numbers unknown", cfg: core.Config{Numbers: "keep"}, cli: []string{"-numbers", "keep"}, want: fdInvalid},
		{name: "max text bytes 2^30", cfg: core.Config{MaxTextBytes: 1 << 30}, cli: []string{"-max-line", strconv.Itoa(1 << 30)}, want: fdOK},
		{name: "max text bytes 2^30+1", cfg: core.Config{MaxTextBytes: 1<<30 + 1}, cli: []string{"-max-line", strconv.Itoa(1<<30 + 1)}, want: fdInvalid},
		{name: "max text bytes −1", cfg: core.Config{MaxTextBytes: -1}, cli: []string{"-max-line", "-1"}, want: fdInvalid, long: true},
		{name: "max text bytes below the text", cfg: core.Config{MaxTextBytes: 16}, cli: []string{"-max-line", "16"}, want: fdTooLarge},

		// Ledger and caps.
		{name: "ledger, no caps", cfg: ledgerCaps(core.Caps{}), want: fdOK},
		{name: "ledger, largest caps and period", cfg: ledgerCaps(core.Caps{Lifetime: 1e6, PerPeriod: 1e6, Period: century}), cli: []string{"-cap", "1e6", "-cap-period", "1e6", "-period", century.String()}, want: fdOK},
		{name: "ledger, per-period cap, default period", cfg: ledgerCaps(core.Caps{PerPeriod: 1e6}), cli: []string{"-cap-period", "1e6"}, want: fdOK, long: true},
		{name: "ledger, period 1s", cfg: ledgerCaps(core.Caps{PerPeriod: 1e6, Period: time.Second}), cli: []string{"-cap-period", "1e6", "-period", "1s"}, want: fdOK, long: true},
		{name: "ledger, period 1ns", cfg: ledgerCaps(core.Caps{PerPeriod: 1e6, Period: time.Nanosecond}), cli: []string{"-cap-period", "1e6", "-period", "1ns"}, want: fdOK,
			noMobile: "the binding's PeriodSeconds counts whole seconds", long: true},
		{name: "ledger, period above 100 years", cfg: ledgerCaps(core.Caps{PerPeriod: 1, Period: century + time.Second}), cli: []string{"-cap-period", "1", "-period", (century + time.Second).String()}, want: fdInvalid},
		{name: "ledger, negative period", cfg: ledgerCaps(core.Caps{Lifetime: 1, Period: -time.Second}), cli: []string{"-cap", "1", "-period", "-1s"}, want: fdInvalid},
		{name: "ledger, cap NaN", cfg: ledgerCaps(core.Caps{Lifetime: math.NaN()}), cli: []string{"-cap", "NaN"}, want: fdInvalid},
		{name: "ledger, cap negative", cfg: ledgerCaps(core.Caps{PerPeriod: -1}), cli: []string{"-cap-period", "-1"}, want: fdInvalid},
		{name: "ledger, cap +Inf", cfg: ledgerCaps(core.Caps{Lifetime: math.Inf(1)}), cli: []string{"-cap", "+Inf"}, want: fdInvalid, long: true},
		{name: "ledger, budget exceeded", cfg: ledgerCaps(core.Caps{Lifetime: 1e-9}), cli: []string{"-cap", "1e-9"}, want: fdBudget},
		{name: "cap without ledger", cfg: core.Config{Caps: core.Caps{Lifetime: 1}}, cli: []string{"-cap", "1"}, want: fdInvalid},
		// Caps in words (fdText has 13 words for the mechanism).
		{name: "ledger, words cap fits", cfg: ledgerCaps(core.Caps{LifetimeWords: 13}), cli: []string{"-cap-words", "13"}, want: fdOK},
		{name: "ledger, words cap one short", cfg: ledgerCaps(core.Caps{LifetimeWords: 12}), cli: []string{"-cap-words", "12"}, want: fdBudget},
		{name: "ledger, words per period fits", cfg: ledgerCaps(core.Caps{PerPeriodWords: 13, Period: time.Hour}), cli: []string{"-cap-period-words", "13", "-period", "1h"}, want: fdOK, long: true},
		{name: "ledger, words per period one short", cfg: ledgerCaps(core.Caps{PerPeriodWords: 12}), cli: []string{"-cap-period-words", "12"}, want: fdBudget},
		{name: "ledger, words cap 10^9", cfg: ledgerCaps(core.Caps{LifetimeWords: 1e9}), cli: []string{"-cap-words", "1000000000"}, want: fdOK, long: true},
		{name: "ledger, words cap negative", cfg: ledgerCaps(core.Caps{PerPeriodWords: -1}), cli: []string{"-cap-period-words", "-1"}, want: fdInvalid},
		{name: "ledger, words and loss cap", cfg: ledgerCaps(core.Caps{LifetimeWords: 5, Lifetime: 1}), cli: []string{"-cap-words", "5", "-cap", "1"}, want: fdInvalid},
		{name: "ledger, words cap, custext", cfg: core.Config{Mechanism: core.CusText, Level: core.Light, LedgerDir: fdDir, Caps: core.Caps{LifetimeWords: 5}}, cli: []string{"-mechanism", "custext", "-preset", "light", "-cap-words", "5"}, want: fdInvalid},
		{name: "words cap without ledger", cfg: core.Config{Caps: core.Caps{LifetimeWords: 5}}, cli: []string{"-cap-words", "5"}, want: fdInvalid},
		{name: "period without ledger", cfg: core.Config{Caps: core.Caps{Period: time.Hour}}, cli: []string{"-period", "1h"}, want: fdInvalid, long: true},

		// Memo.
		{name: "memo", cfg: memo(core.Config{}), want: fdOK},
		{name: "memo without secret", cfg: core.Config{MemoDir: fdDir}, want: fdInvalid,
			noCLI: "the command always has a memo key: -memo-key, else one it creates in -state"},
		{name: "memo secret 31 bytes", cfg: core.Config{MemoDir: fdDir, MemoSecret: fdSecret[:31]}, want: fdInvalid,
			noCLI: "the command reads the secret from a key file whose length it checks itself"},
		{name: "memo secret without memo", cfg: core.Config{MemoSecret: fdSecret}, cli: []string{"-memo-key", "{key}"}, want: fdInvalid},
		{name: "memo, class ε = main ε", cfg: memo(core.Config{Epsilon: 0.5, Classes: core.Classes{Capitalized: 0.5}}), cli: []string{"-epsilon", "0.5", "-class-epsilon", "capitalized=0.5"}, want: fdOK, long: true},
		{name: "memo, class ε ≠ main ε", cfg: memo(core.Config{Epsilon: 0.5, Classes: core.Classes{Capitalized: 0.3}}), cli: []string{"-epsilon", "0.5", "-class-epsilon", "capitalized=0.3"}, want: fdInvalid},
		{name: "memo, class ε ≠ level's ε", cfg: memo(core.Config{Classes: core.Classes{Capitalized: 0.3}}), cli: []string{"-class-epsilon", "capitalized=0.3"}, want: fdInvalid, long: true},
		{name: "memo sealed with another secret", cfg: memo(core.Config{}), want: fdCorruptState, prepare: fdSealMemo},

		// Anchor.
		{name: "anchor without dirs", cfg: core.Config{Anchor: anchor}, cli: []string{"-state", "{state}"}, want: fdInvalid},
		{name: "anchor with ledger", cfg: core.Config{Anchor: anchor, LedgerDir: fdDir}, want: fdOK, long: true},

		// Asset files.
		{name: "asset file missing", cfg: core.Config{AssetFile: missing}, want: fdIO},
		{name: "asset file truncated", cfg: core.Config{AssetFile: truncated}, want: fdCorruptAsset},
		// Not a corrupt asset: a path that names no regular file is a bad
		// argument (package core files wva.ErrNotRegular under
		// ErrInvalidConfig).
		{name: "asset file a directory", cfg: core.Config{AssetFile: dir}, want: fdInvalid},
		{name: "asset bytes truncated", cfg: core.Config{Asset: full[:len(full)-1]}, want: fdCorruptAsset,
			noCLI: "the command reads an asset from a file only (-asset)"},
	}
}

// fdSealMemo fills memoDir with a memo sealed with fdOtherSecret, which
// the doors then open with fdSecret.
func fdSealMemo(t *testing.T, memoDir string) {
	t.Helper()
	p, err := core.Open(core.Config{MemoDir: memoDir, MemoSecret: fdOtherSecret, Anchor: core.NoAnchor})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Privatize(fdText); err != nil {
		t.Fatal(err)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
}

// fdAnchor is an in-memory Anchor for package core and the binding
// (the same method set). Each door gets a fresh one.
type fdAnchor struct {
	mu sync.Mutex
	m  map[string][]byte
}

func (a *fdAnchor) Load(name string) ([]byte, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]byte(nil), a.m[name]...), nil
}

func (a *fdAnchor) Store(name string, state []byte) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.m == nil {
		a.m = map[string][]byte{}
	}
	a.m[name] = append([]byte(nil), state...)
	return nil
}

// fdOutcome is what a door did with a row.
type fdOutcome struct {
	class fdClass // package core and the binding
	exit  int     // the command: its exit code, which names fewer classes (fdClass.exit)
	err   error   // the error, or the command's stderr
	text  string
	acc   fdAccounting
}

// fdAccounting is the part of the accounting every door reports.
type fdAccounting struct {
	Words, OOV   int
	Epsilon      float64
	Metric       string
	TotalEpsilon float64
}

// fdFresh returns cfg with each directory marker replaced by a new
// temporary directory (filled by prepare) and a fresh anchor.
func fdFresh(t *testing.T, r fdRow) core.Config {
	cfg := r.cfg
	if cfg.LedgerDir == fdDir {
		cfg.LedgerDir = t.TempDir()
	}
	if cfg.MemoDir == fdDir {
		cfg.MemoDir = t.TempDir()
		if r.prepare != nil {
			r.prepare(t, cfg.MemoDir)
		}
	}
	// A fresh anchor per door and row, also where the row gives none
	// (package core would use its default, the binding refuses): memos
	// of one secret and identity share an anchor name wherever they
	// are, so rows sharing one store would see each other's memos as
	// copies. Package core's default anchor is tested on its own
	// (core/state_test.go), as is the binding's refusal
	// (mobile/anchor_test.go).
	if cfg.Anchor != nil || cfg.LedgerDir != "" || cfg.MemoDir != "" {
		cfg.Anchor = &fdAnchor{}
	}
	return cfg
}

func fdRoot(t *testing.T, r fdRow) fdOutcome {
	p, err := core.Open(fdFresh(t, r))
	if err != nil {
		return fdOutcome{class: fdRootClass(err), err: err}
	}
	defer p.Close()
	if err := core.UseEvaluationSeed(p, 9); err != nil {
		t.Fatal(err)
	}
	res, err := p.Privatize(fdText)
	if err != nil {
		return fdOutcome{class: fdRootClass(err), err: err}
	}
	a := res.Accounting
	return fdOutcome{text: res.Text, acc: fdAccounting{a.Words, a.OOV, a.Epsilon, a.Metric, a.TotalEpsilon}}
}

// fdMobileConfig is the binding's Config equivalent to c, field by field.
func fdMobileConfig(t *testing.T, c core.Config) *mobile.Config {
	if c.Caps.Period%time.Second != 0 {
		t.Fatalf("Caps.Period %v is not a whole number of seconds: the binding cannot express it", c.Caps.Period)
	}
	m := &mobile.Config{
		Mechanism: string(c.Mechanism), Preset: string(c.Level), Epsilon: c.Epsilon,
		RareEpsilon: c.Classes.Rare, RareRank: int64(c.Classes.RareRank),
		CapitalizedEpsilon: c.Classes.Capitalized, NumberEpsilon: c.Classes.Number,
		Numbers: string(c.Numbers), OOV: string(c.OOV), Placeholder: c.Placeholder,
		PrivatizePunctuation: c.PrivatizePunctuation, MaxTextBytes: int64(c.MaxTextBytes),
		LedgerDir: c.LedgerDir, CapLifetime: c.Caps.Lifetime, CapPerPeriod: c.Caps.PerPeriod,
		CapLifetimeWords: int64(c.Caps.LifetimeWords), CapPerPeriodWords: int64(c.Caps.PerPeriodWords),
		PeriodSeconds: int64(c.Caps.Period / time.Second), MemoDir: c.MemoDir,
		AllowSaturatedEpsilon: c.AllowSaturatedEpsilon, AllowExcludedOutputs: c.AllowExcludedOutputs,
		MemoSecret: c.MemoSecret,
	}
	if c.Anchor != nil {
		m.Anchor = c.Anchor.(*fdAnchor)
	}
	return m
}

func fdMobile(t *testing.T, r fdRow) fdOutcome {
	cfg := fdFresh(t, r)
	mc := fdMobileConfig(t, cfg)
	var p *mobile.Privatizer
	var err error
	switch {
	case cfg.AssetFile != "":
		p, err = mobile.OpenPrivatizerFromFile(cfg.AssetFile, mc)
	case cfg.Asset != nil:
		p, err = mobile.OpenPrivatizerFromAsset(cfg.Asset, mc)
	default:
		p, err = mobile.OpenPrivatizer(mc)
	}
	if err != nil {
		return fdOutcome{class: fdMobileClass(err), err: err}
	}
	defer p.Close()
	res, err := p.Privatize(fdText)
	if err != nil {
		return fdOutcome{class: fdMobileClass(err), err: err}
	}
	return fdOutcome{text: res.Text, acc: fdAccounting{int(res.Words), int(res.OOV), res.Epsilon, res.Metric, res.TotalEpsilon}}
}

// fdCLIArgs is the command line for r: `privatize -seed 9 -json`, the
// row's flags ("{key}" and "{state}" filled in), then the asset file and
// the memo and ledger directories from cfg, with -memo-key (a file holding
// cfg's secret, outside the memo directory) and -state.
func fdCLIArgs(t *testing.T, r fdRow, cfg core.Config) []string {
	writeKey := func(secret []byte) string {
		p := filepath.Join(t.TempDir(), "memo.key")
		if err := os.WriteFile(p, secret, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	args := []string{"privatize", "-seed", "9", "-json"}
	for _, a := range r.cli {
		switch a {
		case "{key}":
			a = writeKey(fdSecret)
		case "{state}":
			a = t.TempDir()
		}
		args = append(args, a)
	}
	if cfg.AssetFile != "" {
		args = append(args, "-asset", cfg.AssetFile)
	}
	if cfg.LedgerDir != "" {
		args = append(args, "-ledger", cfg.LedgerDir)
	}
	if cfg.MemoDir != "" {
		args = append(args, "-memo", cfg.MemoDir, "-memo-key", writeKey(cfg.MemoSecret))
	}
	if cfg.LedgerDir != "" || cfg.MemoDir != "" {
		args = append(args, "-state", t.TempDir())
	}
	return args
}

func fdCLI(t *testing.T, r fdRow) (fdOutcome, []string) {
	args := fdCLIArgs(t, r, fdFresh(t, r))
	var out, errb bytes.Buffer
	err := run(args, strings.NewReader(fdText), &out, &errb)
	o := fdOutcome{err: errors.New(strings.TrimSpace(errb.String()))}
	if err != nil {
		o.err = err
	}
	o.exit = cli.ExitCode(err)
	if o.exit == 0 {
		var rec struct {
			Text         string   `json:"text"`
			Words        int      `json:"words"`
			OOV          int      `json:"oov"`
			Epsilon      float64  `json:"epsilon"`
			Metric       string   `json:"metric"`
			TotalEpsilon *float64 `json:"totalEpsilon"`
		}
		if n := strings.Count(out.String(), "\n"); n != 1 {
			t.Fatalf("%q: %d records for one line: %q", args, n, out.String())
		}
		if err := json.Unmarshal(out.Bytes(), &rec); err != nil || rec.TotalEpsilon == nil {
			t.Fatalf("%q: record %q: %v", args, out.String(), err)
		}
		o.text, o.acc = rec.Text, fdAccounting{rec.Words, rec.OOV, rec.Epsilon, rec.Metric, *rec.TotalEpsilon}
	}
	return o, args
}

// TestFrontDoorsAgree runs each row through package core, the binding
// and the command, and checks that each door reports the row's class, and
// on success the same text (package core and command, seeded alike) and
// the same accounting (all three).
func TestFrontDoorsAgree(t *testing.T) {
	a, err := wva.Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range fdRows(t, a.Len()) {
		t.Run(r.name, func(t *testing.T) {
			if r.long && testing.Short() {
				t.Skip("repeats a class other rows check (-short)")
			}
			root := fdRoot(t, r)
			if root.class != r.want {
				t.Errorf("package core: %v (%v), want %v", root.class, root.err, r.want)
			}
			if r.noMobile != "" {
				t.Logf("binding skipped: %s", r.noMobile)
			} else {
				m := fdMobile(t, r)
				if m.class != r.want {
					t.Errorf("binding: %v (%v), want %v", m.class, m.err, r.want)
				} else if r.want == fdOK && m.acc != root.acc {
					t.Errorf("binding accounting %+v, package core %+v", m.acc, root.acc)
				}
			}
			if r.noCLI != "" {
				t.Logf("command skipped: %s", r.noCLI)
				return
			}
			c, args := fdCLI(t, r)
			if c.exit != r.want.exit() {
				t.Errorf("command %q: exit %d (%v), want %d (%v)", args[1:], c.exit, c.err, r.want.exit(), r.want)
				return
			}
			if r.want == fdOK {
				if c.text != root.text {
					t.Errorf("command text %q, package core %q (same seed)", c.text, root.text)
				}
				if c.acc != root.acc {
					t.Errorf("command accounting %+v, package core %+v", c.acc, root.acc)
				}
			}
		})
	}
}
