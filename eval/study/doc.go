// Package study runs WordVeil's reproduction of the papers' IMDB
// privacy–utility comparison (papers/tem.txt §5.3, papers/brr.txt §6):
// privatize the training quarter TR1 with a mechanism at some ε, train a
// fastText-style classifier on it, test on the original TE1, for every
// mechanism × ε × run, with plausible deniability (N_w, S_w) per
// mechanism × ε. Results are appended to a JSON-lines file as each cell
// finishes, so an interrupted study resumes where it stopped.
//
// What it guarantees: every output token is an exact draw from its
// mechanism (exact nearest-neighbour search, the samplers of core and
// floatmech, TEM by its exact closed form). Fresh noise is drawn for every
// token of TR1 except where the caller asks for the sample pool
// (Config.PoolK): then word types that occur more than K times in TR1 get K
// fresh draws per run that their occurrences share (each occurrence takes
// one uniformly): every token's marginal distribution is still exactly the
// mechanism's, but repeated occurrences of a frequent word are no longer
// independent. The pool is what makes the nearest-neighbour mechanisms fit
// the time budget; the report measures its effect on TEM, which runs both
// ways. Runs are reproducible from Config.Seed; the seeded sources used
// here are for evaluation only (core.NewSeededSourceForEvaluation).
package study
