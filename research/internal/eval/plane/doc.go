// Package plane measures the utility-vs-recovery plane of the product's
// mechanisms at the asset's named levels: for each mechanism and level,
// the IMDB study's accuracy (its fastText-style classifier trained on
// privatized reviews) under two protocols, against the one-word Bayes
// attacker's top-1 recovery the asset records for that level.
//
// Protocols, per run: the training reviews are privatized with fresh noise
// (the study's privatization, study.Privatize) and the classifier trained
// on them is scored on the run's own test reviews twice, as they are
// ("clean": the papers' protocol) and privatized by the same mechanism at
// the same level with fresh noise ("privatized": an app that privatizes
// everything it uploads, its test traffic included). Both protocols score
// the same model on the same reviews, so their difference is paired.
// Mechanisms run as the product configures them (mechanism.New with the
// asset's default outputs, mechanism.DefaultOutputs), the configuration
// the asset's recorded recovery was measured with.
//
// Interval: run r is scored on the r-th slice of the test set, disjoint
// from every other run's, with its own training noise, classifier seed and
// test noise, so the runs' accuracies are independent and identically
// distributed and the mean's 95% interval is Student's t over the runs,
// mean ± t(0.975, R−1)·s/√R. It includes every source of variation but
// the choice of training reviews (fixed): the classifier's seed, the
// training and test noise, and the sampling of test reviews, which a t
// interval over runs that share one test set would leave out.
//
// What it guarantees: every privatized token is an exact draw from the
// product's mechanism with fresh noise; runs are reproducible from the
// seed (evaluation sources only, study.Source); records are appended as
// each cell finishes with a fingerprint of everything they depend on
// (the asset's SHA-256, the level's ε, the training reviews, the run's
// test slice, the seed and the classifier), so an interrupted run resumes
// and a changed asset or preset runs again.
//
// What it does not guarantee: that the levels are equally protective; the
// plane shows the recovery each level has on the asset measured, and
// mechanisms are compared at equal recovery only where the asset's
// calibration makes them equal.
package plane
