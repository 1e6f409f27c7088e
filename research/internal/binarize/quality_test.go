package binarize

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/wordveil/wordveil/internal/hamming"
)

func TestSpearman(t *testing.T) {
	tests := []struct {
		name    string
		x, y    []float64
		want    float64
		defined bool
	}{
		{"identical order", []float64{1, 2, 3, 4}, []float64{10, 20, 30, 40}, 1, true},
		{"reversed", []float64{1, 2, 3, 4}, []float64{4, 3, 2, 1}, -1, true},
		{"monotone, not linear", []float64{1, 2, 3, 4}, []float64{1, 8, 27, 64}, 1, true},
		// Ranks of y with a tie: 1, 2.5, 2.5, 4 → Pearson with 1, 2, 3, 4.
		{"tie averaged", []float64{1, 2, 3, 4}, []float64{5, 7, 7, 9}, 0.9486832980505138, true},
		{"constant", []float64{1, 2, 3}, []float64{5, 5, 5}, 0, false},
	}
	for _, tc := range tests {
		m := len(tc.x)
		got, ok := spearman(tc.x, tc.y, make([]float64, m), make([]float64, m), make([]int, m))
		if ok != tc.defined || math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%s: got %v (%t), want %v (%t)", tc.name, got, ok, tc.want, tc.defined)
		}
	}
}

// The counting selection agrees with a sort by (distance, id).
func TestHammingTopTies(t *testing.T) {
	r := newRNG(9, 9)
	codes := make([]hamming.Code, 300)
	for i := range codes {
		// Few distinct codes, so ties are everywhere.
		codes[i] = hamming.Code{uint64(r.intn(4)), 0, uint64(r.intn(2)) << 63, 0}
	}
	s := newSearcher(len(codes), 20)
	for q := 0; q < 30; q++ {
		for _, k := range []int{1, 5, 20} {
			got := slices.Clone(s.hammingTop(codes, q, k))
			var ids []int
			for i := range codes {
				if i != q {
					ids = append(ids, i)
				}
			}
			slices.SortStableFunc(ids, func(a, b int) int {
				return hamming.Distance(codes[q], codes[a]) - hamming.Distance(codes[q], codes[b])
			})
			want := ids[:k]
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Fatalf("q=%d k=%d: got %v, want %v", q, k, got, want)
			}
		}
	}
}

func TestCosineTop(t *testing.T) {
	e := clustered(5, 4, 30, 6, 1)
	// Duplicate a row under another name to create an exact tie.
	e.Words = append(e.Words, "dup")
	e.Vectors = append(e.Vectors, e.Vector(7)...)
	unit := unitRows(e)
	s := newSearcher(e.Len(), 15)
	for _, q := range []int{0, 7, 50, e.Len() - 1} {
		got := s.cosineTop(unit, e.Dim, q, 15)
		var all []neighbour
		for i := 0; i < e.Len(); i++ {
			if i != q {
				all = append(all, neighbour{dist: 1 - dot32(unit[q*e.Dim:(q+1)*e.Dim], unit[i*e.Dim:(i+1)*e.Dim]), id: i})
			}
		}
		slices.SortFunc(all, func(a, b neighbour) int {
			if less(a, b) {
				return -1
			}
			return 1
		})
		if !slices.Equal(got, all[:15]) {
			t.Fatalf("q=%d: got %v, want %v", q, got, all[:15])
		}
	}
}

func TestBalanceAndCorrelation(t *testing.T) {
	codes := make([]hamming.Code, 4)
	for i := range codes {
		var c hamming.Code
		c = c.SetBit(0, i%2 == 0) // balanced
		c = c.SetBit(1, i%2 == 0) // equal to bit 0
		c = c.SetBit(2, i%2 == 1) // complement of bit 0
		c = c.SetBit(3, i == 0)   // p = 1/4
		c = c.SetBit(255, i < 2)  // balanced, uncorrelated with bit 0
		codes[i] = c
	}
	b := Balance(codes)
	if b.Ones[0] != 0.5 || b.Ones[3] != 0.25 || b.Ones[4] != 0 {
		t.Fatalf("ones %v", b.Ones[:5])
	}
	// Bits 4..254 are constant zero: |p−½| = ½, the worst; lowest index wins.
	if b.WorstBit != 4 || b.WorstDeviation != 0.5 {
		t.Fatalf("worst bit %d (%g)", b.WorstBit, b.WorstDeviation)
	}
	mean, undefined := BitCorrelation(codes)
	// Defined pairs: among bits {0,1,2,3,255}: 10 pairs; the rest involve a constant bit.
	if undefined != Bits*(Bits-1)/2-10 {
		t.Fatalf("undefined pairs %d", undefined)
	}
	// |corr|: (0,1)=1 (0,2)=1 (1,2)=1 (0,255)=0 (1,255)=0 (2,255)=0,
	// bit 3 vs a balanced bit: 1/√3 each for 0, 1, 2, 255.
	want := (3 + 4/math.Sqrt(3)) / 10
	if math.Abs(mean-want) > 1e-12 {
		t.Fatalf("mean |corr| %v, want %v", mean, want)
	}
	if m, u := BitCorrelation(nil); m != 0 || u != Bits*(Bits-1)/2 {
		t.Fatalf("empty: %v %v", m, u)
	}
}

