package wva

import (
	"encoding/binary"
	"unsafe"
)

// u32s returns the little-endian uint32 array b (len(b) a multiple of 4)
// as a []uint32: viewed where it lies when inPlace is asked for and the
// host and b's address allow it (see codes.go for the same conditions on
// the codes), copied otherwise. The view's capacity is its length, so an
// append never writes into b.
func u32s(b []byte, inPlace bool) []uint32 {
	n := len(b) / 4
	if n == 0 {
		return nil
	}
	if inPlace && littleEndian {
		p := unsafe.SliceData(b)
		if uintptr(unsafe.Pointer(p))%unsafe.Alignof(uint32(0)) == 0 {
			return unsafe.Slice((*uint32)(unsafe.Pointer(p)), n)
		}
	}
	out := make([]uint32, n)
	for i := range out {
		out[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return out
}

// str returns b as a string: b itself when inPlace (b must then never
// change while the string is in use, which DecodeOptions.InPlace's caller
// promises), a copy otherwise.
func str(b []byte, inPlace bool) string {
	if len(b) == 0 {
		return ""
	}
	if inPlace {
		return unsafe.String(unsafe.SliceData(b), len(b))
	}
	return string(b)
}

// appendU32s appends vals little-endian.
func appendU32s(b []byte, vals []uint32) []byte {
	for _, v := range vals {
		b = binary.LittleEndian.AppendUint32(b, v)
	}
	return b
}
