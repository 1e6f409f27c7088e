// Package privatize privatizes whole texts word by word with any
// [mechanism.Mechanism], keeping the layout, and bills each text's privacy
// loss. It is internal: package core
// ([github.com/wordveil/core.Open]) composes it with the mechanism,
// the output vocabulary, the ledger and the memo, and is what the CLI and
// the mobile binding call.
//
// Guarantees. Every content token of the input is replaced: a vocabulary
// word or number by the mechanism (fresh randomness per word), anything
// else (a word or number outside the vocabulary, an e-mail address, a URL,
// an emoji) by an out-of-vocabulary policy whose output does not depend on
// the token. There is no pass-through policy. A word with clitics ("don't",
// "I’m") is cut as GloVe's tokenizer cuts it ("do" "n't") and each piece is
// replaced on its own, then joined back (pieces.go). A text of n vocabulary
// words and pieces is ε·d-metric-DP for each, and its loss is the sum of
// their losses (Accounting); the text's layout, its number and kinds of
// tokens, each word's capitalization class and its clitics' apostrophe
// character are disclosed. With a ledger, the
// loss is charged before any text is returned, and a failed charge returns
// no text. With a memo, a word already answered gets its permanent response
// again and costs nothing more. Close closes the memo and the ledger a
// Privatizer was given; every call after it fails with ErrClosed. Cost
// returns the bill Privatize would return (exactly, without a memo; an
// upper bound with one) from the text's tokens and vocabulary lookup alone,
// drawing nothing and releasing nothing.
//
// With word classes (NewWithClasses, classes.go), rare, capitalized and
// number words get their own ε: each word is ε_c·d-metric-DP for its class
// c, the bill sums each word's ε_c, and a word's class is disclosed
// (for rare words, whether their rank is ≥ Classes.RareRank).
//
// What it does not guarantee: privacy for what the layout discloses, or
// for a text whose words were chosen by an adversary who sees the output
// of many calls without a memo (losses add up; cap them with a ledger,
// package internal/ledger). docs/TEXT_PRIVACY.md states the model in full.
package privatize
