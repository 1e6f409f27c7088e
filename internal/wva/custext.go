package wva

import (
	"encoding/binary"
	"fmt"
	"slices"
	"sync"

	"github.com/wordveil/wordveil/internal/wva/internal/bitpack"
)

// CusTextSets is CusText's customized output sets: a partition of the
// vocabulary into groups of K words (the last group may be smaller). A
// word's output set is its group. The builder forms groups greedily (the
// most frequent unassigned word and its K−1 nearest unassigned words);
// this type checks only that the groups partition the vocabulary, never
// how they were chosen: the audit recomputes that from the codes.
//
// Groups are kept in canonical form: members ascending within a group,
// groups ordered by their smallest id. Since ids are in frequency-rank
// order, the smallest id of a greedy group is its seed, so this order is
// also the order the greedy built them in, and only the last group can
// be short. A CusTextSets is immutable and safe for concurrent use.
//
// Decode checks the sets completely but expands them (the two arrays
// below, 8 bytes a word) only on their first use, from the section's
// packed ids: only CusText reads them, so an asset opened for another
// mechanism never pays for them.
type CusTextSets struct {
	k, n int
	// packed and idBits are the section's checked ids, expanded by
	// expand on first use; nil for sets built in memory.
	packed []byte
	idBits uint
	once   sync.Once
	order  []uint32 // group g is order[g·k : min((g+1)·k, n)]
	group  []uint32 // group[w] is w's group
}

// expanded returns s with order and group filled.
func (s *CusTextSets) expanded() *CusTextSets {
	s.once.Do(func() {
		if s.packed == nil {
			return
		}
		order := make([]uint32, s.n)
		// Cannot fail: decodeCusText checked these exact bytes.
		_ = bitpack.Unpack(order, s.packed, s.idBits)
		s.order, s.group = order, groupsOf(order, s.k)
	})
	return s
}

// CUSTEXT section layout (integers little-endian):
//
//	0   u32  N, the vocabulary size
//	4   u32  K, the group size
//	8   u32  G = ⌈N/K⌉, the number of groups
//	12  u8   idBits = Width(N−1) (0 when N ≤ 1)
//	13  3 bytes reserved, 0
//	16  N ids of idBits bits (bitpack order): the groups in canonical
//	    order, concatenated, padded with zero bits to a byte boundary
//
// The boundaries follow from K, so the section is one permutation: 16
// bits per word at N = 50k, about 100 KB. Like LISTS it is stored raw.
const custextFixedLen = 16

// maxCusTextK bounds K: a release scans the input's whole group, so K
// bounds the work per word.
const maxCusTextK = 1 << 12

// NewCusTextSets checks that groups partition the n words 0..n−1 into
// groups of exactly k words except at most one shorter group, and returns
// them in canonical form. k must be in [2, 4096] (a group of one word would
// release it unchanged, so k = 1 is refused). groups is not retained.
func NewCusTextSets(n, k int, groups [][]uint32) (*CusTextSets, error) {
	const part = "custext"
	if err := checkCusTextParams(part, n, k, invalidf); err != nil {
		return nil, err
	}
	if want := (n + k - 1) / k; len(groups) != want {
		return nil, invalidf(part, "%d groups, %d words in groups of %d need %d", len(groups), n, k, want)
	}
	sorted := make([][]uint32, len(groups))
	for g, m := range groups {
		if len(m) == 0 || len(m) > k {
			return nil, invalidf(part, "group %d has %d words, want 1..%d", g, len(m), k)
		}
		sorted[g] = slices.Clone(m)
		slices.Sort(sorted[g])
	}
	slices.SortFunc(sorted, func(a, b []uint32) int { return cmpU32(a[0], b[0]) })
	order := make([]uint32, 0, n)
	for g, m := range sorted {
		if len(m) != k && g != len(sorted)-1 {
			return nil, invalidf(part, "group starting at word %d has %d words; only the last group may have fewer than %d", m[0], len(m), k)
		}
		order = append(order, m...)
	}
	if len(order) != n {
		return nil, invalidf(part, "groups hold %d words, vocabulary has %d", len(order), n)
	}
	if msg := checkSetsOrder(n, k, func(i int) uint32 { return order[i] }); msg != "" {
		return nil, invalidf(part, "%s", msg)
	}
	return &CusTextSets{k: k, n: n, order: order, group: groupsOf(order, k)}, nil
}

