package core

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// costTexts are adversarial for the count: clitics, hyphens, numbers,
// e-mail addresses, URLs, emoji, mixed case, stand-ins, very long words,
// whitespace only, punctuation only and invalid UTF-8.
var costTexts = []string{
	"I'm sure you don't want it, y'all can't say it won't work.",
	"I’m sure y’all don’t — curly apostrophes, DON'T and Don't.",
	"A well-known e-mail, state-of-the-art, x-ray, -dash- and a--b - c.",
	"In 1990 I paid 42 dollars, then 3.5 more in 2026, 1,000 and 12345 at 10am on the 2nd.",
	"Write to alice@example.com or see https://example.org/x?y=1 today!",
	"Great job 🎉🙂 — really?! \"Quoted\" 'single' ... HELLO World\tTabbed  spaced.",
	"Alshammar flew from Magherafelt to Taxco to watch a nuthatch (helicobacter, defenestration).",
	"Alice met Gebrselassie in Zanzibar; NASA's perfunctory platitudes about chrysanthemum.",
	"The qwzxv blorptang was sesquipedalian: café naïve wordveil Привет.",
	"tHe QuIcK bRoWn FOX jumps OVER the lazy dog",
	"a" + strings.Repeat("b", 300) + " and " + strings.Repeat("supercalifragilistic-", 20) + "end",
	" \t\n  \r\n ",
	"...!?;:",
	"bad \xff\xfe utf-8 \xc3 word\x80s and don\xff't",
	"x",
}

// diffAccounting names the first field where got and want differ ("" when
// none): every field, the floats bit for bit (NaN matching NaN).
func diffAccounting(got, want Accounting) string {
	same := func(a, b float64) bool {
		return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
	}
	switch {
	case got.Mechanism != want.Mechanism:
		return fmt.Sprintf("Mechanism %q, want %q", got.Mechanism, want.Mechanism)
	case got.Words != want.Words:
		return fmt.Sprintf("Words %d, want %d", got.Words, want.Words)
	case got.OOV != want.OOV:
		return fmt.Sprintf("OOV %d, want %d", got.OOV, want.OOV)
	case got.Memoized != want.Memoized:
		return fmt.Sprintf("Memoized %d, want %d", got.Memoized, want.Memoized)
	case !same(got.Epsilon, want.Epsilon):
		return fmt.Sprintf("Epsilon %v, want %v", got.Epsilon, want.Epsilon)
	case got.Metric != want.Metric:
		return fmt.Sprintf("Metric %q, want %q", got.Metric, want.Metric)
	case !same(got.TotalEpsilon, want.TotalEpsilon):
		return fmt.Sprintf("TotalEpsilon %v, want %v", got.TotalEpsilon, want.TotalEpsilon)
	case len(got.Classes) != len(want.Classes) || (got.Classes == nil) != (want.Classes == nil):
		return fmt.Sprintf("Classes %v, want %v", got.Classes, want.Classes)
	case !same(got.PAvg, want.PAvg):
		return fmt.Sprintf("PAvg %v, want %v", got.PAvg, want.PAvg)
	case !same(got.UnitFree, want.UnitFree):
		return fmt.Sprintf("UnitFree %v, want %v", got.UnitFree, want.UnitFree)
	case got.LossUnknown != want.LossUnknown:
		return fmt.Sprintf("LossUnknown %q, want %q", got.LossUnknown, want.LossUnknown)
	case (got.Ledger == nil) != (want.Ledger == nil):
		return fmt.Sprintf("Ledger %v, want %v", got.Ledger, want.Ledger)
	}
	for i, g := range got.Classes {
		w := want.Classes[i]
		if g.Class != w.Class || !same(g.Epsilon, w.Epsilon) || g.Words != w.Words || g.Memoized != w.Memoized {
			return fmt.Sprintf("Classes[%d] %+v, want %+v", i, g, w)
		}
	}
	return ""
}

