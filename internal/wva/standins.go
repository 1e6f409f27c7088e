package wva

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/wordveil/wordveil/internal/wva/internal/bitpack"
)

// StandIns maps words outside the vocabulary ("stand-ins": rarer words,
// names, places the source embedding knows) to vocabulary ids. The builder
// maps each stand-in to the vocabulary word nearest to it; a runtime that
// finds no vocabulary entry for a token looks it up here and privatizes
// it exactly as that vocabulary word. That mapping is a fixed, public
// pre-processing step, so a mechanism's metric-DP guarantee carries over
// to stand-ins under the pulled-back metric d'(x, y) = d(id(x), id(y)).
//
// Guarantees: words are unique, non-empty, valid UTF-8 and at most
// MaxStandInLen bytes; every id is below the vocabulary size; and, once
// part of a validated Asset (Validate, Marshal), no stand-in is also a
// vocabulary word (a word has one meaning). Decode does not look for that:
// callers consult the vocabulary first (Asset.StandIn says so), so such a
// stand-in would never be reached. Entries are kept in canonical order,
// ascending by word bytes, which is the order At enumerates.
//
// It does not guarantee that a stand-in's id is its nearest vocabulary
// word: the format cannot check that without the stand-in's code, which
// the asset does not carry. Stand-ins are inputs only: a mechanism never
// releases one. Matching is byte-exact, like Asset.Lookup.
//
// Memory: the words front-coded in blocks of 16 — each entry is the
// number of bytes it shares with the entry before it (0 at the start of a
// block), its remaining length, then those remaining bytes — which is
// also the section's layout, so decoding keeps the bytes as they are; the
// byte offset of every block; and the ids bit-packed at the width of the
// largest vocabulary id. No per-entry pointer or offset: sorted words
// share about 60% of their bytes with their predecessor, so the text
// takes about 70% of the plain words' bytes. A StandIns is immutable and
// safe for concurrent use; nil and the zero value are empty.
type StandIns struct {
	vocab  int           // N, the vocabulary size the ids index
	text   string        // front-coded entries, ascending (see above)
	blocks []uint32      // blocks[b] = offset in text of entry b·standInBlock
	ids    bitpack.Array // ids.Get(i) is entry i's vocabulary id
}

const (
	// MaxStandInLen is the longest stand-in word in bytes: the format
	// stores each length in one byte.
	MaxStandInLen = 255
	// MaxStandIns bounds the number of stand-ins: 4,194,304, over 40 times
	// the ~100,000 an asset ships. It keeps the in-memory text (at most
	// MaxStandIns·(1+MaxStandInLen) = 2^30 bytes) within a uint32 offset
	// and a 32-bit int, so no size computation can overflow on 32-bit
	// devices.
	MaxStandIns = 1 << 22
)

// standInBlock is the number of entries per block of the lookup index: a
// lookup binary-searches the blocks' first words, then scans at most this
// many entries. 16 keeps the index at a quarter of a byte per entry and
// the scan within a few cache lines.
const standInBlock = 16

// standinsFixedLen is the size of a format-2 STANDINS section's fixed header.
const standinsFixedLen = 12

// NewStandIns validates and returns the stand-ins in canonical form (sorted
// by word bytes). n is the vocabulary size; words[i] stands in for
// vocabulary id ids[i]. Each word must be non-empty, valid UTF-8, at most
// MaxStandInLen bytes, and no two equal; each id in [0, n). len(words)
// must equal len(ids) and be at most MaxStandIns; it may be 0 (an empty
// set, which an asset stores as no section). words and ids are not
// retained. Errors wrap ErrInvalid.
//
// Whether a word is also a vocabulary word is checked by Asset.Validate,
// which knows the vocabulary.
func NewStandIns(n int, words []string, ids []int32) (*StandIns, error) {
	const part = "stand-ins"
	switch {
	case n <= 0 || n > maxWords:
		return nil, invalidf(part, "vocabulary size %d out of [1, %d]", n, maxWords)
	case len(words) != len(ids):
		return nil, invalidf(part, "%d words and %d ids", len(words), len(ids))
	case len(words) > MaxStandIns:
		return nil, invalidf(part, "%d stand-ins, at most %d", len(words), MaxStandIns)
	}
	size := 0 // ≤ MaxStandIns·MaxStandInLen < 2^30: fits a 32-bit int
	for i, w := range words {
		if msg := checkStandIn(w); msg != "" {
			return nil, invalidf(part, "word %d (%q): %s", i, w, msg)
		}
		if ids[i] < 0 || int64(ids[i]) >= int64(n) {
			return nil, invalidf(part, "word %d (%q) stands in for id %d, vocabulary has %d words", i, w, ids[i], n)
		}
		size += 1 + len(w) // with one of the entry's two length bytes
	}
	order := make([]int32, len(words))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return strings.Compare(words[a], words[b]) })
	for k := 1; k < len(order); k++ {
		if words[order[k-1]] == words[order[k]] {
			return nil, invalidf(part, "word %q at positions %d and %d", words[order[k]], min(order[k-1], order[k]), max(order[k-1], order[k]))
		}
	}
	var text strings.Builder
	text.Grow(size + len(order))
	idBits := idWidth(n)
	ap := bitpack.NewAppender(len(order), idBits)
	blocks := make([]uint32, 0, numBlocks(len(order)))
	prev := ""
	for k, i := range order {
		w := words[i]
		shared := 0
		if k%standInBlock == 0 {
			blocks = append(blocks, uint32(text.Len()))
		} else {
			for shared < len(w) && shared < len(prev) && w[shared] == prev[shared] {
				shared++
			}
		}
		text.WriteByte(byte(shared))
		text.WriteByte(byte(len(w) - shared)) // ≥ 1: w > prev, so w is not a prefix of prev
		text.WriteString(w[shared:])
		ap.Append(uint64(ids[i]))
		prev = w
	}
	return &StandIns{vocab: n, text: text.String(), blocks: blocks, ids: ap.Array()}, nil
}

