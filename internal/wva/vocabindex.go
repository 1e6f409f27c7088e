package wva

import (
	"hash/maphash"
	"sync"
	"sync/atomic"
)

// The vocabulary's hash index. A text privatizer looks up every word it
// reads; the binary search over sorted compares about 17 words (at
// 50,000) through three dependent loads each, which made the lookup a
// large part of a word's cost. The index answers a lookup with one hash
// of the key and, on average, fewer than two slot reads and one word
// comparison.
//
// It is built in memory from the words (the asset format is unchanged)
// after indexAfter binary-search lookups, so that opening an asset and a
// keyboard's first few words pay nothing for it, and a text of more than
// a few words pays its build (about a millisecond at 50,000 words) once
// per asset. Its memory: one slot per 2.6 words at least (a power of
// two), 2 bytes a slot below 65,535 words, 4 above: 256 KiB at 50,000.
//
// No bad inputs: the hash is seeded at random per process (maphash), so a
// text cannot aim at a slot, and a lookup reads at most the longest run
// of occupied slots, which is fixed when the index is built from the
// vocabulary (a few slots at this load), whatever the key.

// indexAfter is how many binary-search lookups an asset answers before it
// builds its index.
const indexAfter = 64

// lazyIndex holds a vocabulary's index once built. It is shared by the
// copies of a vocab (a pointer), nil in the zero vocab, which then always
// binary-searches.
type lazyIndex struct {
	idx     atomic.Pointer[wordIndex]
	lookups atomic.Int32 // binary-search lookups so far, up to indexAfter
	once    sync.Once
}

// wordIndex is an open-addressing table of word ids, linear probing:
// slot h(w) & mask, then the next ones, until the word's id or an empty
// slot. Exactly one of small and large is used.
type wordIndex struct {
	seed  maphash.Seed
	mask  uint64
	small []uint16 // id+1 per slot, 0 empty: vocabularies below 65,535 words
	large []uint32 // id+1 per slot, 0 empty: the others
}

// get returns the index when it is built, counting the lookups before
// and building it at the indexAfter-th.
func (l *lazyIndex) get(v *vocab) *wordIndex {
	if l == nil {
		return nil
	}
	if x := l.idx.Load(); x != nil {
		return x
	}
	if l.lookups.Add(1) < indexAfter {
		return nil
	}
	l.once.Do(func() { l.idx.Store(newWordIndex(v)) })
	return l.idx.Load()
}

// newWordIndex builds the index of v's words. Equal words (only in an
// asset that Validate would refuse) keep the first id inserted.
func newWordIndex(v *vocab) *wordIndex {
	n := v.len()
	slots := 1
	for slots < n*5/2+1 { // load at most 0.4: short runs of occupied slots
		slots <<= 1
	}
	x := &wordIndex{seed: maphash.MakeSeed(), mask: uint64(slots - 1)}
	if n < 1<<16-1 {
		x.small = make([]uint16, slots)
	} else {
		x.large = make([]uint32, slots)
	}
	for id := range n {
		w := v.word(id)
		for h := maphash.String(x.seed, w) & x.mask; ; h = (h + 1) & x.mask {
			if s := x.slot(h); s == 0 {
				x.set(h, uint32(id)+1)
				break
			} else if v.word(int(s-1)) == w {
				break
			}
		}
	}
	return x
}

func (x *wordIndex) slot(h uint64) uint32 {
	if x.small != nil {
		return uint32(x.small[h])
	}
	return x.large[h]
}

func (x *wordIndex) set(h uint64, s uint32) {
	if x.small != nil {
		x.small[h] = uint16(s)
	} else {
		x.large[h] = s
	}
}

// lookup returns the id of word in v, whose index x is.
func (x *wordIndex) lookup(v *vocab, word string) (int, bool) {
	for h := maphash.String(x.seed, word) & x.mask; ; h = (h + 1) & x.mask {
		s := x.slot(h)
		if s == 0 {
			return 0, false
		}
		if v.word(int(s-1)) == word {
			return int(s - 1), true
		}
	}
}
