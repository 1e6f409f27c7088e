package core_test

import (
	"errors"
	"fmt"
	"log"
	"path/filepath"
	"strings"
	"time"

	"github.com/wordveil/wordveil/core"
)

// The README's Go quick start is this function's body, between the
// markers (TestReadmeQuickStart checks it).
func Example() {
	// quick start: begin
	p, err := core.Open(core.Config{}) // BRR, balanced, offensive words never output
	if err != nil {
		log.Fatal(err)
	}
	defer p.Close()
	res, err := p.Privatize("My doctor in Boston says the new treatment works.")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Accounting.Words, "words privatized with", res.Accounting.Mechanism)
	// quick start: end
	// Output: 9 words privatized with brr
}

// A ledger caps the privacy loss a directory of state lets through; a text
// over the cap is refused whole, and nothing of it is returned.
func ExampleConfig_ledger() {
	dir, cleanup := tempDir()
	defer cleanup()
	p, err := core.Open(core.Config{
		Mechanism: core.OneDG,
		Level:     core.Strong,
		LedgerDir: dir,
		Caps:      core.Caps{Lifetime: 1e-9},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer p.Close()
	_, err = p.Privatize("hello world")
	fmt.Println(errors.Is(err, core.ErrBudgetExceeded))
	// Output: true
}

// A cap in words, "500 words a day at balanced": Open converts it once to
// the metric loss the ledger keeps, at the privatizer's own cost per
// word (Info.WordCost), and every receipt says how many words are left.
// Exactly 500 fresh words are granted in any 24 hours; the next is refused.
func ExampleCaps_words() {
	dir, cleanup := tempDir()
	defer cleanup()
	p, err := core.Open(core.Config{
		Mechanism: core.OneDT,
		Level:     core.Balanced,
		LedgerDir: dir,
		Caps:      core.Caps{PerPeriodWords: 500, Period: 24 * time.Hour},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer p.Close()
	res, err := p.Privatize("My doctor in Boston says the new treatment works.")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Accounting.Words, "words,", res.Accounting.Ledger.PeriodWordsRemaining, "left today")
	res, err = p.Privatize(strings.Repeat("house ", 491))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Accounting.Words, "words,", res.Accounting.Ledger.PeriodWordsRemaining, "left today")
	_, err = p.Privatize("house")
	fmt.Println(errors.Is(err, core.ErrBudgetExceeded))
	// Output:
	// 9 words, 491 left today
	// 491 words, 0 left today
	// true
}

// Open refuses what it cannot honour, with one of the package's error
// categories.
func ExampleOpen_errors() {
	for _, cfg := range []core.Config{
		{Mechanism: "santext+"},                 // keeps words by construction: not offered
		{Mechanism: core.OneDT, Epsilon: 1e-16}, // below 1-DT's floor
		{Caps: core.Caps{Lifetime: 10}},         // a cap without a ledger would cap nothing
	} {
		_, err := core.Open(cfg)
		fmt.Println(errors.Is(err, core.ErrInvalidConfig))
	}
	// Output:
	// true
	// true
	// true
}

// Cost tells, before privatizing, what a text will cost, for a caller that
// keeps a budget itself (a bulk pipeline's per-user cap): here 12 words a
// user, in metric loss. Without a memo it is exactly the bill Privatize
// then returns; it draws nothing and releases nothing.
func ExamplePrivatizer_Cost() {
	p, err := core.Open(core.Config{Mechanism: core.OneDT})
	if err != nil {
		log.Fatal(err)
	}
	defer p.Close()
	budget := (12 + 0.5) * p.Info().WordCost // a cap of 12 words (see Caps.LifetimeWords)
	spent := 0.0
	for _, text := range []string{"My doctor in Boston says the new treatment works.", "I don't feel well-rested."} {
		cost, err := p.Cost(text)
		if err != nil {
			log.Fatal(err)
		}
		if spent+cost.UnitFree > budget {
			fmt.Println(cost.Words, "words: over the budget, not privatized")
			continue
		}
		res, err := p.Privatize(text)
		if err != nil {
			log.Fatal(err)
		}
		spent += res.Accounting.UnitFree
		fmt.Println(cost.Words, "words privatized; the bill as announced:", res.Accounting.UnitFree == cost.UnitFree)
	}
	// Output:
	// 9 words privatized; the bill as announced: true
	// 6 words: over the budget, not privatized
}

// ExampleReset: an app's "forget me": the ledger's budget starts over,
// and a backup of the old state restored later is refused.
func ExampleReset() {
	dir, cleanup := tempDir()
	defer cleanup()
	cfg := core.Config{LedgerDir: filepath.Join(dir, "ledger")} // the default anchor
	p, err := core.Open(cfg)
	if err != nil {
		log.Fatal(err)
	}
	if _, err := p.Privatize("a private note"); err != nil {
		log.Fatal(err)
	}
	p.Close()
	if err := core.Reset(cfg); err != nil {
		log.Fatal(err)
	}
	p, err = core.Open(cfg)
	if err != nil {
		log.Fatal(err)
	}
	defer p.Close()
	r, err := p.Privatize("a fresh start")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(r.Accounting.Ledger.LifetimeSpent == r.Accounting.UnitFree)
	// Output: true
}

// ExampleNoAnchor: opting out of the anchor, as a test or a throwaway
// directory might; a backup restored then goes unnoticed.
func ExampleNoAnchor() {
	dir, cleanup := tempDir()
	defer cleanup()
	p, err := core.Open(core.Config{LedgerDir: dir, Anchor: core.NoAnchor})
	if err != nil {
		log.Fatal(err)
	}
	defer p.Close()
	fmt.Printf("%q\n", p.Info().AnchorDir)
	// Output: ""
}
