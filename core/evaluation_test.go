package core_test

import (
	"errors"
	"fmt"
	"log"
	"testing"

	"github.com/wordveil/wordveil/core"
)

// UseEvaluationSeed on a privatizer that cannot draw is an error of the
// documented category, never a panic, and a closed privatizer stays closed.
func TestUseEvaluationSeedNotOpen(t *testing.T) {
	closed, err := core.Open(core.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if err := closed.Close(); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		p    *core.Privatizer
		want error
	}{
		{"nil", nil, core.ErrInvalidConfig},
		{"zero value", &core.Privatizer{}, core.ErrInvalidConfig},
		{"closed", closed, core.ErrClosed},
	}
	for _, c := range cases {
		if err := core.UseEvaluationSeed(c.p, 1); !errors.Is(err, c.want) {
			t.Errorf("%s: UseEvaluationSeed = %v, want %v", c.name, err, c.want)
		}
		if _, err := c.p.Privatize("hello"); !errors.Is(err, c.want) {
			t.Errorf("%s: Privatize after UseEvaluationSeed = %v, want %v", c.name, err, c.want)
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
