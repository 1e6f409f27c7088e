package typedtext

import (
	"math"
	"testing"
)

func TestPrior(t *testing.T) {
	vocab := map[string]int{"do": 0, "n't": 1, "'s": 2, "the": 3, "rare": 4}
	lookup := func(w string) (int, bool) { id, ok := vocab[w]; return id, ok }
	rank := []WordFreq{{"the", 100}, {"t", 40}, {"don", 30}, {"s", 20}, {"zzz", 10}}
	p, mass, err := Prior(rank, 5, lookup)
	if err != nil {
		t.Fatal(err)
	}
	sum := 190 + 5*PriorSmoothing
	want := []float64{30.5 / sum, 40.5 / sum, 20.5 / sum, 100.5 / sum, 0.5 / sum}
	for i := range want {
		if math.Abs(p[i]-want[i]) > 1e-15 {
			t.Errorf("prior[%d] = %v, want %v", i, p[i], want[i])
		}
	}
	if math.Abs(mass-190.0/200) > 1e-15 {
		t.Errorf("mass = %v, want 0.95", mass)
	}
	// Negative control: without the clitic mapping "don" and "t" would be
	// dropped and "do" would get the smoothing only.
	if TokenForm("don") != "do" || TokenForm("t") != "n't" || TokenForm("the") != "the" {
		t.Error("TokenForm does not map the clitic pieces")
	}
	for _, bad := range []struct {
		rank []WordFreq
		n    int
	}{{rank, 0}, {[]WordFreq{{"the", -1}}, 5}} {
		if _, _, err := Prior(bad.rank, bad.n, lookup); err == nil {
			t.Errorf("Prior(%v, %d) accepted", bad.rank, bad.n)
		}
	}
	if _, _, err := Prior(rank, 5, func(string) (int, bool) { return 7, true }); err == nil {
		t.Error("an id outside the vocabulary was accepted")
	}
}

func TestFrequenciesAndMix(t *testing.T) {
	f, err := Frequencies([]int64{1, 3, 0})
	if err != nil || f[0] != 0.25 || f[1] != 0.75 || f[2] != 0 {
		t.Fatalf("Frequencies: %v, %v", f, err)
	}
	m, err := Mix(f, []float64{0.5, 0, 0.5})
	if err != nil || m[0] != 0.375 || m[1] != 0.375 || m[2] != 0.25 {
		t.Fatalf("Mix: %v, %v", m, err)
	}
	for _, bad := range [][]int64{{0, 0}, {-1, 2}, nil} {
		if _, err := Frequencies(bad); err == nil {
			t.Errorf("Frequencies(%v) accepted", bad)
		}
	}
	if _, err := Mix(); err == nil {
		t.Error("Mix() accepted")
	}
	if _, err := Mix(f, []float64{1}); err == nil {
		t.Error("Mix of different lengths accepted")
	}
}
