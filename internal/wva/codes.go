package wva

import (
	"encoding/binary"
	"unsafe"

	"github.com/wordveil/wordveil/internal/hamming"
)

// The CODES section is used in place when it can be: it is the largest
// section a mechanism reads on every word (32 bytes a word, 1.6 MB at
// 50,000 words) and is stored raw at an 8-aligned file offset for this
// purpose (see align). Aliasing needs the section's bytes to be exactly
// the in-memory form of a []hamming.Code, which holds when
//
//   - a Code is 32 bytes with no padding (checked at compile time below),
//   - the host is little-endian: the file stores each of a Code's four
//     uint64 words little-endian (hamming.AppendBytes), and a Code's word
//     j sits at byte 8j of it in memory in the host's byte order, and
//   - the section's first byte is at an address aligned for a Code
//     (8 on 64-bit hosts, 4 for uint64 on 386 and 32-bit ARM): the file
//     offset is 8-aligned, but the caller's buffer may start anywhere.
//
// Otherwise the codes are decoded into a fresh slice, as hamming.DecodeCodes
// does; either way the result holds the same values.

// Compile-time check that a Code has no padding: both differences must be
// non-negative constants, so Sizeof(Code) == CodeSize.
var (
	_ [unsafe.Sizeof(hamming.Code{}) - hamming.CodeSize]struct{}
	_ [hamming.CodeSize - unsafe.Sizeof(hamming.Code{})]struct{}
)

// littleEndian reports whether the host stores integers little-endian.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// decodeCodesSection returns the codes of a raw CODES section, aliasing r
// when inPlace is asked for (DecodeOptions.InPlace) and codesInPlace allows
// it, and copying otherwise.
func decodeCodesSection(r []byte, inPlace bool) ([]hamming.Code, error) {
	if c, ok := codesInPlace(r); ok && inPlace {
		return c, nil
	}
	return hamming.DecodeCodes(r)
}

// codesInPlace returns r viewed as a []hamming.Code (capacity = length, so
// an append never writes into r), or false when r is empty, not a whole
// number of codes, misaligned, or the host is big-endian.
func codesInPlace(r []byte) ([]hamming.Code, bool) {
	if len(r) == 0 || len(r)%hamming.CodeSize != 0 || !littleEndian {
		return nil, false
	}
	p := unsafe.SliceData(r)
	if uintptr(unsafe.Pointer(p))%unsafe.Alignof(hamming.Code{}) != 0 {
		return nil, false
	}
	return unsafe.Slice((*hamming.Code)(unsafe.Pointer(p)), len(r)/hamming.CodeSize), true
}
