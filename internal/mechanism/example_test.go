package mechanism_test

import (
	"errors"
	"fmt"

	"github.com/wordveil/wordveil/internal/hamming"
	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/seeded"
	"github.com/wordveil/wordveil/internal/wva"
)

// BRR over the default asset, with the production randomness.
func ExampleNewBRR() {
	a, err := wva.Default()
	if err != nil {
		panic(err)
	}
	index, err := hamming.NewIndex(a.Codes)
	if err != nil {
		panic(err)
	}
	m, err := mechanism.NewBRR(index, 0.7) // ε per bit; useful band: docs/PRIVACY_LEVELS.md
	if err != nil {
		panic(err)
	}
	src := mechanism.NewSecureSource() // one per goroutine
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
	a, err := wva.Default()
	if err != nil {
		panic(err)
	}
	_, err = mechanism.NewTEM(a.TEM, 2, mechanism.TEMOptions{})
	fmt.Println(errors.Is(err, wva.ErrGammaMax))
	m, err := mechanism.NewTEM(a.TEM, 10, mechanism.TEMOptions{})
	if err != nil {
		panic(err)
	}
	fmt.Println(m.(mechanism.Facts).Params())
	// Output:
	// true
	// epsilon=10 gamma=3.545302612571767 given-gamma=0 beta=0
}

// 1-DG over the asset's two lists: the guarantee is ε times the largest
// list-position distance.
func ExampleNewDiffractorGeometric() {
	a, err := wva.Default()
	if err != nil {
		panic(err)
	}
	m, err := mechanism.NewDiffractorGeometric(a.Lists, 0.05)
	if err != nil {
		panic(err)
	}
	src := seeded.Key([32]byte{1}) // evaluation only
	w, _ := a.Lookup("good")
	y, err := m.Privatize(w, src)
	fmt.Println(m.Metric(), err == nil && y >= 0)
	// Output: max-list-position(2 lists) true
}
