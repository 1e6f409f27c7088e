// Package ngram is an interpolated Kneser–Ney bigram language model over
// word ids [0, N): the sentence prior of the context attacker (package
// ctxattack), trained on public text.
//
// The model (Chen and Goodman, 1998, interpolated Kneser–Ney with one
// discount D):
//
//	P(w | v)  = max(c(v w) − D, 0)/c(v·) + D·N1+(v •)/c(v·) · P1(w)
//	P1(w)     = max(N1+(• w) − D, 0)/N1+(• •) + D·|{w : N1+(• w) > 0}|/N1+(• •) · 1/N
//
// where c(v w) counts the bigram, c(v·) the bigrams starting with v,
// N1+(v •) the distinct words after v, N1+(• w) the distinct words
// before w and N1+(• •) the distinct bigrams. A context never seen
// (c(v·) = 0) and Unknown fall back to P1. The sentence start is its own
// context, Start. D = n1/(n1 + 2·n2) from the counts of bigrams seen once
// and twice (clamped into [0.1, 0.9]), the usual estimate.
//
// Guarantees: for every context, P(· | v) is a probability distribution
// over the N words (sums to 1 up to rounding; every word has positive
// probability), so the model never rules a sentence out; LogProb is
// safe for concurrent use once built. Memory is O(N + distinct bigrams);
// a lookup is a binary search in the context's row.
//
// Not provided: higher orders (trigrams), an end-of-sentence event
// (sentences are scored as prefixes: the attacker decodes given the
// length it sees), words outside [0, N).
package ngram
