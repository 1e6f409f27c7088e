package mechanism

// The exact output distributions and the metric-DP check live in package
// internal/dpexact (shared with package audit); the tests that use them
// are in exact_ext_test.go (package mechanism_test). This file is the bridge:
// it exports to those tests the fixtures and hooks that only package
// mechanism's own test files can reach, and keeps the small helpers other
// internal test files still call.

import (
	"math/rand/v2"
	"testing"

	"github.com/wordveil/wordveil/internal/dpexact"
	"github.com/wordveil/wordveil/internal/hamming"
	"github.com/wordveil/wordveil/internal/stattest"
)

// SyntheticCodesForTest is syntheticCodes (fixtures_test.go).
func SyntheticCodesForTest(n, L int, seed string) ([]uint64, []hamming.Code) {
	return syntheticCodes(n, L, seed)
}

// NewIndexForTest is newIndex (fixtures_test.go).
func NewIndexForTest(t testing.TB, codes []hamming.Code) *hamming.Index { return newIndex(t, codes) }

// AssetSubsetMetricsForTest returns the default asset subset's quantized
// distances (+Inf beyond γ_max) and the metric its audits use (+Inf
// replaced by the (G+1)·step lower bound).
func AssetSubsetMetricsForTest(t testing.TB) (dist, auditD [][]float64) {
	s := assetSubset(t)
	return s.dist, s.auditD
}

// ChiSquareForTest is stattest.ChiSquare (stats_test.go).
func ChiSquareForTest(counts []int, p []float64) (stat float64, df int, pvalue float64) {
	return stattest.ChiSquare(counts, p)
}

// SampleCountsForTest is stattest.SampleCounts (stats_test.go).
func SampleCountsForTest(m Mechanism, w, draws int, src rand.Source) ([]int, error) {
	return stattest.SampleCounts(m, w, draws, src)
}

// FalseFailureRateForTest is stattest.FalseFailureRate (stats_test.go).
const FalseFailureRateForTest = stattest.FalseFailureRate

// SeedForTest is stattest.Seed (stats_test.go).
func SeedForTest(label string) [32]byte { return stattest.Seed(label) }

// SetLowestIndexTiesForTest makes b break ties by lowest id
// (hamming.TiesAll: Nearest returns the lowest id among minimizers), the
// published code's bias, for the negative control.
func SetLowestIndexTiesForTest(m Mechanism) { m.(*brrMech).ties = hamming.TiesAll }

// newMatrix is an n×n zero matrix (fixtures_test.go builds metrics in it).
func newMatrix(n int) [][]float64 { return dpexact.Distances(n, func(int, int) float64 { return 0 }) }
