package ngram

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// ErrInvalid wraps every argument error of this package.
var ErrInvalid = errors.New("ngram: invalid argument")

// The contexts that are not words.
const (
	// Start is the context of a sentence's first word.
	Start = -1
	// Unknown is a context the model knows nothing of (the word before
	// is outside the vocabulary): the unigram P1.
	Unknown = -2
)

// Builder counts bigrams; Build turns them into a Bigram.
type Builder struct {
	n     int
	pairs []uint64 // (context+1)<<32 | word, context Start stored as 0
}

// NewBuilder counts over the vocabulary [0, n).
func NewBuilder(n int) (*Builder, error) {
	if n < 1 || n >= math.MaxInt32 {
		return nil, fmt.Errorf("%w: a vocabulary of %d words", ErrInvalid, n)
	}
	return &Builder{n: n}, nil
}

// Add counts a sentence's bigrams; the first word's after Start when
// fromStart, else not at all (its context is unknown: the word before
// was outside the vocabulary). Ids outside [0, n) are an error (nothing
// is counted).
func (b *Builder) Add(sentence []int, fromStart bool) error {
	if b == nil || b.n == 0 {
		return fmt.Errorf("%w: nil builder", ErrInvalid)
	}
	for i, w := range sentence {
		if w < 0 || w >= b.n {
			return fmt.Errorf("%w: word %d at %d outside [0, %d)", ErrInvalid, w, i, b.n)
		}
	}
	prev := Start
	for i, w := range sentence {
		if i > 0 || fromStart {
			b.pairs = append(b.pairs, uint64(prev+1)<<32|uint64(w))
		}
		prev = w
	}
	return nil
}

// Bigram is a built model.
type Bigram struct {
	n int
	d float64
	// row[v+1] … row[v+2] indexes next and count for context v (v = Start
	// is row 0); total[v+1] = c(v·), types[v+1] = N1+(v •).
	row          []int
	next, count  []int32
	total, types []int
	p1           []float64 // the unigram P1
}

// Build returns the model of the counted sentences; at least one bigram
// must have been counted.
func (b *Builder) Build() (*Bigram, error) {
	if b == nil || len(b.pairs) == 0 {
		return nil, fmt.Errorf("%w: no sentences counted", ErrInvalid)
	}
	slices.Sort(b.pairs)
	m := &Bigram{n: b.n, row: make([]int, b.n+2), total: make([]int, b.n+1), types: make([]int, b.n+1), p1: make([]float64, b.n)}
	before := make([]int, b.n) // N1+(• w)
	var n1, n2 int
	for i := 0; i < len(b.pairs); {
		j := i + 1
		for j < len(b.pairs) && b.pairs[j] == b.pairs[i] {
			j++
		}
		ctx, w := int(b.pairs[i]>>32), int(uint32(b.pairs[i]))
		c := j - i
		m.next = append(m.next, int32(w))
		m.count = append(m.count, int32(min(c, math.MaxInt32)))
		m.row[ctx+1]++
		m.total[ctx] += c
		m.types[ctx]++
		if ctx > 0 { // the sentence start is not a word before w
			before[w]++
		}
		switch c {
		case 1:
			n1++
		case 2:
			n2++
		}
		i = j
	}
	b.pairs = nil
	for v := 1; v < len(m.row); v++ {
		m.row[v] += m.row[v-1]
	}
	m.d = 0.75
	if n1+2*n2 > 0 {
		m.d = float64(n1) / float64(n1+2*n2)
	}
	m.d = min(0.9, max(0.1, m.d))
	var all, seen int
	for _, c := range before {
		all += c
		if c > 0 {
			seen++
		}
	}
	for w := range m.p1 {
		if all == 0 { // only sentence starts were counted
			m.p1[w] = 1 / float64(b.n)
			continue
		}
		m.p1[w] = math.Max(float64(before[w])-m.d, 0)/float64(all) + m.d*float64(seen)/float64(all)/float64(b.n)
	}
	return m, nil
}

// Len is N.
func (m *Bigram) Len() int {
	if m == nil {
		return 0
	}
	return m.n
}

// Discount is D.
func (m *Bigram) Discount() float64 {
	if m == nil {
		return 0
	}
	return m.d
}

// Prob is P(w | prev), prev a word, Start or Unknown; 0 for a word or
// context outside the model.
func (m *Bigram) Prob(prev, w int) float64 {
	if m == nil || w < 0 || w >= m.n || prev < Unknown || prev >= m.n {
		return 0
	}
	if prev == Unknown {
		return m.p1[w]
	}
	r := prev + 1
	tot := m.total[r]
	if tot == 0 {
		return m.p1[w]
	}
	lo, hi := m.row[r], m.row[r+1]
	c := 0
	if k, ok := slices.BinarySearch(m.next[lo:hi], int32(w)); ok {
		c = int(m.count[lo+k])
	}
	return (math.Max(float64(c)-m.d, 0) + m.d*float64(m.types[r])*m.p1[w]) / float64(tot)
}

// LogProb is log P(w | prev) (−Inf outside the model).
func (m *Bigram) LogProb(prev, w int) float64 { return math.Log(m.Prob(prev, w)) }

// WithBase returns the model with its lower order P1 replaced by base
// (normalized; every entry positive and finite, one per word): the
// bigram counts and D unchanged. The context attacker uses it to back
// off to the same word frequencies as the one-word attacker where the
// context says little.
func (m *Bigram) WithBase(base []float64) (*Bigram, error) {
	if m == nil || len(base) != m.n {
		return nil, fmt.Errorf("%w: a base of %d words for a model of %d", ErrInvalid, len(base), m.Len())
	}
	s := 0.0
	for w, p := range base {
		if !(p > 0) || math.IsInf(p, 1) {
			return nil, fmt.Errorf("%w: base(%d) = %v", ErrInvalid, w, p)
		}
		s += p
	}
	c := *m
	c.p1 = make([]float64, m.n)
	for w, p := range base {
		c.p1[w] = p / s
	}
	return &c, nil
}

// Mix writes into dst (len N), for every word w, Σ_i weights[i]·P(w |
// prevs[i]): the next word's distribution given a distribution over the
// word before. Cost O(N + the contexts' rows), not O(N·len(prevs)).
func (m *Bigram) Mix(prevs []int, weights []float64, dst []float64) error {
	if m == nil || len(dst) != m.n || len(prevs) != len(weights) {
		return fmt.Errorf("%w: %d contexts with %d weights into %d entries, model of %d", ErrInvalid, len(prevs), len(weights), len(dst), m.Len())
	}
	p1 := 0.0 // the weight of the lower order
	clear(dst)
	for i, v := range prevs {
		a := weights[i]
		if v < Unknown || v >= m.n || !(a >= 0) || math.IsInf(a, 1) {
			return fmt.Errorf("%w: context %d with weight %v", ErrInvalid, v, a)
		}
		if v == Unknown || m.total[v+1] == 0 {
			p1 += a
			continue
		}
		r := v + 1
		tot := float64(m.total[r])
		p1 += a * m.d * float64(m.types[r]) / tot
		for k := m.row[r]; k < m.row[r+1]; k++ {
			dst[m.next[k]] += a * math.Max(float64(m.count[k])-m.d, 0) / tot
		}
	}
	for w, p := range m.p1 {
		dst[w] += p1 * p
	}
	return nil
}
