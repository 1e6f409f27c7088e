package assetbuild

import (
	"fmt"
	"sort"
	"strings"

	"github.com/wordveil/wordveil/internal/wva"
	"github.com/wordveil/wordveil/research/internal/alacarte"
	"github.com/wordveil/wordveil/research/internal/binarize"
)

// TypedText chooses an asset's vocabulary for what people type rather than
// by the source's order, and completes it with vectors induced (à la carte
// embedding, package alacarte) for the words the source lacks.
type TypedText struct {
	// Ranking lists lower-case words by frequency in conversational and
	// everyday text, most frequent first. The vocabulary is its first
	// words that have a source vector or can be induced.
	Ranking []string
	// Counts, if set, are the ranking's word counts (Counts[i] of
	// Ranking[i]): the presets are then calibrated on typed text, each
	// word weighted by its frequency (typedtext.Prior), instead of
	// uniformly over the vocabulary.
	Counts []int64
	// PriorTexts, if set with Counts, yields running typed text (source
	// name, document): the calibration's prior is then the equal mixture
	// of the ranking's frequencies and each source's token frequencies as
	// the privatizer cuts and looks them up (privatize.WordIDs).
	PriorTexts func(fn func(source, doc string) error) error
	// Required words join the vocabulary whenever they have a vector or
	// can be induced, wherever they rank: the clitic tokens, single
	// letters, small numbers and years.
	Required []string
	// Corpus supplies documents tokenized the way the source was (clitics
	// split, lower case), for induction. It is read once.
	Corpus alacarte.Corpus
	// Interleave alternates the ranking with the source's own order (news
	// and encyclopedia text: names, places, technical words), skipping
	// repeats, so the vocabulary covers both everyday speech and what
	// people write about.
	Interleave bool
	// StandIns is how many stand-ins the asset gets (0: none): words past
	// the vocabulary, each privatized as its nearest vocabulary word
	// (standins.go).
	StandIns int
	// MinCount is the fewest occurrences a missing word needs to be induced.
	MinCount int
	// SourceWords is how many source words are read (in source order) to
	// find ranked words' vectors and to serve as context vectors.
	SourceWords int
	// Exclude lists offensive words (lower case); the vocabulary words
	// among them become the asset's default exclusion list, recorded with
	// ExcludeSource and ExcludeLicence.
	Exclude                       []string
	ExcludeSource, ExcludeLicence string
	// Measure, if set, measures the calibrated presets on held-out text
	// and records the results in the asset's presets (Presets.HeldOut,
	// LevelFacts.HeldOut). It runs after calibration, with the prior the
	// levels were calibrated on, and must be deterministic (seeded) so
	// that the asset rebuilds bit for bit.
	Measure func(a *wva.Asset, prior []float64) error
	// Provenance recorded in the header's binarizer parameters.
	RankingSource, CorpusSource string
}

func (t *TypedText) validate(words int) error {
	switch {
	case len(t.Ranking) == 0:
		return fmt.Errorf("%w: typed text needs a ranking", ErrConfig)
	case t.Counts != nil && len(t.Counts) != len(t.Ranking):
		return fmt.Errorf("%w: %d counts for %d ranked words", ErrConfig, len(t.Counts), len(t.Ranking))
	case t.Corpus == nil:
		return fmt.Errorf("%w: typed text needs an induction corpus", ErrConfig)
	case t.MinCount < 1:
		return fmt.Errorf("%w: MinCount %d, want ≥ 1", ErrConfig, t.MinCount)
	case t.SourceWords < words:
		return fmt.Errorf("%w: SourceWords %d below Words %d", ErrConfig, t.SourceWords, words)
	case t.StandIns < 0 || t.StandIns > wva.MaxStandIns:
		return fmt.Errorf("%w: StandIns %d not in [0, %d]", ErrConfig, t.StandIns, wva.MaxStandIns)
	case len(t.Required) > words:
		return fmt.Errorf("%w: %d required words exceed the vocabulary size %d", ErrConfig, len(t.Required), words)
	}
	return nil
}

// vocabWord reports whether a ranked or required word may enter the
// vocabulary: a plain word (binarize.PlainWord) without an apostrophe —
// the tokenizer splits those into pieces, so they are never looked up —
// or a clitic piece itself.
func vocabWord(w string) bool {
	if clitic(w) {
		return true
	}
	return binarize.PlainWord(w) && !strings.Contains(w, "'")
}

// clitic reports whether w is one of the clitic tokens of the source's
// tokenizer.
func clitic(w string) bool {
	switch w {
	case "n't", "'s", "'m", "'re", "'ll", "'ve", "'d":
		return true
	}
	return false
}

