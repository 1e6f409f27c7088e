package attack

import (
	"fmt"
	"math"
	"sync"

	"github.com/wordveil/wordveil/internal/hamming"
)

// HammingHist holds, for every word, the histogram of Hamming distances
// from its code to the allowed codes: all that the normalizers of TEM on
// Hamming codes need, whatever ε and γ. Building it is the O(N²) part of
// NewTEM with the Hamming distance, done once with the hamming package's
// scan kernels (one histogram scan per word) and shared by every level of
// TEMHamming and SanText on the same codes and allowed outputs. Its
// memory is N·257 counts (51 MB at N = 50,000).
type HammingHist struct {
	codes   []hamming.Code
	allowed []bool // nil: every word
	counts  [][hamming.Bits + 1]int32
}

// NewHammingHist builds the histograms of codes over the allowed outputs
// (nil: every word) with up to workers goroutines (< 1 means 1). The
// result does not depend on workers.
func NewHammingHist(codes []hamming.Code, allowed []bool, workers int) (*HammingHist, error) {
	n := len(codes)
	if n == 0 {
		return nil, fmt.Errorf("%w: no codes", ErrInvalid)
	}
	var skip []int32
	if allowed != nil {
		if len(allowed) != n {
			return nil, fmt.Errorf("%w: allowed outputs cover %d words, want %d", ErrInvalid, len(allowed), n)
		}
		for w, ok := range allowed {
			if !ok {
				skip = append(skip, int32(w))
			}
		}
		if len(skip) == n {
			return nil, fmt.Errorf("%w: no allowed output", ErrInvalid)
		}
	}
	x, err := hamming.NewIndex(codes)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	if x, err = x.Without(skip); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	h := &HammingHist{codes: codes, allowed: allowed, counts: make([][hamming.Bits + 1]int32, n)}
	workers = max(1, min(workers, n))
	var wg sync.WaitGroup
	for k := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var hist hamming.Histogram
			for w := k; w < n; w += workers {
				x.Histogram(&hist, codes[w])
				for d := range h.counts[w] {
					h.counts[w][d] = int32(hist.Count(d))
				}
			}
		}()
	}
	wg.Wait()
	return h, nil
}

// Len is N.
func (h *HammingHist) Len() int {
	if h == nil {
		return 0
	}
	return len(h.codes)
}

// HammingTEM is the Column of TEM on Hamming codes over the allowed
// outputs: the law of NewTEM with d the Hamming distance (TEMHamming;
// SanText at γ = 256), its normalizers taken from a HammingHist in
// O(N·257) instead of O(N²) distances. A column costs N distances and
// table look-ups.
type HammingTEM struct {
	h          *HammingHist
	gamma, eps float64
	// Entry P[w][y] = near[d]·scale[w] for d = d(w, y) ≤ γ (exact
	// exponentials per entry instead when the table could underflow),
	// far[w] beyond.
	near          [hamming.Bits + 1]float64
	table         bool
	top, z, scale []float64
	far           []float64
}

// TEM returns the Column of TEM on these codes at truncation γ (finite,
// ≥ 0; ≥ 256 is SanText) and ε over the histograms' allowed outputs.
func (h *HammingHist) TEM(gamma, eps float64) (*HammingTEM, error) {
	if h.Len() == 0 {
		return nil, fmt.Errorf("%w: empty histograms", ErrInvalid)
	}
	if !(gamma >= 0) || math.IsInf(gamma, 1) {
		return nil, fmt.Errorf("%w: γ = %v, want finite and ≥ 0", ErrInvalid, gamma)
	}
	if err := checkEps(eps); err != nil {
		return nil, err
	}
	n := h.Len()
	t := &HammingTEM{h: h, gamma: gamma, eps: eps,
		top: make([]float64, n), z: make([]float64, n), scale: make([]float64, n), far: make([]float64, n)}
	for d := range t.near {
		t.near[d] = math.Exp(-eps * float64(d) / 2)
	}
	// The table path multiplies exp(−εd/2) by exp(−top)/Z: exact to a few
	// ulps while neither factor leaves float64's normal range.
	t.table = eps*hamming.Bits/2 < 600
	nA := 0
	for _, c := range h.counts[0] {
		nA += int(c)
	}
	for w := range n {
		c := &h.counts[w]
		ball, top := 0, math.Inf(-1)
		for d := 0; d <= hamming.Bits && float64(d) <= gamma; d++ {
			if c[d] > 0 {
				ball += int(c[d])
				top = math.Max(top, -eps*float64(d)/2)
			}
		}
		outside := nA - ball
		bottom := math.Inf(-1)
		if outside > 0 {
			bottom = -eps*gamma/2 + math.Log(float64(outside))
			top = math.Max(top, bottom)
		}
		z := 0.0
		for d := 0; d <= hamming.Bits && float64(d) <= gamma; d++ {
			if c[d] > 0 {
				z += float64(c[d]) * math.Exp(-eps*float64(d)/2-top)
			}
		}
		z += math.Exp(bottom - top)
		t.top[w], t.z[w] = top, z
		t.scale[w] = math.Exp(-top) / z
		t.table = t.table && -top < 600
		if outside > 0 {
			t.far[w] = math.Exp(bottom-top) / z / float64(outside)
		}
	}
	return t, nil
}

// Len is N.
func (t *HammingTEM) Len() int {
	if t == nil {
		return 0
	}
	return t.h.Len()
}

// Column writes P[w][y] for every w.
func (t *HammingTEM) Column(y int, dst []float64) error {
	if err := checkColumn(y, dst, t.Len()); err != nil {
		return err
	}
	if t.h.allowed != nil && !t.h.allowed[y] {
		clear(dst)
		return nil
	}
	codes := t.h.codes
	cy := codes[y]
	for w := range dst {
		d := hamming.Distance(codes[w], cy)
		switch {
		case float64(d) > t.gamma:
			dst[w] = t.far[w]
		case t.table:
			dst[w] = t.near[d] * t.scale[w]
		default:
			dst[w] = math.Exp(-t.eps*float64(d)/2-t.top[w]) / t.z[w]
		}
	}
	return nil
}
