package mechanism

import "math/rand/v2"

// Batcher is a Mechanism that privatizes several words faster together
// than one at a time: BRR, whose nearest-word search compares each block
// of the vocabulary's codes with many noisy codes in one pass
// (hamming.Index.NearestBatch). Callers with several words at hand (a
// text, a block of texts) use it when the mechanism offers it; a
// keyboard's one word goes through Privatize.
type Batcher interface {
	Mechanism
	// PrivatizeBatch replaces each ws[i], a word id in [0, Len()), by its
	// released word id. Each release has the law of Privatize(ws[i]):
	// fresh randomness per word, from src only, independent of the other
	// words' releases. The values drawn from src are not Privatize's one
	// word after another (every word's noise in a run of words is drawn
	// before their searches), so seeded outputs differ from a loop over
	// Privatize. On error every entry of ws not yet released is set to -1,
	// never left as the input word.
	PrivatizeBatch(ws []int32, src rand.Source) error
}
