package typedtext

import "strings"

const (
	// shingle is the length of the word sequences compared: two texts that
	// share 8 consecutive words almost surely share their source.
	shingle = 8
	// minSentence is the shortest held-out sentence compared as a whole:
	// shorter utterances ("thank you", "oh my god") are common phrases, not
	// evidence of a shared document.
	minSentence = 4
	// filterBits (64 MiB) and filterHashes keep the false-positive rate of
	// one look-up near 2e-6 for the ~13 million keys of IMDB and Brown.
	filterBits   = 1 << 29
	filterHashes = 7
)

// seenFilter is a Bloom filter of word sequences of the induction text. A
// false positive drops a held-out sentence that was in fact unseen, which
// errs on the safe side; there are no false negatives.
type seenFilter struct {
	bits []uint64
}

func newSeenFilter(bits int) *seenFilter {
	bits = max(bits, 64) // at least one word, so positions never divides by 0
	return &seenFilter{bits: make([]uint64, bits/64)}
}

// Key kinds, hashed in so a sentence never collides with a shingle.
const (
	kindShingle = 1
	kindWhole   = 2
)

func hashWords(kind byte, ws []string) uint64 {
	h := uint64(14695981039346656037) ^ uint64(kind)
	h *= 1099511628211
	for _, w := range ws {
		for i := 0; i < len(w); i++ {
			h ^= uint64(w[i])
			h *= 1099511628211
		}
		h ^= 0x1f // word separator, not a byte of any word
		h *= 1099511628211
	}
	return h
}

func (f *seenFilter) positions(h uint64, fn func(i uint64) bool) bool {
	h2 := h*0x9e3779b97f4a7c15 ^ h>>29 | 1
	m := uint64(len(f.bits)) * 64
	for i := range uint64(filterHashes) {
		if !fn((h + i*h2) % m) {
			return false
		}
	}
	return true
}

func (f *seenFilter) add(h uint64) {
	f.positions(h, func(i uint64) bool { f.bits[i/64] |= 1 << (i % 64); return true })
}

func (f *seenFilter) has(h uint64) bool {
	return f.positions(h, func(i uint64) bool { return f.bits[i/64]&(1<<(i%64)) != 0 })
}

// addDoc records every 8-word sequence of doc and each of its sentences
// (split at . ! ? and line breaks) as a whole.
func (f *seenFilter) addDoc(doc string) {
	ws := simpleWords(doc)
	for i := 0; i+shingle <= len(ws); i++ {
		f.add(hashWords(kindShingle, ws[i:i+shingle]))
	}
	for s := range strings.FieldsFuncSeq(doc, isSentenceEnd) {
		if sw := simpleWords(s); len(sw) > 0 {
			f.add(hashWords(kindWhole, sw))
		}
	}
}

// seen reports whether doc shares an 8-word sequence with the recorded
// text, or (with at least minSentence words) equals one of its sentences.
func (f *seenFilter) seen(doc string) bool {
	ws := simpleWords(doc)
	if len(ws) >= minSentence && f.has(hashWords(kindWhole, ws)) {
		return true
	}
	for i := 0; i+shingle <= len(ws); i++ {
		if f.has(hashWords(kindShingle, ws[i:i+shingle])) {
			return true
		}
	}
	return false
}

func isSentenceEnd(r rune) bool {
	return r == '.' || r == '!' || r == '?' || r == '\n' || r == '\r'
}
