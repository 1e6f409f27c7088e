// Package ctxattack measures a reconstruction attacker who sees a whole
// released sentence, not one word: it knows the mechanism's law (the
// same columns P[w][y] as package attack's one-word attacker, from
// levels.Laws) and holds a language model of English trained on public
// text (package ngram), and decodes the most probable input sentence,
//
//	argmax over w_1…w_n of  LM(w_1…w_n) · Π P[w_i][y_i],
//
// by Viterbi (Decode) over a pruned candidate set per position, and the
// posterior of each word given the whole segment under the same model
// (Marginals, forward–backward), whose best word is the better guess for
// top-1 per word. The candidates of a position are the K words of
// largest one-word posterior prior(w)·P[w][y] (Candidates) and, with an
// LM that predicts (Predictor: *ngram.Bigram), the K words of largest
// LM prediction·P[w][y], the prediction made from the forward filter at
// the position before: the inputs the context makes likely, which the
// one-word posterior may rank too low. The pruning is checked, not
// assumed: each cell reports the mean share of the one-word posterior
// mass outside the candidates and the share of tokens whose input is
// among them (the most the decoder can recover).
//
// Measure privatizes held-out segments (runs of in-vocabulary word
// pieces, Segments) once per mechanism and level with the product's
// mechanism, and scores on the same draws both the one-word attacker
// (fractional credit for ties, as package attack) and the context
// attacker: top-1 per word, the share of input words recovered. Tokens
// of one segment are not independent, so the 95% intervals are
// cluster-robust (segments as clusters, a normal approximation of the
// ratio estimator), and the difference context − one-word has its own
// paired interval.
//
// Guarantees: Decode returns the exact MAP sentence over the candidate
// sets (tested against enumeration on toy vocabularies, with broken
// decoders as a control); every cell's draws come from a generator keyed
// by the seed, the mechanism and the level, so results do not depend on
// the number of workers. Not guaranteed: this attacker is not the
// Bayes-optimal one with context (a bigram model, K candidates, MAP of
// the sentence rather than of each word), so its rates are lower bounds
// on what an attacker with context recovers; for BRR its column is a
// trained model (levels), a lower bound already for one word. Segments
// break at words outside the vocabulary (the product releases a uniform
// word there; the attacker does not use it), and punctuation and
// numbers are skipped as the privatizer skips them. Seeded sources
// belong to evaluation only.
package ctxattack
