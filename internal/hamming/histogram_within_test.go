package hamming

import (
	"errors"
	"testing"
)

// withinRadii are the radii HistogramWithin is checked at: the ends, the
// bulk of random codes' distances (about 128) and either side of it.
var withinRadii = []int{-3, 0, 1, 35, 100, 127, 128, 160, 255, 256, 300}

// TestHistogramWithinAgrees: for every case (also shifted by one code, so
// that the codes start half-way into a cache line and the AVX-512 kernels
// peel one), every kernel, with and without skipped ids, and every radius,
// each chunk's running counts, those beyond r added up, equal a
// brute-force count that keeps the distances 0..r and puts every farther
// code at r+1; Count and Select
// (each distance within r, everything beyond r, every code) equal brute
// force; and ranges the counts do not answer are ErrNoResult.
func TestHistogramWithinAgrees(t *testing.T) {
	for _, c := range histCases() {
		shapes := []struct {
			name  string
			codes []Code
		}{{"", c.codes}}
		if len(c.codes) > 1 {
			shapes = append(shapes, struct {
				name  string
				codes []Code
			}{"/shifted", c.codes[1:]})
		}
		for _, sh := range shapes {
			codes := sh.codes
			var skip []int32
			for i := range codes {
				if i%5 == 0 || i >= 300 && i < 900 {
					skip = append(skip, int32(i))
				}
			}
			for _, sk := range [][]int32{nil, skip} {
				for _, k := range availableKernels() {
					for _, r := range withinRadii {
						checkWithin(t, c.name+sh.name, codes, c.q, k, sk, r)
					}
				}
			}
		}
	}
}

// lumped returns counts with those beyond r added up at r+1 (r < Bits),
// what checkWithin's brute force counts: HistogramWithin's counts beyond r
// are either that or each code at its distance.
func lumped(counts [Bits + 1]int32, r int) [Bits + 1]int32 {
	for d := r + 2; d <= Bits; d++ {
		counts[r+1] += counts[d]
		counts[d] = 0
	}
	return counts
}

func checkWithin(t *testing.T, name string, codes []Code, q Code, k int, skip []int32, r int) {
	t.Helper()
	rr := min(max(r, 0), Bits)
	var h Histogram
	h.fill(codes, q, k, skip, skippedCodes(codes, skip), rr)
	var want [Bits + 1]int32
	var ids [Bits + 2][]int // by distance within rr, and beyond at rr+1
	s := skip
	for i, code := range codes {
		if len(s) > 0 && int(s[0]) == i {
			s = s[1:]
		} else {
			d := Distance(q, code)
			if d > rr {
				d = rr + 1
			}
			want[d]++
			ids[d] = append(ids[d], i)
		}
		if (i+1)%histChunk == 0 || i+1 == len(codes) {
			if lumped(h.cum[i/histChunk], rr) != want {
				t.Fatalf("%s kernel %s skip %d r=%d: chunk %d differs from brute force", name, kernelNames[k], len(skip), r, i/histChunk)
			}
		}
	}
	var counts [Bits + 1]int32
	for d := range counts {
		counts[d] = int32(h.Count(d))
	}
	if got := lumped(counts, rr); got != want {
		t.Fatalf("%s kernel %s r=%d: Count differs from brute force", name, kernelNames[k], r)
	}
	sel := func(lo, hi int, want []int) {
		t.Helper()
		for j := range len(want) + 1 {
			if j > 3 && j < len(want)-3 && j%97 != 0 {
				continue
			}
			got, err := h.Select(lo, hi, j)
			switch {
			case j == len(want) && !errors.Is(err, ErrNoResult):
				t.Fatalf("%s kernel %s r=%d: Select(%d, %d, %d) past the end = %d, %v", name, kernelNames[k], r, lo, hi, j, got, err)
			case j < len(want) && (err != nil || got != want[j]):
				t.Fatalf("%s kernel %s r=%d: Select(%d, %d, %d) = %d, %v, want %d", name, kernelNames[k], r, lo, hi, j, got, err, want[j])
			}
		}
	}
	for d := max(0, rr-2); d <= rr; d++ {
		sel(d, d, ids[d])
	}
	if rr < Bits {
		sel(rr+1, Bits, ids[rr+1])
		var all []int // every counted id
		s := skip
		for i := range codes {
			if len(s) > 0 && int(s[0]) == i {
				s = s[1:]
				continue
			}
			all = append(all, i)
		}
		sel(0, Bits, all)
		for _, bad := range [][2]int{{rr + 2, Bits}, {0, rr + 1}, {rr + 1, rr + 1}} {
			if bad[0] > Bits || bad[1] >= Bits {
				continue
			}
			if _, err := h.Select(bad[0], bad[1], 0); !errors.Is(err, ErrNoResult) {
				t.Fatalf("%s r=%d: Select(%d, %d) answered a range the counts do not hold", name, r, bad[0], bad[1])
			}
		}
	}
}

// TestHistogramWithinIndex: Index.HistogramWithin counts like Histogram
// within the radius and puts the rest at r+1, on an index and on one
// without some ids, into a new Histogram and into one reused from radius
// to radius (its kernel choice carried from fill to fill).
func TestHistogramWithinIndex(t *testing.T) {
	c := histCases()[6] // random, 3 chunks and a bit
	x, err := NewIndex(c.codes)
	if err != nil {
		t.Fatal(err)
	}
	w, err := x.Without([]int32{3, 4, 5, 2000, 4000})
	if err != nil {
		t.Fatal(err)
	}
	var reused Histogram // filled at every radius in turn, and again
	for _, ix := range []*Index{x, w} {
		full := ix.Histogram(nil, c.q)
		for _, r := range append(withinRadii, withinRadii...) {
			h := ix.HistogramWithin(nil, c.q, r)
			if again := ix.HistogramWithin(&reused, c.q, r); again.count != h.count || len(again.cum) != len(h.cum) {
				t.Fatalf("r=%d: a reused Histogram counts differently", r)
			}
			rr := min(max(r, 0), Bits)
			beyond, got := 0, 0
			for d := 0; d <= Bits; d++ {
				switch {
				case d <= rr && h.Count(d) != full.Count(d):
					t.Fatalf("r=%d: Count(%d) = %d, Histogram's %d", r, d, h.Count(d), full.Count(d))
				case d > rr:
					beyond += full.Count(d)
					got += h.Count(d)
				}
			}
			if got != beyond {
				t.Fatalf("r=%d: counts beyond r add up to %d, want %d", r, got, beyond)
			}
			if h.Len() != full.Len() {
				t.Fatalf("r=%d: Len %d, want %d", r, h.Len(), full.Len())
			}
		}
	}
}
