package wva

import (
	"crypto/rand"
	"encoding/binary"
	"math/bits"
)

// wordIndex maps words to ids with open addressing (linear probing) over a
// power-of-two table of id+1 values, 0 meaning empty. At 50k words it takes
// 512 KiB, against 1.7 MB measured for a map[string]int32, and is built in
// about a millisecond at load; hashing with SipHash under a random key per
// index keeps crafted vocabularies from degrading it.
type wordIndex struct {
	key   sipKey
	slots []uint32
	mask  uint64
}

// buildIndex indexes words. If a word occurs more than once, the first
// occurrence is indexed and the ids of the first repeat are returned with
// ok = false.
func buildIndex(words []string) (idx *wordIndex, first, second int, ok bool) {
	// Load factor ≤ 1/2 keeps expected probe lengths near 1.5.
	size := uint64(1) << bits.Len64(uint64(2*len(words)))
	ok = true
	var k [16]byte
	_, _ = rand.Read(k[:]) // never fails since Go 1.24 (aborts instead)
	idx = &wordIndex{
		key:   sipKey{k0: binary.LittleEndian.Uint64(k[:8]), k1: binary.LittleEndian.Uint64(k[8:])},
		slots: make([]uint32, size),
		mask:  size - 1,
	}
	for id, w := range words {
		i := sipHash(idx.key, w) & idx.mask
		for {
			s := idx.slots[i]
			if s == 0 {
				idx.slots[i] = uint32(id) + 1
				break
			}
			if words[s-1] == w {
				if ok {
					first, second, ok = int(s-1), id, false
				}
				break
			}
			i = (i + 1) & idx.mask
		}
	}
	return idx, first, second, ok
}

// lookup returns the id of word in words, which must be the slice the index
// was built from.
func (idx *wordIndex) lookup(words []string, word string) (int, bool) {
	i := sipHash(idx.key, word) & idx.mask
	for {
		s := idx.slots[i]
		if s == 0 {
			return 0, false
		}
		if words[s-1] == word {
			return int(s - 1), true
		}
		i = (i + 1) & idx.mask
	}
}
