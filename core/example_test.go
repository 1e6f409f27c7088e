package core_test

import (
	"errors"
	"fmt"

	"github.com/wordveil/wordveil/assets"
	"github.com/wordveil/wordveil/binaryembed/wva"
	"github.com/wordveil/wordveil/core"
	"github.com/wordveil/wordveil/hamming"
)

// BRR over the default asset, with the production randomness.
func ExampleNewBRR() {
	a, err := assets.Default()
	if err != nil {
		panic(err)
	}
	index, err := hamming.NewIndex(a.Codes)
	if err != nil {
		panic(err)
	}
	m, err := core.NewBRR(index, 0.7) // ε per bit; useful range ≈ 0.3–1
	if err != nil {
		panic(err)
	}
	src := core.NewSecureSource() // one per goroutine
	w, _ := a.Lookup("good")
	y, err := m.Privatize(w, src)
	if err != nil {
		panic(err) // never fall back to the input word
	}
	fmt.Println(m.Metric(), y >= 0 && y < a.Len())
	// Output: hamming true
}

// TEM on the asset's Euclidean balls: γ from Theorem 4.2 must fit the
// stored balls, so small ε is refused rather than silently weakened.
func ExampleNewTEM() {
	a, err := assets.Default()
	if err != nil {
		panic(err)
	}
	_, err = core.NewTEM(a.TEM, 2, core.TEMOptions{})
	fmt.Println(errors.Is(err, wva.ErrGammaMax))
	m, err := core.NewTEM(a.TEM, 10, core.TEMOptions{})
	if err != nil {
		panic(err)
	}
	fmt.Printf("γ = %.3f\n", m.Gamma())
	// Output:
	// true
	// γ = 3.545
}

// 1-DG over the asset's two lists: the guarantee is ε times the largest
// list-position distance.
func ExampleNewDiffractorGeometric() {
	a, err := assets.Default()
	if err != nil {
		panic(err)
	}
	m, err := core.NewDiffractorGeometric(a.Lists, 0.05)
	if err != nil {
		panic(err)
	}
	src := core.NewSeededSourceForEvaluation([32]byte{1}) // evaluation only
	w, _ := a.Lookup("good")
	y, err := m.Privatize(w, src)
	fmt.Println(m.Metric(), err == nil && y >= 0)
	// Output: max-list-position(2 lists) true
}

// Plausible deniability of 1-DG on a seeded sample of words.
func ExampleEstimateDeniability() {
	a, err := assets.Default()
	if err != nil {
		panic(err)
	}
	m, err := core.NewDiffractorGeometric(a.Lists, 60)
	if err != nil {
		panic(err)
	}
	src := core.NewSeededSourceForEvaluation([32]byte{2})
	d, err := core.EstimateDeniability(m, []int{10, 200, 3000}, 0, src)
	if err != nil {
		panic(err)
	}
	// At ε = 60 per position the word is almost always kept.
	fmt.Printf("N_w=%.2f S_w=%.1f\n", d.MeanN, d.MeanS)
	// Output: N_w=1.00 S_w=1.0
}

func ExampleUniformInt() {
	src := core.NewSeededSourceForEvaluation([32]byte{3})
	i := core.UniformInt(src, 6) // a fair die roll, no modulo bias
	fmt.Println(i >= 0 && i < 6)
	// Output: true
}
