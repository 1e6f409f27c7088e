package wva

import (
	"encoding/binary"
	"slices"

	"github.com/wordveil/wordveil/internal/wva/internal/bitpack"
)

// TEMLISTS section layout (all integers little-endian):
//
//	0   u32  N, the vocabulary size
//	4   u32  G, maxSteps
//	8   u64  P, the number of unordered pairs
//	16  u8   countBits: width of the per-word counts, Width(max count)
//	17  u8   distBits = Width(G)
//	18  u16  reserved, 0
//	20  bit stream (bitpack order), for w = 0 .. N−1:
//	      c_w            countBits   number of neighbours i > w
//	      if c_w > 0:
//	        gapBits      6           Width(largest gap of this word)
//	        c_w gaps     gapBits     i_1 − (w+1), then i_k − i_{k−1} − 1
//	        c_w dists    distBits    quantized distance to i_k
//	    then zero bits to a byte boundary; the section ends there.
//
// Only the upper triangle (i > w) is stored: the relation is symmetric, so
// this halves the section, and the loader rebuilds both directions, which
// also makes an asymmetric ball impossible to load. Ids within a word are
// increasing, so they are stored as gaps in a per-word width (about
// log2(N/c) + 2 bits instead of log2 N).
const (
	temFixedLen = 20
	gapWidthLen = 6
)

// encodeTEM returns the raw TEMLISTS section for t.
func encodeTEM(t *TEMLists) []byte {
	n := t.n
	upper := make([][]Neighbor, n)
	var buf []Neighbor
	maxCount := 0
	for w := 0; w < n; w++ {
		buf = t.Ball(w, buf[:0])
		var up []Neighbor
		for _, e := range buf {
			if int(e.ID) > w {
				up = append(up, e)
			}
		}
		slices.SortFunc(up, func(a, b Neighbor) int { return cmpU32(a.ID, b.ID) })
		upper[w] = up
		maxCount = max(maxCount, len(up))
	}
	countBits := bitpack.Width(uint64(maxCount))
	distBits := bitpack.Width(uint64(t.maxSteps))

	head := make([]byte, temFixedLen)
	binary.LittleEndian.PutUint32(head[0:], uint32(n))
	binary.LittleEndian.PutUint32(head[4:], t.maxSteps)
	binary.LittleEndian.PutUint64(head[8:], t.pairs)
	head[16] = byte(countBits)
	head[17] = byte(distBits)
	bw := bitpack.NewWriter(head)
	for w, up := range upper {
		bw.Write(uint64(len(up)), countBits)
		if len(up) == 0 {
			continue
		}
		var maxGap uint32
		prev := uint32(w)
		for _, e := range up {
			maxGap = max(maxGap, e.ID-prev-1)
			prev = e.ID
		}
		gapBits := bitpack.Width(uint64(maxGap))
		bw.Write(uint64(gapBits), gapWidthLen)
		prev = uint32(w)
		for _, e := range up {
			bw.Write(uint64(e.ID-prev-1), gapBits)
			prev = e.ID
		}
		for _, e := range up {
			bw.Write(uint64(e.Dist), distBits)
		}
	}
	return bw.Bytes()
}

// decodeTEM parses a raw TEMLISTS section for a vocabulary of n words with
// the header's TEM description, verifying every rule of the layout.
func decodeTEM(raw []byte, n int, info *TEMInfo) (*TEMLists, error) {
	const part = "section TEMLISTS"
	if len(raw) < temFixedLen {
		return nil, corruptf(part, "%d bytes, shorter than its %d-byte header", len(raw), temFixedLen)
	}
	secN := binary.LittleEndian.Uint32(raw[0:])
	g := binary.LittleEndian.Uint32(raw[4:])
	p := binary.LittleEndian.Uint64(raw[8:])
	countBits, distBits := uint(raw[16]), uint(raw[17])
	switch {
	case uint64(secN) != uint64(n):
		return nil, corruptf(part, "%d words, header says %d", secN, n)
	case g != info.MaxSteps:
		return nil, corruptf(part, "maxSteps %d, header says %d", g, info.MaxSteps)
	case p != info.Pairs:
		return nil, corruptf(part, "%d pairs, header says %d", p, info.Pairs)
	case distBits != bitpack.Width(uint64(g)):
		return nil, corruptf(part, "distance width %d bits, maxSteps %d needs %d", distBits, g, bitpack.Width(uint64(g)))
	case countBits > bitpack.MaxWidth:
		return nil, corruptf(part, "count width %d bits", countBits)
	case raw[18] != 0 || raw[19] != 0:
		return nil, corruptf(part, "reserved bytes are not zero")
	}
	if err := checkTEMParams(part, n, info.Step, g, corruptf); err != nil {
		return nil, err
	}
	// The walker reads every field with one unaligned 64-bit load, so it
	// gets a copy of the stream with 8 bytes of zero slack.
	stream := make([]byte, len(raw)-temFixedLen+8)
	copy(stream, raw[temFixedLen:])
	// Every pair costs at least distBits ≥ 1 bits, which bounds the pair
	// count the header may claim before anything is sized by it.
	capPairs := min(p, uint64(len(raw)-temFixedLen)*8/uint64(distBits))
	tri := newTriangle(n, g, capPairs)
	if err := walkTEM(stream, n, g, countBits, distBits, tri); err != nil {
		return nil, err
	}
	if tri.pairs() != p {
		return nil, corruptf(part, "stream holds %d pairs, header says %d", tri.pairs(), p)
	}
	return assemble(part, n, info.Step, g, tri, corruptf)
}

