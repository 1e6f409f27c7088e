package wva

import (
	"encoding/binary"

	"github.com/wordveil/wordveil/internal/wva/internal/bitpack"
)

// LISTS section, format 3 (integers little-endian):
//
//	0   u32  L, the number of lists (1..MaxLists)
//	4   u32  N, the vocabulary size
//	8   L lists, each N u32 ids: list l's word at position p
//
// Stored raw and read in place: a list's order is the section's bytes
// (only its inverse, the position of each word, is built, 4 bytes a word,
// in the same pass that proves the order a permutation). A 32-bit id
// takes twice the 16 bits that suffice at 50,000 words, but an app
// package's zip compression takes most of that back.
const listsV3FixedLen = 8

func encodeLists(lists []Permutation, n int) []byte {
	b := make([]byte, listsV3FixedLen, listsV3FixedLen+4*len(lists)*n)
	binary.LittleEndian.PutUint32(b[0:], uint32(len(lists)))
	binary.LittleEndian.PutUint32(b[4:], uint32(n))
	for _, p := range lists {
		b = appendU32s(b, p.Order)
	}
	return b
}

// decodeLists parses a format-3 LISTS section of an n-word vocabulary,
// each order in place when inPlace, and checks that each is an exact
// permutation, deriving its inverse in the same pass.
func decodeLists(raw []byte, n int, inPlace bool) ([]Permutation, error) {
	const part = "section LISTS"
	if len(raw) < listsV3FixedLen {
		return nil, corruptf(part, "%d bytes, shorter than its %d-byte header", len(raw), listsV3FixedLen)
	}
	l := binary.LittleEndian.Uint32(raw[0:])
	secN := binary.LittleEndian.Uint32(raw[4:])
	switch {
	case l == 0 || l > maxLists:
		return nil, corruptf(part, "%d lists, want 1..%d", l, maxLists)
	case uint64(secN) != uint64(n):
		return nil, corruptf(part, "%d words, header says %d", secN, n)
	case uint64(len(raw)-listsV3FixedLen) != uint64(l)*4*uint64(n):
		return nil, corruptf(part, "%d bytes of ids, %d lists of %d words need %d", len(raw)-listsV3FixedLen, l, n, uint64(l)*4*uint64(n))
	}
	lists := make([]Permutation, l)
	for i := range lists {
		order := u32s(raw[listsV3FixedLen+4*i*n:listsV3FixedLen+4*(i+1)*n], inPlace)
		pos, err := invert(order)
		if err != nil {
			return nil, corruptf(part, "list %d is not a permutation: %v", i, err)
		}
		lists[i] = Permutation{Order: order, Pos: pos}
	}
	return lists, nil
}

// LISTS section, format 2:
//
//	0   u32  L, the number of lists (1..MaxLists)
//	4   u32  N, the vocabulary size
//	8   u8   idBits = Width(N−1) (0 when N ≤ 1)
//	9   3 bytes reserved, 0
//	12  L lists, each N ids of idBits bits (bitpack order), each list
//	    padded with zero bits to a byte boundary
//
// Permutations of N ids are near-random, so fixed-width packing (16 bits
// per id at N = 50k) is within 1.5 bits of the entropy and decodes at
// memory speed; they are never compressed.
const listsFixedLen = 12

// listsV2Len is the length of a format-2 LISTS section of l lists of n
// words.
func listsV2Len(l, n int) uint64 {
	return listsFixedLen + uint64(l)*uint64(bitpack.PackedLen(n, idWidth(n)))
}

// maxLists bounds the number of 1-Diffractor lists.
const maxLists = 256

// decodeListsV2 parses a format-2 LISTS section of an n-word vocabulary
// and checks that each list is an exact permutation, deriving its inverse
// in the same pass.
func decodeListsV2(raw []byte, n int) ([]Permutation, error) {
	const part = "section LISTS"
	if len(raw) < listsFixedLen {
		return nil, corruptf(part, "%d bytes, shorter than its %d-byte header", len(raw), listsFixedLen)
	}
	l := binary.LittleEndian.Uint32(raw[0:])
	secN := binary.LittleEndian.Uint32(raw[4:])
	idBits := uint(raw[8])
	wantBits := bitpack.Width(uint64(max(n, 1) - 1))
	switch {
	case l == 0 || l > maxLists:
		return nil, corruptf(part, "%d lists, want 1..%d", l, maxLists)
	case uint64(secN) != uint64(n):
		return nil, corruptf(part, "%d words, header says %d", secN, n)
	case idBits != wantBits:
		return nil, corruptf(part, "id width %d bits, %d words need %d", idBits, n, wantBits)
	case raw[9] != 0 || raw[10] != 0 || raw[11] != 0:
		return nil, corruptf(part, "reserved bytes are not zero")
	}
	per := bitpack.PackedLen(n, idBits)
	if uint64(len(raw)-listsFixedLen) != uint64(l)*uint64(per) {
		return nil, corruptf(part, "%d bytes of ids, %d lists of %d words need %d", len(raw)-listsFixedLen, l, n, uint64(l)*uint64(per))
	}
	lists := make([]Permutation, l)
	for i := range lists {
		src := raw[listsFixedLen+i*per : listsFixedLen+(i+1)*per]
		order := make([]uint32, n)
		if err := bitpack.Unpack(order, src, idBits); err != nil {
			return nil, corruptf(part, "list %d: %v", i, err)
		}
		pos, err := invert(order)
		if err != nil {
			return nil, corruptf(part, "list %d is not a permutation: %v", i, err)
		}
		lists[i] = Permutation{Order: order, Pos: pos}
	}
	return lists, nil
}
