package assetbuild

import (
	"fmt"
	"strings"

	"github.com/wordveil/wordveil/internal/hamming"
	"github.com/wordveil/wordveil/internal/tokenize"
	"github.com/wordveil/wordveil/internal/wva"
	"github.com/wordveil/wordveil/research/internal/binarize"
)

// Stand-ins are the words a typed-text asset knows beyond its vocabulary:
// the first TypedText.StandIns words of the ranking that have a source
// vector and are not vocabulary words, each mapped to the
// vocabulary word whose code is nearest to its own code (exact Hamming
// search, ties to the lowest id). A stand-in costs a few bytes (its
// spelling and one id) where a vocabulary word costs its code, its list
// positions and its TEM ball, so the asset can know three times as many
// words as it can privatize directly. The privatizer hands a stand-in to
// the mechanism as the word it stands in for; nothing about it is ever
// released.

// standInWord reports whether w can be a stand-in: a word the tokenizer
// looks up whole (one Word token, not cut into pieces, no hyphen — the
// privatizer cuts hyphenated words into segments — and no digit), at most
// wva.MaxStandInLen bytes.
func standInWord(w string) bool {
	if len(w) == 0 || len(w) > wva.MaxStandInLen || strings.ContainsAny(w, "-0123456789") {
		return false
	}
	tks := tokenize.Tokenize(w)
	return len(tks) == 1 && tks[0].Kind == tokenize.Word && tks[0].Part == tokenize.Single && tokenize.Key(w) == w
}

// buildStandIns returns the asset's stand-ins, or nil when t asks for none.
// src is the source (every plain word with its vector), vocab the asset's
// words and codes their codes, proj the asset's binarizer.
func buildStandIns(src *binarize.Embeddings, vocab []string, codes []hamming.Code, proj *binarize.Projection, t *TypedText) (*wva.StandIns, error) {
	if t.StandIns == 0 {
		return nil, nil
	}
	inSource := make(map[string]int, src.Len())
	for i, w := range src.Words {
		inSource[w] = i
	}
	in := make(map[string]bool, len(vocab))
	for _, w := range vocab {
		in[w] = true
	}
	ranking := t.Ranking
	if t.Interleave {
		ranking = interleave(t.Ranking, src.Words)
	}
	x, err := hamming.NewIndex(codes)
	if err != nil {
		return nil, fmt.Errorf("stand-ins: %w", err)
	}
	var words []string
	var ids []int32
	seen := make(map[string]bool)
	for _, w := range ranking {
		if len(words) == t.StandIns {
			break
		}
		i, ok := inSource[w]
		if !ok || in[w] || seen[w] || !standInWord(w) {
			continue
		}
		seen[w] = true
		c, err := proj.Encode(src.Vector(i))
		if err != nil {
			return nil, fmt.Errorf("stand-in %q: %w", w, err)
		}
		n, err := x.Nearest(c, hamming.Options{})
		if err != nil {
			return nil, fmt.Errorf("stand-in %q: %w", w, err)
		}
		words = append(words, w)
		ids = append(ids, int32(n.ID))
	}
	if len(words) == 0 {
		return nil, nil
	}
	s, err := wva.NewStandIns(len(vocab), words, ids)
	if err != nil {
		return nil, fmt.Errorf("stand-ins: %w", err)
	}
	return s, nil
}
