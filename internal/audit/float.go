package audit

import (
	"fmt"

	"github.com/wordveil/wordveil/internal/dpexact"
)

// The float-vector mechanisms, SynTF and the truncated Gumbel mechanism,
// live in the research module, which this module never imports: only
// their laws are audited here (dpexact.SynTF, dpexact.TruncGumbel, whose
// constants dpexact derives from the definition). The research module's
// tests check the samplers against the same laws by chi-square, and the
// truncated Gumbel mechanism's constants against dpexact's. Neither has
// an output vocabulary, so these cases have no restricted twin.

// floatVocab is the synthetic float vocabulary the float mechanisms are
// audited on (dpexact.SyntheticVectors(16, 4, "float")); every float
// case's Vocabulary starts with it.
const floatVocab = "synthetic 16 vectors × 4 dims"

// floatEpsilons are SynTF's audited ε; truncGumbelEpsilons the truncated
// Gumbel mechanism's, above its smallest usable ε on floatVocab (about
// 60: (2(1 + ln 16) + 3)/Δmin with Δmin ≈ 0.18).
var (
	floatEpsilons       = []float64{1, 4}
	truncGumbelEpsilons = []float64{100, 400}
)

// floatMetrics is floatVocab with its three metrics: word level (1
// between distinct words), half the chord on the unit sphere, and the
// Euclidean distance.
func floatMetrics() (vs, word, halfChord, euclid [][]float64, err error) {
	vs = dpexact.SyntheticVectors(16, 4, "float")
	word = dpexact.Distances(len(vs), func(a, b int) float64 {
		if a == b {
			return 0
		}
		return 1
	})
	ch, err := dpexact.ChordDistances(vs)
	if err != nil {
		return nil, nil, nil, nil, fmt.Errorf("audit: %s: %w", floatVocab, err)
	}
	halfChord = dpexact.Distances(len(vs), func(a, b int) float64 { return ch[a][b] / 2 })
	if euclid, err = dpexact.EuclideanDistances(vs); err != nil {
		return nil, nil, nil, nil, fmt.Errorf("audit: %s: %w", floatVocab, err)
	}
	return vs, word, halfChord, euclid, nil
}

// floatCases audits SynTF at word level (ε·1) and on the unit sphere
// (ε·½chord, the same as (ε/2)·chord), both of which it guarantees, and
// the truncated Gumbel mechanism's published claim, ε·Euclidean metric
// DP, as an expected violation: the word farthest from w is never a
// candidate, so its probability is 0 from w and positive from a word
// nearer to it (an unbounded ratio, so no other ε would pass either).
func floatCases(t *Table) error {
	vs, word, half, euclid, err := floatMetrics()
	if err != nil {
		return err
	}
	for _, eps := range floatEpsilons {
		P, err := dpexact.SynTF(vs, eps)
		t.add("SynTF", false, eps, floatVocab+": word level (d = 1)", P, err, word)
		t.add("SynTF", false, eps, floatVocab+": ½·chord on the unit sphere", P, err, half)
	}
	for _, eps := range truncGumbelEpsilons {
		P, err := dpexact.TruncGumbel(vs, eps)
		t.add("claim: truncated Gumbel, ε·‖·‖ metric DP (documented not to hold)", true, eps, floatVocab+": Euclidean", P, err, euclid)
	}
	return nil
}

// floatControls adds SynTF without the exponential mechanism's factor
// 1/2, checked at word level: word 0 faces a cluster, so its normalizer
// and a cluster word's differ and the ratio passes e^ε.
func floatControls(t *Table) error {
	vs, word, _, _, err := floatMetrics()
	if err != nil {
		return err
	}
	for _, eps := range floatEpsilons {
		P, err := dpexact.SynTFNoHalf(vs, eps)
		t.add("control: SynTF scored exp(ε·u/Δu), no 1/2", true, eps, floatVocab+": word level (d = 1)", P, err, word)
	}
	return nil
}
