package dpexact

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// TruncGumbel is the exact law of the truncated Gumbel mechanism (the
// calibration of the public MLDP implementation) on the Euclidean
// vocabulary vectors, at ε. For input w:
//
//  1. draw K from Poisson(μ), μ = ln(N − 1), truncated to [0, N − 1];
//  2. take the K words nearest to v_w (distance, then lower id: w itself,
//     at distance 0, is first);
//  3. add to each candidate's distance an independent Gumbel(0, b)
//     variate conditioned on |g| ≤ Δmax, and release the candidate with
//     the smallest noisy distance (K = 0 releases w).
//
// So Pr[y | w] = π_0·[y = w] + Σ_{k≥1} π_k·Pr[y wins among the k nearest].
// With x = d_i + g the noisy distance of candidate i, f and S the density
// and survival function of the truncated Gumbel,
//
//	Pr[i wins] = ∫ f(x − d_i)·Π_{j≠i} S(x − d_j) dx,   x ∈ [−Δmax, Δmax]
//
// (w's own noisy distance is at most Δmax, so no winner exceeds it). In x
// every factor is smooth except where some x − d_j = −Δmax, so the
// integral is taken by 16-point Gauss–Legendre on panels of width at most
// b/8 between those breakpoints; the absolute error per entry is below
// 1e-13 (TestTruncGumbelQuadratureConverges), far below RowSumSlack.
//
// The constants are computed here from the definition, independently of
// the mechanism's code: Δmin and Δmax are the smallest and largest
// distance between two words (EuclideanDistances), and b is
// TruncGumbelScale(ε, N, Δmin, Δmax).
//
// The claim published with the mechanism, ε·‖v_w − v_w'‖₂ metric DP, does
// not hold: K ≤ N − 1 candidates are the K nearest words including w, so
// the word farthest from w is never a candidate and Pr[far | w] = 0,
// while a word nearer to it releases it with positive probability. The
// law has such zeros on every vocabulary, so it is not ε-DP at word level
// either, for any ε.
//
// vectors must be at least 3 distinct vectors (Δmin > 0) of one length
// ≥ 1 with finite entries; ε must give a positive scale (see
// TruncGumbelScale). Cost: O(N³·Q) time and O(N·Q) memory for Q
// quadrature nodes, Q ≤ 16·(16·Δmax/b + N + 1).
func TruncGumbel(vectors [][]float64, eps float64) ([][]float64, error) {
	return truncGumbel(vectors, eps, truncGumbelPanels)
}

// truncGumbelPanels is the number of quadrature panels per Gumbel scale b.
const truncGumbelPanels = 8

