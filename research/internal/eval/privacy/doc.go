// Package privacy holds the privacy measurements used to compare
// mechanisms (docs/MECHANISMS.md, "Comparing mechanisms"). Every function states
// whether its result is exact or estimated; this is the summary.
//
// # Privacy ratio (BRR paper §5, Appendix A)
//
// P_d^avg is the mean of d(x, x') over ordered pairs of distinct words and
// P_d^max the largest d(x, x'). ε_B = (P_dA / P_dB)·ε_A (ConvertEpsilon)
// gives two mechanisms with different metrics the same privacy-loss
// estimate ε·P_d.
//
//   - HammingRatio: Avg and Max exact (Avg by per-bit counting, Max by an
//     exhaustive parallel scan of all pairs).
//   - EuclideanRatio: Max exact (farthest pair, found with a triangle-
//     inequality bound and confirmed distances); Avg exact when samples is
//     0 (all pairs), otherwise the mean over samples uniform random
//     ordered pairs with a 95% normal (CLT) confidence interval
//     [AvgLo, AvgHi] = mean ± 1.96·sd/√n.
//   - ListRatio: one permutation, Avg = (n+1)/3 and Max = n−1, exact
//     closed forms.
//   - ListsRatio: the max-over-lists position metric of 1-Diffractor; Max
//     = n−1 exact (proved in its doc), Avg exact for samples = 0, sampled
//     with a 95% CI otherwise.
//
// Appendix A's Eq. (7) divides the sum over ALL ordered pairs, x = x'
// included, by |X|². This package excludes the N zero-distance pairs x = x'
// (mean over N(N−1) pairs), so its P_avg is N/(N−1) times Eq. (7)'s. For
// two metrics on the same vocabulary the factor cancels in the ratio, so
// ConvertEpsilon gives the same ε either way; Ratio.AvgAllPairs returns
// Eq. (7)'s value when it is needed on its own.
//
// # Empirical privacy–utility tradeoff (Vickrey paper §3)
//
// Measure estimates f(w'|w) = Pr[M(w) = w'] for every w of a universe U
// by Monte-Carlo draws and evaluates, with the plug-in estimate f̂:
//
//   - UtilityLoss L_M = Σ π(w) f(w'|w) d_L(w, w') (Eq. 2): unbiased
//     (linear in f̂), with its standard error.
//   - InferenceError E_M (Eq. 4) for the paper's adversary, which draws its
//     guess ŵ from the Bayesian posterior g(ŵ|w') ∝ π(ŵ) f(w'|ŵ) over U (the
//     paper sums over ŵ with weight g, it does not take the argmax).
//     Plugging f̂ in is biased low in expectation (convexity, see Measure):
//     it can only understate privacy.
//   - InferenceErrorMAP and InferenceErrorMAPHeldOut: the Bayes-optimal
//     (MAP) adversary's error, estimated in-sample (biased low) and
//     cross-fitted on disjoint halves of the draws (biased high); in
//     expectation they bracket the true Bayes error.
//
// Select (Eq. 5 over a candidate set) and Algorithm2 (the paper's
// doubling-then-grid search over (ε, t)) choose parameters.
//
// All randomness comes from seeded.Key (internal/seeded): results are
// reproducible for a seed. Evaluation only; nothing here is for devices.
package privacy
