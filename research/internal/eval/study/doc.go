// Package study runs WordVeil's reproduction of the papers' IMDB
// privacy–utility comparison (the TEM paper's §5.3 and the BRR paper's §6,
// docs/REFERENCES.md):
// privatize the training quarter TR1 with a mechanism at some ε, train a
// fastText-style classifier on it, test on the original TE1, for every
// mechanism × ε × run, with plausible deniability (N_w, S_w) per
// mechanism × ε. Results are appended to a JSON-lines file as each cell
// finishes, so an interrupted study resumes where it stopped.
//
// What it guarantees: every output token is an exact draw from its
// mechanism (exact nearest-neighbour search, the samplers of mechanism and
// floatmech; TEM, SynTF and SanText on float vectors drawn exactly from
// their closed forms in one pass over the word types, with no weight
// rounded to zero), with fresh noise for every token of TR1. Two exceptions exist only to be measured: "tem-pool" gives
// each word type TEMPoolK draws per run that its occurrences share (each
// occurrence takes one uniformly: every token's marginal is still exact,
// but repeats of a frequent word are no longer independent), and
// Config.PoolK does the same for the nearest-neighbour mechanisms when a
// caller asks for it. The report shows what pooling costs. Runs are
// reproducible from Config.Seed; the seeded sources used here are for
// evaluation only (internal/seeded's Key). Records are
// reused on a rerun only when they would come out the same: each
// mechanism's records carry a fingerprint of its own spec and of the
// common configuration (the asset file's SHA-256, the corpora, seed,
// classifier and deniability settings), so adding a mechanism runs only
// its cells.
//
// What it does not guarantee: a mechanism's claimed guarantee. The
// truncated Gumbel mechanism ("truncgumbel") is run as published, on its
// own grid above its calibration's minimum ε, although its claim does not
// hold (docs/FLOAT_MECHANISMS.md). The best-configuration search ("cand:"
// names, candidates.go) calibrates on-device configurations to N_w targets
// with the study's own deniability protocol.
package study