// costCase is a configuration Cost is checked under.
type costCase struct {
	name  string
	cfg   Config
	short bool // also run with -short
}

// costCases: every mechanism at its default level, alone and with word classes, and each text policy: the
// policies with -short on BRR and 1-DT only.
func costCases(t *testing.T) []costCase {
	var cs []costCase
	for _, m := range []Mechanism{BRR, TEMHamming, OneDG, OneDT, SanText, CusText} {
		cfg := Config{Mechanism: m}
		lo, hi := acceptedRange(t, cfg)
		if m == CusText {
			cfg.Level = Light // the only level CusText reaches on the default asset
		}
		// Class ε inside the mechanism's accepted range.
		at := func(f float64) float64 { return lo + f*(hi-lo) }
		withClasses := cfg
		withClasses.Classes = Classes{RareRank: 40000, Rare: at(0.1), Capitalized: at(0.2), Number: at(0.3)}
		policies := m == BRR || m == OneDT
		cs = append(cs,
			costCase{string(m), cfg, true},
			costCase{string(m) + "/classes", withClasses, true})
		for _, v := range []struct {
			name string
			set  func(*Config)
		}{
			{"numbers=replace", func(c *Config) { c.Numbers = ReplaceNumbers }},
			{"oov=placeholder", func(c *Config) { c.OOV = Placeholder; c.Placeholder = "<?>" }},
			{"punctuation", func(c *Config) { c.PrivatizePunctuation = true }},
			{"classes+all", func(c *Config) {
				c.Classes = withClasses.Classes
				c.Numbers, c.OOV, c.PrivatizePunctuation = ReplaceNumbers, Placeholder, true
			}},
		} {
			c := cfg
			v.set(&c)
			cs = append(cs, costCase{string(m) + "/" + v.name, c, policies})
		}
	}
	return cs
}

// openCost opens c's privatizer with a seeded source.
func openCost(t *testing.T, cfg Config, seed uint64) *Privatizer {
	t.Helper()
	p, err := Open(cfg)
	if err != nil {
		t.Fatalf("Open(%+v): %v", cfg, err)
	}
	t.Cleanup(func() { p.Close() })
	if err := UseEvaluationSeed(p, seed); err != nil {
		t.Fatal(err)
	}
	return p
}

// checkCost checks that p.Cost(text) is p.Privatize(text)'s accounting.
func checkCost(t *testing.T, name string, p *Privatizer, text string) {
	t.Helper()
	got, err := p.Cost(text)
	if err != nil {
		t.Fatalf("%s: Cost(%q): %v", name, text, err)
	}
	res, err := p.Privatize(text)
	if err != nil {
		t.Fatalf("%s: Privatize(%q): %v", name, text, err)
	}
	if d := diffAccounting(got, res.Accounting); d != "" {
		t.Errorf("%s: Cost(%q): %s", name, text, d)
	}
	if math.IsNaN(got.UnitFree) != (got.LossUnknown != "") {
		t.Errorf("%s: Cost(%q): UnitFree %v with LossUnknown %q", name, text, got.UnitFree, got.LossUnknown)
	}
}

// TestCostIsPrivatizeAccounting: for every mechanism and policy, Cost of
// each adversarial text is Privatize's accounting field by field, and
// each text's accounting inside one PrivatizeBlock of all of them.
func TestCostIsPrivatizeAccounting(t *testing.T) {
	for _, c := range costCases(t) {
		if testing.Short() && !c.short {
			continue
		}
		p := openCost(t, c.cfg, 28)
		for _, text := range costTexts {
			checkCost(t, c.name, p, text)
		}
		rs, err := p.PrivatizeBlock(context.Background(), costTexts)
		if err != nil {
			t.Fatalf("%s: PrivatizeBlock: %v", c.name, err)
		}
		for i, r := range rs {
			got, err := p.Cost(costTexts[i])
			if err != nil {
				t.Fatal(err)
			}
			if d := diffAccounting(got, r.Accounting); d != "" {
				t.Errorf("%s: Cost(%q) against its accounting in a block: %s", c.name, costTexts[i], d)
			}
		}
	}
}

