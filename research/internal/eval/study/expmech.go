package study

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/sample"
	"github.com/wordveil/wordveil/research/internal/euclid"
	"github.com/wordveil/wordveil/research/internal/floatmech"
)

// expMech is an exponential mechanism over ALL N words whose log-weights
// come from one utility vector per input word, computed in O(N·d) and
// independent of ε:
//
//	distance  u(w,y) = ‖φ(w) − φ(y)‖₂,       ln weight = −coef·min(u, γ)
//	cosine    u(w,y) = cos(φ(w), φ(y)) ∈ [−1, 1], ln weight = coef·u
//
// TEM (Euclidean) is distance with coef ε/2 and its γ; SanText on the
// float vectors is distance with coef ε/2 and γ = +Inf; SynTF is cosine
// with coef ε/(2·2). Because the utility does not depend on ε, the corpus
// pass (corpora.go) computes it once per word type and serves every grid
// point from it.
type expMech struct {
	name   string
	emb    *floatmech.Embedding
	cosine bool
	coef   float64
	gamma  float64   // distance only; +Inf: no truncation
	inv    []float64 // cosine only: 1/‖φ(w)‖₂
}

// utility fills u with u(w, ·) for the mechanism's kind. The cosine is
// computed exactly as floatmech.SynTF computes it (float64 dot product in
// coordinate order, times the inverse norms, clamped to [−1, 1]), so the
// two samplers have the same law.
func (m *expMech) utility(w int, u []float64) {
	if !m.cosine {
		distances(m.emb, w, u)
		return
	}
	v := m.emb.Vector(w)
	for y := range u {
		var dp float64
		for i, x := range m.emb.Vector(y) {
			dp += float64(x) * float64(v[i])
		}
		u[y] = min(1, max(-1, dp*m.inv[w]*m.inv[y]))
	}
}

// distances fills d with the exact (float64) Euclidean distance from w to
// every word.
func distances(emb *floatmech.Embedding, w int, d []float64) {
	x := emb.Vector(w)
	for y := range d {
		d[y] = euclid.Dist(x, emb.Vector(y))
	}
}

func (m *expMech) logWeight(u float64) float64 {
	if m.cosine {
		return m.coef * u
	}
	return -m.coef * min(u, m.gamma)
}

// headCut is where a word's weight, relative to the largest, leaves the
// inverse-CDF table for the tail: below 2^-24 a weight summed into a
// running total of up to N ≈ 2^16 would lose most of its bits, and
// smaller ones would round to nothing, making the word impossible.
var headCut = -24 * math.Ln2

// table is one input word's exact output law at one ε. Words whose
// weight is at least 2^-24 of the largest (the head) are drawn by inverse
// CDF over their cumulative weights; the rest (the tail) keep their exact
// share: with probability tail mass / total mass (an exact Bernoulli in
// log space) the draw is a Gumbel-max over the tail's log-weights. So no
// word with a positive weight is made impossible by float64 rounding,
// whatever ε and the distances are.
type table struct {
	head     []int32
	cdf      []float64
	tail     []int32
	tailLogW []float64
	// lnTailShare is ln(tail mass / total mass); −Inf without a tail.
	lnTailShare float64
}

// prepare fills t with the law of the word whose utility vector is u.
func (m *expMech) prepare(u []float64, t *table) {
	top := math.Inf(-1)
	for _, x := range u {
		top = max(top, m.logWeight(x))
	}
	t.head, t.cdf, t.tail, t.tailLogW = t.head[:0], t.cdf[:0], t.tail[:0], t.tailLogW[:0]
	var s float64
	lnTail := math.Inf(-1)
	for y, x := range u {
		l := m.logWeight(x) - top
		if l >= headCut {
			s += math.Exp(l)
			t.head = append(t.head, int32(y))
			t.cdf = append(t.cdf, s)
			continue
		}
		t.tail = append(t.tail, int32(y))
		t.tailLogW = append(t.tailLogW, l)
		lnTail = sample.LogAddExp(lnTail, l)
	}
	t.lnTailShare = lnTail - sample.LogAddExp(math.Log(s), lnTail)
}

// draw returns one output of the table's law.
func (t *table) draw(src rand.Source) int {
	if len(t.tail) > 0 && sample.BernoulliLog(src, t.lnTailShare) {
		best, arg := math.Inf(-1), 0
		for i, l := range t.tailLogW {
			if g := l + sample.Gumbel(src, 1); g > best {
				best, arg = g, i
			}
		}
		return int(t.tail[arg])
	}
	total := t.cdf[len(t.cdf)-1]
	i := sort.SearchFloat64s(t.cdf, sample.UniformOpen(src)*total)
	return int(t.head[min(i, len(t.head)-1)])
}

// drawMany implements sampler: one utility vector and table per run of
// equal input words, then a table draw per word.
func (m *expMech) drawMany(ws []int, out []int, src rand.Source) error {
	n := m.emb.Len()
	u := make([]float64, n)
	var t table
	last := -1
	for i, w := range ws {
		if w < 0 || w >= n {
			return fmt.Errorf("%s: %w: %d", m.name, mechanism.ErrWordOutOfRange, w)
		}
		if w != last {
			m.utility(w, u)
			m.prepare(u, &t)
			last = w
		}
		out[i] = t.draw(src)
	}
	return nil
}

// newSanTextFloat is SanText on the float vectors (floatmech.SanText's
// law, which that constructor validates).
func newSanTextFloat(emb *floatmech.Embedding, eps float64) (*expMech, error) {
	if _, err := floatmech.NewSanText(emb, eps); err != nil {
		return nil, err
	}
	return &expMech{name: "santext-float", emb: emb, coef: eps / (2 * floatmech.SanTextSensitivity), gamma: math.Inf(1)}, nil
}

// newSynTF is SynTF (floatmech.SynTF's law, which that constructor
// validates: every vector non-zero).
func newSynTF(emb *floatmech.Embedding, eps float64) (*expMech, error) {
	if _, err := floatmech.NewSynTF(emb, eps); err != nil {
		return nil, err
	}
	norms := emb.Norms()
	inv := make([]float64, len(norms))
	for w, x := range norms {
		inv[w] = 1 / x
	}
	return &expMech{name: "syntf", emb: emb, cosine: true, coef: eps / (2 * floatmech.SynTFSensitivity), inv: inv}, nil
}
