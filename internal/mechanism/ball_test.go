package mechanism

import (
	"slices"
	"testing"

	"github.com/wordveil/wordveil/internal/hamming"
)

// TEM's proof needs the exact γ-ball (Lemma 4.1). These tests check the
// balls the mechanisms receive from hamming.Index.Range and wva.TEMLists.BallWithin
// against brute force on the default asset, at radii where the planner
// picks either strategy.
func TestHammingBallIsExact(t *testing.T) {
	if testing.Short() {
		t.Skip("full asset")
	}
	a := defaultAsset(t)
	x := newIndex(t, a.Codes)
	var got []hamming.Neighbor
	for k := range 12 {
		w := k * 4111 % a.Len()
		for _, r := range []int{0, 8, 20, 35, 60} {
			var err error
			got, err = x.Range(got[:0], a.Codes[w], r, hamming.Options{ExpectedRadius: max(r, 1)})
			if err != nil {
				t.Fatal(err)
			}
			var want []int32
			for i, c := range a.Codes {
				if hamming.Distance(a.Codes[w], c) <= r {
					want = append(want, int32(i))
				}
			}
			ids := make([]int32, len(got))
			for i, nb := range got {
				ids[i] = nb.ID
				if d := hamming.Distance(a.Codes[w], a.Codes[nb.ID]); int(nb.Dist) != d {
					t.Fatalf("w=%d r=%d: id %d reported at %d, is at %d", w, r, nb.ID, nb.Dist, d)
				}
			}
			slices.Sort(ids)
			if !slices.Equal(ids, want) {
				t.Fatalf("w=%d r=%d: Range returned %d codes, brute force %d", w, r, len(ids), len(want))
			}
		}
	}
}

func TestTEMBallWithinIsPrefixOfBall(t *testing.T) {
	a := defaultAsset(t)
	for k := range 50 {
		w := k * 997 % a.Len()
		ball := a.TEM.Ball(w, nil)
		if len(ball) == 0 || int(ball[0].ID) != w || ball[0].Dist != 0 {
			t.Fatalf("w=%d: ball does not start with w at 0: %v", w, ball[:min(1, len(ball))])
		}
		for _, steps := range []uint32{0, 100, 300, 355, a.TEM.MaxSteps()} {
			var want []uint32
			for _, nb := range ball {
				if nb.Dist <= steps {
					want = append(want, nb.ID)
				}
			}
			var got []uint32
			for _, nb := range a.TEM.BallWithin(w, steps, nil) {
				got = append(got, nb.ID)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("w=%d steps=%d: BallWithin has %d members, filter of Ball %d", w, steps, len(got), len(want))
			}
		}
	}
}
