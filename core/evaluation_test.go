package core_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"testing"

	"github.com/wordveil/wordveil/core"
)

// UseEvaluationSeed on a privatizer that cannot draw is an error of the
// documented category, never a panic, and a closed privatizer stays closed.
func TestUseEvaluationSeedNotOpen(t *testing.T) {
	cases := notOpen(t)
	for _, c := range cases {
		if err := core.UseEvaluationSeed(c.p, 1); !errors.Is(err, c.want) {
			t.Errorf("%s: UseEvaluationSeed = %v, want %v", c.name, err, c.want)
		}
		if _, err := c.p.Privatize("hello"); !errors.Is(err, c.want) {
			t.Errorf("%s: Privatize after UseEvaluationSeed = %v, want %v", c.name, err, c.want)
		}
		if _, err := core.PrivatizeEvaluationBlock(context.Background(), c.p, []string{"hello"}, 1, 0); !errors.Is(err, c.want) {
			t.Errorf("%s: PrivatizeEvaluationBlock = %v, want %v", c.name, err, c.want)
		}
	}
}

// The same seed gives the same output, twice over and across privatizers;
// a seed is a key to every draw, so this is for evaluation only.
func ExampleUseEvaluationSeed() {
	run := func(seed uint64) string {
		p, err := core.Open(core.Config{})
		if err != nil {
			log.Fatal(err)
		}
		defer p.Close()
		if err := core.UseEvaluationSeed(p, seed); err != nil { // tests and evaluation only
			log.Fatal(err)
		}
		res, err := p.Privatize("the doctor in Boston says the treatment works")
		if err != nil {
			log.Fatal(err)
		}
		return res.Text
	}
	first, again := run(7), run(7)
	fmt.Println(first == again)
	// Output: true
}

// PrivatizeEvaluationBlock's output depends on the seed, the block's index
// and the texts only: block 0 is UseEvaluationSeed's stream, a block gives
// the same output whatever ran before it on the privatizer, and another
// index or seed another output.
func TestPrivatizeEvaluationBlock(t *testing.T) {
	texts := []string{"the doctor in Boston says the new treatment works well for most of her patients", "a second line of words"}
	p, err := core.Open(core.Config{Mechanism: core.OneDG})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	ctx := context.Background()
	join := func(rs []core.Result) string {
		var s string
		for _, r := range rs {
			s += r.Text + "\n"
		}
		return s
	}
	block := func(seed, i uint64) string {
		t.Helper()
		rs, err := core.PrivatizeEvaluationBlock(ctx, p, texts, seed, i)
		if err != nil {
			t.Fatal(err)
		}
		return join(rs)
	}
	b3 := block(7, 3)
	for i := range uint64(3) {
		block(7, i) // draws that a shared stream would have consumed
	}
	if again := block(7, 3); again != b3 {
		t.Errorf("block 3 after blocks 0-2 = %q, alone %q", again, b3)
	}
	if other := block(7, 4); other == b3 {
		t.Errorf("blocks 3 and 4 of seed 7 agree: %q", b3)
	}
	if other := block(8, 3); other == b3 {
		t.Errorf("block 3 of seeds 7 and 8 agree: %q", b3)
	}
	q, err := core.Open(core.Config{Mechanism: core.OneDG})
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	if err := core.UseEvaluationSeed(q, 7); err != nil {
		t.Fatal(err)
	}
	rs, err := q.PrivatizeBlock(ctx, texts)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := block(7, 0), join(rs); got != want {
		t.Errorf("block 0 = %q, UseEvaluationSeed's first block %q", got, want)
	}
}

// Blocks of a seeded run privatized in any order, or at once on several
// goroutines, give what they give one after the other.
func ExamplePrivatizeEvaluationBlock() {
	p, err := core.Open(core.Config{})
	if err != nil {
		log.Fatal(err)
	}
	defer p.Close()
	blocks := [][]string{{"the doctor in Boston"}, {"says the treatment works"}}
	out := func(i int) string {
		res, err := core.PrivatizeEvaluationBlock(context.Background(), p, blocks[i], 7, uint64(i)) // evaluation only
		if err != nil {
			log.Fatal(err)
		}
		return res[0].Text
	}
	second := out(1) // block 1 first
	first := out(0)
	fmt.Println(first == out(0), second == out(1))
	// Output: true true
}
