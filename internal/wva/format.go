package wva

import (
	"fmt"
	"hash/crc32"
)

// Container layout constants. docs/ASSET_FORMAT.md is the normative
// description; the comments here say why each limit exists.
const (
	// Magic is the first 8 bytes of every asset file.
	magic = "WVASSET\x00"

	// MajorVersion is the format major version this package writes. A
	// reader refuses a major version it does not know: a major bump means
	// the layout changed in a way old readers would misread.
	// Version 2 replaced version 1's zstd sections by DEFLATE ones.
	// Version 3 lays out the sections a mechanism reads on every word
	// (VOCAB with its lookup table, LISTS, STANDINS) so that a reader uses
	// them where they lie, uncompressed and aligned, instead of decoding
	// them into memory.
	majorVersion = 3
	// oldestMajor is the oldest major version this package still reads
	// (into memory, as before): format 2.
	oldestMajor = 2
	// MinorVersion is the newest minor version this package writes.
	// Readers accept any minor version of their major: minor bumps only add
	// header fields or new section kinds, which older readers ignore.
	// (Version 2.1 added the STANDINS section; 3.0 has it; 3.1 added
	// the presets' weighting, prior, held-out name and measurements.)
	minorVersion = 1

	// preambleSize is magic(8) + major(2) + minor(2) + header length(4) +
	// section count(4) + reserved(4).
	preambleSize = 24
	// entrySize is the size of one section table entry.
	entrySize = 40
	// align is the alignment of every section's offset, so that a future
	// reader can map the CODES section straight into a []hamming.Code.
	align = 8

	// MaxHeaderLen bounds the JSON header (licence notices are a few KiB).
	maxHeaderLen = 1 << 20
	// MaxSections bounds the section table.
	maxSections = 64
	// MaxExpansion bounds raw length / stored length of a compressed
	// section. It caps what a small file can make the decoder allocate;
	// real vocabularies compress 3–4×, so the encoder stores a section
	// uncompressed rather than exceed it.
	maxExpansion = 64
	// MaxWords bounds the vocabulary (2^25 words, 1 GiB of codes: far past
	// any device). It keeps a TEM entry (25-bit id + 32-bit distance)
	// inside one 64-bit load.
	maxWords = 1 << 25
	// MaxWordLen is the longest word in bytes.
	maxWordLen = MaxWordLen
	// MaxDim bounds the float vector dimension.
	maxDim = 1 << 16
)

// maxVocabText bounds the vocabulary's text (all words' bytes): 1 GiB,
// so that its uint32 offsets and a 32-bit int hold every position.
const maxVocabText = 1 << 30

// MaxWordLen is the longest vocabulary word in bytes (stand-ins are at
// most MaxStandInLen): a token whose lookup form is longer is in neither.
const MaxWordLen = 1024

// Kind identifies a section.
type Kind uint32

// Section kinds. Each kind appears at most once, and the table lists
// sections in increasing kind order.
const (
	kindVocab    Kind = 1 // words in id order
	kindCodes    Kind = 2 // 256-bit codes, 32 bytes per word
	kindLists    Kind = 3 // 1-Diffractor permutations
	kindTEMLists Kind = 4 // TEM neighbour balls
	kindFloats   Kind = 5 // float32 vectors (research builds)
	kindCusText  Kind = 6 // CusText output sets
	kindStandIns Kind = 7 // out-of-vocabulary words mapped to vocabulary ids (2.1)

	// kindLast is the highest kind this reader understands.
	kindLast = kindStandIns
)

// String returns the section name used in error messages and the spec.
func (k Kind) String() string {
	switch k {
	case kindVocab:
		return "VOCAB"
	case kindCodes:
		return "CODES"
	case kindLists:
		return "LISTS"
	case kindTEMLists:
		return "TEMLISTS"
	case kindFloats:
		return "FLOATS"
	case kindCusText:
		return "CUSTEXT"
	case kindStandIns:
		return "STANDINS"
	}
	return fmt.Sprintf("kind %d", uint32(k))
}

// known reports whether this reader understands the kind; unknown kinds
// (added by a later minor version) are checksummed and skipped.
func (k Kind) known() bool { return k >= kindVocab && k <= kindLast }

// flagDeflate marks a section stored as one DEFLATE stream (RFC 1951).
const flagDeflate uint32 = 1

// compressible reports whether a kind may carry flagDeflate in a file of
// the given major version. In format 3 only the float vectors (research
// builds, never read on a device) compress: the word tables are read in
// place, and codes, permutations and neighbour lists are near-random bits;
// keeping them raw also bounds what their decoders allocate by the file
// size. Format 2 also compressed the word tables.
func (k Kind) compressible(major uint16) bool {
	if major == oldestMajor && (k == kindVocab || k == kindStandIns) {
		return true
	}
	return k == kindFloats
}

// castagnoli is the CRC-32C table. CRC-32C detects every error burst of up
// to 32 bits, so it catches every single-byte change with certainty, and it
// runs in hardware on amd64 and arm64.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

func checksum(b []byte) uint32 { return crc32.Checksum(b, castagnoli) }

// alignUp rounds n up to a multiple of align.
func alignUp(n uint64) uint64 { return (n + align - 1) &^ (align - 1) }
