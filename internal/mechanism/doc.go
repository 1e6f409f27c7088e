// Package mechanism implements WordVeil's word-level privacy mechanisms: BRR,
// TEM (on the asset's Euclidean neighbour balls and on 256-bit Hamming
// codes), 1-Diffractor (1-DG and 1-DT over one or several lists), SanText
// and CusText; [New] builds them by name ([Names]). It is internal: the
// SDK's users reach it through package core
// ([github.com/wordveil/core.Open]), which builds every mechanism
// here with [New]. docs/MECHANISMS.md defines each mechanism and sketches
// its proof; the papers are cited in docs/REFERENCES.md; the measured
// numbers of the default asset (presets, N_w, P_avg) are generated in
// docs/PRIVACY_LEVELS.md.
//
// Guarantees. Every Mechanism maps a word id to a word id and satisfies
// ε·d-metric differential privacy for the metric d its Metric method names,
// for every ε it accepts (EpsilonRange: a floor where the largest loss
// between two words is 0.001 nats, MaxEpsilon and the saturation bound):
// for all words w, w' and every output y,
//
//	Pr[M(w) = y] ≤ exp(ε·d(w, w')) · Pr[M(w') = y].
//
// A text of n words is privatized word by word; its privacy loss is the sum
// of the per-word losses, and its length is disclosed. The guarantees hold
// only if every draw comes from an unpredictable source: production code
// must use [NewSecureSource] (ChaCha8 keyed from crypto/rand). Seeded
// sources exist for tests and reproducible evaluation only
// (internal/seeded).
//
// CusText is the exception among the offered mechanisms: its bound holds
// only between words of the same output set (the output discloses the
// set), so its P_avg is reported unknown and no finite loss is charged
// for it.
//
// Output vocabularies. Any mechanism can be restricted to a set A of
// words it may release (Options.Outputs, Restrict); the input may be any
// word, allowed or not. BRR then releases the nearest allowed word to its
// noisy code and 1-DG the nearest allowed position to its noisy position
// (post-processing of the private step); the TEM family, SanText and
// CusText run the exponential mechanism over A. The guarantee (ε, metric)
// is unchanged; see [Outputs] for the laws, why re-drawing until allowed
// would not do, and what a nil *Outputs means.
//
// Not offered. SanText+ and CusText+ release some words unchanged by
// construction (an unbounded loss for those words); this package
// implements them for the audit and research only, reachable through
// internal/keepwords and not through New or any exported constructor.
//
// Failure. A mechanism that cannot produce a correctly distributed output
// returns an error and the id -1; it never falls back to returning the
// input word (which would leak it).
//
// Concurrency. Mechanisms are immutable after construction and safe for
// concurrent use, provided each goroutine passes its own rand.Source:
// sources, including the ones this package returns, are not safe for
// concurrent use.
package mechanism
