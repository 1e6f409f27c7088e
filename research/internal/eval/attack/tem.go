package attack

import (
	"fmt"
	"math"
)

// TEM is the Column of the truncated exponential mechanism over the
// allowed outputs A (dpexact.TEM and dpexact.RestrictedTEM's law, entry
// by entry): with L_w = {i : d(w,i) ≤ γ},
//
//	P[w][y] = exp(−ε·d(w,y)/2) / Z_w                          y ∈ A ∩ L_w,
//	        = exp(−ε·γ/2 + ln|A∖L_w|) / Z_w / |A∖L_w|          y ∈ A ∖ L_w,
//	        = 0                                                y ∉ A,
//
// Z_w the sum of the weights over A. Every score is taken relative to
// w's best one, as dpexact does, so that no row underflows. It covers
// TEMHamming and SanText (d = Hamming distance of codes, SanText at
// γ = 256), TEM on Euclidean balls and 1-DT on one list (d = list
// distance; see NewListTEM). The normalizers are computed once when the
// Column is built; a column then costs O(N) distance evaluations.
type TEM struct {
	n          int
	dist       func(w, y int) float64
	gamma, eps float64
	allowed    []bool
	top, z     []float64 // w's best score and its normalizer relative to it
	outside    []int     // |A ∖ L_w|
	// far[w] is P[w][y] for every allowed y outside L_w (set by
	// finish): a column then computes an exponential only inside balls.
	far []float64
}

// NewTEM builds the Column of TEM for n words with metric dist (symmetric,
// zero on the diagonal, ≥ 0, +Inf allowed), truncation γ and ε, over the
// allowed outputs (nil: every word). Building it evaluates dist on every
// pair: O(N²) once (at N = 50,000 that is 2.5·10⁹ distances).
func NewTEM(n int, dist func(w, y int) float64, gamma, eps float64, allowed []bool) (*TEM, error) {
	t, err := newTEM(n, dist, gamma, eps, allowed)
	if err != nil {
		return nil, err
	}
	for w := range n {
		if d := dist(w, w); d != 0 {
			return nil, fmt.Errorf("%w: d(%d, %d) = %v, want 0", ErrInvalid, w, w, d)
		}
		var err error
		t.top[w], t.z[w], t.outside[w], err = t.normalizer(w, func(yield func(int) bool) {
			for i := range n {
				if !yield(i) {
					return
				}
			}
		})
		if err != nil {
			return nil, err
		}
	}
	t.finish()
	return t, nil
}

// NewListTEM is the Column of 1-DT on one list (pos[w] = word w's
// position, d = |pos[w] − pos[y]|) over the allowed outputs (nil: every
// word; dpexact.DiffractorTEM and RestrictedDiffractorTEM). Its
// normalizers walk only each word's ball: O(N·γ) once.
func NewListTEM(pos []int, gamma, eps float64, allowed []bool) (*TEM, error) {
	if err := checkPermutation(pos); err != nil {
		return nil, err
	}
	n := len(pos)
	t, err := newTEM(n, func(w, y int) float64 { return math.Abs(float64(pos[w] - pos[y])) }, gamma, eps, allowed)
	if err != nil {
		return nil, err
	}
	order := make([]int, n)
	for w, p := range pos {
		order[p] = w
	}
	g := int(math.Min(gamma, float64(n))) // positions within ⌊γ⌋ are the ball
	for w, p := range pos {
		lo, hi := max(0, p-g), min(n-1, p+g)
		t.top[w], t.z[w], t.outside[w], err = t.normalizer(w, func(yield func(int) bool) {
			for q := lo; q <= hi; q++ {
				if !yield(order[q]) {
					return
				}
			}
		})
		if err != nil {
			return nil, err
		}
	}
	t.finish()
	return t, nil
}

// finish computes far from the normalizers.
func (t *TEM) finish() {
	t.far = make([]float64, t.n)
	for w := range t.far {
		if t.outside[w] > 0 {
			bottom := -t.eps*t.gamma/2 + math.Log(float64(t.outside[w]))
			t.far[w] = math.Exp(bottom-t.top[w]) / t.z[w] / float64(t.outside[w])
		}
	}
}

func newTEM(n int, dist func(w, y int) float64, gamma, eps float64, allowed []bool) (*TEM, error) {
	if n < 1 || dist == nil {
		return nil, fmt.Errorf("%w: TEM needs N ≥ 1 words and a metric", ErrInvalid)
	}
	if !(gamma >= 0) || math.IsInf(gamma, 1) {
		return nil, fmt.Errorf("%w: γ = %v, want finite and ≥ 0", ErrInvalid, gamma)
	}
	if err := checkEps(eps); err != nil {
		return nil, err
	}
	if allowed != nil {
		if len(allowed) != n {
			return nil, fmt.Errorf("%w: allowed outputs cover %d words, want %d", ErrInvalid, len(allowed), n)
		}
		some := false
		for _, ok := range allowed {
			some = some || ok
		}
		if !some {
			return nil, fmt.Errorf("%w: no allowed output", ErrInvalid)
		}
	}
	return &TEM{n: n, dist: dist, gamma: gamma, eps: eps, allowed: allowed,
		top: make([]float64, n), z: make([]float64, n), outside: make([]int, n)}, nil
}

func (t *TEM) ok(y int) bool { return t.allowed == nil || t.allowed[y] }

// normalizer returns w's best score, Z_w relative to it and |A ∖ L_w|,
// visiting (at least) every word of w's ball through candidates.
func (t *TEM) normalizer(w int, candidates func(func(int) bool)) (top, z float64, outside int, err error) {
	nA := t.n
	if t.allowed != nil {
		nA = 0
		for _, ok := range t.allowed {
			if ok {
				nA++
			}
		}
	}
	ball := 0 // |A ∩ L_w|: candidates must include every word of L_w
	top = math.Inf(-1)
	for i := range candidates {
		d := t.dist(w, i)
		if !(d >= 0) {
			return 0, 0, 0, fmt.Errorf("%w: d(%d, %d) = %v", ErrInvalid, w, i, d)
		}
		if t.ok(i) && d <= t.gamma {
			ball++
			top = math.Max(top, -t.eps*d/2)
		}
	}
	outside = nA - ball
	bottom := math.Inf(-1)
	if outside > 0 {
		bottom = -t.eps*t.gamma/2 + math.Log(float64(outside))
		top = math.Max(top, bottom)
	}
	for i := range candidates {
		if d := t.dist(w, i); t.ok(i) && d <= t.gamma {
			z += math.Exp(-t.eps*d/2 - top)
		}
	}
	z += math.Exp(bottom - top)
	return top, z, outside, nil
}

// Len is N.
func (t *TEM) Len() int {
	if t == nil {
		return 0
	}
	return t.n
}

// Column writes P[w][y] for every w.
func (t *TEM) Column(y int, dst []float64) error {
	if err := checkColumn(y, dst, t.Len()); err != nil {
		return err
	}
	if !t.ok(y) {
		clear(dst)
		return nil
	}
	for w := range dst {
		d := t.dist(w, y)
		if d <= t.gamma {
			dst[w] = math.Exp(-t.eps*d/2-t.top[w]) / t.z[w]
			continue
		}
		dst[w] = t.far[w]
	}
	return nil
}
