package wva

import (
	"encoding/binary"
	"slices"
	"strings"
	"unicode/utf8"
)

// vocab is the word table of an Asset: word id's bytes are
// text[off[id]:off[id+1]], and sorted lists every id once, in ascending
// byte order of its word, which is what Lookup binary-searches. Decoded
// from a 3.x file in place, all three alias the file's VOCAB section, so
// the table costs no heap and no work beyond its validation; decoded from
// a 2.x file or built by NewVocab-style callers (Asset.SetWords), they are
// built in memory.
//
// A binary search needs no hash key and has no bad inputs: a lookup
// compares at most ⌈log2 N⌉+1 words (17 at 50,000) whatever the text, so
// crafted tokens cannot slow it down.
type vocab struct {
	text   string
	off    []uint32   // len N+1 (nil when N = 0)
	sorted []uint32   // len N
	index  *lazyIndex // the hash index, built after a few lookups (vocabindex.go); nil: none
}

func (v *vocab) len() int { return len(v.sorted) }

func (v *vocab) word(id int) string { return v.text[v.off[id]:v.off[id+1]] }

// lookup returns the id of word: through the hash index once it is
// built, else by binary search over sorted.
func (v *vocab) lookup(word string) (int, bool) {
	if x := v.index.get(v); x != nil {
		return x.lookup(v, word)
	}
	// The comparison operators, not strings.Compare: word must not escape
	// (the text privatizer passes keys formed in a stack buffer, which
	// would otherwise be copied to the heap on every lookup).
	lo, hi := 0, len(v.sorted)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		switch w := v.word(int(v.sorted[mid])); {
		case w == word:
			return int(v.sorted[mid]), true
		case w < word:
			lo = mid + 1
		default:
			hi = mid
		}
	}
	return 0, false
}

// newVocab builds the table of words (in id order). Duplicates are kept
// (lookups find one of their ids); duplicate reports them.
func newVocab(words []string) vocab {
	n := len(words)
	if n == 0 {
		return vocab{}
	}
	size := 0
	for _, w := range words {
		size += len(w)
	}
	var b strings.Builder
	b.Grow(size)
	v := vocab{off: make([]uint32, n+1)}
	for i, w := range words {
		b.WriteString(w)
		v.off[i+1] = v.off[i] + uint32(len(w))
	}
	v.text = b.String()
	v.sorted = sortedIDs(&v)
	v.index = new(lazyIndex)
	return v
}

// duplicate returns two ids (a < b) of a word that occurs more than once,
// found as neighbours in sorted order, or ok = false.
func (v *vocab) duplicate() (a, b int, ok bool) {
	for k := 1; k < len(v.sorted); k++ {
		x, y := int(v.sorted[k-1]), int(v.sorted[k])
		if v.word(x) == v.word(y) {
			return min(x, y), max(x, y), true
		}
	}
	return 0, 0, false
}

// sortedIDs returns v's ids in ascending byte order of their words, equal
// words by id.
func sortedIDs(v *vocab) []uint32 {
	ids := make([]uint32, len(v.off)-1)
	for i := range ids {
		ids[i] = uint32(i)
	}
	slices.SortFunc(ids, func(a, b uint32) int {
		if c := strings.Compare(v.word(int(a)), v.word(int(b))); c != 0 {
			return c
		}
		return int(a) - int(b)
	})
	return ids
}

// VOCAB section, format 3 (integers little-endian; the section starts
// 8-aligned, so both arrays are 4-aligned in the file):
//
//	0          u32  N, the number of words
//	4          u32  reserved, 0
//	8          u32  off[N+1]: word i is text[off[i]:off[i+1]], off[0] = 0
//	8+4(N+1)   u32  sorted[N]: the ids in strictly ascending byte order of
//	                their words
//	8+8N+4     the words' bytes in id order, off[N] bytes
//
// It is stored raw, so that a reader uses it where it lies: the text as
// the words' strings, the arrays as the lookup table. An app package
// compresses it (APK and IPA files are zip archives) about as well as
// DEFLATE did when it was compressed in the file.
const vocabFixedLen = 8

func encodeVocab(v *vocab) []byte {
	n := v.len()
	b := make([]byte, vocabFixedLen, vocabFixedLen+8*n+4+len(v.text))
	binary.LittleEndian.PutUint32(b[0:], uint32(n))
	off := v.off
	if n == 0 {
		off = []uint32{0}
	}
	b = appendU32s(b, off)
	b = appendU32s(b, v.sorted)
	return append(b, v.text...)
}