// typedVocabulary returns the vocabulary (size words) and its float
// vectors: ranked words with a source vector or an induced one, then the
// required words not yet in, each replacing the lowest-ranked word. It
// also reports how many words were induced and which missing words were
// too rare.
func typedVocabulary(src *binarize.Embeddings, t *TypedText, words int, logf func(string, ...any)) (*binarize.Embeddings, []string, error) {
	inSource := make(map[string]int, src.Len())
	for i, w := range src.Words {
		inSource[w] = i
	}
	ranking := t.Ranking
	if t.Interleave {
		ranking = interleave(t.Ranking, src.Words)
	}
	// Targets: missing ranked words as far down the ranking as the
	// vocabulary could reach, and missing required words.
	seen := map[string]bool{}
	var targets []string
	addTarget := func(w string) {
		if _, ok := inSource[w]; !ok && !seen[w] && vocabWord(w) {
			seen[w] = true
			targets = append(targets, w)
		}
	}
	for _, w := range t.Required {
		addTarget(w)
	}
	reach := 0
	for _, w := range ranking {
		if reach >= words {
			break
		}
		if !vocabWord(w) {
			continue
		}
		if _, ok := inSource[w]; !ok {
			addTarget(w)
		}
		reach++
	}
	ac := alacarte.DefaultConfig()
	ac.Train = min(ac.Train, src.Len())
	acc, err := alacarte.NewAccumulator(src, targets, ac)
	if err != nil {
		return nil, nil, fmt.Errorf("induction: %w", err)
	}
	if err := acc.AddCorpus(t.Corpus); err != nil {
		return nil, nil, fmt.Errorf("induction corpus: %w", err)
	}
	m, rep, err := acc.Fit(alacarte.DefaultFitConfig())
	if err != nil {
		return nil, nil, fmt.Errorf("induction fit: %w", err)
	}
	ind, err := acc.Induce(m, t.MinCount)
	if err != nil {
		return nil, nil, fmt.Errorf("induction: %w", err)
	}
	logf("induction: %d documents, %d tokens; map fitted on %d words (residual %.3f); %d of %d missing words induced, %d too rare",
		acc.Docs(), acc.Tokens(), rep.Words, rep.Residual, ind.Vectors.Len(), len(targets), len(ind.Rare))
	induced := make(map[string]int, ind.Vectors.Len())
	for i, w := range ind.Vectors.Words {
		induced[w] = i
	}
	vector := func(w string) ([]float32, bool) {
		if i, ok := inSource[w]; ok {
			return src.Vector(i), true
		}
		if i, ok := induced[w]; ok {
			return ind.Vectors.Vector(i), true
		}
		return nil, false
	}

	var vocab []string
	in := map[string]bool{}
	for _, w := range ranking {
		if len(vocab) == words {
			break
		}
		if _, ok := vector(w); ok && vocabWord(w) && !in[w] {
			in[w] = true
			vocab = append(vocab, w)
		}
	}
	// Fill from the source order if the ranking ran out.
	for _, w := range src.Words {
		if len(vocab) == words {
			break
		}
		if vocabWord(w) && !in[w] {
			in[w] = true
			vocab = append(vocab, w)
		}
	}
	// Required words displace the lowest-ranked others.
	var missing []string
	for _, w := range t.Required {
		if _, ok := vector(w); ok && !in[w] && vocabWord(w) {
			in[w] = true
			missing = append(missing, w)
		}
	}
	if len(missing) > 0 {
		vocab = append(vocab[:len(vocab)-len(missing)], missing...)
	}
	if len(vocab) < words {
		return nil, nil, fmt.Errorf("%w: only %d vocabulary words with vectors, want %d", ErrConfig, len(vocab), words)
	}
	out := &binarize.Embeddings{Words: vocab, Dim: src.Dim, Vectors: make([]float32, 0, len(vocab)*src.Dim)}
	var inducedWords []string
	for _, w := range vocab {
		v, _ := vector(w)
		out.Vectors = append(out.Vectors, v...)
		if _, ok := inSource[w]; !ok {
			inducedWords = append(inducedWords, w)
		}
	}
	return out, inducedWords, nil
}

// excluded returns the ascending ids of vocab's words that are on the
// exclusion list.
func excluded(vocab []string, list []string) []uint32 {
	bad := make(map[string]bool, len(list))
	for _, w := range list {
		bad[strings.ToLower(w)] = true
	}
	var ids []uint32
	for i, w := range vocab {
		if bad[w] {
			ids = append(ids, uint32(i))
		}
	}
	sort.Slice(ids, func(a, b int) bool { return ids[a] < ids[b] })
	return ids
}

// exclusionHeader is the header's record of the exclusion list, nil when
// no vocabulary word is on it.
func exclusionHeader(vocab []string, t *TypedText) *wva.Excluded {
	ids := excluded(vocab, t.Exclude)
	if len(ids) == 0 {
		return nil
	}
	return &wva.Excluded{Source: t.ExcludeSource, Licence: t.ExcludeLicence, IDs: ids}
}

// interleave merges two rankings by alternating them (a first), keeping
// the first occurrence of each word and only words vocabWord accepts.
func interleave(a, b []string) []string {
	out := make([]string, 0, len(a)+len(b))
	seen := make(map[string]bool, len(a)+len(b))
	add := func(w string) {
		if !seen[w] && vocabWord(w) {
			seen[w] = true
			out = append(out, w)
		}
	}
	for i := 0; i < max(len(a), len(b)); i++ {
		if i < len(a) {
			add(a[i])
		}
		if i < len(b) {
			add(b[i])
		}
	}
	return out
}
