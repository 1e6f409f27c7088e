// Package core privatizes typed text on the device: it replaces each
// word with a word drawn from a metric-differentially-private mechanism
// over 256-bit binary word embeddings, before the text leaves the phone.
//
// [Open] composes the product once from a [Config], whose zero value is
// the safe default (BRR at the [Balanced] level on the embedded English
// asset, offensive words never output); [Privatizer.Privatize] returns
// the privatized text and its privacy bill ([Accounting]):
//
//	p, err := core.Open(core.Config{})
//	if err != nil {
//		return err
//	}
//	defer p.Close()
//	res, err := p.Privatize("My doctor in Boston says the new treatment works.")
//	if err != nil {
//		return err
//	}
//	upload(res.Text)
//
// # What it guarantees
//
// Each vocabulary word w is released as a draw from the mechanism's output
// distribution M(w), with fresh randomness from crypto/rand for every word:
// for any two words w, w' and output o, Pr[M(w) = o] ≤ e^{ε·d(w, w')}·
// Pr[M(w') = o], d being the mechanism's metric ([Info].Metric; for
// [CusText] d is infinite between words of different output sets, so it
// guarantees nothing across sets and its loss is reported unknown). A text of
// n words is (n·ε)-bounded under composition, which [Accounting] reports;
// with Config.LedgerDir, each call is charged before any text is returned
// and refused ([ErrBudgetExceeded]) beyond a cap, given in metric loss
// or in words ([Caps]). Every mechanism offered
// draws every output, including the input word, from that distribution:
// none keeps a word by construction. Tokens outside the vocabulary, numbers
// it lacks, e-mail addresses and URLs are replaced by the OOV policy and
// never pass through. docs/MECHANISMS.md states each mechanism's proof;
// docs/PRIVACY_LEVELS.md, generated from the embedded asset, gives each
// [Level]'s ε, the share of typed words that comes back unchanged, what a
// reconstruction attacker recovers from one released word, and the
// metric loss per word.
//
// # What it does not guarantee
//
// The output discloses the text's layout: whitespace, punctuation (unless
// Config.PrivatizePunctuation), the number and kinds of tokens, each word's
// capitalization class. Word classes (Config.Classes) disclose which class
// a word is in. Without Config.Anchor, a memo or ledger directory rolled
// back as a whole while no Privatizer is open is not detected
// (docs/STATE_FILES.md). [UseEvaluationSeed], for tests and reproducible
// evaluation only, replaces crypto/rand on one Privatizer with a seeded
// stream that anyone who knows the seed replays; the mobile binding does
// not offer it. [Tally], the ledger's cap arithmetic in memory for batch
// pipelines, keeps nothing on disk and so defends against no rollback.
//
// # Errors
//
// Every error matches one category with errors.Is: [ErrInvalidConfig],
// [ErrEmptyText], [ErrTextTooLarge], [ErrBudgetExceeded],
// [ErrCorruptAsset], [ErrCorruptState] or [ErrClosed]; otherwise it is a
// file-system error.
package core
