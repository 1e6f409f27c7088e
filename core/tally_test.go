package core_test

import (
	"errors"
	"fmt"
	"log"
	"math"
	"testing"

	"github.com/wordveil/wordveil/core"
)

// A cap of N words from WordCap, at the privatizer's own word cost and
// charged with Cost's UnitFree, grants exactly N words however they are
// split into charges, and refuses word N+1; a refused charge changes
// nothing.
func TestTallyWordCap(t *testing.T) {
	p, err := core.Open(core.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	cost := func(text string) float64 {
		acc, err := p.Cost(text)
		if err != nil {
			t.Fatal(err)
		}
		return acc.UnitFree
	}
	one, three := cost("doctor"), cost("doctor says hello")
	cases := []struct {
		name    string
		words   int
		charges []float64
		want    []bool
	}{
		{"one word at a time", 3, []float64{one, one, one, one}, []bool{true, true, true, false}},
		{"three words at once", 3, []float64{three, one}, []bool{true, false}},
		{"a cap reached exactly refuses even one more word", 4, []float64{one, three, three, one}, []bool{true, true, false, false}},
		{"a refused charge leaves room", 2, []float64{one, three, one, one}, []bool{true, false, true, false}},
	}
	for _, c := range cases {
		capLoss, err := core.WordCap(c.words, p.Info().WordCost)
		if err != nil {
			t.Fatal(err)
		}
		tally, err := core.NewTally(capLoss)
		if err != nil {
			t.Fatal(err)
		}
		for i, x := range c.charges {
			got, err := tally.Charge(x)
			if err != nil || got != c.want[i] {
				t.Errorf("%s: charge %d = %v, %v; want %v", c.name, i, got, err, c.want[i])
			}
		}
		if r := tally.Remaining(); !(r >= 0 && r < one) {
			t.Errorf("%s: remaining %v after the cap's last word, want in [0, %v)", c.name, r, one)
		}
	}
}

// Invalid caps and charges are ErrInvalidConfig; the zero Tally has no
// cap; a nil Tally refuses without panicking.
func TestTallyInvalid(t *testing.T) {
	for _, c := range []float64{-1, math.NaN(), math.Inf(1)} {
		if _, err := core.NewTally(c); !errors.Is(err, core.ErrInvalidConfig) {
			t.Errorf("NewTally(%v) = %v, want ErrInvalidConfig", c, err)
		}
	}
	wordCaps := []struct {
		words int64 // int64, so that the cases beyond int's range compile where int has 32 bits
		cost  float64
	}{{-1, 1}, {1, math.NaN()}, {1, 0}, {1, -1}, {1, math.Inf(1)}, {1 << 41, 1}, {1 << 20, math.MaxFloat64}}
	for _, c := range wordCaps {
		if int64(int(c.words)) != c.words {
			continue // beyond int: no caller can pass it on this platform
		}
		if _, err := core.WordCap(int(c.words), c.cost); !errors.Is(err, core.ErrInvalidConfig) {
			t.Errorf("WordCap(%d, %v) = %v, want ErrInvalidConfig", c.words, c.cost, err)
		}
	}
	if v, err := core.WordCap(0, math.NaN()); v != 0 || err != nil {
		t.Errorf("WordCap(0, NaN) = %v, %v; want 0 (no cap), nil", v, err)
	}

	var zero core.Tally
	for _, x := range []float64{1, math.MaxFloat64 / 4} {
		if ok, err := zero.Charge(x); !ok || err != nil {
			t.Errorf("zero Tally: Charge(%v) = %v, %v; want granted (no cap)", x, ok, err)
		}
	}
	if r := zero.Remaining(); !math.IsInf(r, 1) {
		t.Errorf("zero Tally: Remaining = %v, want +Inf", r)
	}
	charges := []struct {
		name string
		t    *core.Tally
		x    float64
	}{
		{"nil tally", nil, 1},
		{"negative", &core.Tally{}, -1},
		{"NaN", &core.Tally{}, math.NaN()},
		{"+Inf", &core.Tally{}, math.Inf(1)},
		{"past the largest float64", &zero, math.MaxFloat64},
	}
	for _, c := range charges {
		if ok, err := c.t.Charge(c.x); ok || !errors.Is(err, core.ErrInvalidConfig) {
			t.Errorf("%s: Charge(%v) = %v, %v; want refused, ErrInvalidConfig", c.name, c.x, ok, err)
		}
	}
	var none *core.Tally
	if s, r := none.Spent(), none.Remaining(); s != 0 || r != 0 {
		t.Errorf("nil Tally: Spent, Remaining = %v, %v; want 0, 0", s, r)
	}
}

// A batch job's per-user cap: a user's texts are granted in order while
// the exact sum of their costs stays within a cap of 5 words.
func ExampleTally() {
	p, err := core.Open(core.Config{})
	if err != nil {
		log.Fatal(err)
	}
	defer p.Close()
	capLoss, err := core.WordCap(5, p.Info().WordCost)
	if err != nil {
		log.Fatal(err)
	}
	tally, err := core.NewTally(capLoss)
	if err != nil {
		log.Fatal(err)
	}
	for _, text := range []string{"my doctor says", "it works", "call me"} {
		acc, err := p.Cost(text) // no draws: what Privatize would charge
		if err != nil {
			log.Fatal(err)
		}
		granted, err := tally.Charge(acc.UnitFree)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%q: %d words, granted %v\n", text, acc.Words, granted)
	}
	fmt.Printf("words left: %.0f\n", math.Floor(tally.Remaining()/p.Info().WordCost))
	// Output:
	// "my doctor says": 3 words, granted true
	// "it works": 2 words, granted true
	// "call me": 2 words, granted false
	// words left: 0
}
