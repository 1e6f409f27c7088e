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

// inflaterSize bounds the state of one DEFLATE reader
// (klauspost/compress/flate's 32 KiB window and its Huffman tables, about
// 44 KiB, as in the standard library's compress/flate).
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
func maxRaw(k Kind, h *Header, major uint16) (max uint64, ok bool) {
	n := uint64(h.Words)
	switch k {
	case kindVocab:
		if major == oldestMajor {
			// Each word: a length varint of 1..2 bytes and 1..maxWordLen
			// bytes of text.
			return n * (maxVarint16 + maxWordLen), true
		}
		// The fixed part, an offset and a sorted id per word, and
		// 1..maxWordLen bytes of text.
		return vocabFixedLen + 4 + n*(8+maxWordLen), true
	case kindCodes:
		return 32 * n, true
	case kindLists:
		if h.Lists == nil {
			return 0, false
		}
		if major == oldestMajor {
			return listsV2Len(h.Lists.Count, h.Words), true
		}
		return listsV3FixedLen + uint64(h.Lists.Count)*4*n, true
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
		// Each entry: two length bytes and 1..MaxStandInLen bytes of text;
		// format 3 adds a text length and the ids' slack.
		return standinsV3FixedLen + bitpack.Slack + m*(2+MaxStandInLen) + ids, true
	}
	return 0, false
}

// checkRawSizes checks every known section's declared raw length against
// maxRaw, before anything is inflated: a compressed section that declares
// more than its kind can hold for the header's counts is refused without
// reading its stream. (Too short a section is left to its decoder, which
// says what is missing.)
func checkRawSizes(h *Header, sec *[kindLast + 1]*SectionInfo, major uint16) error {
	for k := kindVocab; k <= kindLast; k++ {
		s := sec[k]
		if s == nil {
			continue
		}
		if hi, ok := maxRaw(k, h, major); ok && s.Raw > hi {
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
func decodeCost(h *Header, sec *[kindLast + 1]*SectionInfo, major uint16, opt DecodeOptions) (total uint64, costs [kindLast + 1]uint64) {
	n := uint64(h.Words)
	inflate := func(s *SectionInfo) uint64 {
		if s.Flags&flagDeflate != 0 {
			return s.Raw + inflaterSize
		}
		return 0
	}
	// copied is what a section read in place costs when it is not
	// (DecodeOptions.InPlace unset, or a misaligned or big-endian host):
	// a copy of its bytes.
	copied := func(s *SectionInfo) uint64 {
		if major == oldestMajor {
			return 0 // counted by the section's own format-2 terms
		}
		return s.Raw
	}
	v2 := uint64(0)
	if major == oldestMajor {
		v2 = 1
	}
	for k := kindVocab; k <= kindLast; k++ {
		s := sec[k]
		if s == nil {
			continue
		}
		var c uint64
		switch k {
		case kindVocab:
			// Format 3: at most a copy of the section. Format 2: the
			// text (copied out of the inflated bytes), an offset and a
			// sorted id a word, and the sort's scratch (a uint32 a word).
			c = inflate(s) + copied(s) + v2*(s.Raw+n*12)
		case kindCodes:
			c = 32 * n
		case kindLists:
			// Order (in place in format 3, unless copied) and inverse,
			// uint32 each, per list.
			c = uint64(h.Lists.Count)*4*n + copied(s) + v2*uint64(h.Lists.Count)*4*n
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
			// A seen bit per word to check them, a copy of the packed ids
			// unless in place, and, expanded on first use, the canonical
			// order and a group index per word.
			c = n/8 + 8 + s.Raw + n*(4+4)
		case kindStandIns:
			// The block offsets, and at most a copy of the section;
			// format 2 also keeps its inflated text and unpacks and
			// repacks the ids.
			m := uint64(h.StandIns.Words)
			c = inflate(s) + s.Raw + (m/standInBlock+1)*4 + v2*(m*4+m*4+bitpack.Slack)
		}
		costs[k] = c
		total += c
	}
	return total, costs
}

// checkDecodeCost refuses a file whose decoding would allocate more than
// opt's budget, naming the section that costs most.
func checkDecodeCost(h *Header, sec *[kindLast + 1]*SectionInfo, major uint16, opt DecodeOptions) error {
	limit, err := opt.maxMemory()
	if err != nil {
		return err
	}
	total, costs := decodeCost(h, sec, major, opt)
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
