// Package dpexact computes the exact output distributions of WordVeil's
// on-device mechanisms, and of the research module's float-vector
// mechanisms SynTF (SynTF, SynTFNoHalf) and the truncated Gumbel mechanism
// (TruncGumbel, whose constants are derived here from the definition), and
// checks them against metric differential privacy. It imports nothing from
// this module but the leaf internal/sample (for its seeded fixtures), so
// package mechanism's own tests, the research module's tests and package
// audit (which imports mechanism) use the same code.
//
// Every distribution is a square matrix P with P[w][y] = Pr[M(w) = y],
// computed in closed form (or, for BRR, by enumerating every flip mask)
// from the mechanism's parameters and the distances or list positions of
// the words, as defined in docs/MECHANISMS.md. It is deliberately not
// computed by calling the samplers: the samplers are tested against these
// laws (chi-square tests in package mechanism), and the laws are checked
// against the metric-DP inequality here.
//
// Check proves, for one distribution, one ε and one metric d, that
//
//	ln P(y|w) − ln P(y|w') ≤ ε·d(w, w') + tol   for every w, w' and y,
//
// by visiting every ordered pair and every output; tol absorbs
// floating-point rounding. A passing Report is a proof for that matrix
// only (up to tol): it says nothing about other vocabularies, about how
// the matrix was obtained, or about whether a sampler draws from it.
//
// Output vocabularies: RestrictedBRR, RestrictedTEM,
// RestrictedDiffractorGeometric and RestrictedDiffractorTEM are the laws
// of the mechanisms restricted to a set A of allowed outputs (the input
// may be any word): BRR's nearest allowed code, 1-DG's nearest allowed
// position (the lower on a tie), the exponential mechanism over A for the
// TEM family.
//
// Negative controls (ExcludeInput, TEMBottomScoreBug, TEMTopK,
// BRRLowestIndexTies, SynTFNoHalf, and Redraw applied to BRR or 1-DG: re-drawing until
// the output is allowed) are the laws of known-bad variants of the
// mechanisms, so that callers can show their checks are able to fail.
//
// Probabilities are float64. A probability below about e^−700 (ε·d or
// ε·γ of several hundred) underflows to 0, which Check reports as an
// unbounded ratio; keep ε·d and ε·γ well below that.
//
// Costs, for N words: the laws take O(N²) memory and O(N²) time (BRR
// O(N²·2^L), TEMTopK O(N²·k), SynTF O(N²·dim), TruncGumbel O(N³·Q) time
// and O(N·Q) memory for Q ≤ 16·(16·Δmax/b + N + 1) quadrature nodes);
// Check takes O(N³) time and O(N²) memory.
// They are meant for small vocabularies. Every function validates its arguments and returns an
// error wrapping ErrInvalid instead of panicking; nil and empty inputs are
// errors, except that Check accepts an empty distribution.
package dpexact
