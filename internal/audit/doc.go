// Package audit computes the exact output distributions of WordVeil's
// on-device mechanisms (BRR, TEM on Hamming codes, TEM on an asset's
// Euclidean balls, 1-DG, 1-DT, SanText and SanText+, CusText and
// CusText+, each also with an output vocabulary) and of the research
// module's float-vector mechanisms (SynTF, the truncated Gumbel
// mechanism) on small vocabularies, and checks them against the
// metric-DP inequality (docs/MECHANISMS.md):
//
//	ln P(y|w) − ln P(y|w') ≤ ε·d(w, w') + Tolerance   for all w, w', y.
//
// What it guarantees. The distributions and the check come from package
// internal/dpexact, which package mechanism's tests use too. The check is
// exhaustive: it visits every ordered pair of inputs and every output, so
// a Report that passes proves the inequality for that distribution, that
// ε and that metric (up to floating-point rounding, absorbed by Tolerance
// = 1e-9). The distributions are computed in closed form (or, for BRR, by
// enumerating every flip mask) from the definitions in docs/MECHANISMS.md,
// deliberately not by calling the samplers; the mechanisms' parameters
// (ε, and γ where the TEM paper's Theorem 4.2 chooses it) are computed
// here independently and the mechanisms are built with package mechanism
// from the same values, so a mechanism using other parameters fails.
// Three mechanisms are metric-DP on some pairs only, and are checked on
// those: SanText+ on pairs of sensitive words, CusText within each output
// set ((ε/256)·Hamming), CusText+ on pairs of non-stop words of one set.
// Their other rows are expected violations by design: SanText+ releases
// non-sensitive words unchanged, CusText's output discloses the set (an
// infinite metric across sets), and CusText+ releases stop words
// unchanged.
//
// Float-vector mechanisms. SynTF and the truncated Gumbel mechanism live
// in the research module, which this module never imports, so only their
// laws are audited (dpexact.SynTF and dpexact.TruncGumbel, whose Gumbel
// scale, Δmin and Δmax dpexact derives from the definition), on a seeded
// vocabulary of 16 vectors in 4 dimensions (dpexact.SyntheticVectors);
// the research module's tests check the samplers against the same laws.
// SynTF is checked at two ε against both of its guarantees, ε-DP at word
// level (d = 1 between distinct words) and ε·½‖ŵ − ŵ'‖ on the unit
// sphere. The truncated Gumbel mechanism's published claim, ε·Euclidean
// metric DP, is audited as an expected violation: the word farthest from
// w is never a candidate, so the worst ratio is unbounded (no ε would
// pass, and no guarantee is stated for it). Neither mechanism has an
// output vocabulary, so these cases are not audited restricted.
//
// What it does not guarantee. It audits the mechanisms' laws, not their
// samplers' code: that each sampler draws from this law is checked
// statistically by mechanism's tests (chi-square against the same exact
// distributions), not here. It covers small vocabularies only (the check
// is cubic in N); the mechanisms' proofs do not depend on N, so small
// vocabularies exercise the same inequalities, but asset words beyond the
// first K are not audited. BRR is audited on synthetic short codes only:
// its exact law on 256-bit codes needs 2^(differing bits) flip masks.
// On a restricted asset vocabulary, distances beyond the asset's stored
// radius γ_max are unknown and are replaced by the lower bound
// (MaxSteps+1)·Step, which only makes the audit stricter.
//
// Output vocabularies. Every case is audited a second time restricted to
// an output vocabulary A without the ids 0, 3, 6, … (the restriction
// built with mechanism.Restrict, the law from dpexact's Restricted*
// functions): BRR releasing the nearest allowed code, 1-DG the nearest
// allowed position, the TEM family the exponential mechanism over A. The
// input word 0 is itself excluded, so inputs outside A are covered.
//
// One case table. Cases returns every case Run audits, each with the
// mechanism built by package mechanism whose law it is (nil for the
// controls and the float-vector laws); package mechanism's tests check each
// sampler against the same laws by chi-square, so the audit and the
// sampler tests cannot drift apart. One tightness rule covers every
// mechanism: a real case must use at least MinTightness (0.45) of its
// guarantee, else its pass is reported vacuous (Result.Vacuous; the tests
// require none at the default size).
//
// Teeth. Run also audits negative controls, mechanisms known to violate
// metric-DP (a selection that never outputs its input, TEM with the ⊥
// score ln(N/|L_w|) instead of ln(N−|L_w|), TEM whose L_w is a top-k
// neighbour list instead of the γ-ball, BRR and 1-DG restricted by
// re-drawing until the output is allowed, SanText, CusText and SynTF
// without the exponential mechanism's factor 1/2, SanText never releasing
// its input, SanText+ keeping sensitive words, CusText sets of the least
// similar words): each must be reported as a violation ("caught"),
// showing the audit is not vacuous.
package audit
