// Package mia reproduces the seeds' membership-inference experiment (the
// BRR paper's Fig. 1b and the TEM paper's §5.3, docs/REFERENCES.md): the
// shadow-model attack of Shokri, Stronati, Song and Shmatikov (2017) on
// the study's fastText-style classifier trained on privatized IMDB
// reviews.
//
// Protocol, for a mechanism at a level (or no privatization), per run:
// the target model is trained on the members, privatized (the study's
// privatization: fresh noise for every token); the attacker, who knows
// the mechanism and its ε (both public), trains a shadow model the same
// way on half of its own data (the shadow's members, from the IMDB test
// set) and keeps the other half out (the shadow's non-members, from the
// other half of the test set); the attack model, an MLP with two hidden
// layers of 64 ReLU units, learns member against non-member from the
// shadow's outputs; it then scores the target's outputs on the target's
// members and on as many non-members (the other training quarter). Every
// query is the review's original text: the attacker holds a person's real
// review and asks whether it was used. The score is the attack's ROC AUC
// on the target with a 95% DeLong confidence interval over the evaluation
// examples (DeLong, DeLong and Clarke-Pearson 1988).
//
// What it guarantees: AUC is exact (midranks, ties count one half); the
// interval is DeLong's asymptotic normal interval, clipped to [0, 1];
// every run is reproducible from the seed; results are appended as each
// cell finishes, with a fingerprint of everything they depend on, so an
// interrupted run resumes and a changed configuration is not reused.
//
// What it does not guarantee: the interval covers the evaluation
// examples' sampling only, not the variation between training runs (the
// table shows the runs' spread when there are several); an AUC near 0.5
// bounds this attack only, not every membership attack.
package mia
