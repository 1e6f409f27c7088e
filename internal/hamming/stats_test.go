package hamming

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestMeanDistanceExact(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	for _, n := range []int{0, 1, 2, 3, 50, 400} {
		codes := clusteredCodes(r, n)
		sum := 0
		for i := range codes {
			for j := range codes {
				if i != j {
					sum += Distance(codes[i], codes[j])
				}
			}
		}
		want := 0.0
		if n >= 2 {
			want = float64(sum) / float64(n*(n-1))
		}
		if got := MeanDistance(codes); math.Abs(got-want) > 1e-9*max(1, want) {
			t.Fatalf("n=%d: MeanDistance %v, brute force %v", n, got, want)
		}
	}
}