// walkTEM decodes the TEMLISTS bit stream into tri, checking every field:
// counts within the words left, ids below n, distances at most g, gap and
// count widths minimal (so the encoding is canonical), padding zero.
func walkTEM(stream []byte, n int, g uint32, countBits, distBits uint, tri *triangle) error {
	const part = "section TEMLISTS"
	// stream ends with 8 bytes of slack (see decodeTEM): size is the real
	// length in bits, and every read below is checked against it before
	// the unchecked loads.
	size := uint64(len(stream)-8) * 8
	var pos uint64
	var maxCount uint64
	for w := 0; w < n; w++ {
		if pos+uint64(countBits) > size {
			return corruptf(part, "stream ends at word %d's count", w)
		}
		c := load(stream, pos, countBits)
		pos += uint64(countBits)
		if c > uint64(n-1-w) {
			return corruptf(part, "word %d has %d neighbours above it, only %d words follow", w, c, n-1-w)
		}
		maxCount = max(maxCount, c)
		if c == 0 {
			tri.endWord()
			continue
		}
		if pos+gapWidthLen > size {
			return corruptf(part, "stream ends at word %d's gap width", w)
		}
		gapBits := uint(load(stream, pos, gapWidthLen))
		pos += gapWidthLen
		if gapBits > bitpack.MaxWidth {
			return corruptf(part, "word %d gap width %d bits", w, gapBits)
		}
		// c < 2^32 and widths ≤ 32 bits: no overflow.
		if block := c * uint64(gapBits+distBits); block > size-pos {
			return corruptf(part, "word %d: %d pairs need %d bits, %d left", w, c, block, size-pos)
		}
		dpos := pos + c*uint64(gapBits)
		prev := uint64(w)
		var maxGap uint64
		for k := uint64(0); k < c; k++ {
			gap := load(stream, pos, gapBits)
			pos += uint64(gapBits)
			d := load(stream, dpos, distBits)
			dpos += uint64(distBits)
			maxGap = max(maxGap, gap)
			id := prev + 1 + gap
			if id >= uint64(n) {
				return corruptf(part, "word %d: neighbour id %d, vocabulary has %d words", w, id, n)
			}
			if d > uint64(g) {
				return corruptf(part, "word %d: neighbour %d at %d steps, above maxSteps %d", w, id, d, g)
			}
			tri.add(uint32(w), uint32(id), uint32(d))
			prev = id
		}
		if gapBits != bitpack.Width(maxGap) {
			return corruptf(part, "word %d: gap width %d bits, largest gap %d needs %d", w, gapBits, maxGap, bitpack.Width(maxGap))
		}
		pos = dpos
		tri.endWord()
	}
	if countBits != bitpack.Width(maxCount) {
		return corruptf(part, "count width %d bits, largest count %d needs %d", countBits, maxCount, bitpack.Width(maxCount))
	}
	// Only zero bits up to the next byte boundary may follow.
	if size-pos >= 8 || (pos&7 != 0 && stream[pos>>3]>>(pos&7) != 0) {
		return corruptf(part, "after the last word: %d bits of padding, or padding not zero", size-pos)
	}
	return nil
}

// load returns the width-bit field at bit pos of b, which must have at
// least 8 bytes from pos/8 (decodeTEM's slack guarantees it for any pos
// inside the stream).
func load(b []byte, pos uint64, width uint) uint64 {
	return binary.LittleEndian.Uint64(b[pos>>3:]) >> (pos & 7) & (1<<width - 1)
}
