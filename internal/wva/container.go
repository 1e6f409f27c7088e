package wva

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
)

// SectionInfo is one entry of the section table.
type SectionInfo struct {
	// Kind is the section's type; kinds a later minor version adds are
	// listed (and checksummed) but not otherwise interpreted.
	Kind   Kind
	Flags  uint32 // flagDeflate or 0
	Offset uint64 // from the start of the file, a multiple of 8
	Stored uint64 // length in the file
	Raw    uint64 // length after decompression (== Stored when not compressed)
	CRC    uint32 // CRC-32C of the Stored bytes
}

// Info is what Inspect reads from a file without decoding its sections.
type Info struct {
	// Major and Minor are the file's format version (a major version this
	// package reads: Inspect rejects any other).
	Major, Minor uint16
	// Header is the JSON header as stored: parsed, but its derived fields
	// are not checked against the sections (Decode does that).
	Header Header
	// Sections is the section table in file order, which is increasing
	// Kind order.
	Sections []SectionInfo
	// Size is the file length in bytes.
	Size int
}

// section returns the table entry of kind k, if present.
func (in *Info) section(k Kind) (SectionInfo, bool) {
	for _, s := range in.Sections {
		if s.Kind == k {
			return s, true
		}
	}
	return SectionInfo{}, false
}

// Inspect verifies the container — magic, version, header and table
// checksum, table rules, every section's checksum — and returns the header
// and table without decoding the sections. It is what a tool that prints
// an asset's provenance needs, at the cost of one CRC pass over the file.
func Inspect(b []byte) (in *Info, err error) {
	defer func() { // see Decode
		if p := recover(); p != nil {
			in, err = nil, panicError(p)
		}
	}()
	return parseContainer(b)
}

func parseContainer(b []byte) (*Info, error) {
	in, err := parseTable(b)
	if err != nil {
		return nil, err
	}
	if err := verifySections(b, in); err != nil {
		return nil, err
	}
	return in, nil
}

// parseTable is parseContainer without the sections' checksums: the
// preamble, the header and the table, verified by their own checksum.
// DecodeWith verifies the sections' checksums (verifySections) beside the
// decoders, which accept any bytes, and returns only once both are done.
func parseTable(b []byte) (*Info, error) {
	const part = "container"
	if len(b) < len(magic) {
		if bytes.HasPrefix([]byte(magic), b) {
			return nil, truncatedf(part, "%d bytes, shorter than the magic", len(b))
		}
		return nil, fmt.Errorf("wva: %w", ErrBadMagic)
	}
	if string(b[:len(magic)]) != magic {
		return nil, fmt.Errorf("wva: %w: starts with %q", ErrBadMagic, b[:len(magic)])
	}
	// The major version is checked as soon as it is readable, before the
	// rest of the preamble and the checksum: a later major version may lay
	// out everything after it differently.
	if len(b) < 10 {
		return nil, truncatedf(part, "%d bytes, shorter than magic and version", len(b))
	}
	major := binary.LittleEndian.Uint16(b[8:])
	if major < oldestMajor || major > majorVersion {
		return nil, fmt.Errorf("wva: %w: file is major version %d, this reader reads %d to %d", ErrVersion, major, oldestMajor, majorVersion)
	}
	if len(b) < preambleSize {
		return nil, truncatedf(part, "%d bytes, shorter than the %d-byte preamble", len(b), preambleSize)
	}
	in := &Info{
		Major: major,
		Minor: binary.LittleEndian.Uint16(b[10:]),
		Size:  len(b),
	}
	hlen := uint64(binary.LittleEndian.Uint32(b[12:]))
	nsec := uint64(binary.LittleEndian.Uint32(b[16:]))
	if hlen > maxHeaderLen {
		return nil, corruptf(part, "header length %d above %d", hlen, maxHeaderLen)
	}
	if nsec > maxSections {
		return nil, corruptf(part, "%d sections, above %d", nsec, maxSections)
	}
	tableAt := preambleSize + hlen
	crcAt := tableAt + nsec*entrySize
	if uint64(len(b)) < crcAt+4 {
		return nil, truncatedf(part, "%d bytes, header and table end at %d", len(b), crcAt+4)
	}
	if got, want := checksum(b[:crcAt]), binary.LittleEndian.Uint32(b[crcAt:]); got != want {
		return nil, fmt.Errorf("wva: header and section table: %w: CRC-32C %08x, stored %08x", ErrChecksum, got, want)
	}
	if r := binary.LittleEndian.Uint32(b[20:]); r != 0 {
		return nil, corruptf(part, "reserved preamble field is %#x", r)
	}
	if err := json.Unmarshal(b[preambleSize:tableAt], &in.Header); err != nil {
		return nil, corruptf("header", "JSON: %v", err)
	}
	end := crcAt + 4
	var prev Kind
	for i := uint64(0); i < nsec; i++ {
		e := b[tableAt+i*entrySize:]
		s := SectionInfo{
			Kind:   Kind(binary.LittleEndian.Uint32(e[0:])),
			Flags:  binary.LittleEndian.Uint32(e[4:]),
			Offset: binary.LittleEndian.Uint64(e[8:]),
			Stored: binary.LittleEndian.Uint64(e[16:]),
			Raw:    binary.LittleEndian.Uint64(e[24:]),
			CRC:    binary.LittleEndian.Uint32(e[32:]),
		}
		if err := checkEntry(b, major, s, binary.LittleEndian.Uint32(e[36:]), prev, end); err != nil {
			return nil, err
		}
		in.Sections = append(in.Sections, s)
		prev, end = s.Kind, s.Offset+s.Stored
	}
	if end != uint64(len(b)) {
		return nil, corruptf(part, "%d trailing bytes after the last section", uint64(len(b))-end)
	}
	return in, nil
}