// TestCostProperty: Cost equals Privatize's accounting on random texts
// made of words, stand-ins, clitics, hyphens, numbers, punctuation,
// spaces and random bytes (seeded: the same texts every run).
func TestCostProperty(t *testing.T) {
	parts := []string{"the", "The", "THE", "people", "Zanzibar", "nuthatch", "Taxco", "qwzxv", "café", "I", "'m", "n't",
		"'s", "’ll", "don't", "y'all", "-", "--", "well-known", "42", "1990", "3.5", "1,000", "10am", "🎉", ".", ",", "!",
		"?", "\"", "(", ")", " ", " ", " ", "\t", "\n", "a@b.c", "http://x.y/z", "\xff", "\xc3", "e\u0301"}
	n := 2000
	if testing.Short() {
		n = 300
	}
	for _, c := range costCases(t) {
		if testing.Short() && !c.short {
			continue
		}
		p := openCost(t, c.cfg, 29)
		r := rand.New(rand.NewPCG(28, 2))
		for range n {
			var b strings.Builder
			for range 1 + r.IntN(12) {
				b.WriteString(parts[r.IntN(len(parts))])
			}
			checkCost(t, c.name, p, b.String())
		}
	}
}

// TestCostComparisonNegativeControl: diffAccounting detects a one-field
// change of every kind, and a count that does not cut words at hyphens
// (Cost of the text with its hyphens removed) differs from Privatize's.
func TestCostComparisonNegativeControl(t *testing.T) {
	p := openCost(t, Config{Mechanism: BRR, Classes: Classes{Number: 0.5}}, 30)
	text := costTexts[2]
	want, err := p.Cost(text)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []struct {
		name string
		f    func(*Accounting)
	}{
		{"Words", func(a *Accounting) { a.Words++ }},
		{"OOV", func(a *Accounting) { a.OOV-- }},
		{"Memoized", func(a *Accounting) { a.Memoized++ }},
		{"Mechanism", func(a *Accounting) { a.Mechanism = TEMHamming }},
		{"Epsilon", func(a *Accounting) { a.Epsilon = math.Nextafter(a.Epsilon, 0) }},
		{"TotalEpsilon by one ulp", func(a *Accounting) { a.TotalEpsilon = math.Nextafter(a.TotalEpsilon, 0) }},
		{"UnitFree by one ulp", func(a *Accounting) { a.UnitFree = math.Nextafter(a.UnitFree, math.Inf(1)) }},
		{"UnitFree NaN", func(a *Accounting) { a.UnitFree = math.NaN() }},
		{"PAvg", func(a *Accounting) { a.PAvg = math.NaN() }},
		{"LossUnknown", func(a *Accounting) { a.LossUnknown = "x" }},
		{"a class's words", func(a *Accounting) { a.Classes[0].Words++ }},
		{"classes dropped", func(a *Accounting) { a.Classes = nil }},
		{"a receipt", func(a *Accounting) { a.Ledger = &Receipt{} }},
	} {
		got := want
		got.Classes = append([]ClassCount(nil), want.Classes...)
		m.f(&got)
		if diffAccounting(got, want) == "" {
			t.Errorf("a change of %s is not detected", m.name)
		}
	}
	// A count that does not cut at hyphens.
	detected := 0
	for _, text := range costTexts {
		if !strings.Contains(text, "-") {
			continue
		}
		wrong, err := p.Cost(strings.ReplaceAll(text, "-", ""))
		if err != nil {
			t.Fatal(err)
		}
		res, err := p.Privatize(text)
		if err != nil {
			t.Fatal(err)
		}
		if diffAccounting(wrong, res.Accounting) != "" {
			detected++
		}
	}
	if detected == 0 {
		t.Error("a count that does not cut words at hyphens matches Privatize on every text")
	}
}

