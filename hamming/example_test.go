package hamming_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/wordveil/wordveil/hamming"
)

// lowBits returns a code with its lowest n bits set: two such codes are at
// distance |n − m|, which keeps the examples easy to check by hand.
func lowBits(n int) hamming.Code {
	var c hamming.Code
	for b := range n {
		c = c.SetBit(b, true)
	}
	return c
}

// Index five codes with 0, 3, 5, 5 and 40 low bits set (ids 2 and 3 are
// equal) and ask the three kinds of question.
func Example() {
	codes := []hamming.Code{lowBits(0), lowBits(3), lowBits(5), lowBits(5), lowBits(40)}
	x, err := hamming.NewIndex(codes)
	if err != nil {
		panic(err)
	}
	q := lowBits(1) // distances 1, 2, 4, 4, 39

	n, err := x.Nearest(q, nil) // nil: ties drawn from crypto/rand (none here)
	if err != nil {
		panic(err)
	}
	fmt.Println("nearest:", n)

	ns, err := x.KNN(q, 2, nil)
	if err != nil {
		panic(err)
	}
	fmt.Println("2 nearest:", ns)

	ns, err = x.Range(q, 4)
	if err != nil {
		panic(err)
	}
	fmt.Println("within 4 bits:", ns)
	// Output:
	// nearest: {0 1}
	// 2 nearest: [{0 1} {1 2}]
	// within 4 bits: [{0 1} {1 2} {2 4} {3 4}]
}

// Ids 2 and 3 hold the same code, so a query equal to it has two nearest
// codes: Nearest returns either, each with probability 1/2. A seeded
// source makes the draws repeatable (for tests; pass nil in production).
func ExampleIndex_Nearest() {
	x, err := hamming.NewIndex([]hamming.Code{lowBits(0), lowBits(3), lowBits(5), lowBits(5), lowBits(40)})
	if err != nil {
		panic(err)
	}
	rng := rand.NewPCG(1, 2)
	count := map[int]int{}
	for range 1000 {
		n, err := x.Nearest(lowBits(5), rng)
		if err != nil {
			panic(err)
		}
		count[n.ID]++
	}
	fmt.Println("ids drawn:", len(count), "each about half the time:", count[2] > 400 && count[3] > 400)
	// Output: ids drawn: 2 each about half the time: true
}

// KNN returns exactly k codes; of the two codes tied at the 2nd distance
// (ids 2 and 3, both 1 bit away) it keeps one, uniformly at random.
func ExampleIndex_KNN() {
	x, err := hamming.NewIndex([]hamming.Code{lowBits(0), lowBits(3), lowBits(5), lowBits(5), lowBits(40)})
	if err != nil {
		panic(err)
	}
	ns, err := x.KNN(lowBits(4), 3, nil) // distances 4, 1, 1, 1, 36
	if err != nil {
		panic(err)
	}
	fmt.Println(len(ns), "codes, all at distance 1:", ns[0].Dist == 1 && ns[1].Dist == 1 && ns[2].Dist == 1)
	ns, err = x.KNN(lowBits(4), 2, nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(len(ns), "of the 3 codes at distance 1")
	// Output:
	// 3 codes, all at distance 1: true
	// 2 of the 3 codes at distance 1
}

// Every code within a radius, sorted by distance, then id.
func ExampleIndex_Range() {
	x, err := hamming.NewIndex([]hamming.Code{lowBits(0), lowBits(3), lowBits(5), lowBits(5), lowBits(40)})
	if err != nil {
		panic(err)
	}
	ns, err := x.Range(lowBits(2), 3) // distances 2, 1, 3, 3, 38
	if err != nil {
		panic(err)
	}
	fmt.Println(ns)
	// Output: [{1 1} {0 2} {2 3} {3 3}]
}

// Without excludes ids, as a keyboard leaves its exclusion list out of
// the words it may output, or a nearest-not-yet-visited chain leaves out
// the codes already placed. Ids are still those of the slice indexed.
func ExampleIndex_Without() {
	x, err := hamming.NewIndex([]hamming.Code{lowBits(0), lowBits(3), lowBits(5), lowBits(5), lowBits(40)})
	if err != nil {
		panic(err)
	}
	y, err := x.Without([]int{2, 3})
	if err != nil {
		panic(err)
	}
	n, err := y.Nearest(lowBits(5), nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(y.Len(), "codes searched; nearest:", n)
	// Output: 3 codes searched; nearest: {1 2}
}

func ExampleDistance() {
	a := hamming.Code{0b1011}
	b := hamming.Code{0b0001, 0, 0, 1 << 63}
	fmt.Println(hamming.Distance(a, b))
	// Output: 3
}
