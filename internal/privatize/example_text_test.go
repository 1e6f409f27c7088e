package privatize_test

import (
	"fmt"

	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/privatize"
	"github.com/wordveil/wordveil/internal/seeded"
	"github.com/wordveil/wordveil/internal/wva"
)

// A whole text through BRR over the embedded asset, with its privacy bill:
// the eight vocabulary words ("9" is one) cost ε each; the e-mail address
// is replaced by a random word, free of cost, since its replacement does
// not depend on it. The layout is kept.
// The seeded source makes the output reproducible, which is what an example
// (or a test, or an evaluation) needs; it is predictable, so it must never
// privatize real text: production code passes mechanism.NewSecureSource().
func ExamplePrivatizer_Privatize() {
	a, err := wva.Default()
	if err != nil {
		panic(err)
	}
	eps, err := mechanism.Preset(a, mechanism.NameBRR, mechanism.LevelBalanced)
	if err != nil {
		panic(err)
	}
	m, err := mechanism.New(mechanism.NameBRR, a, eps, mechanism.Options{})
	if err != nil {
		panic(err)
	}
	p, err := privatize.New(m, a, privatize.Options{}) // random-word OOV, punctuation kept
	if err != nil {
		panic(err)
	}
	src := seeded.Key([32]byte{7}) // tests and evaluation only
	r, err := p.Privatize("The quick brown fox emailed bob@example.com at 9 pm.", src)
	if err != nil {
		panic(err) // no text is returned on error: never upload the input instead
	}
	acc := r.Accounting
	fmt.Println(r.Text)
	fmt.Printf("%s: %d words, %d OOV, ε = %g per word in %s, total %g, metric loss %.2f\n",
		acc.Mechanism, acc.Words, acc.OOV, acc.Epsilon, acc.Metric, acc.TotalEpsilon, acc.UnitFree)
	// Output:
	// Traditionally plenty routed mtv grandpappy clicks home an pm.
	// brr: 8 words, 1 OOV, ε = 0.5239 per word in hamming, total 4.1912, metric loss 535.18
}
