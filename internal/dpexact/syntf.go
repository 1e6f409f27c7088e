package dpexact

import "math"

// synTFSensitivity is Δu, the sensitivity of SynTF's utility: a cosine
// lies in [−1, 1], so it moves by at most 2 between two inputs.
const synTFSensitivity = 2.0

// SynTF is the exact law of SynTF (Weggenmann and Kerschbaum, SIGIR
// 2018): the exponential mechanism over every word, the input included,
// with the cosine of the word vectors as the utility,
//
//	Pr[y | w] = exp(ε·u(w,y)/(2Δu)) / Σ_z exp(ε·u(w,z)/(2Δu)),
//	u(w, y) = cos(v_w, v_y),  Δu = 2.
//
// It is ε-DP at word level (d(w,w') = 1 for w ≠ w'), and (ε/2)·chord
// metric-DP on the unit sphere (ChordDistances), because
// |cos(a,y) − cos(b,y)| ≤ ‖â − b̂‖₂ moves each of the numerator and the
// normalizer by at most e^(ε/4·chord).
//
// The cosine is computed from the normalized vectors and clamped to
// [−1, 1] (the utility's range, which Δu assumes). vectors must be
// non-empty, of one length ≥ 1, finite and non-zero; ε finite and > 0.
func SynTF(vectors [][]float64, eps float64) ([][]float64, error) {
	return synTF(vectors, eps, eps/(2*synTFSensitivity))
}

// SynTFNoHalf is SynTF scored exp(ε·u/Δu) instead of exp(ε·u/(2Δu)): the
// exponential mechanism without its factor 1/2, which is only 2ε-DP. A
// negative control: audited at ε (word level) it violates wherever the
// normalizer of a word is larger than that of a word far from it. It is
// SynTF at 2ε.
func SynTFNoHalf(vectors [][]float64, eps float64) ([][]float64, error) {
	return synTF(vectors, eps, eps/synTFSensitivity)
}

// synTF is Pr[y | w] ∝ exp(scale·cos(w, y)). The weights are taken
// relative to the row's largest score (the input's own, cos = 1), so the
// largest weight is 1 and nothing that matters underflows.
func synTF(vectors [][]float64, eps, scale float64) ([][]float64, error) {
	if err := checkEps(eps); err != nil {
		return nil, err
	}
	unit, err := unitVectors(vectors)
	if err != nil {
		return nil, err
	}
	n := len(unit)
	P := newMatrix(n)
	score := make([]float64, n)
	for w := range n {
		best := math.Inf(-1)
		for y := range n {
			var c float64
			for i, x := range unit[w] {
				c += x * unit[y][i]
			}
			score[y] = scale * min(1, max(-1, c))
			best = max(best, score[y])
		}
		z := 0.0
		for y, s := range score {
			P[w][y] = math.Exp(s - best)
			z += P[w][y]
		}
		for y := range P[w] {
			P[w][y] /= z
		}
	}
	return P, nil
}
