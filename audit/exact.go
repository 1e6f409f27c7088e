package audit

// Exact output distributions P[w][y] = Pr[M(w) = y], computed from the
// definitions in docs/MECHANISMS.md and deliberately NOT from the samplers'
// code. Ported from package core's tests (exact_test.go).

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/wordveil/wordveil/hamming"
)

// MaxBRRBits is the largest code length BRR accepts (2^L flip masks are
// enumerated per word).
const MaxBRRBits = 20

// BRR is the exact law of BRR on codes that use only their low L bits (the
// other 256−L bits zero): every flip mask of the L bits is enumerated, with
// uniform tie-breaking among the nearest codes. Flips of the other bits add
// the same count to the distance from the noisy code to every word, so
// they change neither the minimizers nor the ties: enumerating L bits is
// exact for the 256-bit mechanism. It fails if L is outside [1,
// MaxBRRBits] or a code has bits above L.
func BRR(codes []uint64, L int, eps float64) ([][]float64, error) {
	return brr(codes, L, eps, false)
}

func brr(codes []uint64, L int, eps float64, lowestIndex bool) ([][]float64, error) {
	if L < 1 || L > MaxBRRBits {
		return nil, fmt.Errorf("audit: BRR code length %d outside [1, %d]", L, MaxBRRBits)
	}
	for i, c := range codes {
		if c>>L != 0 {
			return nil, fmt.Errorf("audit: BRR code %d has bits above %d", i, L)
		}
	}
	n := len(codes)
	q := 1 / (1 + math.Exp(eps))
	P := newMatrix(n)
	var arg []int
	for w := range n {
		for mask := uint64(0); mask < 1<<L; mask++ {
			k := bits.OnesCount64(mask)
			pm := math.Pow(q, float64(k)) * math.Pow(1-q, float64(L-k))
			noisy := codes[w] ^ mask
			best := math.MaxInt
			arg = arg[:0]
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
	return P, nil
}

// TEM is TEM's closed form for a metric given as a matrix (+Inf meaning
// "beyond every radius of interest"): Pr[i] ∝ exp(−ε·d(w,i)/2) for
// d(w,i) ≤ γ, and the ⊥ mass (N−|L_w|)·exp(−εγ/2) spread uniformly over
// W \ L_w. It is the law of TEMHamming (d = Hamming distance of codes),
// of TEM on an asset's balls (d = quantized Euclidean distance) and of
// 1-DT on one list (d = ListDistances).
func TEM(d [][]float64, gamma, eps float64) [][]float64 {
	return tem(d, gamma, eps, nil)
}

// tem is TEM; bottomScore, if not nil, replaces ln(N−|L_w|) in ⊥'s score.
func tem(d [][]float64, gamma, eps float64, bottomScore func(n, ball int) float64) [][]float64 {
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

// DiffractorGeometric is the exact law of 1-DG over lists given as
// positions (pos[l][w] is w's position in list l): a uniformly chosen
// list, then the clamped two-sided geometric Pr[G=k] = (1−r)/(1+r)·r^|k|,
// r = e^−ε.
func DiffractorGeometric(pos [][]int, eps float64) [][]float64 {
	Ps := make([][][]float64, len(pos))
	for l, p := range pos {
		Ps[l] = geometricList(p, eps)
	}
	return Mixture(Ps...)
}

// DiffractorTEM is the exact law of 1-DT over lists given as positions: a
// uniformly chosen list, then TEM with d(w,w') = |pos[w] − pos[w']|.
func DiffractorTEM(pos [][]int, gamma, eps float64) [][]float64 {
	Ps := make([][][]float64, len(pos))
	for l, p := range pos {
		Ps[l] = TEM(ListDistances(p), gamma, eps)
	}
	return Mixture(Ps...)
}

func geometricList(pos []int, eps float64) [][]float64 {
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

// ListDistances is the list-position metric |pos[a] − pos[b]|.
func ListDistances(pos []int) [][]float64 {
	n := len(pos)
	d := newMatrix(n)
	for a := range n {
		for b := range n {
			d[a][b] = math.Abs(float64(pos[a] - pos[b]))
		}
	}
	return d
}

// HammingDistances is the Hamming metric of codes.
func HammingDistances(codes []hamming.Code) [][]float64 {
	d := newMatrix(len(codes))
	for a := range codes {
		for b := range codes {
			d[a][b] = float64(hamming.Distance(codes[a], codes[b]))
		}
	}
	return d
}

// Mixture is the law of "pick one of the Ps uniformly".
func Mixture(Ps ...[][]float64) [][]float64 {
	if len(Ps) == 0 {
		return nil
	}
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

// MaxMetric is max_i d_i, the metric of 1-Diffractor over several lists.
func MaxMetric(ds ...[][]float64) [][]float64 {
	if len(ds) == 0 {
		return nil
	}
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
