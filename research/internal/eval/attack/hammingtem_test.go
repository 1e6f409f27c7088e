package attack

import (
	"math"
	"math/bits"
	"slices"
	"testing"

	"github.com/wordveil/wordveil/internal/dpexact"
	"github.com/wordveil/wordveil/internal/hamming"
)

// lowCodes are n synthetic codes of L bits held in the low word of
// 256-bit codes, with their Hamming metric.
func lowCodes(n, L int, label string) ([]uint64, []hamming.Code, func(a, b int) float64) {
	low := dpexact.SyntheticCodes(n, L, label)
	codes := make([]hamming.Code, n)
	for i, c := range low {
		codes[i][0] = c
	}
	return low, codes, func(a, b int) float64 { return float64(bits.OnesCount64(low[a] ^ low[b])) }
}

// TestHammingTEMMatchesDpexact: the histogram-built Column of TEM on
// Hamming codes equals dpexact's law (TEM, RestrictedTEM) over every
// output, at truncations inside, across and beyond the codes' distances
// (γ = 256 is SanText), with and without allowed outputs; the histograms
// do not depend on the number of workers. Negative control: the column
// at another γ differs from the law.
func TestHammingTEMMatchesDpexact(t *testing.T) {
	const n, L = 20, 10
	low, codes, _ := lowCodes(n, L, "attack/hamming tem")
	dH := dpexact.HammingDistances(low)
	allowed := make([]bool, n)
	for i := range allowed {
		allowed[i] = i%4 != 2
	}
	for _, al := range [][]bool{nil, allowed} {
		h1, err := NewHammingHist(codes, al, 1)
		if err != nil {
			t.Fatal(err)
		}
		h3, err := NewHammingHist(codes, al, 3)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(h1.counts, h3.counts) {
			t.Fatal("histograms differ with the number of workers")
		}
		for _, c := range []struct{ gamma, eps float64 }{{0, 1}, {3, 2}, {4.5, 0.7}, {256, 0.3}, {256, 5}} {
			var P [][]float64
			if al == nil {
				P, err = dpexact.TEM(dH, c.gamma, c.eps)
			} else {
				P, err = dpexact.RestrictedTEM(dH, c.gamma, c.eps, al)
			}
			if err != nil {
				t.Fatal(err)
			}
			col, err := h1.TEM(c.gamma, c.eps)
			if err != nil {
				t.Fatal(err)
			}
			if g := maxColumnGap(t, col, P); g > 1e-12 {
				t.Errorf("γ=%v ε=%v allowed=%v: column differs from dpexact by %g", c.gamma, c.eps, al != nil, g)
			}
			wrong, err := h1.TEM(c.gamma+2, c.eps)
			if err != nil {
				t.Fatal(err)
			}
			if c.gamma < 8 {
				if g := maxColumnGap(t, wrong, P); g < 1e-3 {
					t.Errorf("control γ=%v: column at γ+2 matches the law (gap %g)", c.gamma, g)
				}
			}
		}
	}
}

// TestHammingTEMMatchesNewTEM: at full 256-bit codes (random, far apart)
// the histogram-built column equals NewTEM's with the Hamming distance,
// including at large ε where the table path is not taken.
func TestHammingTEMMatchesNewTEM(t *testing.T) {
	const n = 40
	codes := make([]hamming.Code, n)
	for i, c := range dpexact.SyntheticCodes(4*n, 64, "attack/full codes") {
		codes[i/4][i%4] = c
	}
	dist := func(a, b int) float64 { return float64(hamming.Distance(codes[a], codes[b])) }
	allowed := make([]bool, n)
	for i := range allowed {
		allowed[i] = i%5 != 0
	}
	h, err := NewHammingHist(codes, allowed, 2)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ gamma, eps float64 }{{100, 0.2}, {120, 0.05}, {256, 0.1}, {130, 9}} {
		ref, err := NewTEM(n, dist, c.gamma, c.eps, allowed)
		if err != nil {
			t.Fatal(err)
		}
		got, err := h.TEM(c.gamma, c.eps)
		if err != nil {
			t.Fatal(err)
		}
		a, b := make([]float64, n), make([]float64, n)
		for y := range n {
			if err := ref.Column(y, a); err != nil {
				t.Fatal(err)
			}
			if err := got.Column(y, b); err != nil {
				t.Fatal(err)
			}
			for w := range a {
				if d := math.Abs(a[w] - b[w]); d > 1e-12*math.Max(a[w], 1e-300) && d > 1e-300 {
					t.Fatalf("γ=%v ε=%v P[%d][%d]: %g vs NewTEM's %g", c.gamma, c.eps, w, y, b[w], a[w])
				}
			}
		}
	}
}

func TestHammingHistRejectsBadInput(t *testing.T) {
	_, codes, _ := lowCodes(6, 8, "attack/hamming bad")
	if _, err := NewHammingHist(nil, nil, 1); err == nil {
		t.Error("no codes accepted")
	}
	if _, err := NewHammingHist(codes, make([]bool, 5), 1); err == nil {
		t.Error("allowed of the wrong length accepted")
	}
	if _, err := NewHammingHist(codes, make([]bool, 6), 1); err == nil {
		t.Error("no allowed output accepted")
	}
	h, err := NewHammingHist(codes, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ gamma, eps float64 }{{-1, 1}, {math.Inf(1), 1}, {math.NaN(), 1}, {3, 0}, {3, math.Inf(1)}} {
		if _, err := h.TEM(c.gamma, c.eps); err == nil {
			t.Errorf("γ=%v ε=%v accepted", c.gamma, c.eps)
		}
	}
	var zero *HammingHist
	if _, err := zero.TEM(3, 1); err == nil {
		t.Error("nil histograms accepted")
	}
	var zt *HammingTEM
	if err := zt.Column(0, nil); err == nil {
		t.Error("nil column accepted")
	}
}
