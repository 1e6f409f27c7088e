package alacarte

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/wordveil/wordveil/internal/hamming"
	"github.com/wordveil/wordveil/research/internal/binarize"
)

// EvalConfig holds the settings of Evaluate.
type EvalConfig struct {
	Config           // window and number of training words (counted after the held-out words are removed)
	Fit    FitConfig // the fit of A
	// MinCount: targets seen fewer times are not induced; held-out words
	// are drawn among the source words seen at least this often, ≥ 1.
	MinCount int
	Held     int    // number of held-out words, ≥ 1
	Seed     uint64 // draws the held-out words and the random baseline codes
	K        int    // recall@K, and the neighbours listed per extra word, 1..1000
	// Extra lists more words to induce and show neighbours of (typically
	// words the source lacks). An extra word that is also a source word
	// keeps its source vector as a context vector and is excluded from its
	// own neighbour lists.
	Extra []string
}

// DefaultEvalConfig: the acceptance measurement — 1,000 held-out words,
// recall@10, words seen at least 10 times.
func DefaultEvalConfig() EvalConfig {
	return EvalConfig{Config: DefaultConfig(), Fit: DefaultFitConfig(), MinCount: 10, Held: 1000, Seed: 1, K: 10}
}

func (c *EvalConfig) validate() error {
	switch {
	case c.MinCount < 1:
		return fmt.Errorf("%w: minimum count %d, want ≥ 1", ErrConfig, c.MinCount)
	case c.Held < 1:
		return fmt.Errorf("%w: %d held-out words, want ≥ 1", ErrConfig, c.Held)
	case c.K < 1 || c.K > 1000:
		return fmt.Errorf("%w: K = %d, want 1..1000", ErrConfig, c.K)
	}
	return c.Fit.validate()
}

// EvalReport is the outcome of Evaluate. Recalls are means over the
// held-out words that were induced; recall@K of a word is the fraction of
// the K nearest neighbours of its reference (true code or vector) found
// among the K nearest of the candidate, neighbours ranked by (distance,
// id) so ties go to the more frequent word, the word itself excluded.
type EvalReport struct {
	Docs, Tokens int64
	Vocab        int // source words
	Eligible     int // source words seen at least MinCount times
	Held         int // held-out words drawn
	Induced      int // held-out words with at least MinCount usable occurrences
	Fit          FitReport

	// Hamming recall@K against the Hamming neighbours of the true codes,
	// searched among all source codes:
	HammingInduced float64 // codes of the induced vectors A·u
	HammingContext float64 // codes of u itself (A = identity): what the map adds
	HammingRandom  float64 // uniformly random codes: the floor
	// CosineInduced is the recall@K of the cosine neighbours (centred by
	// the binarizer's mean) of the induced float vectors against those of
	// the true float vectors.
	CosineInduced float64

	Words []HeldResult     // per held-out word, in source order
	Extra []Neighbours     // per extra word, in the given order
	Rare  []WordCount      // targets (held or extra) seen fewer than MinCount times
	Times [4]time.Duration // counting pass, accumulation pass, fit and induction, searches
}

// HeldResult is one held-out word's measurement.
type HeldResult struct {
	Word                             string
	Count                            int64 // usable occurrences
	Hamming, Context, Random, Cosine float64
}

// Neighbours lists an extra word's nearest source words.
type Neighbours struct {
	Word    string
	Count   int64    // usable occurrences
	Hamming []string // by the Hamming distance of its induced code; nil if rare
	Cosine  []string // by the cosine of its induced vector; nil if rare
}

