package hamming_test

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/bits-and-blooms/bitset"

	"github.com/wordveil/wordveil/internal/hamming"
)

// lowBits returns a code with its lowest n bits set: two such codes are at
// distance |n − m|, which keeps the examples easy to check by hand.
func lowBits(n int) hamming.Code {
	var c hamming.Code
	for b := 0; b < n; b++ {
		c = c.SetBit(b, true)
	}
	return c
}

// exampleIndex indexes five handmade codes with 0, 3, 5, 5 and 40 low bits
// set: codes 2 and 3 are equal, so queries near them meet ties.
func exampleIndex() *hamming.Index {
	x, err := hamming.NewIndex([]hamming.Code{lowBits(0), lowBits(3), lowBits(5), lowBits(5), lowBits(40)})
	if err != nil {
		panic(err)
	}
	return x
}

// k nearest neighbours. With TiesAll (the zero Options) every code tied at
// the k-th distance is returned, so k = 1 gives both copies of the nearest
// code; results are sorted by (distance, id), the same whichever strategy
// the index picked.
func ExampleIndex_KNN() {
	x := exampleIndex()
	q := lowBits(4) // distances 4, 1, 1, 1, 36
	ns, err := x.KNN(nil, q, 1, hamming.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Println("k=1:", ns)
	ns, err = x.KNN(ns, lowBits(6), 2, hamming.Options{}) // distances 6, 3, 1, 1, 34
	if err != nil {
		panic(err)
	}
	fmt.Println("k=2:", ns)
	// Exclude removes ids from the answer, as a nearest-not-yet-visited
	// chain does with the codes already placed.
	var seen bitset.BitSet
	seen.Set(2).Set(3)
	ns, err = x.KNN(ns, lowBits(6), 2, hamming.Options{Exclude: &seen})
	if err != nil {
		panic(err)
	}
	fmt.Println("k=2 without 2, 3:", ns)
	// Output:
	// k=1: [{1 1} {2 1} {3 1}]
	// k=2: [{2 1} {3 1}]
	// k=2 without 2, 3: [{1 3} {0 6}]
}

// Nearest returns one minimizer: with TiesAll the lowest id; a mechanism
// whose analysis needs an unbiased choice asks for TiesRandom instead.
func ExampleIndex_Nearest() {
	x := exampleIndex()
	n, err := x.Nearest(lowBits(5), hamming.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Printf("id %d at distance %d\n", n.ID, n.Dist)
	// Output: id 2 at distance 0
}

// Every code within a radius, sorted by distance then id (Range itself
// promises no order).
func ExampleIndex_Range() {
	x := exampleIndex()
	ns, err := x.Range(nil, lowBits(2), 3, hamming.Options{}) // distances 2, 1, 3, 3, 38
	if err != nil {
		panic(err)
	}
	slices.SortFunc(ns, func(a, b hamming.Neighbor) int {
		return cmp.Or(cmp.Compare(a.Dist, b.Dist), cmp.Compare(a.ID, b.ID))
	})
	fmt.Println(ns)
	// Output: [{1 1} {0 2} {2 3} {3 3}]
}
