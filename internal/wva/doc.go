// Package wva reads and writes WordVeil asset files (.wva): the vocabulary,
// 256-bit codes, 1-Diffractor lists, TEM neighbour balls, CusText output
// sets, stand-ins (words outside the vocabulary mapped to vocabulary ids)
// and, in research builds, float vectors that the on-device mechanisms use.
//
// The byte layout is specified in docs/ASSET_FORMAT.md. In short: an 8-byte
// magic, a major.minor version (3.1; 2.x is read too), a JSON header with provenance and counts, a
// table of typed sections, a CRC-32C over everything before the sections,
// and the sections, each with its own CRC-32C.
//
// Guarantees:
//
//   - Decode (and Load, Inspect) never panics, whatever the input. A file
//     that is truncated, altered or malformed gives an error wrapping one of
//     ErrBadMagic, ErrVersion, ErrChecksum, ErrTruncated or ErrCorrupt, with
//     the section and the problem named. Any single-byte change to a valid
//     file is detected.
//   - Decode validates everything before returning: lengths and counts
//     against each other and the file size, ids below N, sort orders, each
//     1-Diffractor list an exact permutation (no duplicated or missing
//     word), TEM balls symmetric by construction, words unique and valid
//     UTF-8, stand-ins canonically front-coded in strict byte order,
//     floats finite, no trailing bytes. It allocates at most a
//     small constant multiple of the input size.
//   - DecodeDefault (the embedded asset, as Default and package core
//     open it) makes the same checks, except those TestDefaultProven made
//     in full on the same bytes at test time: it trusts them only when the
//     embedded bytes' size and CRC-32C are the ones that test recorded
//     (proven.go says what that defends against), and checks any other
//     bytes in full.
//   - Marshal is deterministic and refuses (with ErrInvalid) any Asset that
//     Decode would refuse; Decode(Marshal(a)) equals a.
//   - TEM lists hold exact balls under the ceil-quantized metric
//     q·⌈d/q⌉, which remains a metric (see TEMLists), so TEM's guarantee
//     holds for it; StepsFor refuses γ above the lists' γ_max.
//
// It does not check how the builder chose what it stored: how CusText's
// groups were formed (`wordveil audit` recomputes them from the codes) or
// which vocabulary word a stand-in maps to (the stand-in's own code is not
// stored, so no reader can).
//
// Format 3, which Marshal writes, lays out every section a mechanism
// reads on every word so that a reader can use it where it lies: raw,
// little-endian, 4- or 8-aligned. The vocabulary carries its own lookup
// table (the ids sorted by their words' bytes: Lookup is a binary search,
// at most ⌈log2 N⌉+1 comparisons whatever the text, no hash to degrade),
// and the header carries P_avg of the lists, which a reader uses instead
// of estimating it again. Format 2 files are still read, into memory.
//
// A decoded Asset is safe for concurrent reads and keeps no reference to
// its input, unless the caller asks for DecodeOptions.InPlace: then its
// codes, vocabulary, lookup table, lists, stand-ins and CusText sets are
// views of the input's sections (the arrays whenever the host is
// little-endian and the section is aligned), it hashes the input on first
// use, and the input must not be modified or unmapped while the Asset is
// in use. Nothing an Asset returns (Codes, Lists, Word's strings) may be
// written.
package wva