// decodeVocab checks a format-3 VOCAB section of n words and returns its
// table, in place when inPlace. The checks prove what Lookup and Word
// rely on: offsets increase by 1..MaxWordLen and end at the text's end;
// the text is valid UTF-8 and every word starts at a rune boundary, so
// every word is valid UTF-8; and the sorted ids are below n with their
// words strictly ascending, which makes them distinct (so a permutation
// of the ids) and the words unique. Linear in the section, one pass each.
func decodeVocab(raw []byte, n int, inPlace, proven bool) (vocab, error) {
	const part = "section VOCAB"
	// The fixed part, the arrays and one byte of text per word: this
	// bounds n by the section size before anything is sliced.
	if len(raw) < vocabFixedLen+4 || uint64(n) > (uint64(len(raw))-vocabFixedLen-4)/9 {
		return vocab{}, corruptf(part, "%d bytes cannot hold %d words", len(raw), n)
	}
	if secN := binary.LittleEndian.Uint32(raw[0:]); uint64(secN) != uint64(n) {
		return vocab{}, corruptf(part, "%d words, header says %d", secN, n)
	}
	if binary.LittleEndian.Uint32(raw[4:]) != 0 {
		return vocab{}, corruptf(part, "reserved field is not zero")
	}
	textAt := vocabFixedLen + 8*n + 4
	off := u32s(raw[vocabFixedLen:vocabFixedLen+4*(n+1)], inPlace)
	v := vocab{off: off, sorted: u32s(raw[vocabFixedLen+4*(n+1):textAt], inPlace)}
	text := raw[textAt:]
	if proven && n > 0 && uint64(off[n]) == uint64(len(text)) {
		// The embedded asset, whose offsets, text and order the tests
		// checked (proven.go).
		v.text = str(text, inPlace)
		v.index = new(lazyIndex)
		return v, nil
	}
	if off[0] != 0 {
		return vocab{}, corruptf(part, "first offset is %d, not 0", off[0])
	}
	for i := range n {
		if l := uint64(off[i+1]) - uint64(off[i]); off[i+1] <= off[i] || l > maxWordLen {
			return vocab{}, corruptf(part, "word %d spans offsets %d..%d, want 1..%d bytes", i, off[i], off[i+1], maxWordLen)
		}
		if uint64(off[i]) < uint64(len(text)) && !utf8.RuneStart(text[off[i]]) {
			return vocab{}, corruptf(part, "word %d does not start at a UTF-8 character", i)
		}
	}
	if uint64(off[n]) != uint64(len(text)) {
		return vocab{}, corruptf(part, "offsets end at %d, %d bytes of text follow", off[n], len(text))
	}
	if !utf8.Valid(text) {
		return vocab{}, corruptf(part, "text is not valid UTF-8")
	}
	v.text = str(text, inPlace)
	if n == 0 {
		v.off = nil
	}
	for k, id := range v.sorted {
		if uint64(id) >= uint64(n) {
			return vocab{}, corruptf(part, "sorted entry %d is id %d, vocabulary has %d words", k, id, n)
		}
		if k > 0 && v.word(int(v.sorted[k-1])) >= v.word(int(id)) {
			a, b := v.sorted[k-1], id
			if v.word(int(a)) == v.word(int(b)) {
				return vocab{}, corruptf(part, "word %q at ids %d and %d", v.word(int(a)), min(a, b), max(a, b))
			}
			return vocab{}, corruptf(part, "sorted entry %d (%q) does not follow %q", k, v.word(int(b)), v.word(int(a)))
		}
	}
	v.index = new(lazyIndex)
	return v, nil
}

// VOCAB section, format 2: the N word lengths as unsigned LEB128 varints
// (minimal encoding, 1..MaxWordLen), then the N words' bytes
// concatenated; normally compressed. decodeVocabV2 reads it into the same
// table, built in memory (the sort costs a few milliseconds at 50,000
// words: format 2 files are read, no longer written).
func decodeVocabV2(raw []byte, n int) (vocab, error) {
	const part = "section VOCAB"
	// Every word takes at least two bytes (a length and one byte of text),
	// which bounds n before allocating.
	if uint64(n) > uint64(len(raw))/2 {
		return vocab{}, corruptf(part, "%d bytes cannot hold %d words", len(raw), n)
	}
	if n == 0 {
		if len(raw) != 0 {
			return vocab{}, corruptf(part, "%d bytes of text for no words", len(raw))
		}
		return vocab{}, nil
	}
	off := make([]uint32, n+1)
	p := 0
	for i := range n {
		l, k := binary.Uvarint(raw[p:])
		if k <= 0 {
			return vocab{}, corruptf(part, "length of word %d is not a valid varint", i)
		}
		if k != uvarintLen(l) {
			return vocab{}, corruptf(part, "length of word %d is not minimally encoded", i)
		}
		if l == 0 || l > maxWordLen {
			return vocab{}, corruptf(part, "word %d has length %d, want 1..%d", i, l, maxWordLen)
		}
		off[i+1] = off[i] + uint32(l) // ≤ n·MaxWordLen < 2^35: checked against the section below first
		if uint64(off[i+1]) > uint64(len(raw)) {
			return vocab{}, corruptf(part, "lengths sum past the section's %d bytes", len(raw))
		}
		p += k
	}
	if uint64(len(raw)-p) != uint64(off[n]) {
		return vocab{}, corruptf(part, "lengths sum to %d bytes, %d bytes of text follow", off[n], len(raw)-p)
	}
	v := vocab{text: string(raw[p:]), off: off}
	for i := range n {
		if !utf8.ValidString(v.word(i)) {
			return vocab{}, corruptf(part, "word %d is not valid UTF-8", i)
		}
	}
	v.sorted = sortedIDs(&v)
	if a, b, dup := v.duplicate(); dup {
		return vocab{}, corruptf(part, "word %q at ids %d and %d", v.word(a), a, b)
	}
	v.index = new(lazyIndex)
	return v, nil
}

func uvarintLen(v uint64) int {
	n := 1
	for v >= 0x80 {
		v >>= 7
		n++
	}
	return n
}
