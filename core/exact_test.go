package core

// Exact output distributions P[w][y] = Pr[M(w) = y], computed from the
// definitions in docs/MECHANISMS.md and deliberately NOT from the samplers' code: the
// audit checks these against the metric-DP inequality, and the chi-square
// tests check the samplers against these.

import (
	"math"
	"math/bits"
)

// exactBRR enumerates every flip mask of the low L bits of codes that use
// only those bits. Flips of the other 256−L bits add the same count to the
// distance from the noisy code to every word (all words are 0 there), so
// they change neither the minimizers nor the ties: enumerating L bits is
// exact for the 256-bit mechanism. lowestIndex selects the biased
// tie-break (a negative control) instead of the uniform one.
func exactBRR(codes []uint64, L int, eps float64, lowestIndex bool) [][]float64 {
	n := len(codes)
	q := 1 / (1 + math.Exp(eps))
	P := newMatrix(n)
	for w := range n {
		for mask := uint64(0); mask < 1<<L; mask++ {
			k := bits.OnesCount64(mask)
			pm := math.Pow(q, float64(k)) * math.Pow(1-q, float64(L-k))
			noisy := codes[w] ^ mask
			best := math.MaxInt
			var arg []int
			for y, c := range codes {
				d := bits.OnesCount64(noisy ^ c)
				if d < best {
					best, arg = d, arg[:0]
				}
				if d == best {
					arg = append(arg, y)
				}
			}
			if lowestIndex {
				P[w][arg[0]] += pm
				continue
			}
			for _, y := range arg {
				P[w][y] += pm / float64(len(arg))
			}
		}
	}
	return P
}

// exactTEM is TEM's closed form for a metric given as a matrix (+Inf for
// "beyond every radius of interest"): Pr[i] ∝ exp(−ε·d(w,i)/2) for
// d(w,i) ≤ γ, and the ⊥ mass (N−|L_w|)·exp(−εγ/2) spread uniformly over
// W \ L_w. bottomScore, if not nil, replaces ln(N−|L_w|) in ⊥'s score (the
// reference-code bug is a negative control).
func exactTEM(d [][]float64, gamma, eps float64, bottomScore func(n, ball int) float64) [][]float64 {
	n := len(d)
	P := newMatrix(n)
	for w := range n {
		ball := 0
		for i := range n {
			if d[w][i] <= gamma {
				ball++
			}
		}
		lnOut := 0.0
		if n-ball > 0 {
			lnOut = math.Log(float64(n - ball))
			if bottomScore != nil {
				lnOut = bottomScore(n, ball)
			}
		}
		z := 0.0
		for i := range n {
			if d[w][i] <= gamma {
				P[w][i] = math.Exp(-eps * d[w][i] / 2)
				z += P[w][i]
			}
		}
		bottom := 0.0
		if n-ball > 0 {
			bottom = math.Exp(-eps*gamma/2 + lnOut)
			z += bottom
		}
		for i := range n {
			if d[w][i] <= gamma {
				P[w][i] /= z
			} else {
				P[w][i] = bottom / z / float64(n-ball)
			}
		}
	}
	return P
}

// exactTEMOnSet is TEM whose L_w is an arbitrary set (members[w]) rather
// than the γ-ball, with ⊥ score −γ + (2/ε)·ln(N−|L_w|): the top-k bug.
func exactTEMOnSet(d [][]float64, members [][]int, gamma, eps float64) [][]float64 {
	n := len(d)
	P := newMatrix(n)
	for w := range n {
		in := make([]bool, n)
		z := 0.0
		for _, i := range members[w] {
			in[i] = true
			P[w][i] = math.Exp(-eps * d[w][i] / 2)
			z += P[w][i]
		}
		out := n - len(members[w])
		bottom := float64(out) * math.Exp(-eps*gamma/2)
		z += bottom
		for i := range n {
			if in[i] {
				P[w][i] /= z
			} else {
				P[w][i] = bottom / z / float64(out)
			}
		}
	}
	return P
}

// exactGeometricList is 1-DG on one list given as positions pos[w]: the
// clamped two-sided geometric, Pr[G=k] = (1−r)/(1+r)·r^|k| with r = e^−ε,
// so Pr[G ≤ −a] = r^a/(1+r) for a ≥ 0.
func exactGeometricList(pos []int, eps float64) [][]float64 {
	n := len(pos)
	order := make([]int, n)
	for w, p := range pos {
		order[p] = w
	}
	r := math.Exp(-eps)
	P := newMatrix(n)
	for w := range n {
		p := pos[w]
		for t := range n {
			var pr float64
			switch {
			case n == 1:
				pr = 1
			case t == 0:
				pr = math.Pow(r, float64(p)) / (1 + r)
			case t == n-1:
				pr = math.Pow(r, float64(n-1-p)) / (1 + r)
			default:
				pr = (1 - r) / (1 + r) * math.Pow(r, math.Abs(float64(t-p)))
			}
			P[w][order[t]] += pr
		}
	}
	return P
}

// exactTEMList is 1-DT on one list: TEM with d(w,w') = |pos[w] − pos[w']|.
func exactTEMList(pos []int, gamma, eps float64) [][]float64 {
	return exactTEM(listDistances(pos), gamma, eps, nil)
}

func listDistances(pos []int) [][]float64 {
	n := len(pos)
	d := newMatrix(n)
	for a := range n {
		for b := range n {
			d[a][b] = math.Abs(float64(pos[a] - pos[b]))
		}
	}
	return d
}

// mixture is the law of "pick one of the Ps uniformly".
func mixture(Ps ...[][]float64) [][]float64 {
	n := len(Ps[0])
	M := newMatrix(n)
	for _, P := range Ps {
		for w := range n {
			for y := range n {
				M[w][y] += P[w][y] / float64(len(Ps))
			}
		}
	}
	return M
}

// maxMetric is max_i d_i.
func maxMetric(ds ...[][]float64) [][]float64 {
	n := len(ds[0])
	M := newMatrix(n)
	for _, d := range ds {
		for a := range n {
			for b := range n {
				M[a][b] = math.Max(M[a][b], d[a][b])
			}
		}
	}
	return M
}

func newMatrix(n int) [][]float64 {
	m := make([][]float64, n)
	for i := range m {
		m[i] = make([]float64, n)
	}
	return m
}
