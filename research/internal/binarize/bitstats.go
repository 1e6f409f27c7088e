package binarize

import (
	"math"
	"math/bits"

	"github.com/wordveil/wordveil/internal/hamming"
)

// BitBalance describes how evenly each bit splits a set of codes. A bit that
// is almost always 0 (or 1) carries little information and makes Hamming
// distances coarser; randomized response (BRR) also assumes bits worth
// flipping.
type BitBalance struct {
	Ones             [Bits]float64 // fraction of codes with each bit set
	MeanAbsDeviation float64       // mean over bits of |Ones[k] − ½|
	WorstBit         int           // the bit with the largest |Ones[k] − ½| (lowest index on ties)
	WorstDeviation   float64       // that largest |Ones[k] − ½|
}

// Balance computes the bit balance of codes (zero value for no codes).
func Balance(codes []hamming.Code) BitBalance {
	var b BitBalance
	if len(codes) == 0 {
		return b
	}
	var counts [Bits]int
	for _, c := range codes {
		for w, word := range c {
			for word != 0 {
				counts[w*64+bits.TrailingZeros64(word)]++
				word &= word - 1
			}
		}
	}
	var sum float64
	for k, n := range counts {
		p := float64(n) / float64(len(codes))
		b.Ones[k] = p
		d := math.Abs(p - 0.5)
		sum += d
		if d > b.WorstDeviation {
			b.WorstBit, b.WorstDeviation = k, d
		}
	}
	b.MeanAbsDeviation = sum / Bits
	return b
}

// BitCorrelation returns the mean absolute Pearson correlation (the phi
// coefficient) over all Bits·(Bits−1)/2 pairs of bits across codes, and the
// number of pairs left out because one of their bits is constant (its
// correlation is undefined). Redundant bits waste code length: for
// independent bits the value is about √(2/(π·n)) from sampling alone.
func BitCorrelation(codes []hamming.Code) (mean float64, undefined int) {
	n := len(codes)
	if n == 0 {
		return 0, Bits * (Bits - 1) / 2
	}
	// Transpose to one bitmap per bit so a pair's joint count is a popcount
	// of an AND: Bits²/2 × n/64 operations instead of Bits²/2 × n.
	words := (n + 63) / 64
	cols := make([]uint64, Bits*words)
	for i, c := range codes {
		for k := 0; k < Bits; k++ {
			if c[k>>6]>>(uint(k)&63)&1 == 1 {
				cols[k*words+i/64] |= 1 << (uint(i) & 63)
			}
		}
	}
	var ones [Bits]int
	for k := 0; k < Bits; k++ {
		for _, w := range cols[k*words : (k+1)*words] {
			ones[k] += bits.OnesCount64(w)
		}
	}
	// Per-bit partial sums, filled in parallel and added in bit order.
	var partial [Bits]float64
	var undef [Bits]int
	parallelRanges(Bits, 16, func(lo, hi int) {
		for j := lo; j < hi; j++ {
			cj := cols[j*words : (j+1)*words]
			for k := j + 1; k < Bits; k++ {
				ck := cols[k*words : (k+1)*words]
				n11 := 0
				for w := range cj {
					n11 += bits.OnesCount64(cj[w] & ck[w])
				}
				nj, nk, nf := float64(ones[j]), float64(ones[k]), float64(n)
				den := nj * (nf - nj) * nk * (nf - nk)
				if den == 0 {
					undef[j]++
					continue
				}
				partial[j] += math.Abs((nf*float64(n11) - nj*nk) / math.Sqrt(den))
			}
		}
	})
	var sum float64
	for j := range partial {
		sum += partial[j]
		undefined += undef[j]
	}
	pairs := Bits*(Bits-1)/2 - undefined
	if pairs == 0 {
		return 0, undefined
	}
	return sum / float64(pairs), undefined
}
