package wva

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// TestListsMeanStored: Marshal stores ListsMeanDistance of the lists in
// the header, refuses a header that states another value, and Decode
// refuses a stored value outside [0, N] and reports a stored one only for
// a decoded asset.
func TestListsMeanStored(t *testing.T) {
	a := genAsset(t, rand.New(rand.NewPCG(26, 3)), genOpts{n: 40, lists: 2})
	if _, ok := a.StoredListsMean(); ok {
		t.Fatal("an asset built in memory reports a stored P_avg")
	}
	want := ListsMeanDistance(a.Lists)
	got, err := Decode(mustMarshal(t, a))
	if err != nil {
		t.Fatal(err)
	}
	if m, ok := got.StoredListsMean(); !ok || math.Float64bits(m) != math.Float64bits(want) {
		t.Fatalf("stored P_avg %v (%v), want %v", m, ok, want)
	}

	a.Header.Lists.MeanDistance = want + 1
	if _, err := Marshal(a); !errors.Is(err, ErrInvalid) {
		t.Fatalf("Marshal with a wrong meanDistance: %v, want ErrInvalid", err)
	}
	a.Header.Lists.MeanDistance = 0

	h, secs := fileParts(t, a)
	for _, bad := range []float64{-1, 40.5, 1e300} {
		h.Lists.MeanDistance = bad
		if _, err := Decode(buildFile(mustJSON(t, h), secs)); !errors.Is(err, ErrCorrupt) {
			t.Errorf("meanDistance %v: %v, want ErrCorrupt", bad, err)
		}
	}
}
