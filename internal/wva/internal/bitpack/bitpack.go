// Package bitpack stores unsigned integers in fields of a fixed bit width,
// packed least-significant bit first into little-endian bytes.
//
// Field i of width w occupies bits [i·w, (i+1)·w) of the byte stream, where
// bit k is bit k%8 of byte k/8. Unused bits of the last byte are zero, and
// decoders reject streams where they are not, so that every bit of a packed
// stream is significant and one encoding exists per value sequence.
//
// Streams ([Pack], [Unpack], [Writer]) hold fields of up to MaxWidth (32)
// bits; an [Array], the in-memory form with O(1) random access, holds
// fields of up to MaxArrayWidth (57) bits. Either way a field plus its
// shift within its first byte fits in one unaligned 64-bit load, which is
// what keeps decoding branch-free.
package bitpack

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/bits"
)

// MaxWidth is the widest field, in bits.
const MaxWidth = 32

// ErrShort is returned when a stream ends before the fields it should hold.
var ErrShort = errors.New("bitpack: stream too short")

// ErrPadding is returned when the unused bits at the end of a stream are
// not zero, or when a stream is longer than its fields need.
var ErrPadding = errors.New("bitpack: non-zero or excess padding")

// ErrWidth is returned for a width above MaxWidth.
var ErrWidth = errors.New("bitpack: width above 32 bits")

// Width returns the number of bits needed to store every value in [0, max]:
// 0 for max = 0, otherwise bits.Len64(max).
func Width(max uint64) uint { return uint(bits.Len64(max)) }

// PackedLen returns the length in bytes of n fields of the given width,
// or -1 if it would not fit in an int.
func PackedLen(n int, width uint) int {
	if n < 0 || width > MaxWidth {
		return -1
	}
	hi, lo := bits.Mul64(uint64(n), uint64(width))
	if hi != 0 || lo > (1<<62) {
		return -1
	}
	bytes := (lo + 7) / 8
	if bytes > math.MaxInt { // 32-bit platforms
		return -1
	}
	return int(bytes)
}

func mask(width uint) uint64 { return 1<<width - 1 }

// Pack appends the fields vals, each width bits wide, to dst. It panics if
// width > MaxWidth or a value does not fit: the encoder validates its input
// first, so a misfit is a programming error, never a data error.
func Pack(dst []byte, vals []uint32, width uint) []byte {
	var w Writer
	w.buf = dst
	for _, v := range vals {
		w.Write(uint64(v), width)
	}
	return w.Bytes()
}

// Unpack decodes len(dst) fields of the given width from src, which must be
// exactly PackedLen(len(dst), width) bytes long with zero padding bits.
func Unpack(dst []uint32, src []byte, width uint) error {
	if width > MaxWidth {
		return ErrWidth
	}
	need := PackedLen(len(dst), width)
	if need < 0 || len(src) < need {
		return fmt.Errorf("%w: %d fields of %d bits need %d bytes, have %d", ErrShort, len(dst), width, need, len(src))
	}
	if len(src) > need {
		return fmt.Errorf("%w: %d bytes after %d fields", ErrPadding, len(src)-need, len(dst))
	}
	if width == 0 {
		clear(dst)
		return nil
	}
	m := mask(width)
	// Fast path: whole 64-bit loads while at least 8 bytes remain after the
	// field's first byte; the last few fields go through the byte-wise path.
	i := 0
	var bit uint64
	for ; i < len(dst); i++ {
		p := bit >> 3
		if p+8 > uint64(len(src)) {
			break
		}
		dst[i] = uint32(binary.LittleEndian.Uint64(src[p:]) >> (bit & 7) & m)
		bit += uint64(width)
	}
	for ; i < len(dst); i++ {
		dst[i] = uint32(loadTail(src, bit) & m)
		bit += uint64(width)
	}
	return checkPadding(src, bit)
}

// loadTail reads up to 8 bytes starting at bit>>3, as a 64-bit load would,
// treating bytes past the end as zero; it returns the value shifted so that
// bit is at position 0.
func loadTail(src []byte, bit uint64) uint64 {
	var v uint64
	p := bit >> 3
	for k := uint64(0); k < 8 && p+k < uint64(len(src)); k++ {
		v |= uint64(src[p+k]) << (8 * k)
	}
	return v >> (bit & 7)
}

// checkPadding verifies that the stream ends within a byte of bit end and
// that the bits from end to the end of the stream are zero.
func checkPadding(src []byte, end uint64) error {
	if uint64(len(src)) != (end+7)/8 {
		return fmt.Errorf("%w: stream of %d bytes, %d bits used", ErrPadding, len(src), end)
	}
	if end&7 != 0 && src[len(src)-1]>>(end&7) != 0 {
		return fmt.Errorf("%w: last byte %#02x, %d bits used", ErrPadding, src[len(src)-1], end&7)
	}
	return nil
}

// CheckStream checks that src is exactly a stream of n fields of the
// given width (length and zero padding), as Unpack would, without
// unpacking it.
func CheckStream(src []byte, n int, width uint) error {
	if width > MaxWidth {
		return ErrWidth
	}
	l := PackedLen(n, width)
	if l < 0 || len(src) < l {
		return ErrShort
	}
	return checkPadding(src, uint64(n)*uint64(width))
}

// Field returns field i of a stream of fields of the given width, reading
// no byte past src's end (fields there read as zero). For a checked
// stream (CheckStream) and i below its length it is the i-th value Unpack
// would return.
func Field(src []byte, i int, width uint) uint64 {
	bit := uint64(i) * uint64(width)
	if p := bit >> 3; p+8 <= uint64(len(src)) {
		return binary.LittleEndian.Uint64(src[p:]) >> (bit & 7) & mask(width)
	}
	return loadTail(src, bit) & mask(width)
}