func TestSplitQueries(t *testing.T) {
	tune, report, err := SplitQueries(1000, 300, 4)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]bool{}
	for _, q := range append(slices.Clone(tune), report...) {
		if seen[q] || q < 0 || q >= 1000 {
			t.Fatalf("query %d repeated or out of range", q)
		}
		seen[q] = true
	}
	t2, r2, _ := SplitQueries(1000, 300, 4)
	if !slices.Equal(tune, t2) || !slices.Equal(report, r2) {
		t.Fatal("split not deterministic")
	}
	if _, _, err := SplitQueries(100, 51, 1); !errors.Is(err, ErrInvalid) {
		t.Fatalf("oversized split: %v", err)
	}
}

func TestEvaluateErrors(t *testing.T) {
	e := clustered(1, 2, 10, 3, 0.5)
	codes := randomCodes(1, e.Len())
	tests := []struct {
		name  string
		codes []hamming.Code
		opts  QualityOptions
	}{
		{"code count", codes[:5], QualityOptions{NumQueries: 3, K: 2, RankDepth: 5}},
		{"K zero", codes, QualityOptions{NumQueries: 3, K: 0, RankDepth: 5}},
		{"depth one", codes, QualityOptions{NumQueries: 3, K: 1, RankDepth: 1}},
		{"K too large", codes, QualityOptions{NumQueries: 3, K: 20, RankDepth: 5}},
		{"no queries", codes, QualityOptions{K: 2, RankDepth: 5}},
		{"too many queries", codes, QualityOptions{NumQueries: 21, K: 2, RankDepth: 5}},
		{"query out of range", codes, QualityOptions{Queries: []int{0, 20}, K: 2, RankDepth: 5}},
	}
	for _, tc := range tests {
		if _, err := Evaluate(e, tc.codes, tc.opts); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: got %v, want ErrInvalid", tc.name, err)
		}
	}
	r, err := Evaluate(e, codes, QualityOptions{NumQueries: 20, K: 2, RankDepth: 5})
	if err != nil || r.NumQueries != 20 || r.N != 20 {
		t.Fatalf("valid evaluation: %+v, %v", r, err)
	}
}

func TestPairedDifference(t *testing.T) {
	a := &QualityReport{PerQueryRecall: []float64{0.1, 0.5, 0.3}}
	b := &QualityReport{PerQueryRecall: []float64{0.2, 0.6, 0.5}}
	m, se, err := PairedDifference(a, b)
	// Differences 0.1, 0.1, 0.2: mean 0.4/3, sd 0.0577, se 0.0333.
	if err != nil || math.Abs(m-0.4/3) > 1e-12 || math.Abs(se-math.Sqrt(0.01/3/3)) > 1e-12 {
		t.Fatalf("got %v ± %v (%v)", m, se, err)
	}
	if _, _, err := PairedDifference(a, &QualityReport{}); !errors.Is(err, ErrInvalid) {
		t.Fatalf("mismatched reports: %v", err)
	}
}

func TestEvaluateDistanceScale(t *testing.T) {
	// Four codes: 0, 1 bit, 3 bits, 255 bits set (bits 0.. set in order).
	mk := func(n int) hamming.Code {
		var c hamming.Code
		for i := 0; i < n; i++ {
			c = c.SetBit(i, true)
		}
		return c
	}
	codes := []hamming.Code{mk(0), mk(1), mk(3), mk(255)}
	e := &Embeddings{Words: []string{"a", "b", "c", "d"}, Dim: 2, Vectors: []float32{1, 0, 1, 0.1, 1, 0.3, -1, 0}}
	r, err := Evaluate(e, codes, QualityOptions{Queries: []int{0, 3}, K: 1, RankDepth: 2})
	if err != nil {
		t.Fatal(err)
	}
	// Query 0: distances 1, 3, 255 (nearest 1). Query 3: 255, 254, 252 (nearest 252).
	if r.MedianNNDistance != (1+252)/2.0 {
		t.Errorf("median NN distance %v", r.MedianNNDistance)
	}
	ds := []float64{1, 3, 255, 255, 254, 252}
	var m, v float64
	for _, d := range ds {
		m += d / 6
	}
	for _, d := range ds {
		v += (d - m) * (d - m) / 6
	}
	if math.Abs(r.MeanPairDistance-m) > 1e-9 || math.Abs(r.PairDistanceSD-math.Sqrt(v)) > 1e-9 {
		t.Errorf("pair distance %v ± %v, want %v ± %v", r.MeanPairDistance, r.PairDistanceSD, m, math.Sqrt(v))
	}
	if r.RecallAtK != 1 {
		t.Errorf("recall %v, want 1 (nearest by cosine and by Hamming agree)", r.RecallAtK)
	}
}
