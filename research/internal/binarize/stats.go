package binarize

// Small statistics helpers for the quality report.

import (
	"math"
	"slices"
)

// spearman returns Spearman's rank correlation of xs and ys (same length
// m ≥ 2), with tied values given their average rank, and whether it is
// defined (both rankings have non-zero variance). rx, ry and idx are
// scratch of length ≥ m.
func spearman(xs, ys, rx, ry []float64, idx []int) (float64, bool) {
	m := len(xs)
	rankAvg(xs, rx[:m], idx[:m])
	rankAvg(ys, ry[:m], idx[:m])
	return pearson(rx[:m], ry[:m])
}

// rankAvg writes into r the 1-based ranks of v, ties averaged.
func rankAvg(v, r []float64, idx []int) {
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case v[a] < v[b]:
			return -1
		case v[a] > v[b]:
			return 1
		}
		return 0
	})
	for i := 0; i < len(idx); {
		j := i + 1
		for j < len(idx) && v[idx[j]] == v[idx[i]] {
			j++
		}
		avg := float64(i+j+1) / 2 // mean of ranks i+1 … j
		for t := i; t < j; t++ {
			r[idx[t]] = avg
		}
		i = j
	}
}

func pearson(a, b []float64) (float64, bool) {
	n := float64(len(a))
	var ma, mb float64
	for i := range a {
		ma += a[i]
		mb += b[i]
	}
	ma /= n
	mb /= n
	var sab, saa, sbb float64
	for i := range a {
		da, db := a[i]-ma, b[i]-mb
		sab += float64(da * db)
		saa += float64(da * da)
		sbb += float64(db * db)
	}
	if saa == 0 || sbb == 0 {
		return 0, false
	}
	return sab / math.Sqrt(saa*sbb), true
}

// median of sorted, non-empty xs.
func median(xs []float64) float64 {
	m := len(xs) / 2
	if len(xs)%2 == 1 {
		return xs[m]
	}
	return (xs[m-1] + xs[m]) / 2
}

// stdErr is the standard error of the mean of xs (0 for fewer than 2).
func stdErr(xs []float64) float64 {
	if len(xs) < 2 {
		return 0
	}
	var m float64
	for _, x := range xs {
		m += x
	}
	m /= float64(len(xs))
	var v float64
	for _, x := range xs {
		v += float64((x - m) * (x - m))
	}
	return math.Sqrt(v / float64(len(xs)-1) / float64(len(xs)))
}

// PairedDifference returns the mean over queries of b's recall minus a's
// and the standard error of that mean; a and b must come from the same
// Neighbours. Pairing removes the variation between queries, so the
// difference is measured more precisely than either recall alone.
func PairedDifference(a, b *QualityReport) (mean, stdErrOfMean float64, err error) {
	if len(a.PerQueryRecall) != len(b.PerQueryRecall) || len(a.PerQueryRecall) == 0 {
		return 0, 0, errorf("reports cover %d and %d queries", len(a.PerQueryRecall), len(b.PerQueryRecall))
	}
	d := make([]float64, len(a.PerQueryRecall))
	for i := range d {
		d[i] = b.PerQueryRecall[i] - a.PerQueryRecall[i]
		mean += d[i]
	}
	return mean / float64(len(d)), stdErr(d), nil
}
