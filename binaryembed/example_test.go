package binaryembed_test

import (
	"errors"
	"fmt"

	"github.com/wordveil/wordveil/binaryembed"
	"github.com/wordveil/wordveil/hamming"
)

// The embedded asset: look a word up, read its code, and find the words
// whose codes lie nearest to it.
func Example() {
	e, err := binaryembed.Default()
	if err != nil {
		panic(err)
	}
	id, ok := e.Lookup("keyboard")
	if !ok {
		panic("not in the vocabulary")
	}
	code, _ := e.Code(id)
	x, err := e.Index()
	if err != nil {
		panic(err)
	}
	near, err := x.KNN(code, 3, nil)
	if err != nil {
		panic(err)
	}
	w, _ := e.Word(near[0].ID)
	fmt.Println(e.Len(), "words;", w, "at distance", near[0].Dist, "of", hamming.Bits, "bits")
	// Output: 50000 words; keyboard at distance 0 of 256 bits
}

// A 1-Diffractor list orders the whole vocabulary so that neighbours in
// the list have near codes.
func ExampleEmbedding_Lists() {
	e, err := binaryembed.Default()
	if err != nil {
		panic(err)
	}
	lists := e.Lists()
	fmt.Println(len(lists), "lists of", len(lists[0]), "ids")
	// Output: 2 lists of 50000 ids
}

// Bytes that are not an asset are refused with ErrCorrupt.
func ExampleDecode() {
	_, err := binaryembed.Decode([]byte("not an asset"))
	fmt.Println(errors.Is(err, binaryembed.ErrCorrupt))
	// Output: true
}
