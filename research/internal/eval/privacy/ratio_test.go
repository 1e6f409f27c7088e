package privacy

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/wordveil/wordveil/internal/hamming"
	evalseed "github.com/wordveil/wordveil/internal/seeded"
)

func seeded(b byte) *rand.ChaCha8 {
	var s [32]byte
	s[0] = b
	return evalseed.Key(s)
}

func randomCodes(r *rand.Rand, n int) []hamming.Code {
	cs := make([]hamming.Code, n)
	for i := range cs {
		// Biased bits give a spread of distances, duplicates some of the time.
		for w := range 4 {
			cs[i][w] = r.Uint64() & r.Uint64()
		}
		if i > 0 && r.IntN(10) == 0 {
			cs[i] = cs[r.IntN(i)]
		}
	}
	return cs
}

func TestHammingRatioBruteForce(t *testing.T) {
	r := rand.New(seeded(1))
	for _, n := range []int{2, 3, 4, 5, 17, 256, 601} {
		cs := randomCodes(r, n)
		sum, mx := 0.0, 0
		for i := range cs {
			for j := range cs {
				if i != j {
					d := hamming.Distance(cs[i], cs[j])
					sum += float64(d)
					mx = max(mx, d)
				}
			}
		}
		got, err := HammingRatio(cs)
		if err != nil {
			t.Fatal(err)
		}
		avg := sum / float64(n*(n-1))
		if math.Abs(got.Avg-avg) > 1e-9*avg || got.Max != float64(mx) || !got.Exact ||
			got.Pairs != int64(n*(n-1)) || got.AvgLo != got.Avg || got.AvgHi != got.Avg || got.N != n {
			t.Fatalf("n=%d: got %+v, want avg %v max %d", n, got, avg, mx)
		}
		if want := sum / float64(n*n); math.Abs(got.AvgAllPairs()-want) > 1e-9*want {
			t.Fatalf("AvgAllPairs %v, want %v", got.AvgAllPairs(), want)
		}
	}
	// The early exit at the largest possible distance.
	var zero, ones hamming.Code
	ones = hamming.Code{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)}
	got, _ := HammingRatio([]hamming.Code{zero, ones, zero, zero})
	if got.Max != 256 {
		t.Fatalf("max %v", got.Max)
	}
	if _, err := HammingRatio(randomCodes(r, 1)); !errors.Is(err, ErrTooFewWords) {
		t.Fatalf("err %v", err)
	}
}

// vectors with varied norms (per-row scale), like embeddings, or isotropic.
func randomVectors(r *rand.Rand, n, dim int, spread bool) []float32 {
	v := make([]float32, n*dim)
	for i := range n {
		s := 1.0
		if spread {
			s = math.Exp(0.3 * r.NormFloat64())
		}
		for k := range dim {
			v[i*dim+k] = float32(s * r.NormFloat64() / math.Sqrt(1+float64(k)/10))
		}
	}
	return v
}

func bruteEuclid(v []float32, dim int) (avg, mx float64) {
	n := len(v) / dim
	sum := 0.0
	for i := range n {
		for j := range n {
			if i != j {
				d := dist(v[i*dim:(i+1)*dim], v[j*dim:(j+1)*dim])
				sum += d
				mx = max(mx, d)
			}
		}
	}
	return sum / float64(n*(n-1)), mx
}

