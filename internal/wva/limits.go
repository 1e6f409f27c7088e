package wva

import (
	"fmt"

	"github.com/wordveil/wordveil/internal/wva/internal/bitpack"
)

// What decoding may cost. Two checks run after the header's counts have
// been checked against the table and before any section is inflated or
// decoded (docs/ASSET_FORMAT.md, "Decoding limits"):
//
//  1. checkRawSizes: each section's declared raw length against the
//     maximum its kind allows for the header's counts (exact where the
//     counts fix it), so a DEFLATE stream cannot claim more output than
//     its content could need;
//  2. decodeCost: an upper bound on every byte the decoders will allocate,
//     summed over the sections this call decodes, against
//     DecodeOptions.MaxMemory.
//
// Together they bound what Decode allocates by MaxMemory whatever the
// file says, on top of the file's own bytes (which the caller holds).

// DefaultMaxDecodeMemory is the default DecodeOptions.MaxMemory: 40 MiB.
// The default asset (50k words with TEM lists and 100k stand-ins) is
// estimated at about 24 MiB, so an asset may grow by half before it needs
// a larger budget; an asset file of up to about 16 MB, whatever its
// sections declare, then decodes within 64 MB of memory with the file and
// the runtime.
const DefaultMaxDecodeMemory = 40 << 20

// inflaterSize bounds the state of one DEFLATE reader (compress/flate's
// 32 KiB window and its Huffman tables, about 44 KiB).
const inflaterSize = 64 << 10

// maxVarint16 is the longest LEB128 encoding of a word length
// (maxWordLen = 1024 takes two bytes).
const maxVarint16 = 2

// maxMemory returns the budget opt asks for: the default when 0.
func (opt DecodeOptions) maxMemory() (uint64, error) {
	switch {
	case opt.MaxMemory == 0:
		return DefaultMaxDecodeMemory, nil
	case opt.MaxMemory < 0:
		return 0, fmt.Errorf("wva: %w: DecodeOptions.MaxMemory %d is negative", ErrInvalid, opt.MaxMemory)
	}
	return uint64(opt.MaxMemory), nil
}

// maxRaw returns the largest raw length a section of kind k may declare
// for header h (whose counts checkHeader has bounded:
// words ≤ 2^25, dim ≤ 2^16, lists ≤ 256, stand-ins ≤ 2^22, so no product
// here overflows a uint64). ok is false for a kind whose length the
// counts do not bound (TEMLISTS, never compressed: its raw length is its
// stored length, inside the file).
func maxRaw(k Kind, h *Header) (max uint64, ok bool) {
	n := uint64(h.Words)
	switch k {
	case kindVocab:
		// Each word: a length varint of 1..2 bytes and 1..maxWordLen
		// bytes of text.
		return n * (maxVarint16 + maxWordLen), true
	case kindCodes:
		return 32 * n, true
	case kindLists:
		if h.Lists == nil {
			return 0, false
		}
		l := uint64(h.Lists.Count) * uint64(bitpack.PackedLen(h.Words, idWidth(h.Words)))
		return listsFixedLen + l, true
	case kindFloats:
		return 4 * n * uint64(h.Dim), true
	case kindCusText:
		l := custextFixedLen + uint64(bitpack.PackedLen(h.Words, idWidth(h.Words)))
		return l, true
	case kindStandIns:
		if h.StandIns == nil {
			return 0, false
		}
		m := uint64(h.StandIns.Words)
		ids := uint64(bitpack.PackedLen(h.StandIns.Words, idWidth(h.Words)))
		// Each entry: two length bytes and 1..MaxStandInLen bytes of text.
		return standinsFixedLen + m*(2+MaxStandInLen) + ids, true
	}
	return 0, false
}