func truncGumbel(vectors [][]float64, eps float64, panelsPerScale int) ([][]float64, error) {
	d, err := EuclideanDistances(vectors)
	if err != nil {
		return nil, err
	}
	n := len(d)
	if n < 3 {
		return nil, fmt.Errorf("%w: the truncated Gumbel mechanism needs at least 3 words, got %d", ErrInvalid, n)
	}
	dmin, dmax := math.Inf(1), 0.0
	for a, row := range d {
		for b, x := range row {
			if a != b {
				dmin, dmax = min(dmin, x), max(dmax, x)
			}
		}
	}
	scale, err := TruncGumbelScale(eps, n, dmin, dmax)
	if err != nil {
		return nil, err
	}
	g := newTruncatedGumbel(scale, dmax)
	pi := truncatedPoisson(math.Log(float64(n-1)), n-1)
	nodes, weights := gaussLegendre16()

	P := newMatrix(n)
	order := make([]int, n)
	var xs, ws []float64
	surv := newMatrix(n) // surv[c][s] = S(x_s − d_c), c-th nearest
	dens := newMatrix(n) // dens[c][s] = f(x_s − d_c)
	prod := newMatrix(n) // prod[c][s] = Π over the other candidates of S
	for w := range n {
		for y := range order {
			order[y] = y
		}
		slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(d[w][a], d[w][b]) })
		// Breakpoints: x = d_j − Δmax, where S(x − d_j) leaves 1 and
		// f(x − d_j) starts; x = d_j + Δmax ≥ Δmax lies past the end.
		cuts := []float64{-dmax, dmax}
		for _, y := range order {
			cuts = append(cuts, d[w][y]-dmax)
		}
		slices.Sort(cuts)
		cuts = slices.Compact(cuts)
		xs, ws = xs[:0], ws[:0]
		for i := 1; i < len(cuts); i++ {
			lo, hi := cuts[i-1], cuts[i]
			m := int(math.Ceil((hi - lo) / scale * float64(panelsPerScale)))
			m = max(m, 1)
			h := (hi - lo) / float64(m)
			for p := range m {
				a := lo + float64(p)*h
				for q, t := range nodes {
					xs = append(xs, a+h/2*(t+1))
					ws = append(ws, h/2*weights[q])
				}
			}
		}
		for c, y := range order {
			surv[c], dens[c], prod[c] = resize(surv[c], len(xs)), resize(dens[c], len(xs)), resize(prod[c], len(xs))
			for s, x := range xs {
				surv[c][s] = g.survival(x - d[w][y])
				dens[c][s] = g.density(x - d[w][y])
			}
		}
		P[w][w] += pi[0]
		// k candidates: the first k of order. The candidate joining at k
		// multiplies the others' products by its survival and starts its
		// own from the product of theirs.
		for k := 1; k < n; k++ {
			nw := k - 1
			for s := range xs {
				p := 1.0
				for j := range nw {
					p *= surv[j][s]
				}
				prod[nw][s] = p
			}
			for i := range nw {
				for s := range xs {
					prod[i][s] *= surv[nw][s]
				}
			}
			for i := range k {
				var p float64
				for s, wt := range ws {
					p += wt * dens[i][s] * prod[i][s]
				}
				P[w][order[i]] += pi[k] * p
			}
		}
	}
	return P, nil
}

// TruncGumbelScale is the Gumbel scale b of the truncated Gumbel
// mechanism for ε, N words, smallest distance Δmin and largest Δmax, as
// the public MLDP implementation calibrates it:
//
//	a = (ε − 2(1 + ln N)/Δmin) / 3,
//	b = 2Δmax / min(W₀(2a·Δmax), ln(a·Δmin)),
//
// W₀ the principal branch of Lambert's W, computed here by bisection on
// w + ln w = ln x (monotone for w > 0) to the last bit. The scale is
// positive only when a·Δmin > 1, i.e. ε > (2(1 + ln N) + 3)/Δmin; smaller
// ε is an error. N must be ≥ 3 (for N = 2 the candidate count's mean
// ln(N − 1) is 0), 0 < Δmin ≤ Δmax finite.
func TruncGumbelScale(eps float64, n int, dmin, dmax float64) (float64, error) {
	if err := checkEps(eps); err != nil {
		return 0, err
	}
	if n < 3 {
		return 0, fmt.Errorf("%w: the truncated Gumbel mechanism needs at least 3 words, got %d", ErrInvalid, n)
	}
	if !(dmin > 0) || !(dmax >= dmin) || math.IsInf(dmax, 0) {
		return 0, fmt.Errorf("%w: Δmin = %v, Δmax = %v (need 0 < Δmin ≤ Δmax finite; duplicate vectors give Δmin = 0)", ErrInvalid, dmin, dmax)
	}
	a := (eps - 2*(1+math.Log(float64(n)))/dmin) / 3
	lnAD := math.Log(a * dmin)
	if !(a > 0) || !(lnAD > 0) {
		return 0, fmt.Errorf("%w: ε = %v gives no positive Gumbel scale for N = %d, Δmin = %v (need ε > %v)",
			ErrInvalid, eps, n, dmin, (2*(1+math.Log(float64(n)))+3)/dmin)
	}
	b := 2 * dmax / min(lambertW0Bisect(2*a*dmax), lnAD)
	if !(b > 0) || math.IsInf(b, 0) {
		return 0, fmt.Errorf("%w: Gumbel scale %v", ErrInvalid, b)
	}
	return b, nil
}