// checkSetsOrder returns why the n ids at(0..n−1) are not k-word groups
// in canonical form partitioning 0..n−1, or "": each id below n and seen
// once, ascending within a group, and each group starting after the one
// before it. It allocates one bit per word.
func checkSetsOrder(n, k int, at func(i int) uint32) string {
	seen := make([]uint64, (n+63)/64)
	var prev, groupStart uint32
	for i := range n {
		id := at(i)
		switch {
		case uint64(id) >= uint64(n):
			return fmt.Sprintf("position %d holds id %d, vocabulary has %d words", i, id, n)
		case seen[id/64]>>(id%64)&1 != 0:
			return fmt.Sprintf("word %d is in two groups", id)
		case i%k != 0 && prev >= id:
			return fmt.Sprintf("group %d is not in ascending id order at position %d", i/k, i)
		case i%k == 0 && i > 0 && groupStart >= id:
			return fmt.Sprintf("group %d starts at word %d, not after group %d's %d", i/k, id, i/k-1, groupStart)
		}
		seen[id/64] |= 1 << (id % 64)
		if i%k == 0 {
			groupStart = id
		}
		prev = id
	}
	return ""
}

// groupsOf returns each word's group for a checked canonical order.
func groupsOf(order []uint32, k int) []uint32 {
	group := make([]uint32, len(order))
	for i, id := range order {
		group[id] = uint32(i / k)
	}
	return group
}

func checkCusTextParams(part string, n, k int, errf func(part, format string, args ...any) error) error {
	switch {
	case n < 0 || n > maxWords:
		return errf(part, "vocabulary size %d out of [0, %d]", n, maxWords)
	case k < 2 || k > maxCusTextK:
		return errf(part, "group size %d out of [2, %d]", k, maxCusTextK)
	}
	return nil
}

// Len returns the vocabulary size N.
func (s *CusTextSets) Len() int { return s.n }

// K returns the group size (every group but the last has exactly K words).
func (s *CusTextSets) K() int { return s.k }

// Groups returns the number of groups, ⌈N/K⌉.
func (s *CusTextSets) Groups() int { return (s.n + s.k - 1) / s.k }

// GroupOf returns the group of word w. It panics if w is not in [0, Len()).
func (s *CusTextSets) GroupOf(w int) int { return int(s.expanded().group[w]) }

// Members appends group g's words, ascending, to dst and returns the
// extended slice. It panics if g is not in [0, Groups()).
func (s *CusTextSets) Members(g int, dst []uint32) []uint32 {
	if uint(g) >= uint(s.Groups()) {
		panic(fmt.Sprintf("wva: CusText group %d out of range [0, %d)", g, s.Groups()))
	}
	s.expanded()
	return append(dst, s.order[g*s.k:min((g+1)*s.k, s.n)]...)
}

// SizeBytes returns the memory held by the sets.
func (s *CusTextSets) SizeBytes() int { return 4*cap(s.expanded().order) + 4*cap(s.group) }

func encodeCusText(s *CusTextSets) []byte {
	s.expanded()
	n := s.n
	idBits := bitpack.Width(uint64(max(n, 1) - 1))
	b := make([]byte, custextFixedLen, custextFixedLen+bitpack.PackedLen(n, idBits))
	binary.LittleEndian.PutUint32(b[0:], uint32(n))
	binary.LittleEndian.PutUint32(b[4:], uint32(s.k))
	binary.LittleEndian.PutUint32(b[8:], uint32(s.Groups()))
	b[12] = byte(idBits)
	return bitpack.Pack(b, s.order, idBits)
}

