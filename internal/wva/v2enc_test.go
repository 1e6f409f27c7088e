package wva

import (
	"encoding/binary"
	"testing"

	"github.com/wordveil/wordveil/internal/hamming"
	"github.com/wordveil/wordveil/internal/wva/internal/bitpack"
)

// Format-2 writers, for tests only: the package writes format 3 and reads
// both, so the reader of format 2 is tested with files these write (and
// with testdata/, written by the 2.x writers themselves). They are the
// 2.1 writer's section encoders.

// encodeVocabV2 writes a format-2 VOCAB section: the word lengths as
// LEB128 varints, then the words' bytes.
func encodeVocabV2(words []string) []byte {
	var b []byte
	for _, w := range words {
		b = binary.AppendUvarint(b, uint64(len(w)))
	}
	for _, w := range words {
		b = append(b, w...)
	}
	return b
}

// encodeListsV2 writes a format-2 LISTS section: ids of Width(N−1) bits,
// each list padded to a byte.
func encodeListsV2(lists []Permutation, n int) []byte {
	idBits := idWidth(n)
	b := make([]byte, listsFixedLen)
	binary.LittleEndian.PutUint32(b[0:], uint32(len(lists)))
	binary.LittleEndian.PutUint32(b[4:], uint32(n))
	b[8] = byte(idBits)
	for _, p := range lists {
		b = bitpack.Pack(b, p.Order, idBits)
	}
	return b
}

// encodeStandInsV2 writes a format-2 STANDINS section: the fixed part,
// the front-coded entries, then the ids (no text length, no slack).
func encodeStandInsV2(s *StandIns) []byte {
	idBits := idWidth(s.vocab)
	b := make([]byte, standinsFixedLen)
	binary.LittleEndian.PutUint32(b[0:], uint32(s.Len()))
	binary.LittleEndian.PutUint32(b[4:], uint32(s.vocab))
	b[8] = byte(idBits)
	b = append(b, s.text...)
	w := bitpack.NewWriter(b)
	for i := range s.Len() {
		w.Write(s.ids.Get(i), idBits)
	}
	return w.Bytes()
}

// v2Parts returns the header and the format-2 sections of a, VOCAB and
// STANDINS compressed when deflate is set (as the 2.x writer stored them).
func v2Parts(tb testing.TB, a *Asset, deflate bool) (Header, []testSection) {
	tb.Helper()
	h, err := a.derivedHeader()
	if err != nil {
		tb.Fatal(err)
	}
	if h.Lists != nil {
		h.Lists.MeanDistance = 0 // format 3's: a format-2 header has no such field
	}
	n := a.Len()
	secs := []testSection{
		{kind: kindVocab, stored: encodeVocabV2(a.WordList())},
		{kind: kindCodes, stored: hamming.AppendBytes(nil, a.Codes)},
	}
	if len(a.Lists) > 0 {
		secs = append(secs, testSection{kind: kindLists, stored: encodeListsV2(a.Lists, n)})
	}
	if a.TEM != nil {
		secs = append(secs, testSection{kind: kindTEMLists, stored: encodeTEM(a.TEM)})
	}
	if a.Floats != nil {
		secs = append(secs, testSection{kind: kindFloats, stored: encodeFloats(a.Floats)})
	}
	if a.CusText != nil {
		secs = append(secs, testSection{kind: kindCusText, stored: encodeCusText(a.CusText)})
	}
	if a.StandIns.Len() > 0 {
		secs = append(secs, testSection{kind: kindStandIns, stored: encodeStandInsV2(a.StandIns)})
	}
	if deflate {
		for i := range secs {
			s := &secs[i]
			if s.kind.compressible(oldestMajor) {
				if z := compressV2(tb, s.stored); z != nil {
					s.raw = uint64(len(s.stored))
					s.stored, s.flags = z, flagDeflate
				}
			}
		}
	}
	return h, secs
}

// v2File returns a written as a format-2 file (minor 1 when it has
// stand-ins, as the 2.1 writer chose).
func v2File(tb testing.TB, a *Asset, deflate bool) []byte {
	tb.Helper()
	h, secs := v2Parts(tb, a, deflate)
	minor := uint16(0)
	if a.StandIns.Len() > 0 {
		minor = 1
	}
	return buildFileMajor(oldestMajor, minor, mustJSON(tb, h), secs)
}

// compressV2 is the 2.x writers' compress: the same rules (only when
// smaller, and within maxExpansion), with the encoder they used, the
// standard library's compress/flate at its best compression, so that the
// files v2File writes equal theirs byte for byte. compress now uses
// klauspost/compress, whose bytes differ but decode the same.
func compressV2(tb testing.TB, raw []byte) []byte {
	if len(raw) == 0 {
		return nil
	}
	z := deflateBytes(tb, raw)
	if len(z) >= len(raw) || uint64(len(raw)) > maxExpansion*uint64(len(z)) {
		return nil
	}
	return z
}