// TestCostDrawsNothing: Cost draws nothing from the source: two
// privatizers with the same seed release the same texts whether or not
// Cost is called before each Privatize.
func TestCostDrawsNothing(t *testing.T) {
	for _, cfg := range []Config{{Mechanism: BRR}, {Mechanism: OneDG, PrivatizePunctuation: true}} {
		plain, costed := openCost(t, cfg, 31), openCost(t, cfg, 31)
		for _, text := range costTexts {
			if _, err := costed.Cost(text); err != nil {
				t.Fatal(err)
			}
			a, err := plain.Privatize(text)
			if err != nil {
				t.Fatal(err)
			}
			b, err := costed.Privatize(text)
			if err != nil {
				t.Fatal(err)
			}
			if a.Text != b.Text {
				t.Fatalf("%s: Cost changed the output of %q: %q, then %q", cfg.Mechanism, text, a.Text, b.Text)
			}
		}
	}
}

// TestCostWithMemo: with a memo and a ledger, Cost is an upper bound on
// the charge: the same words, none memoized, and a UnitFree at least the
// receipt's amount (above it once the memo answers words again).
func TestCostWithMemo(t *testing.T) {
	dir := t.TempDir()
	secret := make([]byte, 32)
	for i := range secret {
		secret[i] = byte(i + 1)
	}
	p := openCost(t, Config{Mechanism: BRR, MemoDir: dir + "/memo", MemoSecret: secret, LedgerDir: dir + "/ledger"}, 32)
	below := 0
	for round := range 2 {
		for _, text := range costTexts {
			cost, err := p.Cost(text)
			if err != nil {
				t.Fatal(err)
			}
			res, err := p.Privatize(text)
			if err != nil {
				t.Fatal(err)
			}
			a := res.Accounting
			if cost.Words != a.Words || cost.Memoized != 0 || cost.Ledger != nil || a.Ledger == nil {
				t.Fatalf("round %d, %q: Cost %+v, Privatize %+v", round, text, cost, a)
			}
			if !(cost.UnitFree >= a.Ledger.Amount && cost.TotalEpsilon >= a.TotalEpsilon) {
				t.Errorf("round %d, %q: Cost %v (ε %v) below the charge %v (ε %v)", round, text, cost.UnitFree, cost.TotalEpsilon, a.Ledger.Amount, a.TotalEpsilon)
			}
			if cost.UnitFree > a.Ledger.Amount {
				below++
			}
		}
	}
	if below == 0 {
		t.Error("the memo never made a charge smaller than Cost: the test does not exercise it")
	}
}

// TestCostErrors: Cost fails as Privatize does, in the same categories.
func TestCostErrors(t *testing.T) {
	p, err := Open(Config{MaxTextBytes: 16})
	if err != nil {
		t.Fatal(err)
	}
	closed, err := Open(Config{})
	if err != nil {
		t.Fatal(err)
	}
	closed.Close()
	defer p.Close()
	for _, c := range []struct {
		name string
		p    *Privatizer
		text string
		want error
	}{
		{"empty", p, "", ErrEmptyText},
		{"too large", p, strings.Repeat("a", 17), ErrTextTooLarge},
		{"closed", closed, "hello", ErrClosed},
		{"nil", nil, "hello", ErrInvalidConfig},
		{"zero", &Privatizer{}, "hello", ErrInvalidConfig},
	} {
		_, perr := c.p.Privatize(c.text)
		acc, err := c.p.Cost(c.text)
		if !errors.Is(err, c.want) || !errors.Is(perr, c.want) {
			t.Errorf("%s: Cost: %v; Privatize: %v; want %v", c.name, err, perr, c.want)
		}
		if diffAccounting(acc, Accounting{}) != "" {
			t.Errorf("%s: Cost returned %+v with its error", c.name, acc)
		}
	}
	if acc, err := p.Cost(strings.Repeat("a", 16)); err != nil || acc.Words+acc.OOV != 1 {
		t.Errorf("a text of exactly MaxTextBytes: %+v, %v", acc, err)
	}
}
