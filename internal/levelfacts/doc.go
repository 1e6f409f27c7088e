// Package levelfacts gathers, for an asset's named privacy levels, what
// each means for every mechanism: its ε, the metric loss a ledger is
// charged per fresh word (ε·P_avg), the papers' plausible-deniability
// measures (mean N_w and S_w on a uniform sample of the vocabulary), and
// what the asset's builder measured at that ε and recorded in the asset
// (wva.LevelFacts): the share of typed word tokens kept, the frequent word
// kept most often, and, on held-out text, the kept share and the
// reconstruction attacker's recovery with 95% confidence intervals. It
// renders them as the table `wordveil stats` prints and
// docs/PRIVACY_LEVELS.md shows.
//
// What it guarantees: the ε and the cost per word are those the product
// uses (mechanism.Preset, mechanism.MeanDistance on the mechanism with the
// asset's default output vocabulary); N_w and S_w are estimated with a
// seeded source, so a rerun prints the same figures; recorded facts are
// printed as the asset holds them (wva validated them at decode). What it
// does not: it measures nothing on typed text itself (the builder did),
// and its figures describe single words seen alone, not an attacker who
// sees context or repeats; the N_w and S_w estimates carry sampling error
// (about sqrt(N(1−N)/draws) per word). It is an evaluation aid: its seeded
// source never privatizes user text.
package levelfacts