// lambertW0Bisect is W₀(x) for x > 0: the w > 0 with w·e^w = x, found by
// bisection. For x ≤ e, W₀(x) ≤ 1 and w·e^w is compared with x directly
// (full relative precision for tiny x); for x > e, W₀(x) < ln x and the
// comparison is w + ln w against ln x, which cannot overflow.
func lambertW0Bisect(x float64) float64 {
	if !(x > 0) {
		return 0
	}
	below := func(w float64) bool { return w*math.Exp(w) < x }
	hi := 1.0
	if x > math.E {
		lnx := math.Log(x)
		below = func(w float64) bool { return w+math.Log(w) < lnx }
		hi = lnx
	}
	lo := 0.0
	for range 2200 {
		mid := lo + (hi-lo)/2
		if mid == lo || mid == hi {
			break
		}
		if below(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo + (hi-lo)/2
}

// truncatedGumbel is Gumbel(0, b) conditioned on |g| ≤ D. With
// u(t) = e^(−t/b) the Gumbel CDF is e^(−u(t)); differences of CDFs are
// written as e^(−u(D))·(1 − e^(−(u(t) − u(D)))) with
// u(t) − u(D) = e^(−D/b)·expm1((D − t)/b), so survival probabilities
// near the upper end keep their relative precision.
type truncatedGumbel struct {
	b, D float64
	mass float64 // (F(D) − F(−D)) / F(D) = 1 − e^(−(u(−D) − u(D)))
}

func newTruncatedGumbel(b, D float64) truncatedGumbel {
	g := truncatedGumbel{b: b, D: D}
	g.mass = -math.Expm1(-g.above(-D))
	return g
}

// above is u(t) − u(D) ≥ 0 for t ≤ D.
func (g truncatedGumbel) above(t float64) float64 {
	return math.Exp(-g.D/g.b) * math.Expm1((g.D-t)/g.b)
}

// survival is Pr[g > t].
func (g truncatedGumbel) survival(t float64) float64 {
	switch {
	case t <= -g.D:
		return 1
	case t >= g.D:
		return 0
	}
	return -math.Expm1(-g.above(t)) / g.mass
}

// density is the density at t: u(t)·e^(−u(t))/(b·(F(D) − F(−D))) on
// [−D, D], 0 outside.
func (g truncatedGumbel) density(t float64) float64 {
	if t < -g.D || t > g.D {
		return 0
	}
	u := math.Exp(-t / g.b)
	return u * math.Exp(-g.above(t)) / (g.b * g.mass)
}

// truncatedPoisson is the Poisson(μ) law truncated to [0, kmax]:
// π_k ∝ μ^k/k!, computed in the log domain and normalized.
func truncatedPoisson(mu float64, kmax int) []float64 {
	ln := make([]float64, kmax+1)
	top := math.Inf(-1)
	for k := range ln {
		lg, _ := math.Lgamma(float64(k) + 1)
		ln[k] = float64(k)*math.Log(mu) - lg
		top = max(top, ln[k])
	}
	pi := make([]float64, kmax+1)
	var z float64
	for k, l := range ln {
		pi[k] = math.Exp(l - top)
		z += pi[k]
	}
	for k := range pi {
		pi[k] /= z
	}
	return pi
}

// gaussLegendre16 returns the 16 nodes and weights of Gauss–Legendre
// quadrature on [−1, 1], the roots of P₁₆ found by Newton's method from
// Chebyshev estimates.
func gaussLegendre16() (nodes, weights []float64) {
	const n = 16
	nodes, weights = make([]float64, n), make([]float64, n)
	for i := range n {
		x := math.Cos(math.Pi * (float64(i) + 0.75) / (n + 0.5))
		var dp float64
		for range 100 {
			// P_n(x) and P_n'(x) by the three-term recurrence.
			p0, p1 := 1.0, x
			for k := 2; k <= n; k++ {
				p0, p1 = p1, ((2*float64(k)-1)*x*p1-(float64(k)-1)*p0)/float64(k)
			}
			dp = n * (x*p1 - p0) / (x*x - 1)
			dx := p1 / dp
			x -= dx
			if math.Abs(dx) < 1e-16 {
				break
			}
		}
		p0, p1 := 1.0, x
		for k := 2; k <= n; k++ {
			p0, p1 = p1, ((2*float64(k)-1)*x*p1-(float64(k)-1)*p0)/float64(k)
		}
		dp = n * (x*p1 - p0) / (x*x - 1)
		nodes[i], weights[i] = x, 2/((1-x*x)*dp*dp)
	}
	return nodes, weights
}

// resize returns s with length n, reusing its storage when it can.
func resize(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}
