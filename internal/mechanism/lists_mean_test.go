package mechanism

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/wordveil/wordveil/internal/sample"
	"github.com/wordveil/wordveil/internal/seeded"
	"github.com/wordveil/wordveil/internal/wva"
)

// refListsMean is listsMean as it was first written (sample.UniformInt
// through the rand.Source interface, a float64 sum): the faster form must
// give the same float64, bit for bit, since P_avg is a public constant of
// the asset that bills and ledgers carry.
func refListsMean(lists []wva.Permutation) float64 {
	n := len(lists[0].Order)
	if n < 2 {
		return 0
	}
	if len(lists) == 1 {
		return float64(n+1) / 3
	}
	src := seeded.Key([32]byte{'p', 'a', 'v', 'g'})
	const pairs = 200000
	sum := 0.0
	for k := 0; k < pairs; k++ {
		x := sample.UniformInt(src, n)
		y := sample.UniformInt(src, n-1)
		if y >= x {
			y++
		}
		d := 0
		for _, l := range lists {
			d = max(d, absInt(int(l.Pos[x])-int(l.Pos[y])))
		}
		sum += float64(d)
	}
	return sum / pairs
}

func TestListsMeanMatchesReference(t *testing.T) {
	a, err := wva.Default()
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(26, 2))
	perm := func(n int) wva.Permutation {
		order := make([]uint32, n)
		for i, p := range r.Perm(n) {
			order[i] = uint32(p)
		}
		p, err := wva.NewPermutation(order)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	cases := map[string][]wva.Permutation{
		"default asset":    a.Lists,
		"one list":         {perm(1000)},
		"two words":        {perm(2), perm(2)},
		"three lists, 7":   {perm(7), perm(7), perm(7)},
		"two lists, 3,001": {perm(3001), perm(3001)},
		// n − 1 = 2^31 − 1 would make Lemire's rejection likely; a
		// small n that is not a power of two exercises the threshold.
		"two lists, 5": {perm(5), perm(5)},
	}
	for name, lists := range cases {
		got, want := listsMean(lists), refListsMean(lists)
		if math.Float64bits(got) != math.Float64bits(want) {
			t.Errorf("%s: listsMean = %v, reference %v", name, got, want)
		}
	}
}

func BenchmarkListsMean(b *testing.B) {
	a, err := wva.Default()
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		listsMean(a.Lists)
	}
}
