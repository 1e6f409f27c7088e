// Package brrbound bounds what the best attacker recovers from one
// word released by BRR (randomized response on each bit of a word's
// 256-bit code, then the nearest word to the noisy code), whose law
// Pr[M(x) = y] has no closed form.
//
// The bound. BRR's output y is a function of the noisy code z = c_x ⊕ f
// (f: each bit flipped with q = 1/(1+e^ε)) and of tie-breaking randomness
// independent of x. So any attacker who sees y is an attacker who sees z
// (data processing): for input words drawn from weights π, the best
// top-k recovery from y is at most the best top-k recovery from z. The
// law of z has a closed form, Pr[z | x] = q^d (1−q)^(256−d) with
// d = d(z, c_x), so the attacker who sees z ranks the words by
// ln π(x) − d(z, c_x)·ln((1−q)/q), and its recovery is an expectation
// over (x, z) that Monte Carlo estimates without bias. Upper draws r noisy
// codes per token of a token list (π its empirical distribution: the
// token counts), counts a success when the input word is among the k best
// (ties counted as successes, so the estimate only grows), and adds
// Hoeffding's deviation sqrt(ln(1/δ)/(2n)) for n independent draws in
// [0, 1]: with probability at least 1 − δ the result is at least the
// z-attacker's recovery, hence at least that of every attacker who sees
// the released word alone, including the Bayes-optimal one for π and one
// that knows π exactly (the token counts of the very text measured).
//
// What it guarantees: a valid one-sided (1 − δ) upper confidence bound,
// for the mechanism as shipped whatever its output restriction (the
// restriction is part of the map z ↦ y). What it does not: it is not
// tight. The z-attacker sees more than the released word; the gap is what
// the nearest-word step hides, and it is reported beside a lower bound
// (a trained attacker's measured recovery), not hidden in it. Seeded
// sources belong to evaluation only.
//
// The tight interval (Tight). Each draw takes an input x from the prior,
// its noisy code z and the released word y as the product draws them, and
// the posterior post_z(w) = π(w)·Pr[z|w] / Σ_v π(v)·Pr[z|v] of every word,
// which has a closed form. Because y depends on x only through z,
// π(w)·P(y|w) = E[1{Y = y}·post_Z(w)]: one set of M draws estimates every
// pair's joint probability without bias, each draw informing every word
// of its output's column (a rare output's column is no longer a few 0/1
// counts, the weakness of Law's plug-in). Upper end: the plug-in
// Σ_y max_w â(y, w) is convex in the estimates, so its expectation is at
// least the optimum R* (Jensen); one draw moves it by at most 1/M, so
// McDiarmid adds sqrt(ln(1/δ)/(2M)); posteriors below τ are not kept, and
// a column's maximum loses less than τ per draw it holds, τ in all, which
// is added. Lower end: the attacker fitted on the first half (argmax of
// its column), measured on the second half by the posterior of its guess
// (unbiased for its recovery), minus Hoeffding's deviation.
//
// Top-k (TightConfig.TopK, k ≤ MaxK) from the same draws: the optimum
// R_k* = Σ_y (sum of the k largest π(w)·P(y|w)). Upper end: the plug-in
// Σ_y (sum of the k largest â(y, w)) is convex in the estimates (a sum
// of the k largest of linear functions), so Jensen gives E ≥ R_k*; one
// draw moves it by at most 1/M (its posteriors sum to at most 1:
// removing them from one column lowers that column's top-k sum by at
// most 1/M, adding them to another raises its by at most 1/M), so
// McDiarmid adds the same sqrt(ln(1/δ)/(2M)); each of a column's k
// entries loses less than n_y·τ/M to the cut, so k·τ is added. Lower
// end: the attacker fitted on the first half guesses, for each output,
// its k largest â (ties to the lower id; padded with the echo, the
// released word itself, where the column holds fewer than k words and
// not the echo), measured on the second half by the sum of the
// posteriors of its k guesses: unbiased for its top-k recovery, which is
// at most R_k*, and each draw's term lies in [0, 1] (posteriors of
// distinct words), so Hoeffding subtracts the same deviation. Each k's
// interval holds at 1 − 2δ on its own. The width
// left is the plug-in's upward bias, which falls as 1/sqrt(M) (0.118 at
// 2^16 draws, 0.063 at 2^18 on the real asset at strong), plus the
// fitted attacker's regret. On the embedded asset at its presets, inputs
// drawn from the held-out text's tokens, 2^20 draws per level (eval
// brrbound, docs/eval/brr-bound.jsonl; 7 min 41 s of CPU for the three
// levels on this project's shared 2-core machine): [0.110, 0.140] at
// strong, [0.303, 0.335] at balanced, [0.605, 0.630] at light (top-1).
// On the small vocabulary of the tests (100 words) the interval is about
// 0.015 wide at 2^16 draws for top-1 and 0.02 for top-5, holds the
// optimum at both, and the fitted attacker recovers at least 0.98 of it;
// a bound that drops the k·τ term, and a plug-in taken as an attacker's
// recovery (the fitted attacker measured on the draws it was fitted on),
// are caught by the same check.
package brrbound
