// Package floatmech holds the word-privatization mechanisms that work on
// float word vectors: Madlib (CMP), Mahalanobis, Vickrey, TrLaplace, SynTF,
// the truncated Gumbel mechanism and the clipped Laplace and Gaussian
// baselines. They need the original GloVe
// vectors (a research build of the asset, `wordveil-research assets build -floats`)
// and an exact nearest-neighbour search over all N words, so they run off the
// phone: nothing in the mobile import graph imports this package.
//
// Every mechanism adds noise Z to a word's vector and releases the word
// whose vector is nearest (exact, package euclid) to the noisy point,
// searching ALL words, the input included. Guarantees:
//
//	Madlib       ε·‖φ(w)−φ(w')‖₂ metric DP. Z has density ∝ exp(−ε‖z‖₂):
//	             radius Gamma(d, 1/ε), uniform direction.
//	Mahalanobis  ε·‖Σ_λ^(−1/2)(φ(w)−φ(w'))‖₂ metric DP. Z = r·Σ_λ^(1/2)·u with
//	             r, u as Madlib and Σ_λ = λΣ/σ̄² + (1−λ)I (Xu et al. 2020).
//	Vickrey      ε·‖φ(w)−φ(w')‖₂ metric DP. Madlib's noise, then the nearest
//	             or the second-nearest word, chosen with probabilities that
//	             depend only on the noisy point (post-processing). The
//	             published Algorithm 1 searches W∖{w}; that is not DP and
//	             is not what this package does.
//	Laplace      ε-DP (word level) on vectors clipped to norm C: i.i.d.
//	             Laplace(Δ₁/ε) per coordinate, Δ₁ = 2√d·C.
//	Gaussian     (ε, δ)-DP for ε ≤ 1 on clipped vectors:
//	             σ² = 8C²·ln(1.25/δ)/ε² (larger ε is refused).
//	TrLaplace    the paper claims (ε, δ)-DP (Theorem 3); its proof bounds the
//	             volume of one shifted box outside another by Δ∞^d, which is
//	             false for d ≥ 2. TrLaplaceDelta computes a lower bound on the
//	             δ the noisy vector really has (≈ 1 at the paper's settings);
//	             docs/FLOAT_MECHANISMS.md shows the counterexample. Implemented
//	             as specified, for comparison, and labelled so.
//
// Three mechanisms release a word without adding noise to a vector:
//
//	SanText      the exponential mechanism over all words with score
//	             −‖φ(w)−φ(y)‖₂ (sensitivity 1): ε·Euclidean metric DP.
//	SynTF        the exponential mechanism over all words with the cosine of
//	             the vectors as utility (sensitivity 2): ε-DP for every pair,
//	             and (ε/2)·‖φ̂(w)−φ̂(w')‖₂ between unit-normalised vectors.
//	TruncGumbel  Gumbel noise, truncated, added to the distances of a random
//	             number of nearest words; claimed ε·Euclidean metric DP, but
//	             the input's farthest word can never be released while a
//	             neighbour can release it: no finite ε. Implemented as
//	             specified, for comparison, and labelled so.
//
// Randomness comes only from the rand.Source the caller passes
// (mechanism.NewSecureSource in production; a seeded source only for tests and
// reproducible evaluation) and fresh noise is drawn for every word.
//
// Floating-point caveats (Mironov, CCS 2012). A noisy vector released
// directly would leak through the low bits of floating-point samples. Here
// the noisy vector never leaves the package: only the nearest word does,
// and every function of the noisy point (rounding it to float32, the
// search) is post-processing. What remains is how faithfully the samplers
// realize their densities: radii and Laplace magnitudes are built from
// exponential variates whose tails are never cut off (sample.Exponential,
// fine uniforms near 0), Gaussian coordinates come from Box–Muller over the
// same variates, so no region of the noise space that has positive
// probability in the ideal mechanism gets probability zero; the remaining
// error is a relative 2^-53 perturbation of each variate, which changes the
// probability of a word's (macroscopic) Voronoi cell by a negligible amount.
// The truncated Laplace sampler inverts the CDF exactly and clamps to
// [−A, A], so no coordinate ever leaves its support.
package floatmech
