// Package attack measures the Bayes-optimal reconstruction adversary
// against WordVeil's word mechanisms: one who knows the mechanism, ε, the
// vocabulary and a prior over input words (their frequencies), sees one
// released word y and guesses the input. Its posterior is
//
//	P(w | y) ∝ prior(w)·P[w][y],   P[w][y] = Pr[M(w) = y],
//
// its top-1 guess the maximum a posteriori word and its top-k guesses the
// k most probable (TopK: ties broken towards the lower word id, so the
// guess list is deterministic).
//
// Recovery rates. R_k = Σ_w prior(w) Σ_y P[w][y]·credit_k(w, y), where
// credit_k is 1 when w scores above the k-th largest posterior, 0 when it
// scores below, and (k − a)/e when it ties with it (a words strictly
// above, e words equal): the chance that a uniform tie-break puts w in
// the list. Ties are exact float64 equality of prior(w)·P[w][y]. This
// fractional credit makes R_k the exact success rate of the attacker who
// breaks ties at random, independent of how words are numbered; TopK's
// lowest-id list has the same expected rate only on average over
// numberings. A top-k list longer than the vocabulary names every word
// (credit 1). The baseline is the same rate for the attacker who ignores
// y and guesses the prior's top k, so a rate can be read against it.
//
// Exact computes R_k and the baseline from a full law (a matrix from
// internal/dpexact, small vocabularies). Attack measures them on a token
// stream: each token is privatized once by the real sampler, the
// attacker ranks by prior(w)·P[w][y] using the law's column for the
// observed y (Column; tokens are grouped by output, so each distinct
// output's column is computed and ranked once), and the mean credit comes
// with a 95% Wilson interval (conservative for fractional credit); the
// same draws give the share of tokens released unchanged (Kept). Columns
// with a closed form per entry, computed without the N×N matrix:
//
//   - NewGeometric: 1-DG on a list, O(N) per column (NewMixture for
//     several lists); NewRestrictedGeometric: 1-DG releasing the nearest
//     allowed word (an exclusion list), O(N·s) per column, s the run of
//     positions released as y;
//   - NewListTEM: 1-DT on a list, O(N·γ) once, O(N) per column;
//   - NewTEM: the exponential mechanism over an output set with utility
//     −min(d, γ), optionally restricted to allowed outputs: TEMHamming,
//     SanText (γ = 256) and TEM on Euclidean balls, O(N²) distances once
//     and O(N) per column; HammingHist.TEM is the same law on Hamming
//     codes with the O(N²) part done once per codes and allowed outputs
//     (per-word distance histograms) and shared by every ε and γ;
//   - NewCusText: CusText and CusText+ (the exponential mechanism over
//     the input's output set), O(s) per column, s the set size;
//   - Matrix: any law given as a matrix.
//
// BRR's law has no closed form per entry (it sums, over the noisy
// 256-bit codes, the chance that each word is the nearest; dpexact
// enumerates codes of at most 20 bits). Its attacker is trained on the
// real sampler instead: HammingHist.TrainKeepKernel fits a model (each
// trained word's keep rate from D draws, the pooled rate for the others,
// and a kernel e^(−λ·d) in the code distance for the word released
// instead, λ by maximum likelihood); NewPlugIn is the model-free
// variant (raw frequencies of D draws for T words, smoothed by a
// fallback law), weaker at a few hundred draws because BRR's
// off-diagonal probabilities are too small to count. Either is an actual
// attacker, but not the Bayes-optimal one: its measured rate is a LOWER
// bound on what the best attacker recovers (on tokens drawn from the
// prior, at most R_k). Both are tested against dpexact's exact BRR law
// on small vocabularies. On the embedded asset at the presets of
// 2026-11 (4,000 held-out tokens, 1,000 trained words, 100 draws each),
// the model reached top-1 0.081 / 0.206 / 0.416 (strong / balanced /
// light) where the raw frequencies reached 0.042 / 0.174 / 0.364.
//
// Each is tested entry by entry against dpexact's matrix on small
// vocabularies.
//
// Cost, measured on the embedded 50,000-word asset with 1-DG over its 2
// lists (BenchmarkGeometricColumn and BenchmarkAttackToken: `cd research
// && go test -run '^$' -bench . -benchtime 200x ./eval/attack`, 2-core
// AMD EPYC shared with other work, load ≈ 3): one column 0.82–0.86 ms,
// one sampled token end to end (privatize, column, scores, top-5
// ranking) 1.3–1.6 ms, so 10,000 tokens take about 15 s. Ranking is
// O(N·k), not a sort.
//
// Not provided: SanText+'s column (it can be computed with Exact on a
// small vocabulary).
//
// What it guarantees: the rates are those of the attacker given the law
// and the prior it is handed; Exact is exact up to float64 rounding, and
// Attack's estimate is unbiased for R_k when tokens are drawn from the
// prior. What it does not: it says nothing of an attacker who sees more
// than one word (context, repeated words; package ctxattack measures one
// who reads the whole released sentence), nor of priors other than the
// one given (a held-out text's tokens are not drawn from the frequency
// prior, so Attack then measures the attacker on that text, not R_k).
// Seeded sources belong in tests and evaluation only.
package attack
