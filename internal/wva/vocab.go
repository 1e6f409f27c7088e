package wva

import (
	"encoding/binary"
	"unicode/utf8"
)

// VOCAB section (raw form): the N word lengths as unsigned LEB128 varints
// (minimal encoding, 1..MaxWordLen), then the N words' bytes concatenated.
// Lengths first, text after, so DEFLATE sees one run of similar text; the
// section is normally compressed (about 2×).

func encodeVocab(words []string) []byte {
	size := 0
	for _, w := range words {
		size += binary.MaxVarintLen16 + len(w)
	}
	b := make([]byte, 0, size)
	for _, w := range words {
		b = binary.AppendUvarint(b, uint64(len(w)))
	}
	for _, w := range words {
		b = append(b, w...)
	}
	return b
}

// decodeVocab parses n words. The words share one string allocation (the
// text part), so the vocabulary costs its text plus one string header per
// word.
func decodeVocab(raw []byte, n int) ([]string, error) {
	const part = "section VOCAB"
	// Every word takes at least two bytes (a length and one byte of text),
	// which bounds n before allocating.
	if uint64(n) > uint64(len(raw))/2 {
		return nil, corruptf(part, "%d bytes cannot hold %d words", len(raw), n)
	}
	lens := make([]uint16, n)
	p := 0
	var total uint64 // 64-bit: n·MaxWordLen can overflow a 32-bit int
	for i := range lens {
		v, k := binary.Uvarint(raw[p:])
		if k <= 0 {
			return nil, corruptf(part, "length of word %d is not a valid varint", i)
		}
		if k != uvarintLen(v) {
			return nil, corruptf(part, "length of word %d is not minimally encoded", i)
		}
		if v == 0 || v > maxWordLen {
			return nil, corruptf(part, "word %d has length %d, want 1..%d", i, v, maxWordLen)
		}
		lens[i] = uint16(v)
		total += v
		p += k
	}
	if uint64(len(raw)-p) != total {
		return nil, corruptf(part, "lengths sum to %d bytes, %d bytes of text follow", total, len(raw)-p)
	}
	text := string(raw[p:])
	words := make([]string, n)
	off := 0
	for i, l := range lens {
		w := text[off : off+int(l)]
		if !utf8.ValidString(w) {
			return nil, corruptf(part, "word %d is not valid UTF-8", i)
		}
		words[i] = w
		off += int(l)
	}
	return words, nil
}

func uvarintLen(v uint64) int {
	n := 1
	for v >= 0x80 {
		v >>= 7
		n++
	}
	return n
}
