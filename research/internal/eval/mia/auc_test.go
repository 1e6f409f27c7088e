package mia

import (
	"math"
	"math/rand/v2"
	"testing"
)

// bruteAUC counts pairs: positive above negative 1, tie ½.
func bruteAUC(pos, neg []float64) float64 {
	s := 0.0
	for _, p := range pos {
		for _, n := range neg {
			switch {
			case p > n:
				s++
			case p == n:
				s += 0.5
			}
		}
	}
	return s / float64(len(pos)*len(neg))
}

// bruteDeLong is DeLong's variance from its definition (O(m·n)).
func bruteDeLong(pos, neg []float64) float64 {
	psi := func(p, n float64) float64 {
		switch {
		case p > n:
			return 1
		case p == n:
			return 0.5
		}
		return 0
	}
	v10 := make([]float64, len(pos))
	for i, p := range pos {
		for _, n := range neg {
			v10[i] += psi(p, n) / float64(len(neg))
		}
	}
	v01 := make([]float64, len(neg))
	for j, n := range neg {
		for _, p := range pos {
			v01[j] += psi(p, n) / float64(len(pos))
		}
	}
	return variance(v10)/float64(len(pos)) + variance(v01)/float64(len(neg))
}

func TestROCAUCAgainstPairCount(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		name   string
		m, n   int
		levels int // 0: continuous scores; otherwise scores in {0..levels-1} (ties)
		shift  float64
	}{
		{"continuous", 50, 70, 0, 0.5},
		{"ties", 40, 33, 4, 0.3},
		{"all tied", 5, 6, 1, 0},
		{"separated", 10, 12, 0, 100},
		{"reversed", 9, 8, 0, -100},
	} {
		t.Run(tc.name, func(t *testing.T) {
			draw := func(k int, shift float64) []float64 {
				x := make([]float64, k)
				for i := range x {
					if tc.levels > 0 {
						x[i] = float64(rng.IntN(tc.levels))
						if rng.Float64() < shift {
							x[i] = float64(tc.levels - 1)
						}
					} else {
						x[i] = rng.NormFloat64() + shift
					}
				}
				return x
			}
			pos, neg := draw(tc.m, tc.shift), draw(tc.n, 0)
			got := ROCAUC(pos, neg)
			if want := bruteAUC(pos, neg); math.Abs(got.AUC-want) > 1e-12 {
				t.Errorf("AUC %v, pair count %v", got.AUC, want)
			}
			if want := math.Sqrt(bruteDeLong(pos, neg)); math.Abs(got.SE-want) > 1e-12 {
				t.Errorf("DeLong SE %v, from its definition %v", got.SE, want)
			}
			if !(got.Lo <= got.AUC && got.AUC <= got.Hi && got.Lo >= 0 && got.Hi <= 1) {
				t.Errorf("interval [%v, %v] around %v", got.Lo, got.Hi, got.AUC)
			}
		})
	}
}

func TestROCAUCTooFew(t *testing.T) {
	for _, c := range [][2][]float64{{nil, nil}, {{1}, {0, 1}}, {{1, 2}, {0}}} {
		if a := ROCAUC(c[0], c[1]); !math.IsNaN(a.AUC) || !math.IsNaN(a.SE) {
			t.Errorf("ROCAUC(%v, %v) = %+v, want NaN", c[0], c[1], a)
		}
	}
}
