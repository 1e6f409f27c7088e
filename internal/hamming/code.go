package hamming

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
)

// Bits is the length of a Code in bits.
const Bits = 256

// CodeSize is the length of a Code's byte encoding.
const CodeSize = Bits / 8

// Code is a 256-bit binary code. Bit i is bit i%64 of word i/64.
type Code [4]uint64

// Distance returns the Hamming distance between a and b, in [0, 256].
func Distance(a, b Code) int {
	return bits.OnesCount64(a[0]^b[0]) + bits.OnesCount64(a[1]^b[1]) +
		bits.OnesCount64(a[2]^b[2]) + bits.OnesCount64(a[3]^b[3])
}

// Bit reports whether bit i (0 ≤ i < 256) of c is set.
func (c Code) Bit(i int) bool { return c[i>>6]>>(uint(i)&63)&1 == 1 }

// SetBit returns c with bit i set to v.
func (c Code) SetBit(i int, v bool) Code {
	m := uint64(1) << (uint(i) & 63)
	if v {
		c[i>>6] |= m
	} else {
		c[i>>6] &^= m
	}
	return c
}

// xor returns a XOR b.
func (c Code) xor(m Code) Code { return Code{c[0] ^ m[0], c[1] ^ m[1], c[2] ^ m[2], c[3] ^ m[3]} }

// onesCount returns the number of set bits of c.
func (c Code) onesCount() int {
	return bits.OnesCount64(c[0]) + bits.OnesCount64(c[1]) + bits.OnesCount64(c[2]) + bits.OnesCount64(c[3])
}

// ErrCodeLength is returned when a byte slice is not a whole number of codes.
var ErrCodeLength = errors.New("hamming: byte length is not a multiple of 32")

// AppendBytes appends the 32-byte little-endian encoding of each code to dst.
func AppendBytes(dst []byte, codes []Code) []byte {
	for _, c := range codes {
		for _, w := range c {
			dst = binary.LittleEndian.AppendUint64(dst, w)
		}
	}
	return dst
}

// DecodeCodes decodes the little-endian encoding written by AppendBytes.
func DecodeCodes(b []byte) ([]Code, error) {
	if len(b)%CodeSize != 0 {
		return nil, fmt.Errorf("%w: got %d bytes", ErrCodeLength, len(b))
	}
	out := make([]Code, len(b)/CodeSize)
	for i := range out {
		p := b[i*CodeSize:]
		out[i] = Code{
			binary.LittleEndian.Uint64(p[0:]), binary.LittleEndian.Uint64(p[8:]),
			binary.LittleEndian.Uint64(p[16:]), binary.LittleEndian.Uint64(p[24:]),
		}
	}
	return out, nil
}
