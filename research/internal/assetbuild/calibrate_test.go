package assetbuild

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/wordveil/wordveil/internal/seeded"
)

// keeper keeps word w with probability q[w] and otherwise releases w+1
// (mod N): a mechanism whose N_w is known exactly.
type keeper struct{ q []float64 }

func (k keeper) Privatize(w int, src rand.Source) (int, error) {
	if rand.New(src).Float64() < k.q[w] {
		return w, nil
	}
	return (w + 1) % len(k.q), nil
}
func (keeper) Epsilon() float64 { return 1 }
func (keeper) Metric() string   { return "test" }
func (k keeper) Len() int       { return len(k.q) }

// zipf returns a prior ∝ 1/(i+1) over n words.
func zipf(n int) []float64 {
	p := make([]float64, n)
	s := 0.0
	for i := range p {
		p[i] = 1 / float64(i+1)
		s += p[i]
	}
	for i := range p {
		p[i] /= s
	}
	return p
}

// TestTypedEstimator: the stratified estimator's weights sum to 1, its
// top stratum is the prior's most probable words, and its share estimates
// Σ prior(w)·N_w on a mechanism whose N_w is known, within 4 standard
// errors — where the uniform mean N_w, the papers' measure, is far off
// (the negative control: frequent words are kept more often here, as
// they are by BRR and TEM on the real asset).
func TestTypedEstimator(t *testing.T) {
	const n = 5000
	prior := zipf(n)
	q := make([]float64, n)
	for w := range q {
		q[w] = 0.9 / (1 + float64(w)/50) // frequent words kept more often
	}
	want, uniform := 0.0, 0.0
	for w := range q {
		want += prior[w] * q[w]
		uniform += q[w] / n
	}
	e, err := typedEstimator(prior, 7)
	if err != nil {
		t.Fatal(err)
	}
	sum := 0.0
	for i, w := range e.weight {
		sum += w
		if i < e.top && e.words[i] != i {
			t.Fatalf("top stratum word %d is %d, want the %d-th most probable", i, e.words[i], i)
		}
	}
	if e.top != calTop || math.Abs(sum-1) > 1e-9 {
		t.Fatalf("top %d, weights sum to %v", e.top, sum)
	}
	got, worst, worstN, err := e.share(keeper{q}, seeded.Key([32]byte{1}))
	if err != nil {
		t.Fatal(err)
	}
	// Variance: top words p²·q(1−q)/draws; tail words their mass² times
	// the spread of q over the tail, over the sample.
	se := 0.0
	for i := range e.words[:e.top] {
		se += prior[i] * prior[i] * q[i] * (1 - q[i]) / calTopDraws
	}
	tail := 0.0
	for _, w := range e.weight[e.top:] {
		tail += w
	}
	se += tail * tail * 0.25 / calTail
	se = math.Sqrt(se)
	if math.Abs(got-want) > 4*se {
		t.Fatalf("share %.4f, want Σ prior·N_w = %.4f (4 SE = %.4f)", got, want, 4*se)
	}
	if math.Abs(uniform-want) < 10*se {
		t.Fatalf("control: the uniform mean %.4f is too close to the typed share %.4f for the test to tell them apart", uniform, want)
	}
	if worst != 0 || worstN < 0.7 {
		t.Fatalf("worst word %d (N %.2f), want word 0, the most kept of the frequent words", worst, worstN)
	}
	// A prior over fewer words than the top stratum: all of them, exactly.
	small, err := typedEstimator(zipf(10), 7)
	if err != nil || small.top != 10 || len(small.words) != 10 {
		t.Fatalf("10-word prior: %+v, %v", small, err)
	}
}