// verifySections checks every section's CRC-32C (in holds the table
// parseTable checked).
func verifySections(b []byte, in *Info) error {
	for _, s := range in.Sections {
		if got := checksum(b[s.Offset : s.Offset+s.Stored]); got != s.CRC {
			return fmt.Errorf("wva: section %s: %w: CRC-32C %08x, stored %08x", s.Kind, ErrChecksum, got, s.CRC)
		}
	}
	return nil
}

// checkEntry checks one table entry against the rules of the layout: kinds
// increasing, each section at the next 8-byte boundary after the previous
// one with zero padding between, inside the file, and lengths consistent
// with the flags. prevEnd is where the previous section (or the table
// checksum) ended.
func checkEntry(b []byte, major uint16, s SectionInfo, reserved uint32, prev Kind, prevEnd uint64) error {
	part := "section table: " + s.Kind.String()
	size := uint64(len(b))
	switch {
	case s.Kind <= prev:
		return corruptf(part, "kinds must increase, %s follows %s", s.Kind, prev)
	case s.Offset != alignUp(prevEnd):
		return corruptf(part, "offset %d, expected %d", s.Offset, alignUp(prevEnd))
	case s.Offset > size:
		return truncatedf(part, "starts at %d, file is %d bytes", s.Offset, size)
	case s.Stored > size-s.Offset:
		return truncatedf(part, "%d bytes at offset %d, file is %d bytes", s.Stored, s.Offset, size)
	}
	for _, c := range b[prevEnd:s.Offset] {
		if c != 0 {
			return corruptf(part, "non-zero padding before offset %d", s.Offset)
		}
	}
	if !s.Kind.known() {
		// A later minor version's section: checksummed, otherwise ignored.
		return nil
	}
	switch {
	case reserved != 0:
		return corruptf(part, "reserved field is %#x", reserved)
	case s.Flags&^flagDeflate != 0:
		return corruptf(part, "unknown flags %#x", s.Flags)
	case s.Flags&flagDeflate != 0 && !s.Kind.compressible(major):
		return corruptf(part, "compressed, but %s is always stored raw in format %d", s.Kind, major)
	case s.Flags&flagDeflate == 0 && s.Raw != s.Stored:
		return corruptf(part, "uncompressed, but raw length %d differs from stored length %d", s.Raw, s.Stored)
	case s.Flags&flagDeflate != 0 && (s.Stored >= s.Raw || s.Raw > maxExpansion*s.Stored):
		// Stored ≤ file size, so the product cannot overflow.
		return corruptf(part, "compressed %d bytes to %d: ratio must be in (1, %d]", s.Raw, s.Stored, maxExpansion)
	}
	return nil
}