func TestEuclideanRatioBruteForce(t *testing.T) {
	r := rand.New(seeded(2))
	for _, tc := range []struct{ n, dim int }{{2, 1}, {3, 2}, {10, 3}, {200, 5}, {500, 100}, {64, 1}} {
		for _, spread := range []bool{false, true} {
			v := randomVectors(r, tc.n, tc.dim, spread)
			avg, mx := bruteEuclid(v, tc.dim)
			got, err := EuclideanRatio(v, tc.dim, 0, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got.Max != mx || math.Abs(got.Avg-avg) > 1e-9*avg || !got.Exact {
				t.Fatalf("%+v spread=%v: got %+v, want avg %v max %v", tc, spread, got, avg, mx)
			}
			s, err := EuclideanRatio(v, tc.dim, 20000, seeded(3))
			if err != nil {
				t.Fatal(err)
			}
			if s.Exact || s.Max != mx || s.Pairs != 20000 || !(s.AvgLo <= s.Avg && s.Avg <= s.AvgHi) {
				t.Fatalf("sampled %+v", s)
			}
			// 95% interval; a 6-half-width miss would be a bug, not chance.
			if half := s.AvgHi - s.Avg; math.Abs(s.Avg-avg) > 3*half+1e-9 {
				t.Fatalf("sampled avg %v ± %v, exact %v", s.Avg, half, avg)
			}
		}
	}
	// Ties and duplicates: all points equal, then two clusters.
	same := make([]float32, 30)
	if got, _ := EuclideanRatio(same, 3, 0, nil); got.Max != 0 || got.Avg != 0 {
		t.Fatalf("%+v", got)
	}
	for _, bad := range []struct {
		v       []float32
		dim, sm int
		src     rand.Source
		want    error
	}{
		{[]float32{1, 2, 3}, 2, 0, nil, ErrBadInput},
		{[]float32{1, 2}, 0, 0, nil, ErrBadInput},
		{[]float32{1, 2}, 2, 0, nil, ErrTooFewWords},
		{[]float32{1, 2}, 1, 1, seeded(0), ErrBadInput},
		{[]float32{1, 2}, 1, -1, seeded(0), ErrBadInput},
		{[]float32{1, 2}, 1, 10, nil, ErrBadInput},
		{[]float32{1, float32(math.NaN())}, 1, 0, nil, ErrBadInput},
	} {
		if _, err := EuclideanRatio(bad.v, bad.dim, bad.sm, bad.src); !errors.Is(err, bad.want) {
			t.Fatalf("%v: err %v, want %v", bad, err, bad.want)
		}
	}
}

func TestListRatioBruteForce(t *testing.T) {
	for n := range 40 {
		sum, mx := 0, 0
		for i := range n {
			for j := range n {
				if i != j {
					d := max(i-j, j-i)
					sum += d
					mx = max(mx, d)
				}
			}
		}
		got := ListRatio(n)
		want := 0.0
		if n >= 2 {
			want = float64(sum) / float64(n*(n-1))
		}
		if math.Abs(got.Avg-want) > 1e-12 || got.Max != float64(mx) || !got.Exact {
			t.Fatalf("n=%d: %+v, want avg %v max %d", n, got, want, mx)
		}
	}
}

func TestListsRatio(t *testing.T) {
	r := rand.New(seeded(4))
	n := 120
	lists := make([][]int32, 3)
	for l := range lists {
		p := r.Perm(n)
		lists[l] = make([]int32, n)
		for k, w := range p {
			lists[l][k] = int32(w)
		}
	}
	pos := make([][]int, 3)
	for l := range lists {
		pos[l] = make([]int, n)
		for k, w := range lists[l] {
			pos[l][w] = k
		}
	}
	sum, mx := 0, 0
	for i := range n {
		for j := range n {
			if i != j {
				d := 0
				for l := range pos {
					d = max(d, pos[l][i]-pos[l][j], pos[l][j]-pos[l][i])
				}
				sum += d
				mx = max(mx, d)
			}
		}
	}
	avg := float64(sum) / float64(n*(n-1))
	got, err := ListsRatio(lists, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(got.Avg-avg) > 1e-9 || got.Max != float64(mx) || !got.Exact || got.Metric != "max-list-position(3 lists)" {
		t.Fatalf("%+v, want avg %v max %d", got, avg, mx)
	}
	s, err := ListsRatio(lists, 50000, seeded(5))
	if err != nil {
		t.Fatal(err)
	}
	if s.Exact || s.Max != float64(mx) || math.Abs(s.Avg-avg) > 3*(s.AvgHi-s.Avg) {
		t.Fatalf("sampled %+v, exact %v", s, avg)
	}
	one, err := ListsRatio(lists[:1], 1000, seeded(5))
	if err != nil || !one.Exact || one.Avg != float64(n+1)/3 {
		t.Fatalf("%+v %v", one, err)
	}
	for _, bad := range [][][]int32{nil, {{0}}, {{0, 1}, {0}}, {{0, 0}}, {{0, 2}}, {{0, -1}}} {
		if _, err := ListsRatio(bad, 0, nil); err == nil {
			t.Fatalf("%v: no error", bad)
		}
	}
	if _, err := ListsRatio(lists, 10, nil); !errors.Is(err, ErrBadInput) {
		t.Fatal(err)
	}
}

func TestConvertEpsilon(t *testing.T) {
	euclid := Ratio{Metric: "euclidean", Avg: 5, Max: 12}
	ham := Ratio{Metric: "hamming", Avg: 125, Max: 200}
	// Madlib ε = 10 on Euclidean → BRR per-bit ε = 10·5/125 = 0.4.
	if got := ConvertEpsilon(10, euclid, ham, "avg"); math.Abs(got-0.4) > 1e-12 {
		t.Fatalf("avg: %v", got)
	}
	if got := ConvertEpsilon(10, euclid, ham, "max"); math.Abs(got-0.6) > 1e-12 {
		t.Fatalf("max: %v", got)
	}
	for _, by := range []string{"avg", "max"} {
		epsB := ConvertEpsilon(7.5, euclid, ham, by)
		if back := ConvertEpsilon(epsB, ham, euclid, by); math.Abs(back-7.5) > 1e-12 {
			t.Fatalf("%s round trip %v", by, back)
		}
		// Equal privacy-loss estimates.
		pa, pb := euclid.Avg, ham.Avg
		if by == "max" {
			pa, pb = euclid.Max, ham.Max
		}
		if math.Abs(7.5*pa-epsB*pb) > 1e-9 {
			t.Fatalf("%s: %v·%v != %v·%v", by, 7.5, pa, epsB, pb)
		}
	}
	if !math.IsNaN(ConvertEpsilon(1, euclid, ham, "median")) || !math.IsNaN(ConvertEpsilon(1, euclid, Ratio{}, "avg")) {
		t.Fatal("want NaN")
	}
}
