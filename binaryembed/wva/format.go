package wva

import (
	"fmt"
	"hash/crc32"
)

// Container layout constants. docs/ASSET_FORMAT.md is the normative
// description; the comments here say why each limit exists.
const (
	// Magic is the first 8 bytes of every asset file.
	Magic = "WVASSET\x00"

	// MajorVersion is the format major version this package reads and
	// writes. A reader refuses any other major version: a major bump means
	// the layout changed in a way old readers would misread.
	MajorVersion = 1
	// MinorVersion is the minor version this package writes. Readers accept
	// any minor version of their major: minor bumps only add header fields
	// or new section kinds, which older readers ignore.
	MinorVersion = 0

	// preambleSize is magic(8) + major(2) + minor(2) + header length(4) +
	// section count(4) + reserved(4).
	preambleSize = 24
	// entrySize is the size of one section table entry.
	entrySize = 40
	// align is the alignment of every section's offset, so that a future
	// reader can map the CODES section straight into a []hamming.Code.
	align = 8

	// MaxHeaderLen bounds the JSON header (licence notices are a few KiB).
	MaxHeaderLen = 1 << 20
	// MaxSections bounds the section table.
	MaxSections = 64
	// MaxExpansion bounds raw length / stored length of a compressed
	// section. It caps what a small file can make the decoder allocate;
	// real vocabularies compress 3–4×, so the encoder stores a section
	// uncompressed rather than exceed it.
	MaxExpansion = 64
	// MaxWords bounds the vocabulary (2^25 words, 1 GiB of codes: far past
	// any device). It keeps a TEM entry (25-bit id + 32-bit distance)
	// inside one 64-bit load.
	MaxWords = 1 << 25
	// MaxWordLen is the longest word in bytes.
	MaxWordLen = 1024
	// MaxDim bounds the float vector dimension.
	MaxDim = 1 << 16
)

// Kind identifies a section.
type Kind uint32

// Section kinds. Each kind appears at most once, and the table lists
// sections in increasing kind order.
const (
	KindVocab    Kind = 1 // words in id order
	KindCodes    Kind = 2 // 256-bit codes, 32 bytes per word
	KindLists    Kind = 3 // 1-Diffractor permutations
	KindTEMLists Kind = 4 // TEM neighbour balls
	KindFloats   Kind = 5 // float32 vectors (research builds)
)

// String returns the section name used in error messages and the spec.
func (k Kind) String() string {
	switch k {
	case KindVocab:
		return "VOCAB"
	case KindCodes:
		return "CODES"
	case KindLists:
		return "LISTS"
	case KindTEMLists:
		return "TEMLISTS"
	case KindFloats:
		return "FLOATS"
	}
	return fmt.Sprintf("kind %d", uint32(k))
}

// known reports whether this reader understands the kind; unknown kinds
// (added by a later minor version) are checksummed and skipped.
func (k Kind) known() bool { return k >= KindVocab && k <= KindFloats }

// FlagZstd marks a section stored as one zstd frame.
const FlagZstd uint32 = 1

// compressible reports whether a kind may carry FlagZstd. Only the word
// table and the float vectors compress; codes, permutations and neighbour
// lists are near-random bits, and keeping them raw bounds what their
// decoders allocate by the file size.
func (k Kind) compressible() bool { return k == KindVocab || k == KindFloats }

// castagnoli is the CRC-32C table. CRC-32C detects every error burst of up
// to 32 bits, so it catches every single-byte change with certainty, and it
// runs in hardware on amd64 and arm64.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

func checksum(b []byte) uint32 { return crc32.Checksum(b, castagnoli) }

// alignUp rounds n up to a multiple of align.
func alignUp(n uint64) uint64 { return (n + align - 1) &^ (align - 1) }