// checkStandIn returns why w cannot be a stand-in word, or "".
func checkStandIn(w string) string {
	switch {
	case w == "":
		return "empty"
	case len(w) > MaxStandInLen:
		return fmt.Sprintf("%d bytes, longer than MaxStandInLen (%d)", len(w), MaxStandInLen)
	case !utf8.ValidString(w):
		return "not valid UTF-8"
	}
	return ""
}

// idWidth is the bit width of ids below n: Width(n−1), 0 when n ≤ 1.
func idWidth(n int) uint { return bitpack.Width(uint64(max(n, 1) - 1)) }

func numBlocks(m int) int { return (m + standInBlock - 1) / standInBlock }

// Len returns the number of stand-ins (0 on nil).
func (s *StandIns) Len() int {
	if s == nil {
		return 0
	}
	return s.ids.Len()
}

// Lookup returns the vocabulary id word stands in for, matching bytes
// exactly. It returns (0, false) if word is not a stand-in, and on a nil
// receiver. It does not allocate.
func (s *StandIns) Lookup(word string) (id int, ok bool) {
	if s.Len() == 0 || word == "" || len(word) > MaxStandInLen {
		return 0, false
	}
	// The last block whose first word is ≤ word is the only one that can
	// hold it. Invariant: blocks below lo start at or before word, blocks
	// at or above hi start after it. A block's first entry shares nothing,
	// so its word is a plain slice of the text.
	lo, hi := 0, len(s.blocks)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if s.headAt(int(s.blocks[mid])) <= word {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo == 0 {
		return 0, false // before the first word
	}
	b := lo - 1
	var buf [MaxStandInLen]byte
	off, end := int(s.blocks[b]), len(s.text)
	if lo < len(s.blocks) {
		end = int(s.blocks[lo])
	}
	for i := b * standInBlock; off < end; i++ {
		var n int
		n, off = s.next(&buf, off)
		if n == len(word) && string(buf[:n]) == word {
			return int(s.ids.Get(i)), true
		}
	}
	return 0, false
}

// headAt returns the word of the block-starting entry at text[off].
func (s *StandIns) headAt(off int) string {
	return s.text[off+2 : off+2+int(s.text[off+1])]
}

// next decodes the entry at text[off] into buf, which holds the entry
// before it, and returns its length and the offset of the entry after it.
func (s *StandIns) next(buf *[MaxStandInLen]byte, off int) (n, after int) {
	shared, rest := int(s.text[off]), int(s.text[off+1])
	copy(buf[shared:], s.text[off+2:off+2+rest])
	return shared + rest, off + 2 + rest
}

// At returns the i-th stand-in in canonical (ascending byte) order and the
// vocabulary id it stands in for; the word is rebuilt from the front-coded
// text, so At allocates it. It panics if i is not in [0, Len()), as
// indexing a slice would.
func (s *StandIns) At(i int) (word string, id int) {
	if uint(i) >= uint(s.Len()) {
		panic(fmt.Sprintf("wva: stand-in %d out of range [0, %d)", i, s.Len()))
	}
	var buf [MaxStandInLen]byte
	off, n := int(s.blocks[i/standInBlock]), 0
	for k := i % standInBlock; k >= 0; k-- {
		n, off = s.next(&buf, off)
	}
	return string(buf[:n]), int(s.ids.Get(i))
}

// StandIn returns the vocabulary id that word stands in for, if word is a
// stand-in (see StandIns); it is a.StandIns.Lookup(word), and (0, false)
// when the asset has none. Callers look word up in the vocabulary first
// (Lookup): a validated asset never has a word in both.
func (a *Asset) StandIn(word string) (id int, ok bool) { return a.StandIns.Lookup(word) }

// STANDINS section, format 3 (integers little-endian):
//
//	0       u32  M, the number of stand-ins (≥ 1: an empty set is no section)
//	4       u32  N, the vocabulary size
//	8       u8   idBits = Width(N−1) (0 when N ≤ 1)
//	9       3 bytes reserved, 0
//	12      u32  T, the length of the entries' text
//	16      M ids of idBits bits (bitpack order), zero-padded to a byte,
//	        then 8 zero bytes, so that any id is read with one 8-byte load
//	then    the M entries, T bytes, front-coded in blocks of 16
//	        (StandIns.text): u8 shared, u8 rest (≥ 1), rest bytes; strictly
//	        ascending words
//
// It is stored raw and read in place: the ids and the text are the
// section's bytes; only the block offsets (4 bytes per 16 entries) are
// built, by the pass that checks every entry.
const standinsV3FixedLen = 16

func encodeStandIns(s *StandIns) []byte {
	m := s.Len()
	ids := s.ids.Bytes()
	b := make([]byte, standinsV3FixedLen, standinsV3FixedLen+len(ids)+bitpack.Slack+len(s.text))
	binary.LittleEndian.PutUint32(b[0:], uint32(m))
	binary.LittleEndian.PutUint32(b[4:], uint32(s.vocab))
	b[8] = byte(idWidth(s.vocab))
	binary.LittleEndian.PutUint32(b[12:], uint32(len(s.text)))
	b = append(b, ids...)
	b = append(b, make([]byte, bitpack.Slack)...)
	return append(b, s.text...)
}

// decodeStandInsV3 parses a format-3 STANDINS section of an n-word
// vocabulary, in place when inPlace; see decodeStandIns for what is
// checked.
func decodeStandInsV3(raw []byte, n int, info *StandInsInfo, inPlace, proven bool) (*StandIns, error) {
	const part = "section STANDINS"
	if len(raw) < standinsV3FixedLen {
		return nil, corruptf(part, "%d bytes, shorter than its %d-byte header", len(raw), standinsV3FixedLen)
	}
	m := uint64(binary.LittleEndian.Uint32(raw[0:]))
	secN := binary.LittleEndian.Uint32(raw[4:])
	idBits := uint(raw[8])
	t := uint64(binary.LittleEndian.Uint32(raw[12:]))
	body := uint64(len(raw) - standinsV3FixedLen)
	if err := checkStandInsCounts(m, body, secN, idBits, n, info, raw[9:12]); err != nil {
		return nil, err
	}
	mi := int(m) // ≤ MaxStandIns
	idLen := uint64(bitpack.PackedLen(mi, idBits)) + bitpack.Slack
	if idLen > body || body-idLen != t {
		return nil, corruptf(part, "%d bytes after the header; %d %d-bit ids with their slack and %d bytes of text need %d", body, m, idBits, t, idLen+t)
	}
	idBytes := raw[standinsV3FixedLen : standinsV3FixedLen+idLen]
	if !inPlace {
		idBytes = slices.Clone(idBytes)
	}
	ids, err := bitpack.View(idBytes, mi, idBits)
	if err != nil {
		return nil, corruptf(part, "ids: %v", err)
	}
	text := raw[standinsV3FixedLen+idLen:]
	if proven {
		// The embedded asset, whose entries and ids the tests checked
		// (proven.go): only the block offsets are needed.
		blocks, end := standInBlocks(text, mi)
		if end != len(text) { // unreachable for proven bytes; kept as a guard
			return nil, corruptf(part, "%d bytes after %d stand-ins' entries", len(text)-end, mi)
		}
		return &StandIns{vocab: n, text: str(text, inPlace), blocks: blocks, ids: ids}, nil
	}
	for i := range mi {
		if id := ids.Get(i); id >= uint64(n) {
			return nil, corruptf(part, "stand-in %d stands in for id %d, vocabulary has %d words", i, id, n)
		}
	}
	blocks, end, err := checkStandInEntries(text, mi)
	if err != nil {
		return nil, err
	}
	if end != len(text) {
		return nil, corruptf(part, "%d bytes after %d stand-ins' entries", len(text)-end, mi)
	}
	return &StandIns{vocab: n, text: str(text, inPlace), blocks: blocks, ids: ids}, nil
}

// checkStandInsCounts checks a STANDINS section's fixed fields (either
// format): m entries in body bytes after the fixed part, for a vocabulary
// of secN words (n expected) with idBits-bit ids.
func checkStandInsCounts(m, body uint64, secN uint32, idBits uint, n int, info *StandInsInfo, reserved []byte) error {
	const part = "section STANDINS"
	switch {
	case m == 0:
		return corruptf(part, "no stand-ins (an empty set is written as no section)")
	case m > MaxStandIns:
		return corruptf(part, "%d stand-ins, at most %d", m, MaxStandIns)
	case m > body/3:
		// Every entry takes two length bytes and at least one byte of text.
		return corruptf(part, "%d bytes cannot hold %d stand-ins", body, m)
	case uint64(info.Words) != m:
		return corruptf(part, "%d stand-ins, header says %d", m, info.Words)
	case uint64(secN) != uint64(n):
		return corruptf(part, "vocabulary of %d words, header says %d", secN, n)
	case idBits != idWidth(n):
		return corruptf(part, "id width %d bits, %d words need %d", idBits, n, idWidth(n))
	case reserved[0] != 0 || reserved[1] != 0 || reserved[2] != 0:
		return corruptf(part, "reserved bytes are not zero")
	}
	return nil
}

// STANDINS section, format 2: the format-3 fields without T, the entries
// right after the 12-byte fixed part, then the ids (without slack);
// normally compressed.
// decodeStandIns parses the stand-ins of an n-word vocabulary, checking
// every field against the section's size before allocating. One pass over
// the entries checks each against the one before it (canonical front
// coding, strict order, lengths, UTF-8), so it runs in time linear in the
// section. Whether a stand-in is also a vocabulary word is not checked
// here (Validate refuses it when writing): the vocabulary is looked up
// first, so such a stand-in could never be reached.
func decodeStandIns(raw []byte, n int, info *StandInsInfo) (*StandIns, error) {
	const part = "section STANDINS"
	if len(raw) < standinsFixedLen {
		return nil, corruptf(part, "%d bytes, shorter than its %d-byte header", len(raw), standinsFixedLen)
	}
	m := uint64(binary.LittleEndian.Uint32(raw[0:]))
	secN := binary.LittleEndian.Uint32(raw[4:])
	idBits := uint(raw[8])
	body := uint64(len(raw) - standinsFixedLen)
	if err := checkStandInsCounts(m, body, secN, idBits, n, info, raw[9:12]); err != nil {
		return nil, err
	}
	mi := int(m) // ≤ MaxStandIns
	text := raw[standinsFixedLen:]
	blocks, off, err := checkStandInEntries(text, mi)
	if err != nil {
		return nil, err
	}
	idBytes := bitpack.PackedLen(mi, idBits)
	if len(text)-off != idBytes {
		return nil, corruptf(part, "%d bytes after %d stand-ins' words; %d-bit ids need %d", len(text)-off, mi, idBits, idBytes)
	}
	ids := make([]uint32, mi)
	if err := bitpack.Unpack(ids, text[off:], idBits); err != nil {
		return nil, corruptf(part, "ids: %v", err)
	}
	ap := bitpack.NewAppender(mi, idBits)
	for i, id := range ids {
		if uint64(id) >= uint64(n) {
			return nil, corruptf(part, "stand-in %d stands in for id %d, vocabulary has %d words", i, id, n)
		}
		ap.Append(uint64(id))
	}
	return &StandIns{vocab: n, text: string(text[:off]), blocks: blocks, ids: ap.Array()}, nil
}

// standInBlocks returns the offset of every block's first entry among the
// first m front-coded entries of text, and where they end, without
// checking them: for entries checkStandInEntries accepted before (the
// proven embedded asset). A truncated text panics (DecodeWith recovers).
func standInBlocks(text []byte, m int) (blocks []uint32, end int) {
	blocks = make([]uint32, 0, numBlocks(m))
	off := 0
	for i := range m {
		if i%standInBlock == 0 {
			blocks = append(blocks, uint32(off))
		}
		off += 2 + int(text[off+1])
	}
	return blocks, off
}

// checkStandInEntries checks the first m front-coded entries of text, one
// pass, each against the one before it (canonical front coding, strict
// order, lengths, UTF-8), and returns the offset of every block's first
// entry and where the entries end.
func checkStandInEntries(text []byte, m int) (blocks []uint32, end int, err error) {
	const part = "section STANDINS"
	blocks = make([]uint32, 0, numBlocks(m))
	var buf [MaxStandInLen]byte
	prevLen, off := 0, 0
	for i := range m {
		if len(text)-off < 2 {
			return nil, 0, corruptf(part, "stand-in %d: section ends inside the entry", i)
		}
		shared, rest := int(text[off]), int(text[off+1])
		switch {
		case i%standInBlock == 0 && shared != 0:
			return nil, 0, corruptf(part, "stand-in %d starts a block but shares %d bytes", i, shared)
		case shared > prevLen:
			return nil, 0, corruptf(part, "stand-in %d shares %d bytes with a %d-byte word", i, shared, prevLen)
		case rest == 0:
			return nil, 0, corruptf(part, "stand-in %d adds no byte to the word before it", i)
		case shared+rest > MaxStandInLen:
			return nil, 0, corruptf(part, "stand-in %d has %d bytes, at most %d", i, shared+rest, MaxStandInLen)
		case len(text)-off-2 < rest:
			return nil, 0, corruptf(part, "stand-in %d: section ends inside the entry", i)
		}
		suffix := text[off+2 : off+2+rest]
		// Strictly after the previous word, and front-coded canonically:
		// the first byte that differs is where sharing stops and is
		// larger. A word that extends the previous one is after it.
		if i%standInBlock != 0 && shared < prevLen && suffix[0] <= buf[shared] {
			return nil, 0, corruptf(part, "stand-in %d (%q) does not follow %q in ascending byte order with its shared prefix", i, append(buf[:shared:shared], suffix...), buf[:prevLen])
		}
		if i%standInBlock == 0 && i > 0 && bytes.Compare(suffix, buf[:prevLen]) <= 0 {
			return nil, 0, corruptf(part, "stand-in %d (%q) does not follow %q in ascending byte order", i, suffix, buf[:prevLen])
		}
		if i%standInBlock == 0 {
			blocks = append(blocks, uint32(off))
		}
		// The word is valid UTF-8 if the previous word (valid) is cut at a
		// character boundary and the suffix is valid; only when the cut
		// may split a character is the whole word checked.
		cut := shared == prevLen || utf8.RuneStart(buf[shared])
		copy(buf[shared:], suffix)
		prevLen = shared + rest
		if cut && utf8.RuneStart(suffix[0]) {
			if !utf8.Valid(suffix) {
				return nil, 0, corruptf(part, "stand-in %d is not valid UTF-8", i)
			}
		} else if !utf8.Valid(buf[:prevLen]) {
			return nil, 0, corruptf(part, "stand-in %d is not valid UTF-8", i)
		}
		off += 2 + rest
	}
	return blocks, off, nil
}

// collision returns the first stand-in for which isWord is true.
func (s *StandIns) collision(isWord func(string) bool) (string, bool) {
	for i := range s.Len() {
		if w, _ := s.At(i); isWord(w) {
			return w, true
		}
	}
	return "", false
}

// deriveStandIns checks the stand-ins against the vocabulary and fills
// the header's description of them. An empty set is written as no
// section, so it leaves the description nil.
func (a *Asset) deriveStandIns(h *Header) error {
	s := a.StandIns
	if s.Len() == 0 {
		if h.StandIns != nil && h.StandIns.Words != 0 {
			return invalidf("header", "standIns words %d, asset has no stand-ins", h.StandIns.Words)
		}
		h.StandIns = nil
		return nil
	}
	if s.vocab != a.Len() {
		return invalidf("stand-ins", "ids index a vocabulary of %d words, vocabulary has %d", s.vocab, a.Len())
	}
	if h.StandIns != nil && h.StandIns.Words != 0 && h.StandIns.Words != s.Len() {
		return invalidf("header", "standIns words %d, asset has %d stand-ins", h.StandIns.Words, s.Len())
	}
	isWord := func(w string) bool { _, ok := a.Lookup(w); return ok }
	if w, found := s.collision(isWord); found {
		return invalidf("stand-ins", "%q is also a vocabulary word", w)
	}
	h.StandIns = &StandInsInfo{Words: s.Len()}
	return nil
}

// checkStandInsHeader checks the header's description against the table.
func checkStandInsHeader(h *Header, present bool) error {
	if (h.StandIns != nil) != present {
		return corruptf("header", "standIns description present = %v, STANDINS section present = %v", h.StandIns != nil, present)
	}
	if c := h.StandIns; c != nil && (c.Words < 1 || c.Words > MaxStandIns) {
		return corruptf("header", "standIns words %d out of [1, %d]", c.Words, MaxStandIns)
	}
	return nil
}
