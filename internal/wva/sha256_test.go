package wva

import (
	"crypto/sha256"
	"math/rand/v2"
	"sync"
	"testing"
)

// TestSHA256Lazy: an Asset built in memory (and a nil one) has the zero
// hash; a decoded one returns its file's hash to concurrent first callers.
func TestSHA256Lazy(t *testing.T) {
	var none [32]byte
	if (&Asset{}).SHA256() != none || (*Asset)(nil).SHA256() != none {
		t.Fatal("an asset without a file has a non-zero hash")
	}
	src := genAsset(t, rand.New(rand.NewPCG(8, 8)), genOpts{n: 50})
	if src.SHA256() != none {
		t.Fatal("an asset built in memory has a non-zero hash")
	}
	file, err := Marshal(src)
	if err != nil {
		t.Fatal(err)
	}
	a, err := Decode(file)
	if err != nil {
		t.Fatal(err)
	}
	want := sha256.Sum256(file)
	var wg sync.WaitGroup
	got := make([][32]byte, 4)
	for i := range got {
		wg.Go(func() { got[i] = a.SHA256() })
	}
	wg.Wait()
	for i, h := range got {
		if h != want {
			t.Fatalf("caller %d got %x, want %x", i, h, want)
		}
	}
}