// Evaluate measures induction on corpus: it draws cfg.Held source words
// seen at least cfg.MinCount times (seeded), removes them from the source
// (so their vectors are neither fitted nor used as context vectors), fits
// A on the rest, induces the held-out words as if they were missing,
// binarizes them with proj and compares neighbour lists as EvalReport
// describes. codes are the source words' codes (an asset's codes, in the
// same order); proj the binarizer that produced them. The corpus is read
// twice (a counting pass to choose the held-out words, then accumulation),
// so it must give the same documents both times.
func Evaluate(corpus Corpus, src *binarize.Embeddings, codes []hamming.Code, proj *binarize.Projection, cfg EvalConfig) (*EvalReport, error) {
	if corpus == nil {
		return nil, fmt.Errorf("%w: nil corpus", ErrConfig)
	}
	if err := checkSource(src); err != nil {
		return nil, err
	}
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	if len(codes) != src.Len() {
		return nil, fmt.Errorf("%w: %d codes for %d source words", ErrDim, len(codes), src.Len())
	}
	if err := proj.Validate(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	if proj.Dim != src.Dim {
		return nil, fmt.Errorf("%w: projection of dimension %d, source %d", ErrDim, proj.Dim, src.Dim)
	}
	rep := &EvalReport{Vocab: src.Len()}

	// Pass 1: count the source words and draw the held-out ones.
	t0 := time.Now()
	counts, err := countWords(corpus, src.Words)
	if err != nil {
		return nil, err
	}
	var eligible []int
	for i, n := range counts {
		if n >= int64(cfg.MinCount) {
			eligible = append(eligible, i)
		}
	}
	rep.Eligible = len(eligible)
	if len(eligible) < cfg.Held {
		return nil, fmt.Errorf("%w: only %d source words occur at least %d times, %d held-out words wanted",
			ErrNoData, len(eligible), cfg.MinCount, cfg.Held)
	}
	held := sample(eligible, cfg.Held, cfg.Seed)
	rep.Held = len(held)
	rest, heldWords := without(src, held)
	targets := slices.Clone(heldWords)
	isHeld := make(map[string]bool, len(heldWords))
	for _, w := range heldWords {
		isHeld[w] = true
	}
	for _, w := range cfg.Extra {
		if !isHeld[w] {
			targets = append(targets, w)
		}
	}
	rep.Times[0] = time.Since(t0)

	// Pass 2: accumulate contexts with the held-out words removed.
	t0 = time.Now()
	acc, err := NewAccumulator(rest, targets, cfg.Config)
	if err != nil {
		return nil, err
	}
	if err := acc.AddCorpus(corpus); err != nil {
		return nil, err
	}
	rep.Docs, rep.Tokens = acc.Docs(), acc.Tokens()
	rep.Times[1] = time.Since(t0)

	// Fit, induce (with A and with the identity), binarize.
	t0 = time.Now()
	m, fr, err := acc.Fit(cfg.Fit)
	rep.Fit = fr
	if err != nil {
		return nil, err
	}
	ind, err := acc.Induce(m, cfg.MinCount)
	if err != nil {
		return nil, err
	}
	ctx, err := acc.Induce(identity(src.Dim), cfg.MinCount)
	if err != nil {
		return nil, err
	}
	rep.Rare = ind.Rare
	indCodes, err := proj.EncodeAll(ind.Vectors)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	ctxCodes, err := proj.EncodeAll(ctx.Vectors)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	rep.Times[2] = time.Since(t0)

	// Searches.
	t0 = time.Now()
	idx, err := hamming.NewIndex(codes)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	cos := newCosine(src, proj.Prep.Mean)
	row := make(map[string]int, src.Len())
	for i, w := range src.Words {
		row[w] = i
	}
	rnd := rand.New(rand.NewPCG(cfg.Seed, streamRandomCodes))
	type query struct {
		vec  []float32
		self int
	}
	var cq []query // cosine queries: per induced held word, the true vector then the induced one
	var heldAt []int
	for i, w := range ind.Vectors.Words {
		if !isHeld[w] {
			continue
		}
		heldAt = append(heldAt, i)
		id := row[w]
		cq = append(cq, query{src.Vector(id), id}, query{ind.Vectors.Vector(i), id})
	}
	var extraAt []int
	for i, w := range ind.Vectors.Words {
		if !isHeld[w] {
			extraAt = append(extraAt, i)
			self, ok := row[w]
			if !ok {
				self = -1
			}
			cq = append(cq, query{ind.Vectors.Vector(i), self})
		}
	}
	qv := make([][]float32, len(cq))
	qs := make([]int, len(cq))
	for i, q := range cq {
		qv[i], qs[i] = q.vec, q.self
	}
	cosN := cos.knnAll(qv, qs, cfg.K)

	var sumH, sumC, sumR, sumCos float64
	for qi, i := range heldAt {
		w := ind.Vectors.Words[i]
		id := row[w]
		truth, err := hammingKNN(idx, codes[id], id, cfg.K)
		if err != nil {
			return nil, err
		}
		r := HeldResult{Word: w, Count: ind.Counts[i]}
		got, err := hammingKNN(idx, indCodes[i], id, cfg.K)
		if err != nil {
			return nil, err
		}
		r.Hamming = recall(truth, got)
		// ctx has the same targets in the same order (same counts).
		got, err = hammingKNN(idx, ctxCodes[i], id, cfg.K)
		if err != nil {
			return nil, err
		}
		r.Context = recall(truth, got)
		got, err = hammingKNN(idx, randomCode(rnd), id, cfg.K)
		if err != nil {
			return nil, err
		}
		r.Random = recall(truth, got)
		r.Cosine = recall(cosN[2*qi], cosN[2*qi+1])
		sumH, sumC, sumR, sumCos = sumH+r.Hamming, sumC+r.Context, sumR+r.Random, sumCos+r.Cosine
		rep.Words = append(rep.Words, r)
	}
	rep.Induced = len(rep.Words)
	if rep.Induced > 0 {
		n := float64(rep.Induced)
		rep.HammingInduced, rep.HammingContext, rep.HammingRandom, rep.CosineInduced = sumH/n, sumC/n, sumR/n, sumCos/n
	}
	slices.SortFunc(rep.Words, func(a, b HeldResult) int { return row[a.Word] - row[b.Word] })

	extraN := make(map[string]Neighbours)
	for j, i := range extraAt {
		w := ind.Vectors.Words[i]
		self, ok := row[w]
		if !ok {
			self = -1
		}
		hn, err := hammingKNN(idx, indCodes[i], self, cfg.K)
		if err != nil {
			return nil, err
		}
		extraN[w] = Neighbours{Word: w, Count: ind.Counts[i], Hamming: names(src.Words, hn), Cosine: names(src.Words, cosN[2*len(heldAt)+j])}
	}
	for _, w := range cfg.Extra {
		if isHeld[w] {
			continue
		}
		nb, ok := extraN[w]
		if !ok {
			n, _ := acc.Count(w)
			nb = Neighbours{Word: w, Count: n}
		}
		rep.Extra = append(rep.Extra, nb)
	}
	rep.Times[3] = time.Since(t0)
	return rep, nil
}

// streamRandomCodes separates the random-code baseline from the held-out
// draw of the same seed.
const (
	streamHeld        = 0x48454c440001
	streamRandomCodes = 0x52414e440002
)

// countWords counts the occurrences of words in corpus.
func countWords(corpus Corpus, words []string) ([]int64, error) {
	row := make(map[string]int, len(words))
	for i, w := range words {
		row[w] = i
	}
	counts := make([]int64, len(words))
	err := corpus(func(doc []string) error {
		for _, t := range doc {
			if i, ok := row[t]; ok {
				counts[i]++
			}
		}
		return nil
	})
	return counts, err
}

// sample returns n distinct elements of from (n ≤ len(from)), drawn by a
// partial Fisher–Yates shuffle from a PCG stream, sorted ascending.
func sample(from []int, n int, seed uint64) []int {
	p := slices.Clone(from)
	r := rand.New(rand.NewPCG(seed, streamHeld))
	for i := 0; i < n; i++ {
		j := i + r.IntN(len(p)-i)
		p[i], p[j] = p[j], p[i]
	}
	out := p[:n:n]
	slices.Sort(out)
	return out
}

// without returns src minus the rows in drop (sorted), order kept, and the
// dropped words.
func without(src *binarize.Embeddings, drop []int) (*binarize.Embeddings, []string) {
	out := &binarize.Embeddings{Dim: src.Dim}
	var dropped []string
	k := 0
	for i, w := range src.Words {
		if k < len(drop) && drop[k] == i {
			dropped = append(dropped, w)
			k++
			continue
		}
		out.Words = append(out.Words, w)
		out.Vectors = append(out.Vectors, src.Vector(i)...)
	}
	return out, dropped
}

// identity returns the identity map: "induce" then yields u itself.
func identity(dim int) *Map {
	m := &Map{dim: dim, a: make([]float64, dim*dim)}
	for i := 0; i < dim; i++ {
		m.a[i*dim+i] = 1
	}
	return m
}

func randomCode(r *rand.Rand) hamming.Code {
	return hamming.Code{r.Uint64(), r.Uint64(), r.Uint64(), r.Uint64()}
}

// hammingKNN returns the ids of the k nearest codes to q in (distance, id)
// order, leaving out self (−1: nothing). With ties kept, the k+1 nearest
// hold the k nearest other than self.
func hammingKNN(idx *hamming.Index, q hamming.Code, self, k int) ([]int, error) {
	ns, err := idx.KNN(nil, q, k+1, hamming.Options{})
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	out := make([]int, 0, k)
	for _, n := range ns {
		if int(n.ID) != self && len(out) < k {
			out = append(out, int(n.ID))
		}
	}
	return out, nil
}

// recall returns |truth ∩ got| / |truth| (0 for an empty truth).
func recall(truth, got []int) float64 {
	if len(truth) == 0 {
		return 0
	}
	hit := 0
	for _, t := range truth {
		if slices.Contains(got, t) {
			hit++
		}
	}
	return float64(hit) / float64(len(truth))
}

func names(words []string, ids []int) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = words[id]
	}
	return out
}
