package wva

import (
	"fmt"
	"testing"
)

// TestWordIndex: once built, the hash index answers every lookup as the
// binary search does (hits, misses, prefixes, extensions), for a small
// table (2-byte slots) and a large one (4-byte slots).
func TestWordIndex(t *testing.T) {
	for _, n := range []int{1, 3, 1000, 1<<16 + 10} {
		words := make([]string, n)
		for i := range words {
			words[i] = fmt.Sprintf("w%x", i)
		}
		v := newVocab(words)
		x := newWordIndex(&v)
		if (x.small != nil) != (n < 1<<16-1) {
			t.Fatalf("n=%d: small table %v", n, x.small != nil)
		}
		probe := append(words[:min(n, 2000):min(n, 2000)], "", "w", "x", "w0z", words[n-1]+"0", "W0")
		for _, w := range probe {
			gi, gok := x.lookup(&v, w)
			v0 := v
			v0.index = nil // the binary search
			wi, wok := v0.lookup(w)
			if gi != wi || gok != wok {
				t.Fatalf("n=%d: lookup(%q) = %d, %v; binary search %d, %v", n, w, gi, gok, wi, wok)
			}
		}
	}
}

// TestWordIndexLazy: the index is built at the indexAfter-th lookup, not
// before, and the zero vocab never builds one.
func TestWordIndexLazy(t *testing.T) {
	v := newVocab([]string{"a", "b"})
	for k := 1; k <= indexAfter; k++ {
		if id, ok := v.lookup("b"); !ok || id != 1 {
			t.Fatalf("lookup %d: %d, %v", k, id, ok)
		}
		if built := v.index.idx.Load() != nil; built != (k >= indexAfter) {
			t.Fatalf("after %d lookups: built %v", k, built)
		}
	}
	var z vocab
	if _, ok := z.lookup("a"); ok {
		t.Fatal("the zero vocab found a word")
	}
}
