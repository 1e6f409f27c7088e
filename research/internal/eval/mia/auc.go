package mia

import (
	"math"
	"sort"
)

// z975 is the standard normal's 97.5% quantile (a two-sided 95% interval).
const z975 = 1.959963984540054

// AUC is an ROC area with its DeLong standard error and 95% interval.
type AUC struct {
	AUC, SE, Lo, Hi float64
}

// ROCAUC returns the probability that a random positive scores above a
// random negative (ties count one half), computed from midranks, with
// DeLong's variance from the same ranks (Sun and Xu 2014's fast form).
// It needs at least two positives and two negatives; otherwise every
// field is NaN.
func ROCAUC(pos, neg []float64) AUC {
	m, n := len(pos), len(neg)
	if m < 2 || n < 2 {
		return AUC{math.NaN(), math.NaN(), math.NaN(), math.NaN()}
	}
	all := make([]float64, 0, m+n)
	all = append(append(all, pos...), neg...)
	rAll := midranks(all)
	rPos, rNeg := midranks(pos), midranks(neg)
	// V10[i]: the share of negatives below positive i (ties one half);
	// V01[j]: the share of positives above negative j.
	v10 := make([]float64, m)
	sum := 0.0
	for i := range m {
		v10[i] = (rAll[i] - rPos[i]) / float64(n)
		sum += v10[i]
	}
	auc := sum / float64(m)
	v01 := make([]float64, n)
	for j := range n {
		v01[j] = 1 - (rAll[m+j]-rNeg[j])/float64(m)
	}
	se := math.Sqrt(variance(v10)/float64(m) + variance(v01)/float64(n))
	return AUC{AUC: auc, SE: se, Lo: max(0, auc-z975*se), Hi: min(1, auc+z975*se)}
}

// midranks returns the 1-based ranks of x, tied values sharing the mean
// of their ranks.
func midranks(x []float64) []float64 {
	idx := make([]int, len(x))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return x[idx[a]] < x[idx[b]] })
	r := make([]float64, len(x))
	for i := 0; i < len(idx); {
		j := i
		for j < len(idx) && x[idx[j]] == x[idx[i]] {
			j++
		}
		mid := float64(i+j+1) / 2 // mean of ranks i+1 .. j
		for k := i; k < j; k++ {
			r[idx[k]] = mid
		}
		i = j
	}
	return r
}

// variance is the unbiased sample variance.
func variance(x []float64) float64 {
	mean := 0.0
	for _, v := range x {
		mean += v
	}
	mean /= float64(len(x))
	s := 0.0
	for _, v := range x {
		s += (v - mean) * (v - mean)
	}
	return s / float64(len(x)-1)
}