// decodeCusText parses the sets of an n-word vocabulary, checking every
// field and the canonical partition. The id array is sized by n, which
// checkHeader bounded by the CODES section.
func decodeCusText(raw []byte, n int, info *CusTextInfo, inPlace, proven bool) (*CusTextSets, error) {
	const part = "section CUSTEXT"
	if len(raw) < custextFixedLen {
		return nil, corruptf(part, "%d bytes, shorter than its %d-byte header", len(raw), custextFixedLen)
	}
	secN := binary.LittleEndian.Uint32(raw[0:])
	k := binary.LittleEndian.Uint32(raw[4:])
	g := binary.LittleEndian.Uint32(raw[8:])
	idBits := uint(raw[12])
	wantBits := bitpack.Width(uint64(max(n, 1) - 1))
	switch {
	case uint64(secN) != uint64(n):
		return nil, corruptf(part, "%d words, header says %d", secN, n)
	case k < 2 || k > maxCusTextK:
		return nil, corruptf(part, "group size %d out of [2, %d]", k, maxCusTextK)
	case uint64(k) != uint64(info.K):
		return nil, corruptf(part, "group size %d, header says %d", k, info.K)
	case uint64(g) != (uint64(n)+uint64(k)-1)/uint64(k) || uint64(g) != uint64(info.Groups):
		return nil, corruptf(part, "%d groups (header %d), %d words in groups of %d make %d", g, info.Groups, n, k, (uint64(n)+uint64(k)-1)/uint64(k))
	case idBits != wantBits:
		return nil, corruptf(part, "id width %d bits, %d words need %d", idBits, n, wantBits)
	case raw[13] != 0 || raw[14] != 0 || raw[15] != 0:
		return nil, corruptf(part, "reserved bytes are not zero")
	}
	if want := bitpack.PackedLen(n, idBits); len(raw)-custextFixedLen != want {
		return nil, corruptf(part, "%d bytes of ids, %d words need %d", len(raw)-custextFixedLen, n, want)
	}
	packed := raw[custextFixedLen:]
	if proven { // the embedded asset, whose sets the tests checked (proven.go)
		return &CusTextSets{k: int(k), n: n, packed: packed, idBits: idBits}, nil
	}
	if err := bitpack.CheckStream(packed, n, idBits); err != nil {
		return nil, corruptf(part, "%v", err)
	}
	if msg := checkSetsOrder(n, int(k), func(i int) uint32 { return uint32(bitpack.Field(packed, i, idBits)) }); msg != "" {
		return nil, corruptf(part, "%s", msg)
	}
	if !inPlace {
		packed = slices.Clone(packed)
	}
	return &CusTextSets{k: int(k), n: n, packed: packed, idBits: idBits}, nil
}

// deriveCusText fills the header's description of the sets.
func (a *Asset) deriveCusText(h *Header) error {
	s := a.CusText
	if s == nil {
		if h.CusText != nil && (h.CusText.K != 0 || h.CusText.Groups != 0) {
			return invalidf("header", "custext described but asset has no CusText sets")
		}
		h.CusText = nil
		return nil
	}
	if s.Len() != a.Len() {
		return invalidf("custext", "sets for %d words, vocabulary has %d", s.Len(), a.Len())
	}
	info := CusTextInfo{}
	if h.CusText != nil {
		info = *h.CusText
	}
	if (info.K != 0 && info.K != s.K()) || (info.Groups != 0 && info.Groups != s.Groups()) {
		return invalidf("header", "custext k=%d groups=%d disagrees with the sets (k=%d, %d groups)", info.K, info.Groups, s.K(), s.Groups())
	}
	info.K, info.Groups = s.K(), s.Groups()
	h.CusText = &info
	return nil
}

// checkCusTextHeader checks the header's description against the table.
func checkCusTextHeader(h *Header, present bool) error {
	if (h.CusText != nil) != present {
		return corruptf("header", "custext description present = %v, CUSTEXT section present = %v", h.CusText != nil, present)
	}
	if c := h.CusText; c != nil {
		if err := checkCusTextParams("header: custext", h.Words, c.K, corruptf); err != nil {
			return err
		}
		if c.Groups != (h.Words+c.K-1)/c.K {
			return corruptf("header", "custext groups %d, %d words in groups of %d make %d", c.Groups, h.Words, c.K, (h.Words+c.K-1)/c.K)
		}
	}
	return nil
}
