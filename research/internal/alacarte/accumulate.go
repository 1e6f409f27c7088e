package alacarte

import (
	"fmt"

	"github.com/wordveil/wordveil/research/internal/binarize"
)

// MaxWindow bounds Config.Window. À la carte uses 5; much wider windows
// blur a word's context into the corpus average and only cost time.
const MaxWindow = 64

// Config says which words an Accumulator tracks and how wide a context is.
type Config struct {
	// Window is the number of tokens on each side of an occurrence that
	// form its context, 1..MaxWindow.
	Window int
	// Train is the number of training words: the first Train rows of the
	// source (source order is frequency order for GloVe), 1..source size.
	Train int
}

// DefaultConfig is the window of the à la carte paper and the 20,000 most
// frequent source words as training words.
func DefaultConfig() Config { return Config{Window: 5, Train: 20000} }

// Accumulator consumes tokenized documents and keeps, for each tracked word
// (the training words and the targets), its number of usable occurrences
// and the float64 sum of their context averages. Create it with
// NewAccumulator; it is not safe for concurrent use.
type Accumulator struct {
	dim, window int
	src         *binarize.Embeddings
	train       int // slots [0, train) are the training words, src rows 0..train-1
	targets     []int32
	index       map[string]entry
	words       []string  // slot → word
	sums        []float64 // slot × dim
	counts      []int64   // slot → usable occurrences
	tokens      int64
	docs        int64
	// per-document scratch
	ctx, slot []int32
	acc       []float64
}

// entry is what a token maps to: its source row (−1 if it has no vector)
// and its slot (−1 if it is not tracked).
type entry struct{ row, slot int32 }

// NewAccumulator tracks the first cfg.Train words of src as training words
// and targets as the words to induce. src's vectors are the context
// vectors; it is used in place and must not be modified while the
// Accumulator is in use. A target may be a source word (it is then tracked
// once); targets must be non-empty and distinct.
func NewAccumulator(src *binarize.Embeddings, targets []string, cfg Config) (*Accumulator, error) {
	if err := checkSource(src); err != nil {
		return nil, err
	}
	if cfg.Window < 1 || cfg.Window > MaxWindow {
		return nil, fmt.Errorf("%w: window %d, want 1..%d", ErrConfig, cfg.Window, MaxWindow)
	}
	if cfg.Train < 1 || cfg.Train > src.Len() {
		return nil, fmt.Errorf("%w: %d training words, want 1..%d (the source size)", ErrConfig, cfg.Train, src.Len())
	}
	if src.Len() >= 1<<31-1 || len(targets) >= 1<<31-1-cfg.Train {
		return nil, fmt.Errorf("%w: too many words", ErrConfig)
	}
	a := &Accumulator{
		dim: src.Dim, window: cfg.Window, src: src, train: cfg.Train,
		index: make(map[string]entry, src.Len()+len(targets)),
	}
	for i, w := range src.Words {
		e := entry{row: int32(i), slot: -1}
		if i < cfg.Train {
			e.slot = int32(i)
			a.words = append(a.words, w)
		}
		a.index[w] = e
	}
	seen := make(map[string]bool, len(targets))
	for _, t := range targets {
		if t == "" {
			return nil, fmt.Errorf("%w: empty target word", ErrConfig)
		}
		if seen[t] {
			return nil, fmt.Errorf("%w: target %q given twice", ErrConfig, t)
		}
		seen[t] = true
		e, ok := a.index[t]
		if !ok {
			e = entry{row: -1, slot: -1}
		}
		if e.slot < 0 {
			e.slot = int32(len(a.words))
			a.words = append(a.words, t)
			a.index[t] = e
		}
		a.targets = append(a.targets, e.slot)
	}
	a.sums = make([]float64, len(a.words)*a.dim)
	a.counts = make([]int64, len(a.words))
	a.acc = make([]float64, a.dim)
	return a, nil
}

// checkSource validates the source vectors (shape, finiteness, unique
// words) and that there is at least one.
func checkSource(src *binarize.Embeddings) error {
	if src == nil {
		return fmt.Errorf("%w: nil", ErrSource)
	}
	if err := src.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrSource, err)
	}
	if src.Len() == 0 {
		return fmt.Errorf("%w: no words", ErrSource)
	}
	return nil
}

// Add accumulates the contexts of one document (a sequence of tokens).
// Tokens are matched to source words and targets exactly, byte for byte.
// Each position costs O(1) map lookups; each occurrence of a tracked word
// costs O(Window × dimension). Scratch memory grows to the longest
// document's length.
func (a *Accumulator) Add(doc []string) error {
	if a == nil || a.index == nil {
		return ErrNil
	}
	n := len(doc)
	a.ctx, a.slot = a.ctx[:0], a.slot[:0]
	for _, t := range doc {
		e, ok := a.index[t]
		if !ok {
			e = entry{row: -1, slot: -1}
		}
		a.ctx = append(a.ctx, e.row)
		a.slot = append(a.slot, e.slot)
	}
	dim, vecs := a.dim, a.src.Vectors
	for i, s := range a.slot {
		if s < 0 {
			continue
		}
		clear(a.acc)
		m := 0
		for j := max(0, i-a.window); j <= min(n-1, i+a.window); j++ {
			r := a.ctx[j]
			if j == i || r < 0 {
				continue
			}
			for k, x := range vecs[int(r)*dim : (int(r)+1)*dim] {
				a.acc[k] += float64(x)
			}
			m++
		}
		if m == 0 {
			continue // no context vector: the occurrence says nothing
		}
		inv := 1 / float64(m)
		sum := a.sums[int(s)*dim : (int(s)+1)*dim]
		for k, x := range a.acc {
			sum[k] += float64(x * inv) // rounded: no fused multiply-add
		}
		a.counts[s]++
	}
	a.tokens += int64(n)
	a.docs++
	return nil
}

// Corpus streams tokenized documents: it calls fn once per document, in a
// fixed order, and returns the first error fn returns. It may reuse the
// slice once fn returns (nothing here keeps it).
type Corpus func(fn func(doc []string) error) error

// AddCorpus adds every document of c.
func (a *Accumulator) AddCorpus(c Corpus) error {
	if a == nil || a.index == nil {
		return ErrNil
	}
	if c == nil {
		return fmt.Errorf("%w: nil corpus", ErrConfig)
	}
	return c(a.Add)
}

// Tokens returns the number of tokens added so far.
func (a *Accumulator) Tokens() int64 {
	if a == nil {
		return 0
	}
	return a.tokens
}

// Docs returns the number of documents added so far.
func (a *Accumulator) Docs() int64 {
	if a == nil {
		return 0
	}
	return a.docs
}

// Count returns the number of usable occurrences of a tracked word (those
// with at least one context vector in their window) and whether the word
// is tracked.
func (a *Accumulator) Count(word string) (int64, bool) {
	if a == nil || a.index == nil {
		return 0, false
	}
	e, ok := a.index[word]
	if !ok || e.slot < 0 {
		return 0, false
	}
	return a.counts[e.slot], true
}

// context writes slot s's context average u (its sum over its count) into
// u. The count must be positive.
func (a *Accumulator) context(s int, u []float64) {
	inv := 1 / float64(a.counts[s])
	for k, x := range a.sums[s*a.dim : (s+1)*a.dim] {
		u[k] = float64(x * inv)
	}
}
