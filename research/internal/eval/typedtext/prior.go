package typedtext

import (
	"fmt"
	"math"
)

// PriorSmoothing is the count every vocabulary word gets on top of its
// SUBTLEXus count in Prior, so that a word the subtitles never counted
// (a name, a technical word from the embedding's own order) is possible,
// as it is in typed text, without moving the frequent words' weights.
const PriorSmoothing = 0.5

// Clitic pieces. SUBTLEXus split its subtitles at apostrophes, so "don't"
// counts as "don" and "t", "I'm" as "i" and "m"; the privatizer's
// tokenizer (like GloVe's) splits them as "do" + "n't" and "i" + "'m".
// cliticPieces maps SUBTLEXus's pieces to the tokenizer's: the suffixes,
// and the "n't" hosts whose spelling changes. "can" (can + t) and "won"
// (won + t) stay as they are: SUBTLEXus cannot tell "can't" from "can",
// nor "won't" from "won".
var cliticPieces = map[string]string{
	"t": "n't", "s": "'s", "m": "'m", "re": "'re", "ll": "'ll", "ve": "'ve", "d": "'d",
	"don": "do", "doesn": "does", "didn": "did", "isn": "is", "aren": "are",
	"wasn": "was", "weren": "were", "haven": "have", "hasn": "has", "hadn": "had",
	"couldn": "could", "wouldn": "would", "shouldn": "should", "mustn": "must",
	"needn": "need", "ain": "ai",
}

// TokenForm returns the form in which the privatizer's tokenizer meets the
// SUBTLEXus word w: w itself, or the clitic piece it stands for.
func TokenForm(w string) string {
	if t, ok := cliticPieces[w]; ok {
		return t
	}
	return w
}

// Prior returns the frequency prior over a vocabulary of n words that
// lookup indexes: each word's SUBTLEXus count (rank, from Ranking; pieces
// mapped by TokenForm, counts of words outside the vocabulary dropped)
// plus PriorSmoothing, normalized to sum to 1. It is the typed-text
// frequency the privacy levels are calibrated on and the attacker is
// given. mass is the share of rank's counted tokens that fall in the
// vocabulary (before smoothing).
func Prior(rank []WordFreq, n int, lookup func(string) (int, bool)) (prior []float64, mass float64, err error) {
	if n < 1 {
		return nil, 0, fmt.Errorf("typedtext: a prior over %d words", n)
	}
	counts := make([]float64, n)
	var total, in float64
	for _, wf := range rank {
		if wf.Count < 0 {
			return nil, 0, fmt.Errorf("typedtext: %q has count %d", wf.Word, wf.Count)
		}
		c := float64(wf.Count)
		total += c
		id, ok := lookup(TokenForm(wf.Word))
		if !ok {
			continue
		}
		if id < 0 || id >= n {
			return nil, 0, fmt.Errorf("typedtext: lookup(%q) = %d, outside [0, %d)", wf.Word, id, n)
		}
		counts[id] += c
		in += c
	}
	sum := in + PriorSmoothing*float64(n)
	if math.IsInf(sum, 0) {
		return nil, 0, fmt.Errorf("typedtext: counts overflow")
	}
	for i, c := range counts {
		counts[i] = (c + PriorSmoothing) / sum
	}
	if total > 0 {
		mass = in / total
	}
	return counts, mass, nil
}

// Frequencies returns counts normalized to sum to 1 (an error when they
// are negative or sum to 0): a text's token frequencies as a prior.
func Frequencies(counts []int64) ([]float64, error) {
	var total float64
	for i, c := range counts {
		if c < 0 {
			return nil, fmt.Errorf("typedtext: count %d of word %d", c, i)
		}
		total += float64(c)
	}
	if !(total > 0) {
		return nil, fmt.Errorf("typedtext: no tokens counted")
	}
	out := make([]float64, len(counts))
	for i, c := range counts {
		out[i] = float64(c) / total
	}
	return out, nil
}

// Mix returns the equal-weight mixture of priors over the same words: a
// word's probability is the mean of its probabilities. Each prior should
// sum to 1; so does the mixture.
func Mix(priors ...[]float64) ([]float64, error) {
	if len(priors) == 0 || len(priors[0]) == 0 {
		return nil, fmt.Errorf("typedtext: no prior to mix")
	}
	out := make([]float64, len(priors[0]))
	for _, p := range priors {
		if len(p) != len(out) {
			return nil, fmt.Errorf("typedtext: mixing priors over %d and %d words", len(out), len(p))
		}
		for i, x := range p {
			out[i] += x / float64(len(priors))
		}
	}
	return out, nil
}