// checkRawSizes checks every known section's declared raw length against
// maxRaw, before anything is inflated: a compressed section that declares
// more than its kind can hold for the header's counts is refused without
// reading its stream. (Too short a section is left to its decoder, which
// says what is missing.)
func checkRawSizes(h *Header, sec *[kindLast + 1]*SectionInfo) error {
	for k := kindVocab; k <= kindLast; k++ {
		s := sec[k]
		if s == nil {
			continue
		}
		if hi, ok := maxRaw(k, h); ok && s.Raw > hi {
			return corruptf("section "+k.String(), "declares %d raw bytes, above the %d its header counts allow", s.Raw, hi)
		}
	}
	return nil
}

// decodeCost returns an upper bound on the bytes DecodeWith allocates for
// the sections it decodes with opt, section by section, from the checked
// header counts and declared lengths (each decoder then verifies its
// section against the same counts before allocating by them). inflate is
// the raw length when the section is compressed (its inflated buffer) and
// 0 when it is used in place (plus the inflater's state).
func decodeCost(h *Header, sec *[kindLast + 1]*SectionInfo, opt DecodeOptions) (total uint64, costs [kindLast + 1]uint64) {
	n := uint64(h.Words)
	inflate := func(s *SectionInfo) uint64 {
		if s.Flags&flagDeflate != 0 {
			return s.Raw + inflaterSize
		}
		return 0
	}
	for k := kindVocab; k <= kindLast; k++ {
		s := sec[k]
		if s == nil {
			continue
		}
		var c uint64
		switch k {
		case kindVocab:
			// The text (copied out of the raw bytes), a uint16 length, a
			// string header and at most four index slots (uint32) a word.
			c = inflate(s) + s.Raw + n*(2+16+16)
		case kindCodes:
			c = 32 * n
		case kindLists:
			// Order and inverse, uint32 each, per list.
			c = uint64(h.Lists.Count) * 8 * n
		case kindTEMLists:
			if opt.SkipTEM {
				continue
			}
			// A copy of the stream (8 bytes of slack); per pair an id and
			// a distance in the triangle, two directed entries as bucket
			// scratch (uint32 or uint64) and two packed entries of
			// idBits + distBits bits; per word a degree, an offset, a
			// start and a slot (uint32); per distance step three uint32
			// counters when the steps are bucketed.
			p := min(h.TEM.Pairs, 8*s.Raw) // as decodeTEM caps it
			idBits := uint64(idWidth(h.Words))
			entryBits := idBits + uint64(bitpack.Width(uint64(h.TEM.MaxSteps)))
			scratch, steps := uint64(8), uint64(0)
			if h.TEM.MaxSteps < countingMax {
				steps = uint64(h.TEM.MaxSteps) + 2
				if 2*idBits <= 32 {
					scratch = 4
				}
			}
			c = s.Raw + 8 + p*(8+2*scratch) + (2*p*entryBits+7)/8 + 8 + (n+1)*16 + steps*12
		case kindFloats:
			if opt.SkipFloats {
				continue
			}
			c = inflate(s) + 4*n*uint64(h.Dim)
		case kindCusText:
			// The unpacked ids, the canonical order, a group index and a
			// seen flag per word, and a slice header per group.
			c = n*(4+4+4+1) + uint64(h.CusText.Groups)*24
		case kindStandIns:
			// The front-coded text kept (copied), the unpacked ids before
			// packing, the packed ids and the block offsets.
			m := uint64(h.StandIns.Words)
			c = inflate(s) + s.Raw + m*4 + m*4 + (m/standInBlock+1)*4
		}
		costs[k] = c
		total += c
	}
	return total, costs
}

// checkDecodeCost refuses a file whose decoding would allocate more than
// opt's budget, naming the section that costs most.
func checkDecodeCost(h *Header, sec *[kindLast + 1]*SectionInfo, opt DecodeOptions) error {
	limit, err := opt.maxMemory()
	if err != nil {
		return err
	}
	total, costs := decodeCost(h, sec, opt)
	if total <= limit {
		return nil
	}
	big := kindVocab
	for k := kindVocab; k <= kindLast; k++ {
		if costs[k] > costs[big] {
			big = k
		}
	}
	return corruptf("section "+big.String(), "decoding needs up to %d bytes (%d for this section), above the %d-byte limit (DecodeOptions.MaxMemory)",
		total, costs[big], limit)
}
